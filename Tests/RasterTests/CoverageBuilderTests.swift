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

    /// Every pixel's coverage within `area` (0 where no run is), and whether the runs are in
    /// row order, inside `area`, and disjoint.
    func pixels(_ coverage: Coverage, in area: PixelRect) -> (values: [UInt8], wellFormed: Bool) {
        var values = [UInt8](repeating: 0, count: area.width * area.height)
        var seen = [Bool](repeating: false, count: values.count)
        var wellFormed = true
        var last = (Int.min, Int.min)
        for run in coverage.runs {
            let (y, x, count) = (Int(run.y), Int(run.x), Int(run.count))
            guard count > 0, y >= area.y0, y < area.y1, x >= area.x0, x + count <= area.x1, (y, x) > last else { return (values, false) }
            last = (y, x + count - 1)
            for i in 0..<count {
                let index = (y - area.y0) * area.width + x - area.x0 + i
                if seen[index] { wellFormed = false }
                seen[index] = true
                values[index] = run.offset < 0 ? run.value : coverage.bytes[Int(run.offset) + i]
            }
        }
        return (values, wellFormed)
    }

    /// The builder merges runs the reference keeps apart, so the runs may differ; every
    /// pixel's coverage, the bounds, and the longest run's length as a bound may not.
    func assertSame(_ a: Coverage, _ b: Coverage, in area: PixelRect, _ message: String) {
        let (built, wellFormed) = pixels(a, in: area)
        XCTAssertTrue(wellFormed, message)
        XCTAssertEqual(built, pixels(b, in: area).values, message)
        XCTAssertEqual(a.bounds, b.bounds, message)
        XCTAssertEqual(a.longestRun, a.runs.map { Int($0.count) }.max() ?? 0, message)
        XCTAssertLessThanOrEqual(a.runs.count, b.runs.count, message)
        XCTAssertLessThanOrEqual(a.bytes.count, b.bytes.count, message)
    }

    /// Runs of one value that meet on a row are one run in what the builder makes.
    func assertMerged(_ coverage: Coverage, _ message: String) {
        for (a, b) in zip(coverage.runs, coverage.runs.dropFirst()) where a.offset < 0 && b.offset < 0 {
            XCTAssertFalse(a.y == b.y && a.x + a.count == b.x && a.value == b.value, message)
        }
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
            let made = built(path, rule: rule, limit: limit, rows: limit.height)
            assertSame(made, expected, in: limit, "round \(round)")
            assertMerged(made, "round \(round)")
            assertSame(built(path, rule: rule, limit: limit, rows: 1), expected, in: limit, "round \(round), grown")
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
            assertSame(built(path, rule: rule, limit: limit, rows: limit.height), expected, in: limit, "round \(round)")
        }
    }

    /// `firstNot` (words and the first differing bit) finds the index `endOfStretch` (words,
    /// then byte by byte) finds, from every start, in rows of every length up to 40.
    func testFirstNotFindsTheEndOfEveryStretch() {
        var r = Random(state: 5)
        for round in 0..<400 {
            let count = round % 41
            let value: UInt8 = round % 2 == 0 ? 0 : 255
            // Long stretches of `value`, broken now and then.
            let bytes = (0..<count).map { _ in r.unit() < 0.85 ? value : UInt8(r.next() % 256) }
            // One byte past the end, so that an empty row has an address too (never read).
            (bytes + [1]).withUnsafeBufferPointer { b in
                let base = b.baseAddress!
                for start in 0...count {
                    XCTAssertEqual(Coverage.firstNot(value, in: base, from: start, count: count),
                                   Coverage.endOfStretch(base, of: value, from: start, count: count), "round \(round), from \(start)")
                }
            }
        }
    }

    /// `isAllPartial` (two words) against a byte-by-byte look, on rows of every length up to
    /// 20 with 0, 255 and partial values at every place, the bytes past the row set to 0 and
    /// 255 (never read).
    func testAllPartialIsTheByteByByteAnswer() {
        var r = Random(state: 13)
        for round in 0..<3000 {
            let count = round % 21
            var bytes = (0..<count).map { _ in UInt8(1 + r.next() % 254) }
            if count > 0, r.next() % 2 == 0 { bytes[Int(r.next() % UInt64(count))] = r.next() % 2 == 0 ? 0 : 255 }
            let expected = count > 0 && count <= 16 && bytes.allSatisfy { $0 != 0 && $0 != 255 }
            (bytes + [0, 255, 0, 255, 0, 255, 0, 255]).withUnsafeBufferPointer { b in
                XCTAssertEqual(Coverage.Builder.isAllPartial(b.baseAddress!, count: count), expected, "round \(round): \(bytes)")
            }
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
            let limit = PixelRect(x0: 0, y0: 0, x1: 120, y1: 90)
            assertSame(fast, reference(path, rule: .nonZero, limit: limit), in: limit, "round \(round)")
        }
    }
}
