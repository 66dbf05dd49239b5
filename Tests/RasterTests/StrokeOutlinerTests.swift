@testable import Raster
import XCTest

/// The stroker (`StrokeOutliner`, behind `strokeOutline`) against the reference construction
/// (`referenceStrokeOutline`): the same contours, element for element, on random paths of
/// lines and curves, open and closed, with repeated points, sharp and smooth turns, every cap
/// and join, widths from a hair to many times the curves' radius, and transforms. Points may
/// differ only by the circle's vertices being found by rotation (about 1e-15 of the radius);
/// 1e-9 of the outline's extent is allowed. These comparisons turn off `mitersSmoothTurns`,
/// the one change of geometry, which is compared with the reference and the true stroke area.
final class StrokeOutlinerTests: XCTestCase {
    /// The outliner's outline with the reference's geometry (no mitered smooth turns).
    static func outline(_ path: Path, style: StrokeStyle, tolerance: Double, transform: Transform? = nil,
                        mitersSmoothTurns: Bool = false) -> Path {
        var outliner = StrokeOutliner(style: style, tolerance: tolerance, transform: transform)
        outliner.mitersSmoothTurns = mitersSmoothTurns
        outliner.stroke(path)
        return outliner.output
    }

    /// A random path in 0...size: contours of lines and cubics, some closed, some with
    /// repeated points or zero length, some with curves far tighter than the stroke is wide.
    static func randomPath(_ r: inout FastPathTests.Random, size: Double) -> Path {
        var path = Path()
        func point() -> Point { Point(r.unit() * size, r.unit() * size) }
        for _ in 0..<(1 + Int(r.next() % 3)) {
            var last = point()
            path.move(to: last)
            for _ in 0..<Int(r.next() % 6) {
                switch r.next() % 6 {
                case 0: path.line(to: last)  // a repeated point
                case 1, 2:
                    last = point()
                    path.line(to: last)
                case 3:
                    // A small loop: a curve tighter than most widths.
                    let p = Point(last.x + r.unit() * 3, last.y + r.unit() * 3)
                    path.cubic(to: p, control1: Point(last.x + 4, last.y - 4), control2: Point(p.x + 4, p.y + 4))
                    last = p
                default:
                    let p = point()
                    path.cubic(to: p, control1: point(), control2: point())
                    last = p
                }
            }
            if r.next() % 2 == 0 { path.close() }
        }
        return path
    }

    static func randomStyle(_ r: inout FastPathTests.Random) -> StrokeStyle {
        var style = StrokeStyle()
        style.width = [0.1, 1, 3, 12, 40][Int(r.next() % 5)] * (0.5 + r.unit())
        style.cap = [LineCap.butt, .round, .square][Int(r.next() % 3)]
        style.join = [LineJoin.miter, .round, .bevel][Int(r.next() % 3)]
        style.miterLimit = 1 + r.unit() * 6
        return style
    }

    /// Fails unless `fast` and `reference` are the same elements with points within `slack`.
    static func assertSameOutline(_ fast: Path, _ reference: Path, slack: Double, _ message: String) {
        XCTAssertEqual(fast.elements.count, reference.elements.count, message)
        guard fast.elements.count == reference.elements.count else { return }
        func near(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) <= slack && abs(a.y - b.y) <= slack }
        for (a, b) in zip(fast.elements, reference.elements) {
            switch (a, b) {
            case (.move(let p), .move(let q)), (.line(let p), .line(let q)):
                if !near(p, q) { XCTFail("\(message): \(a) vs \(b)"); return }
            case (.close, .close): continue
            default: XCTFail("\(message): \(a) vs \(b)"); return
            }
        }
    }

    func testOutlinerMakesTheReferenceOutline() {
        var r = FastPathTests.Random(state: 77)
        var compared = 0
        for trial in 0..<3000 {
            let path = Self.randomPath(&r, size: 60)
            let style = Self.randomStyle(&r)
            let tolerance = [0.01, 0.05, 0.25][trial % 3]
            let fast = Self.outline(path, style: style, tolerance: tolerance)
            let reference = referenceStrokeOutline(path, style: style, tolerance: tolerance)
            Self.assertSameOutline(fast, reference, slack: 1e-9 * (60 + style.width), "trial \(trial) \(style)")
            compared += reference.elements.count
        }
        XCTAssertGreaterThan(compared, 100_000)
    }

    /// Strokes outlined one after another in one `StrokeScratch` (buffers left over from
    /// strokes of other widths, caps, joins and sizes, now and then a long one) give the
    /// outline a fresh stroker gives, element for element.
    func testOutlineInReusedScratchIsTheFreshOutline() {
        var r = FastPathTests.Random(state: 31)
        var scratch = StrokeScratch()
        for trial in 0..<2000 {
            // Now and then a long path (forty contours), whose buffers grow.
            let path = trial % 97 == 0 ? (0..<40).reduce(into: Path()) { p, _ in p.append(Self.randomPath(&r, size: 300)) }
                                       : Self.randomPath(&r, size: 60)
            let style = Self.randomStyle(&r)
            let tolerance = [0.01, 0.05, 0.25][trial % 3]
            let transform = trial % 2 == 0 ? Transform.identity
                                           : Transform(a: 0.5 + r.unit() * 3, b: r.unit() - 0.5, c: r.unit() - 0.5, d: 0.5 + r.unit() * 3,
                                                       tx: r.unit() * 100, ty: r.unit() * 100)
            let reused = strokeOutline(path, style: style, tolerance: tolerance, transform: transform, scratch: &scratch)
            var fresh = StrokeOutliner(style: style, tolerance: tolerance, transform: transform)
            fresh.stroke(path)
            XCTAssertEqual(reused.elements, fresh.output.elements, "trial \(trial) \(style)")
        }
    }

    func testTransformedOutlineIsTheReferenceTransformed() {
        var r = FastPathTests.Random(state: 9)
        for trial in 0..<500 {
            let path = Self.randomPath(&r, size: 40)
            let style = Self.randomStyle(&r)
            let transform = Transform(a: 0.5 + r.unit() * 3, b: r.unit() - 0.5, c: r.unit() - 0.5, d: 0.5 + r.unit() * 3,
                                      tx: r.unit() * 100, ty: r.unit() * 100)
            let fast = Self.outline(path, style: style, tolerance: 0.05, transform: transform)
            let reference = referenceStrokeOutline(path, style: style, tolerance: 0.05).transformed(by: transform)
            Self.assertSameOutline(fast, reference, slack: 1e-9 * 500, "trial \(trial)")
        }
    }

    func testOutlinerCoverageIsTheReferenceCoverage() {
        var r = FastPathTests.Random(state: 3)
        for trial in 0..<60 {
            let path = Self.randomPath(&r, size: 40)
            let style = Self.randomStyle(&r)
            let fast = StrokeOutlineTests.coverage(Self.outline(path, style: style, tolerance: 0.05), size: 48)
            let reference = StrokeOutlineTests.coverage(referenceStrokeOutline(path, style: style, tolerance: 0.05), size: 48)
            XCTAssertEqual(fast, reference, "trial \(trial)")
        }
    }

    func testCircleByRotationIsTheCircleBySineAndCosine() {
        for (radius, tolerance) in [(0.05, 0.05), (1.0, 0.05), (7.5, 0.01), (300.0, 0.05), (1e6, 1e-6)] {
            let fast = StrokeOutliner.circleDirections(radius: radius, tolerance: tolerance)
            let reference = ReferenceStrokeBuilder.circleDirections(radius: radius, tolerance: tolerance)
            XCTAssertEqual(fast.count, reference.count)
            for (a, b) in zip(fast, reference) {
                XCTAssertEqual(a.cos, b.cos, accuracy: 1e-13)
                XCTAssertEqual(a.sin, b.sin, accuracy: 1e-13)
            }
        }
    }

    /// `StrokeOutlineTests.trueCoverage`, sampling each pixel against only the segments that
    /// can reach it (a curve's polyline has many).
    static func trueCoverage(_ points: [Point], halfWidth h: Double, size: Int) -> [Double] {
        var out = [Double](repeating: 0, count: size * size)
        let segments = Array(zip(points, points.dropFirst()))
        let n = 16
        for y in 0..<size {
            for x in 0..<size {
                let centre = Point(Double(x) + 0.5, Double(y) + 0.5)
                let near = segments.filter { StrokeOutlineTests.distance(centre, $0.0, $0.1) <= h + 0.75 }
                guard !near.isEmpty else { continue }
                var inside = 0
                for sy in 0..<n {
                    for sx in 0..<n {
                        let p = Point(Double(x) + (Double(sx) + 0.5) / Double(n), Double(y) + (Double(sy) + 0.5) / Double(n))
                        if near.contains(where: { StrokeOutlineTests.distance(p, $0.0, $0.1) <= h }) { inside += 1 }
                    }
                }
                out[y * size + x] = Double(inside) / Double(n * n)
            }
        }
        return out
    }

    /// Mitered smooth turns against the reference's stepped ones and the true area of the
    /// stroked polyline (the points within half the width of it, round caps): on open curves
    /// of every tightness, no pixel further from the reference than two tolerances' width,
    /// and in total closer to the truth.
    func testMiteredSmoothTurnsAreCloserToTheTrueArea() {
        var r = FastPathTests.Random(state: 12)
        let size = 40, tolerance = 0.05
        var mitered = 0.0, stepped = 0.0, apart = 0.0, worse = 0.0
        for _ in 0..<16 {
            var path = Path()
            let start = Point(6 + r.unit() * 28, 6 + r.unit() * 28), end = Point(6 + r.unit() * 28, 6 + r.unit() * 28)
            path.move(to: start)
            path.cubic(to: end, control1: Point(r.unit() * 40, r.unit() * 40), control2: Point(r.unit() * 40, r.unit() * 40))
            var style = StrokeStyle()
            style.width = 1 + r.unit() * 9
            style.cap = .round
            let points = Flatten.polylines(path, tolerance: tolerance)[0].points
            let truth = Self.trueCoverage(points, halfWidth: style.width / 2, size: size)
            let fast = StrokeOutlineTests.coverage(Self.outline(path, style: style, tolerance: tolerance, mitersSmoothTurns: true), size: size)
            let reference = StrokeOutlineTests.coverage(referenceStrokeOutline(path, style: style, tolerance: tolerance), size: size)
            for i in truth.indices {
                mitered += abs(fast[i] - truth[i])
                stepped += abs(reference[i] - truth[i])
                apart = max(apart, abs(fast[i] - reference[i]))
                worse = max(worse, abs(fast[i] - truth[i]) - abs(reference[i] - truth[i]))
            }
        }
        // Measured: apart 0.067, worse 0.024, total error 55.90 against 56.17.
        XCTAssertLessThanOrEqual(apart, 2 * tolerance)
        XCTAssertLessThanOrEqual(worse, tolerance, "further from the truth than the reference")
        XCTAssertLessThan(mitered, stepped, "total error mitered \(mitered), stepped \(stepped)")
    }

    func testMiteredSmoothTurnsHalveTheOuterVertices() {
        var path = Path()
        path.addEllipse(in: Rect(x: 0, y: 0, width: 100, height: 100))
        var style = StrokeStyle()
        style.width = 10
        let fast = Self.outline(path, style: style, tolerance: 0.05, mitersSmoothTurns: true).elements.count
        let reference = referenceStrokeOutline(path, style: style, tolerance: 0.05).elements.count
        XCTAssertLessThan(Double(fast), 0.75 * Double(reference), "\(fast) vs \(reference)")
    }
}
