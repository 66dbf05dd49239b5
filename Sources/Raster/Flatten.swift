/// A contour turned into straight segments. `corners[i]` is false for the points that only
/// subdivide a curve, so a stroker knows where the path really turns.
struct Polyline {
    var points: [Point] = []
    var corners: [Bool] = []
    var closed = false
}

enum Flatten {
    /// Segments for one cubic so the polyline stays within `tolerance` of the curve: the
    /// deviation of n uniform pieces is at most 3/4 · max second difference / n².
    @inline(__always)
    static func segmentCount(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, tolerance: Double) -> Int {
        let ax = p0.x - 2 * p1.x + p2.x, ay = p0.y - 2 * p1.y + p2.y
        let bx = p1.x - 2 * p2.x + p3.x, by = p1.y - 2 * p2.y + p3.y
        let dd = max(ax * ax + ay * ay, bx * bx + by * by).squareRoot()
        guard dd.isFinite else { return 1 }
        let n = (0.75 * dd / tolerance).squareRoot().rounded(.up)
        return Int(min(max(n, 1), 256))
    }

    /// Calls `body` with each point of the cubic after p0, ending with p3.
    @inline(__always)
    static func cubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, tolerance: Double, _ body: (Point) -> Void) {
        let n = segmentCount(p0, p1, p2, p3, tolerance: tolerance)
        if n == 1 { body(p3); return }
        // Forward differencing of the cubic polynomial.
        let h = 1 / Double(n)
        let cx = 3 * (p1.x - p0.x), bx = 3 * (p2.x - p1.x) - cx, ax = p3.x - p0.x - cx - bx
        let cy = 3 * (p1.y - p0.y), by = 3 * (p2.y - p1.y) - cy, ay = p3.y - p0.y - cy - by
        var x = p0.x, y = p0.y
        var dx = ax * h * h * h + bx * h * h + cx * h, dy = ay * h * h * h + by * h * h + cy * h
        var ddx = 6 * ax * h * h * h + 2 * bx * h * h, ddy = 6 * ay * h * h * h + 2 * by * h * h
        let dddx = 6 * ax * h * h * h, dddy = 6 * ay * h * h * h
        for _ in 1..<n {
            x += dx; y += dy
            dx += ddx; dy += ddy
            ddx += dddx; ddy += dddy
            body(Point(x, y))
        }
        body(p3)
    }

    static func polylines(_ path: Path, tolerance: Double) -> [Polyline] {
        var result: [Polyline] = []
        var current = Polyline()
        var last = Point.zero
        func flush() {
            if !current.points.isEmpty { result.append(current) }
            current = Polyline()
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                flush()
                current.points = [p]; current.corners = [true]
                last = p
            case .line(let p):
                if current.points.isEmpty { current.points = [last]; current.corners = [true] }
                current.points.append(p); current.corners.append(true)
                last = p
            case .cubic(let c1, let c2, let p):
                if current.points.isEmpty { current.points = [last]; current.corners = [true] }
                Flatten.cubic(last, c1, c2, p, tolerance: tolerance) { q in
                    current.points.append(q); current.corners.append(false)
                }
                current.corners[current.corners.count - 1] = true
                last = p
            case .close:
                current.closed = true
                if let first = current.points.first { last = first }
                flush()
            }
        }
        flush()
        return result
    }
}
