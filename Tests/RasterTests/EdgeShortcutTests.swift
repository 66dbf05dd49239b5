@testable import Raster
import XCTest

/// The shortcuts in the fast edge accumulation and the run sweep, against what they replace:
/// an edge wholly inside one row (no slope computed), a crossing pair in one cell (the mid-point
/// from both crossings at once), and the next flagged block found by a word's lowest set byte.
final class EdgeShortcutTests: XCTestCase {
    typealias Random = FastPathTests.Random

    /// Coverage of `path` over `limit` by the fast or the reference edges, in bands of `rows` rows
    /// (0: one rasterizer), row-major.
    func coverage(_ path: Path, rule: FillRule, limit: PixelRect, reference: Bool, bandRows rows: Int = 0) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit.width * limit.height)
        var storage = Rasterizer.Storage()
        var y = limit.y0
        while y < limit.y1 {
            let band = PixelRect(x0: limit.x0, y0: y, x1: limit.x1, y1: rows > 0 ? min(y + rows, limit.y1) : limit.y1)
            let bounds = Rect(x: Double(band.x0), y: Double(band.y0), width: Double(band.width), height: Double(band.height))
            if var rasterizer = Rasterizer(bounds: bounds, limit: band, storage: &storage) {
                rasterizer.usesReferenceEdges = reference
                rasterizer.add(path)
                rasterizer.sweep(rule: rule, opacity: 1) { y, x0, start, end, alpha in
                    for x in start..<end { bytes[(y - limit.y0) * limit.width + x0 - limit.x0 + x] = alpha[x] }
                }
                rasterizer.finish(into: &storage)
            }
            y = band.y1
        }
        XCTAssertTrue(EdgeAccumulationTests.isReset(storage), "the buffers come back reset")
        return bytes
    }

    /// Polygons of short edges (most within one row, many within one cell, some on the cells'
    /// and rows' borders), some reaching past the buffer: within 1 of the reference, and the same
    /// bytes whether the buffer spans the rows in one piece or in bands.
    func testShortEdgesAgreeWithTheReferenceAndAcrossBands() {
        var r = Random(state: 77)
        let limit = PixelRect(x0: 3, y0: -5, x1: 83, y1: 61)
        var covered = 0
        for round in 0..<300 {
            var path = Path()
            var p = Point(r.unit() * 90 - 5, r.unit() * 76 - 10)
            path.move(to: p)
            for _ in 0..<(20 + Int(r.next() % 60)) {
                var q = Point(p.x + (r.unit() - 0.5) * 4, p.y + (r.unit() - 0.5) * 2)
                switch r.next() % 6 {
                case 0: q.y = q.y.rounded()  // ends on a row's border
                case 1: q.x = q.x.rounded()  // on a cell's border
                case 2: q.x = p.x + (r.unit() - 0.5) * 1e-8  // upright
                case 3: q = Point(r.unit() * 90 - 5, r.unit() * 76 - 10)  // a long edge back
                default: break
                }
                path.line(to: q)
                p = q
            }
            path.close()
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            let fast = coverage(path, rule: rule, limit: limit, reference: false)
            let reference = coverage(path, rule: rule, limit: limit, reference: true)
            for (a, b) in zip(fast, reference) { XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 1, "round \(round)") }
            XCTAssertEqual(coverage(path, rule: rule, limit: limit, reference: false, bandRows: 16), fast, "round \(round)")
            covered += fast.filter { $0 > 0 }.count
        }
        XCTAssertGreaterThan(covered, 50_000, "the paths must cover something")
    }

    /// An edge inside one row and one cell puts its height on that cell and the next, shared by
    /// its mid-point: exact values the closed forms must give.
    func testAnEdgeInsideOneCellSharesItsHeightByItsMidPoint() {
        var path = Path()
        // A quadrilateral whose left side lies in cell 2 of row 1 ([2.25, 2.75], mid-point 2.5),
        // its right side upright on x = 6, from y = 1.25 to 1.75.
        path.move(to: Point(2.25, 1.25))
        path.line(to: Point(6, 1.25))
        path.line(to: Point(6, 1.75))
        path.line(to: Point(2.75, 1.75))
        path.close()
        let limit = PixelRect(x0: 0, y0: 0, x1: 8, y1: 3)
        let bytes = coverage(path, rule: .nonZero, limit: limit, reference: false)
        // Row 1: cell 2 half covered over half the row's height (0.25), cells 3...5 covered over it (0.5).
        XCTAssertEqual(Array(bytes[8..<16]), [0, 0, 64, 128, 128, 128, 0, 0])
        XCTAssertEqual(bytes, coverage(path, rule: .nonZero, limit: limit, reference: true))
    }

    func testTheNextFlaggedBlockIsTheOneTheByteScanFinds() {
        var r = Random(state: 5)
        for round in 0..<5000 {
            let count = 1 + Int(r.next() % 70)
            var flags = [UInt8](repeating: 0, count: count + 8)
            for _ in 0..<Int(r.next() % 4) { flags[Int(r.next() % UInt64(count))] = 1 }
            let block = Int(r.next() % UInt64(count))
            let end = block + 1 + Int(r.next() % UInt64(count - block))
            var expected = block + 1
            while expected < end, flags[expected] == 0 { expected += 1 }
            let next = flags.withUnsafeMutableBufferPointer { Rasterizer.nextFlaggedBlock($0.baseAddress!, after: block, end: end) }
            XCTAssertEqual(next, expected, "round \(round)")
        }
    }

    /// Contours of lines and curves over (and past) 160 x 100, `scale` of it in size.
    func randomPath(_ r: inout Random, scale: Double) -> Path {
        var path = Path()
        let (cx, cy) = (r.unit() * 160, r.unit() * 100)
        path.move(to: Point(cx, cy))
        for i in 0..<(4 + Int(r.next() % 20)) {
            let p = Point(cx + (r.unit() * 1.4 - 0.7) * 160 * scale, cy + (r.unit() * 1.4 - 0.7) * 100 * scale)
            if i % 3 == 0 { path.line(to: p) } else { path.cubic(to: p, control1: Point(r.unit() * 160, r.unit() * 100), control2: p) }
            if i % 7 == 6 { path.close(); path.move(to: Point(r.unit() * 160, r.unit() * 100)) }
        }
        path.close()
        return path
    }

    func testTheEndOfAVaryingStretchIsWhereTheByteScanEnds() {
        var r = Random(state: 9)
        for round in 0..<5000 {
            let count = 1 + Int(r.next() % 40)
            let value: UInt8 = r.next() % 3 == 0 ? 0 : (r.next() % 2 == 0 ? 255 : UInt8(truncatingIfNeeded: r.next()))
            var alpha = [UInt8](repeating: value, count: count)
            for _ in 0..<Int(r.next() % 4) { alpha[Int(r.next() % UInt64(count))] = UInt8(truncatingIfNeeded: r.next()) }
            let start = Int(r.next() % UInt64(count + 1))
            let end = start + Int(r.next() % UInt64(count - start + 1))
            var expected = end
            while expected > start, alpha[expected - 1] == value { expected -= 1 }
            let found = alpha.withUnsafeBufferPointer { Coverage.endOfVarying($0.baseAddress!, from: start, to: end, before: value) }
            XCTAssertEqual(found, expected, "round \(round)")
        }
    }

    /// `sweepRuns` against `sweep` (the reference, a byte per pixel): the same coverage for every
    /// pixel, runs in order and disjoint, and every varying run trimmed to the pixels whose
    /// coverage differs from the pixel before it and the pixel after it (what the runs either side,
    /// or nothing, give), on random paths under both rules, clipped, in bands.
    func testRunsGiveTheSweepsCoverageWithVaryingRunsTrimmed() {
        var r = Random(state: 31)
        let limit = PixelRect(x0: -4, y0: 2, x1: 150, y1: 90)
        var trimmedRuns = 0
        for round in 0..<200 {
            let path = randomPath(&r, scale: round % 5 == 0 ? 0.1 : 1)
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            let expected = coverage(path, rule: rule, limit: limit, reference: false)
            var got = [UInt8](repeating: 0, count: expected.count)
            var covered = [Bool](repeating: false, count: expected.count)
            var varyingRuns: [(y: Int, x: Int, count: Int)] = []
            var storage = Rasterizer.Storage()
            Rasterizer.inBands(path, limit: limit, storage: &storage) { rasterizer in
                rasterizer.sweepRuns(rule: rule, opacity: 1, constant: { y, x0, start, count, a in
                    for i in 0..<count {
                        let index = (y - limit.y0) * limit.width + x0 + start + i - limit.x0
                        XCTAssertFalse(covered[index], "round \(round)")
                        covered[index] = true
                        got[index] = a
                    }
                }, varying: { y, x0, start, count, alpha in
                    varyingRuns.append((y, x0 + start, count))
                    for i in 0..<count {
                        let index = (y - limit.y0) * limit.width + x0 + start + i - limit.x0
                        XCTAssertFalse(covered[index], "round \(round)")
                        covered[index] = true
                        got[index] = alpha[start + i]
                    }
                })
            }
            XCTAssertEqual(got, expected, "round \(round)")
            for run in varyingRuns {
                let row = (run.y - limit.y0) * limit.width - limit.x0
                let before = run.x > limit.x0 ? expected[row + run.x - 1] : 0
                let after = run.x + run.count < limit.x1 ? expected[row + run.x + run.count] : 0
                XCTAssertNotEqual(expected[row + run.x], before, "round \(round): a varying run starts where the coverage changes")
                XCTAssertNotEqual(expected[row + run.x + run.count - 1], after, "round \(round): and ends where it changes")
                if run.count < 16 { trimmedRuns += 1 }
            }
        }
        XCTAssertGreaterThan(trimmedRuns, 1000)
    }
}
