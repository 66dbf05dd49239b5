@testable import Raster
import Foundation
import XCTest

/// The rasterizer's fast edge accumulation (`EdgeSink.addClampedFast`, `Float` closed forms)
/// against the reference (`addClamped`, the ramp's area in `Double`): every coverage byte within
/// 1 of the reference's, the same pixels touched, and the buffers handed back zeroed.
final class EdgeAccumulationTests: XCTestCase {
    typealias Random = FastPathTests.Random

    enum Kind: CaseIterable { case plain, tiny, upright, huge, nonFinite }

    /// A point for a path of this kind around (0...w, 0...h), some of it outside.
    func point(_ r: inout Random, _ kind: Kind, _ w: Double, _ h: Double, near: Point) -> Point {
        switch kind {
        case .plain: return Point(r.unit() * w * 1.4 - w * 0.2, r.unit() * h * 1.4 - h * 0.2)
        case .tiny: return Point(near.x + r.unit() * 3 - 1.5, near.y + r.unit() * 3 - 1.5)
        case .upright:
            // Nearly vertical and nearly horizontal edges, on and off the cell borders.
            let x = r.next() % 2 == 0 ? near.x + (r.unit() - 0.5) * 1e-6 : (r.unit() * w).rounded()
            return Point(x, r.next() % 3 == 0 ? near.y : r.unit() * h)
        case .huge:
            let big = [1e7, -1e7, 1e12, -1e15, 3e5]
            return r.next() % 3 == 0 ? Point(big[Int(r.next() % 5)], r.unit() * h) : Point(r.unit() * w, big[Int(r.next() % 5)])
        case .nonFinite:
            let odd = [Double.nan, .infinity, -.infinity]
            return r.next() % 4 == 0 ? Point(odd[Int(r.next() % 3)], r.unit() * h) : Point(r.unit() * w, r.unit() * h)
        }
    }

    func randomPath(_ r: inout Random, _ kind: Kind, width w: Double, height h: Double) -> Path {
        var path = Path()
        var last = Point(r.unit() * w, r.unit() * h)
        path.move(to: last)
        for i in 0..<(4 + Int(r.next() % 12)) {
            let p = point(&r, kind, w, h, near: last)
            if r.next() % 2 == 0 {
                path.line(to: p)
            } else {
                path.cubic(to: p, control1: point(&r, kind, w, h, near: last), control2: point(&r, kind, w, h, near: p))
            }
            last = p
            if i % 7 == 6 { path.close(); last = Point(r.unit() * w, r.unit() * h); path.move(to: last) }
        }
        path.close()
        return path
    }

    /// Coverage bytes of the rasterizer over `limit` (row-major), and whether its buffers came back zeroed.
    func coverage(_ path: Path, rule: FillRule, limit: PixelRect, reference: Bool) -> (bytes: [UInt8], zeroed: Bool) {
        var storage = Rasterizer.Storage()
        let bounds = Rect(x: Double(limit.x0), y: Double(limit.y0), width: Double(limit.width), height: Double(limit.height))
        guard var rasterizer = Rasterizer(bounds: bounds, limit: limit, storage: &storage) else { return ([], true) }
        rasterizer.usesReferenceEdges = reference
        rasterizer.add(path)
        var bytes = [UInt8](repeating: 0, count: limit.width * limit.height)
        rasterizer.sweep(rule: rule, opacity: 1) { y, x0, start, end, alpha in
            for x in start..<end { bytes[(y - limit.y0) * limit.width + x0 - limit.x0 + x] = alpha[x] }
        }
        rasterizer.finish(into: &storage)
        return (bytes, Self.isReset(storage))
    }

    static func isReset(_ storage: Rasterizer.Storage) -> Bool {
        storage.cells.allSatisfy { $0 == 0 } && storage.blocks.allSatisfy { $0 == 0 }
            && storage.rowMin.allSatisfy { $0 == Int32.max } && storage.rowMax.allSatisfy { $0 == -1 }
    }

    /// A rasterizer handed back without a sweep still leaves its buffers ready for the next one.
    func testBuffersComeBackResetWithoutASweep() {
        var storage = Rasterizer.Storage()
        var r = Random(state: 8)
        let limit = PixelRect(x0: 0, y0: 0, x1: 60, y1: 40)
        let path = randomPath(&r, .plain, width: 60, height: 40)
        guard var rasterizer = Rasterizer(bounds: path.bounds!, limit: limit, storage: &storage) else { return XCTFail("empty") }
        rasterizer.add(path)
        rasterizer.finish(into: &storage)
        XCTAssertTrue(Self.isReset(storage))
        XCTAssertGreaterThan(storage.cells.count, 0)
    }

    func testFastAccumulationIsWithinOneOfTheReferenceOnRandomPaths() {
        var r = Random(state: 17)
        var differing = 0, covered = 0
        for round in 0..<400 {
            let kind = Kind.allCases[round % Kind.allCases.count]
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            // Clipped: the limit is a part of the area the path spreads over, off the origin.
            let x0 = Int(r.next() % 40) - 20, y0 = Int(r.next() % 40) - 20
            let limit = PixelRect(x0: x0, y0: y0, x1: x0 + 1 + Int(r.next() % 90), y1: y0 + 1 + Int(r.next() % 70))
            let path = randomPath(&r, kind, width: 100, height: 80)
            let fast = coverage(path, rule: rule, limit: limit, reference: false)
            let reference = coverage(path, rule: rule, limit: limit, reference: true)
            XCTAssertTrue(fast.zeroed, "round \(round): the fast path leaves its buffers zeroed")
            XCTAssertTrue(reference.zeroed, "round \(round)")
            for (a, b) in zip(fast.bytes, reference.bytes) {
                XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 1, "round \(round) (\(kind), \(rule))")
                if a != b { differing += 1 }
                if b != 0 { covered += 1 }
            }
        }
        XCTAssertGreaterThan(covered, 100_000, "the paths must cover something")
        // Rounding differences, not a different picture: a few pixels in a thousand.
        XCTAssertLessThan(Double(differing), Double(covered) * 0.005)
        // The two are distinct code (the reference flag is honoured): the shares they add
        // differ in their last bits somewhere (the sweep's rounding to bytes hides nearly all).
        let path = randomPath(&r, .plain, width: 100, height: 80)
        let limit = PixelRect(x0: 0, y0: 0, x1: 100, y1: 80)
        func cells(reference: Bool) -> [Float] {
            var storage = Rasterizer.Storage()
            guard var rasterizer = Rasterizer(bounds: path.bounds!, limit: limit, storage: &storage) else { return [] }
            rasterizer.usesReferenceEdges = reference
            rasterizer.add(path)
            defer { rasterizer.finish(into: &storage) }
            return rasterizer.cells
        }
        let (fastCells, referenceCells) = (cells(reference: false), cells(reference: true))
        XCTAssertEqual(fastCells.count, referenceCells.count)
        XCTAssertNotEqual(fastCells, referenceCells)
        for (a, b) in zip(fastCells, referenceCells) { XCTAssertEqual(a, b, accuracy: 1e-4) }
    }

    /// The clamp in front of the unchecked cell index: every value, NaN and infinities too,
    /// lands in 0...w, and the index is the floor of it.
    func testCellIndexClampKeepsEveryValueInRange() {
        let w = 37.0
        for v in [-.infinity, -1e300, -0.5, -0.0, 0, 0.25, 1, 36.999, 37, 37.5, 1e300, .infinity, .nan] {
            let c = EdgeSink.clamp(v, w)
            XCTAssertTrue(c >= 0 && c <= w, "\(v) -> \(c)")
            XCTAssertEqual(EdgeSink.cellIndex(c), Int(c.rounded(.down)), "\(v)")
        }
        XCTAssertEqual(EdgeSink.clamp(.nan, w), 0)
        XCTAssertEqual(EdgeSink.clamp(12.75, w), 12.75)
    }

    /// Edges whose slope overflows (a rise of a few hundred-thousandths of a pixel in `Double`'s
    /// subnormals against a run of the whole buffer) reach no trap and agree with the reference.
    func testExtremeSlopesAgreeWithTheReference() {
        let limit = PixelRect(x0: 0, y0: 0, x1: 40, y1: 20)
        for (y0, y1) in [(5.0, 5 + 1e-310), (5.5, 5.5 + 4.9e-324), (0.0, 1e-300), (19.999, 20.0)] {
            var path = Path()
            path.move(to: Point(-3, y0)); path.line(to: Point(45, y1)); path.line(to: Point(30, 18))
            path.line(to: Point(2.5, 12)); path.close()
            let fast = coverage(path, rule: .nonZero, limit: limit, reference: false)
            let reference = coverage(path, rule: .nonZero, limit: limit, reference: true)
            XCTAssertTrue(fast.zeroed)
            for (a, b) in zip(fast.bytes, reference.bytes) { XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 1, "\(y0)") }
            XCTAssertGreaterThan(fast.bytes.max() ?? 0, 0)
        }
    }

    /// Edges of one row each (a finely flattened curve: `addLine` hands a line inside the
    /// buffer's columns straight to the fast path, its checks made once, and an edge inside
    /// one row goes to the cells without the slope), some with ends on row borders, some
    /// crossing the buffer's sides (split) or beyond its rows: the cells the reference adds.
    func testEdgesWithinOneRowAgreeWithTheReference() {
        var r = Random(state: 41)
        for round in 0..<200 {
            var path = Path()
            let (cx, cy) = (r.unit() * 60 - 10, r.unit() * 50 - 10)
            let radius = r.unit() * 40 + 0.5
            let sides = 40 + Int(r.next() % 300)
            for i in 0..<sides {
                let a = Double(i) / Double(sides) * 2 * Double.pi
                var p = Point(cx + radius * cos(a), cy + radius * sin(a))
                if round % 4 == 0 { p = Point(p.x, p.y.rounded()) }  // ends on row borders
                if i == 0 { path.move(to: p) } else { path.line(to: p) }
            }
            path.close()
            let limit = PixelRect(x0: 0, y0: 0, x1: 50, y1: 40)
            func cells(reference: Bool) -> [Float] {
                var storage = Rasterizer.Storage()
                guard var rasterizer = Rasterizer(bounds: path.bounds!, limit: limit, storage: &storage) else { return [] }
                rasterizer.usesReferenceEdges = reference
                rasterizer.add(path)
                defer { rasterizer.finish(into: &storage) }
                return rasterizer.cells
            }
            let (fastCells, referenceCells) = (cells(reference: false), cells(reference: true))
            XCTAssertEqual(fastCells.count, referenceCells.count, "round \(round)")
            for (a, b) in zip(fastCells, referenceCells) { XCTAssertEqual(a, b, accuracy: 1e-4, "round \(round)") }
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            let fast = coverage(path, rule: rule, limit: limit, reference: false)
            let reference = coverage(path, rule: rule, limit: limit, reference: true)
            XCTAssertTrue(fast.zeroed, "round \(round)")
            for (a, b) in zip(fast.bytes, reference.bytes) { XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 1, "round \(round)") }
        }
    }

    /// Steep edges lying within one column of cells (`addColumn`: a thin stroke's sides, upright
    /// edges on and off the cell borders, some beyond the buffer's rows or columns) against
    /// the reference, clipped to limits cutting them at their first, last or only row.
    func testSteepEdgesWithinOneColumnAgreeWithTheReference() {
        var r = Random(state: 29)
        var differing = 0, covered = 0
        for round in 0..<300 {
            var path = Path()
            let x = round % 3 == 0 ? Double(Int(r.next() % 50)) - 5 : r.unit() * 60 - 5
            let width = round % 5 == 0 ? 0 : r.unit() * 0.999
            var y = r.unit() * 50 - 5
            path.move(to: Point(x, y))
            for i in 0..<(2 + Int(r.next() % 6)) {
                // Down one side within the column, back up the other.
                y += (r.unit() * 12 + 0.01) * (i % 2 == 0 ? 1 : -1)
                path.line(to: Point(x + (i % 2 == 0 ? width : 0) * r.unit(), y))
            }
            path.line(to: Point(x + 3.5, y)); path.close()
            let x0 = Int(r.next() % 20) - 10, y0 = Int(r.next() % 30) - 10
            let limit = PixelRect(x0: x0, y0: y0, x1: x0 + 1 + Int(r.next() % 60), y1: y0 + 1 + Int(r.next() % 40))
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            let fast = coverage(path, rule: rule, limit: limit, reference: false)
            let reference = coverage(path, rule: rule, limit: limit, reference: true)
            XCTAssertTrue(fast.zeroed, "round \(round)")
            for (a, b) in zip(fast.bytes, reference.bytes) {
                XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 1, "round \(round)")
                if a != b { differing += 1 }
                if b != 0 { covered += 1 }
            }
        }
        XCTAssertGreaterThan(covered, 1_000, "the strokes must cover something")
        XCTAssertLessThan(Double(differing), Double(covered) * 0.005)
    }

    /// The non-zero sweep takes every edge block whole, the row's last one too (its cells padded
    /// to whole blocks); the even-odd sweep goes pixel by pixel. On convex shapes (winding 0 or
    /// 1) the two rules give the same coverage, so their bytes must agree (within the rounding
    /// of the blocks' order of additions: 1, rarely): every buffer
    /// width from 1 to 49, shapes crossing the right side (edges clamped there) and not.
    func testWholeBlocksPastTheRowGiveThePixelByPixelBytes() {
        var r = Random(state: 41)
        var covered = 0, differing = 0
        for width in 1...49 {
            for _ in 0..<6 {
                let limit = PixelRect(x0: 3, y0: -2, x1: 3 + width, y1: 9 + Int(r.next() % 8))
                let (cx, cy) = (3 + r.unit() * Double(width + 6) - 3, r.unit() * 10)
                let radius = 1 + r.unit() * Double(width)
                var path = Path()
                let sides = 3 + Int(r.next() % 6)
                for i in 0..<sides {
                    let angle = (Double(i) + r.unit() * 0.5) / Double(sides) * 2 * Double.pi
                    let p = Point(cx + radius * cos(angle), cy + radius * 0.7 * sin(angle))
                    if i == 0 { path.move(to: p) } else { path.line(to: p) }
                }
                path.close()
                let blocks = coverage(path, rule: .nonZero, limit: limit, reference: false)
                let pixels = coverage(path, rule: .evenOdd, limit: limit, reference: false)
                XCTAssertTrue(blocks.zeroed && pixels.zeroed, "width \(width)")
                // The blocks add each row's cells four lanes at a time: a byte may round the other way.
                for (a, b) in zip(blocks.bytes, pixels.bytes) {
                    XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 1, "width \(width)")
                    if a != b { differing += 1 }
                }
                covered += blocks.bytes.filter { $0 != 0 }.count
            }
        }
        XCTAssertGreaterThan(covered, 5_000, "the shapes must cover something")
        XCTAssertLessThan(Double(differing), Double(covered) * 0.005)
    }

    /// Shapes whose coverage is known: a rectangle on and off the pixel grid, a triangle.
    func testFastAccumulationGivesExactCoverageOfSimpleShapes() {
        let limit = PixelRect(x0: 0, y0: 0, x1: 12, y1: 6)
        var rect = Path()
        rect.addRect(Rect(x: 2.5, y: 1, width: 6, height: 4))
        let bytes = coverage(rect, rule: .nonZero, limit: limit, reference: false).bytes
        XCTAssertEqual(Array(bytes[12..<24]), [0, 0, 128, 255, 255, 255, 255, 255, 128, 0, 0, 0])
        XCTAssertEqual(bytes[0..<12].max(), 0)
        var wedge = Path()
        wedge.move(to: Point(0, 0)); wedge.line(to: Point(12, 6)); wedge.line(to: Point(0, 6)); wedge.close()
        let fast = coverage(wedge, rule: .evenOdd, limit: limit, reference: false).bytes
        let reference = coverage(wedge, rule: .evenOdd, limit: limit, reference: true).bytes
        XCTAssertEqual(fast, reference)
    }

    /// The general rows clamp each crossing once and take the smaller and larger of the clamped
    /// pair: the clamped smaller and larger crossings `addRow` takes, since the clamp is
    /// monotone (crossings are finite or ±∞, never NaN), and the row borders stepped by 1
    /// are the converted ones.
    func testClampedCrossingsGiveTheRowsBounds() {
        var r = Random(state: 19)
        let w = 37.0
        let odd: [Double] = [0, -0.0, w, w.nextUp, w.nextDown, -1e-300, 1e300, -.infinity, .infinity, 1e-320]
        for _ in 0..<100_000 {
            func crossing() -> Double { r.next() % 4 == 0 ? odd[Int(r.next() % UInt64(odd.count))] : r.unit() * w * 1.4 - w * 0.2 }
            let (x, xNext) = (crossing(), crossing())
            let (cx, cn) = (EdgeSink.clamp(x, w), EdgeSink.clamp(xNext, w))
            XCTAssertEqual(cx < cn ? cx : cn, EdgeSink.clamp(x < xNext ? x : xNext, w), "\(x) \(xNext)")
            XCTAssertEqual(cx < cn ? cn : cx, EdgeSink.clamp(x < xNext ? xNext : x, w), "\(x) \(xNext)")
        }
        for first in [-70_000, -3, 0, 5, 1 << 30] {
            var lower = Double(first)
            for row in first..<(first + 500) {
                lower += 1
                XCTAssertEqual(lower, Double(row + 1))
            }
        }
    }
}

/// The sweep's 16-pixel block (`Rasterizer.sweepBlockNonZero`) against the pixel-by-pixel loop
/// it replaces: the same bytes, the same running sum, the cells cleared.
final class SweepBlockTests: XCTestCase {
    func testABlockGivesTheBytesOfThePixelByPixelLoop() {
        var r = EdgeAccumulationTests.Random(state: 3)
        for round in 0..<2000 {
            var cells = (0..<16).map { _ -> Float in
                // Mostly empty cells, as a block an edge crosses has; some far outside 0...1.
                switch r.next() % 5 {
                case 0, 1: return 0
                case 2: return Float(r.unit() * 2 - 1)
                case 3: return Float(r.unit() * 8 - 4)
                default: return Float(r.unit()) * 1e-6
                }
            }
            let start = Float(r.unit() * 4 - 2)
            let scale = round % 3 == 0 ? Float(r.unit()) * 255 : 255
            var expected = [UInt8](repeating: 0, count: 16)
            var sum = start
            for i in 0..<16 {
                sum += cells[i]
                expected[i] = Rasterizer.byte(min(abs(sum), 1) * scale)
            }
            var bytes = [UInt8](repeating: 7, count: 16)
            var blockSum = start
            cells.withUnsafeMutableBufferPointer { c in
                bytes.withUnsafeMutableBufferPointer { b in
                    Rasterizer.sweepBlockNonZeroInOrder(c.baseAddress!, b.baseAddress!, sum: &blockSum, scale: scale)
                }
            }
            XCTAssertEqual(bytes, expected, "round \(round)")
            XCTAssertEqual(blockSum, sum, "round \(round)")
            XCTAssertEqual(cells, [Float](repeating: 0, count: 16), "round \(round)")
        }
    }

    /// The block summed four lanes at a time against the in-order one: every byte within 1
    /// (the additions come in another order), nearly all equal, the sum carried on within
    /// rounding, the cells cleared.
    func testLanesGiveTheInOrderBytesWithinOne() {
        var r = EdgeAccumulationTests.Random(state: 5)
        var differing = 0
        for round in 0..<4000 {
            let cells = (0..<16).map { _ -> Float in
                switch r.next() % 5 {
                case 0, 1: return 0
                case 2: return Float(r.unit() * 2 - 1)
                case 3: return Float(r.unit() * 8 - 4)
                default: return Float(r.unit()) * 1e-6
                }
            }
            let start = Float(r.unit() * 4 - 2)
            let scale = round % 3 == 0 ? Float(r.unit()) * 255 : 255
            func swept(_ lanes: Bool) -> (bytes: [UInt8], sum: Float, cells: [Float]) {
                var (c, bytes, sum) = (cells, [UInt8](repeating: 7, count: 16), start)
                c.withUnsafeMutableBufferPointer { c in
                    bytes.withUnsafeMutableBufferPointer { b in
                        if lanes {
                            Rasterizer.sweepBlockNonZero(c.baseAddress!, b.baseAddress!, sum: &sum, scale: scale)
                        } else {
                            Rasterizer.sweepBlockNonZeroInOrder(c.baseAddress!, b.baseAddress!, sum: &sum, scale: scale)
                        }
                    }
                }
                return (bytes, sum, c)
            }
            let (fast, reference) = (swept(true), swept(false))
            for (a, b) in zip(fast.bytes, reference.bytes) {
                XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 1, "round \(round)")
                if a != b { differing += 1 }
            }
            XCTAssertEqual(fast.sum, reference.sum, accuracy: 1e-5, "round \(round)")
            XCTAssertEqual(fast.cells, [Float](repeating: 0, count: 16), "round \(round)")
        }
        XCTAssertLessThan(differing, 4000 * 16 / 200, "a byte in two hundred at most")
    }

    /// The running sums of four lanes by a shift of the register's halves (`prefix`) are those
    /// of the pairs' interleave (`prefixByPairs`) to the bit, and so is the carry.
    func testShiftedPrefixIsThePairsPrefix() {
        var r = EdgeAccumulationTests.Random(state: 13)
        for round in 0..<20_000 {
            let lanes = (0..<4).map { _ -> Float in
                switch r.next() % 6 {
                case 0: return 0
                case 1: return -0.0
                case 2: return Float(r.unit() * 2 - 1)
                case 3: return Float(r.unit() * 8 - 4)
                case 4: return Float(r.unit() * 2 - 1) * 1e-7
                default: return Float(r.unit() * 2e6 - 1e6)
                }
            }
            let v = SIMD4<Float>(lanes[0], lanes[1], lanes[2], lanes[3])
            var (carry, referenceCarry) = (SIMD4<Float>(repeating: Float(r.unit() * 4 - 2)), SIMD4<Float>())
            referenceCarry = carry
            let result = Rasterizer.prefix(v, &carry)
            let reference = Rasterizer.prefixByPairs(v, &referenceCarry)
            // (== takes -0 for +0: a zero's sign is all the order of a lane's zero addition changes.)
            XCTAssertEqual(result, reference, "round \(round) \(v)")
            XCTAssertEqual(carry, referenceCarry, "round \(round)")
        }
    }

    /// Sixteen coverage bytes at once (`bytes(of:)`: 1 taken as the bound after the scaling)
    /// are `byte(min(abs(sum), 1) * scale)` for each, at and around 1, 0 and ±∞ of a
    /// magnitude, every scale.
    func testLaneBytesAreTheScalarBytes() {
        var r = EdgeAccumulationTests.Random(state: 17)
        let one: Float = 1
        let edges: [Float] = [0, -0.0, 1, -1, one.nextUp, one.nextDown, -one.nextUp, 0.5, 2, 1e30, -1e30, .infinity, -.infinity,
                              Float.leastNonzeroMagnitude, 0.998_039_2, 0.001_960_8]
        for round in 0..<20_000 {
            let sums = (0..<16).map { _ -> Float in
                r.next() % 3 == 0 ? edges[Int(r.next() % UInt64(edges.count))] : Float(r.unit() * 4 - 2)
            }
            let scale: Float = round % 2 == 0 ? 255 : (round % 5 == 0 ? Float(Int(r.next() % 256)) : Float(r.unit()) * 255)
            var bytes = [UInt8](repeating: 7, count: 16)
            bytes.withUnsafeMutableBufferPointer { b in
                Rasterizer.bytes(of: SIMD16<Float>(sums), scale: scale, into: b.baseAddress!)
            }
            XCTAssertEqual(bytes, sums.map { Rasterizer.byte(min(abs($0), 1) * scale) }, "round \(round) scale \(scale)")
        }
    }
}

/// `Coverage.endOfStretch` (eight bytes at a time) against the byte-by-byte scan it replaces.
final class CoverageStretchTests: XCTestCase {
    func testAStretchEndsWhereTheByteByByteScanEnds() {
        var r = EdgeAccumulationTests.Random(state: 21)
        for round in 0..<3000 {
            let count = 1 + Int(r.next() % 40)
            // Long stretches of 0 and 255 with a few other values, as edge blocks hold.
            var alpha = [UInt8](repeating: r.next() % 2 == 0 ? 0 : 255, count: count)
            for _ in 0..<Int(r.next() % 4) { alpha[Int(r.next() % UInt64(count))] = UInt8(truncatingIfNeeded: r.next()) }
            let from = Int(r.next() % UInt64(count + 1))
            let value: UInt8 = r.next() % 2 == 0 ? 0 : 255
            var expected = from
            while expected < count, alpha[expected] == value { expected += 1 }
            let end = alpha.withUnsafeBufferPointer { Coverage.endOfStretch($0.baseAddress!, of: value, from: from, count: count) }
            XCTAssertEqual(end, expected, "round \(round)")
        }
    }
}
