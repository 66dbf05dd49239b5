@testable import Raster
import XCTest

/// `Coverage.Builder` (pointer writes, bounds once per row) must make exactly the coverage the
/// reference (`Coverage.addConstant` / `addVarying`, run by run) makes from the same sweep.
final class CoverageBuilderTests: XCTestCase {
    typealias Random = FastPathTests.Random

    /// Random contours of lines and curves over (and a little past) w x h, some tiny, some
    /// thin, so that rows hold many runs, partial bytes, and full stretches of every length.
    func randomPath(_ r: inout Random, width w: Double, height h: Double) -> Path {
        var path = Path()
        let scale = r.unit() < 0.3 ? 0.05 : 1.0
        let (cx, cy) = (r.unit() * w, r.unit() * h)
        path.move(to: Point(cx, cy))
        for i in 0..<(4 + Int(r.unit() * 30)) {
            let p = Point(cx + (r.unit() * 1.2 - 0.6) * w * scale, cy + (r.unit() * 1.2 - 0.6) * h * scale)
            if i % 3 == 0 {
                path.line(to: p)
            } else {
                path.cubic(to: p, control1: Point(r.unit() * w, r.unit() * h), control2: Point(r.unit() * w, r.unit() * h))
            }
            if i % 7 == 6 { path.close(); path.move(to: Point(r.unit() * w, r.unit() * h)) }
        }
        path.close()
        return path
    }

    func reference(_ path: Path, rule: FillRule, limit: PixelRect) -> Coverage {
        var result = Coverage()
        var storage = Rasterizer.Storage()
        Rasterizer.inBands(path, limit: limit, storage: &storage) { $0.append(rule: rule, to: &result) }
        return result
    }

    func built(_ path: Path, rule: FillRule, limit: PixelRect, rows: Int) -> Coverage {
        var storage = Rasterizer.Storage()
        return Coverage.build(rows: rows) { builder in
            Rasterizer.inBands(path, limit: limit, storage: &storage) { $0.append(rule: rule, to: &builder) }
        }
    }

    func runs(_ coverage: Coverage) -> [[Int]] {
        coverage.runs.map { [Int($0.y), Int($0.x), Int($0.count), Int($0.offset), Int($0.value)] }
    }

    func assertSame(_ a: Coverage, _ b: Coverage, _ message: String) {
        XCTAssertEqual(runs(a), runs(b), message)
        XCTAssertEqual(a.bytes, b.bytes, message)
        XCTAssertEqual(a.bounds, b.bounds, message)
        XCTAssertEqual(a.longestRun, b.longestRun, message)
        XCTAssertEqual(a.memorySize, b.memorySize, message)
    }

    func testBuilderMakesTheReferenceCoverageOnRandomPaths() {
        var r = Random(state: 11)
        var nonEmpty = 0
        for round in 0..<60 {
            let (w, h) = (round % 4 == 0 ? 1300 : 300, round % 4 == 0 ? 900 : 200)
            let limit = PixelRect(x0: -7, y0: 3, x1: w - 20, y1: h)
            let path = randomPath(&r, width: Double(w), height: Double(h))
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            let expected = reference(path, rule: rule, limit: limit)
            if !expected.isEmpty { nonEmpty += 1 }
            // Room for every row, and room for one (every array grows many times).
            assertSame(built(path, rule: rule, limit: limit, rows: limit.height), expected, "round \(round)")
            assertSame(built(path, rule: rule, limit: limit, rows: 1), expected, "round \(round), grown")
        }
        XCTAssertGreaterThan(nonEmpty, 40, "the paths must cover something")
    }

    /// Thin slivers at shallow slopes: rows of long partial stretches (the builder skips those
    /// eight bytes at a time), beside full and empty ones.
    func testShallowSliversBuildTheReferenceCoverage() {
        var r = Random(state: 21)
        for round in 0..<40 {
            var path = Path()
            let (x0, y0) = (r.unit() * 50 - 10, r.unit() * 200)
            let (x1, y1) = (x0 + 200 + r.unit() * 400, y0 + r.unit() * 12 - 6)
            let thickness = round % 3 == 0 ? 0.3 : 1 + r.unit() * 6
            path.move(to: Point(x0, y0)); path.line(to: Point(x1, y1))
            path.line(to: Point(x1, y1 + thickness)); path.line(to: Point(x0, y0 + thickness * r.unit())); path.close()
            let limit = PixelRect(x0: 0, y0: 0, x1: 500, y1: 220)
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            let expected = reference(path, rule: rule, limit: limit)
            XCTAssertFalse(expected.isEmpty)
            assertSame(built(path, rule: rule, limit: limit, rows: limit.height), expected, "round \(round)")
        }
    }

    func testAPathOutsideTheLimitMakesAnEmptyCoverage() {
        var path = Path()
        path.move(to: Point(10, 10)); path.line(to: Point(20, 10)); path.line(to: Point(20, 20)); path.close()
        let built = built(path, rule: .nonZero, limit: PixelRect(x0: 100, y0: 100, x1: 200, y1: 200), rows: 4)
        XCTAssertTrue(built.isEmpty)
        XCTAssertEqual(built.bounds, .empty)
        XCTAssertEqual(built.longestRun, 0)
    }

    func testOneRasterizersCoverageEqualsTheReference() {
        var r = Random(state: 3)
        var storage = Rasterizer.Storage()
        for round in 0..<10 {
            let path = randomPath(&r, width: 120, height: 90)
            guard let bounds = path.bounds, var rasterizer = Rasterizer(bounds: bounds, limit: PixelRect(x0: 0, y0: 0, x1: 120, y1: 90), storage: &storage) else { continue }
            rasterizer.add(path)
            let fast = rasterizer.coverage(rule: .nonZero)
            rasterizer.finish(into: &storage)
            assertSame(fast, reference(path, rule: .nonZero, limit: PixelRect(x0: 0, y0: 0, x1: 120, y1: 90)), "round \(round)")
        }
    }
}
