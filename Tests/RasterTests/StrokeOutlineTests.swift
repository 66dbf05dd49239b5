@testable import Raster
import XCTest

/// Caps and round joins merged into the pieces they close (`strokeOutline`) against the
/// reference that makes each of them a polygon of its own. The reference counts twice the
/// pixels where overlapping pieces share an edge (the rasterizer sums their areas before
/// clamping), so both are compared with the stroke's true area: with round caps and joins,
/// the points within half the width of the polyline, sampled 16 × 16 per pixel.
final class StrokeOutlineTests: XCTestCase {
    /// Alpha of every pixel of `outline` filled in opaque white on a `size` × `size` surface.
    static func coverage(_ outline: Path, size: Int) -> [Double] {
        var surface = Surface(width: size, height: size)
        surface.fill(outline, paint: .solid(Color(r: 1, g: 1, b: 1, a: 1)))
        return surface.pixels.map { Double($0 >> 24) / 255 }
    }

    static func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / max(dx * dx + dy * dy, 1e-12)))
        let x = a.x + t * dx - p.x, y = a.y + t * dy - p.y
        return (x * x + y * y).squareRoot()
    }

    /// The fraction of each pixel within `h` of the polyline through `points`.
    static func trueCoverage(_ points: [Point], halfWidth h: Double, size: Int) -> [Double] {
        var out = [Double](repeating: 0, count: size * size)
        let n = 16
        for y in 0..<size {
            for x in 0..<size {
                var inside = 0
                for sy in 0..<n {
                    for sx in 0..<n {
                        let p = Point(Double(x) + (Double(sx) + 0.5) / Double(n), Double(y) + (Double(sy) + 0.5) / Double(n))
                        if zip(points, points.dropFirst()).contains(where: { distance(p, $0, $1) <= h }) { inside += 1 }
                    }
                }
                out[y * size + x] = Double(inside) / Double(n * n)
            }
        }
        return out
    }

    func randomPolyline(_ r: inout FastPathTests.Random, size: Double) -> [Point] {
        (0..<(2 + Int(r.next() % 3))).map { _ in Point(6 + r.unit() * (size - 12), 6 + r.unit() * (size - 12)) }
    }

    /// The open path through `points`.
    static func polylinePath(_ points: [Point]) -> Path {
        var path = Path()
        path.move(to: points[0])
        for p in points.dropFirst() { path.line(to: p) }
        return path
    }

    func testMergedRoundCapsAndJoinsAreAtLeastAsCloseToTheTrueAreaAsSeparatePieces() {
        var r = FastPathTests.Random(state: 21)
        let size = 40
        var merged = (largest: 0.0, total: 0.0), separate = (largest: 0.0, total: 0.0)
        // How much further from the true area than the reference any pixel of the merged outline is.
        var worse = 0.0
        for _ in 0..<12 {
            let points = randomPolyline(&r, size: Double(size))
            let path = Self.polylinePath(points)
            var style = StrokeStyle()
            style.width = 2 + r.unit() * 8
            style.cap = .round
            style.join = .round
            let truth = Self.trueCoverage(points, halfWidth: style.width / 2, size: size)
            let fast = Self.coverage(strokeOutline(path, style: style, tolerance: 0.05), size: size)
            let reference = Self.coverage(strokeOutline(path, style: style, tolerance: 0.05, separatePieces: true), size: size)
            for i in truth.indices {
                merged = (max(merged.largest, abs(fast[i] - truth[i])), merged.total + abs(fast[i] - truth[i]))
                separate = (max(separate.largest, abs(reference[i] - truth[i])), separate.total + abs(reference[i] - truth[i]))
                worse = max(worse, abs(fast[i] - truth[i]) - abs(reference[i] - truth[i]))
            }
        }
        // No pixel strays further from the true area than the reference by more than a chord
        // may stray from its arc (0.05 px across a pixel); measured: 0.012, and half the total error.
        XCTAssertLessThanOrEqual(worse, 0.05)
        XCTAssertLessThanOrEqual(merged.largest, separate.largest, "merged \(merged), separate \(separate)")
        XCTAssertLessThan(merged.total, separate.total, "merged \(merged), separate \(separate)")
    }

    func testMergedSquareCapsCoverWhatSeparateSquaresCover() {
        var r = FastPathTests.Random(state: 5)
        for _ in 0..<20 {
            let points = randomPolyline(&r, size: 40)
            let path = Self.polylinePath(points)
            var style = StrokeStyle()
            style.width = 1 + r.unit() * 9
            style.cap = .square
            style.join = r.next() % 2 == 0 ? .miter : .bevel
            let fast = Self.coverage(strokeOutline(path, style: style, tolerance: 0.05), size: 40)
            let reference = Self.coverage(strokeOutline(path, style: style, tolerance: 0.05, separatePieces: true), size: 40)
            // The square only extends its run (they share an edge, no area twice): equal but for rounding.
            XCTAssertLessThanOrEqual(zip(fast, reference).map { abs($0 - $1) }.max() ?? 0, 1.0 / 255 + 1e-9)
        }
    }

    func testAStraightRoundCappedSegmentIsOneCapsule() {
        var path = Path()
        path.move(to: Point(10, 10))
        path.line(to: Point(14, 13))
        var style = StrokeStyle()
        style.width = 6
        style.cap = .round
        let outline = strokeOutline(path, style: style, tolerance: 0.05)
        let moves = outline.elements.filter { if case .move = $0 { return true } else { return false } }.count
        XCTAssertEqual(moves, 1, "one polygon, not a body and two circles")
        XCTAssertEqual(strokeOutline(path, style: style, tolerance: 0.05, separatePieces: true).elements
            .filter { if case .move = $0 { return true } else { return false } }.count, 3)
    }
}
