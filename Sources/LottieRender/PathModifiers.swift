import Glibc
import Raster

/// Lottie's shape modifiers as path-to-path functions.
enum PathModifiers {
    /// The part of a path between two fractions of its length, written into `path` (emptied
    /// first, its storage kept: a trim evaluated at every frame allocates nothing). Fractions
    /// may run past 1 after a trim offset, in which case the part wraps around to the path's start.
    static func trim(_ measure: PathMeasure, from s: Double, to e: Double, into path: inout RasterPath) {
        path.removeAll(keepingCapacity: true)
        let length = measure.length
        guard length > 0 else { return }
        let a = s - s.rounded(.down)
        let b = a + (e - s)
        if b <= 1 { return measure.segment(from: a * length, to: b * length, appendingTo: &path) }
        // Both parts written into one path, sized for both (not a path per part, copied).
        path.reserveCapacity(measure.elementCount(from: a * length, to: length) + measure.elementCount(from: 0, to: (b - 1) * length))
        measure.segment(from: a * length, to: length, appendingTo: &path)
        measure.segment(from: 0, to: (b - 1) * length, appendingTo: &path)
    }

    /// `trim(_:from:to:into:)` into a new path.
    static func trim(_ measure: PathMeasure, from s: Double, to e: Double) -> RasterPath {
        var path = RasterPath()
        trim(measure, from: s, to: e, into: &path)
        return path
    }

    /// A contour as a list of vertices with absolute control points, the form the vertex-wise
    /// modifiers work on.
    struct Contour {
        var vertices: [Point] = []
        /// Control point leaving vertex i (equal to the vertex for a straight segment).
        var outs: [Point] = []
        /// Control point arriving at vertex i.
        var ins: [Point] = []
        var closed = false

        func isStraight(from i: Int, to j: Int) -> Bool { outs[i] == vertices[i] && ins[j] == vertices[j] }
    }

    static func contours(of path: RasterPath) -> [Contour] {
        var result: [Contour] = []
        var current = Contour()
        func flush() {
            if current.vertices.count > 0 { result.append(current) }
            current = Contour()
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                flush()
                current.vertices = [p]; current.outs = [p]; current.ins = [p]
            case .line(let p):
                if current.vertices.isEmpty { current.vertices = [p]; current.outs = [p]; current.ins = [p]; continue }
                current.vertices.append(p); current.outs.append(p); current.ins.append(p)
            case .cubic(let c1, let c2, let p):
                if current.vertices.isEmpty { current.vertices = [p]; current.outs = [p]; current.ins = [p]; continue }
                current.outs[current.outs.count - 1] = c1
                current.vertices.append(p); current.outs.append(p); current.ins.append(c2)
            case .close:
                // A closing segment that ends on the first vertex folds into it.
                if current.vertices.count > 1, let last = current.vertices.last, last == current.vertices[0] {
                    current.ins[0] = current.ins[current.ins.count - 1]
                    // The repeated end vertex folds into the first: its in-handle moves there; its
                    // out-handle leads nowhere.
                    current.vertices.removeLast(); current.ins.removeLast(); current.outs.removeLast()
                }
                current.closed = true
                flush()
            }
        }
        flush()
        return result
    }

    static func path(from contours: [Contour]) -> RasterPath {
        var path = RasterPath()
        for c in contours where !c.vertices.isEmpty {
            path.move(to: c.vertices[0])
            let n = c.vertices.count
            let segments = c.closed ? n : n - 1
            for i in 0..<segments {
                let j = (i + 1) % n
                if c.isStraight(from: i, to: j) { path.line(to: c.vertices[j]) }
                else { path.cubic(to: c.vertices[j], control1: c.outs[i], control2: c.ins[j]) }
            }
            if c.closed { path.close() }
        }
        return path
    }

    /// Rounds corners where two straight segments meet, with a circular-looking cubic.
    static func roundCorners(_ path: RasterPath, radius: Double) -> RasterPath {
        let k = 1 - ShapeGeometry.kappa
        var output: [Contour] = []
        for c in contours(of: path) {
            let n = c.vertices.count
            guard n >= 2 else { output.append(c); continue }
            var r = Contour()
            r.closed = c.closed
            for i in 0..<n {
                let v = c.vertices[i]
                let hasPrev = c.closed || i > 0, hasNext = c.closed || i < n - 1
                let p = (i + n - 1) % n, q = (i + 1) % n
                guard hasPrev, hasNext, c.ins[i] == v, c.outs[i] == v else {
                    r.vertices.append(v); r.ins.append(c.ins[i]); r.outs.append(c.outs[i])
                    continue
                }
                let prev = c.vertices[p], next = c.vertices[q]
                let d1 = distance(prev, v), d2 = distance(v, next)
                guard d1 > 0, d2 > 0 else {
                    r.vertices.append(v); r.ins.append(v); r.outs.append(v)
                    continue
                }
                let a1 = min(radius, d1 / 2), a2 = min(radius, d2 / 2)
                let start = Point(v.x + (prev.x - v.x) * a1 / d1, v.y + (prev.y - v.y) * a1 / d1)
                let end = Point(v.x + (next.x - v.x) * a2 / d2, v.y + (next.y - v.y) * a2 / d2)
                // start (arrives straight) → end (curve) → leaves straight
                r.vertices.append(start); r.ins.append(start)
                r.outs.append(Point(start.x + (v.x - start.x) * (1 - k), start.y + (v.y - start.y) * (1 - k)))
                r.vertices.append(end)
                r.ins.append(Point(end.x + (v.x - end.x) * (1 - k), end.y + (v.y - end.y) * (1 - k)))
                r.outs.append(end)
            }
            output.append(r)
        }
        return Self.path(from: output)
    }

    /// Pucker (negative) pulls vertices towards the shape's centre and pushes their handles
    /// out; bloat does the opposite.
    static func puckerBloat(_ path: RasterPath, amount: Double) -> RasterPath {
        var output: [Contour] = []
        for var c in contours(of: path) {
            let n = Double(c.vertices.count)
            guard n > 0 else { continue }
            let cx = c.vertices.reduce(0) { $0 + $1.x } / n, cy = c.vertices.reduce(0) { $0 + $1.y } / n
            for i in c.vertices.indices {
                let v = c.vertices[i]
                c.vertices[i] = Point(v.x + (cx - v.x) * amount, v.y + (cy - v.y) * amount)
                c.outs[i] = Point(c.outs[i].x - (cx - c.outs[i].x) * amount, c.outs[i].y - (cy - c.outs[i].y) * amount)
                c.ins[i] = Point(c.ins[i].x - (cx - c.ins[i].x) * amount, c.ins[i].y - (cy - c.ins[i].y) * amount)
            }
            output.append(c)
        }
        return Self.path(from: output)
    }

    /// Zig-zag: each segment is split into `ridges` pieces whose points are pushed alternately
    /// to either side by `amplitude`.
    /// `maxPoints` bounds the output: ridges are reduced so that all segments together make no
    /// more (a path of 100,000 vertices with 1,000 ridges each would be 10^8 points).
    static func zigZag(_ path: RasterPath, amplitude: Double, ridges: Int, smooth: Bool, maxPoints: Int = 1_000_000) -> RasterPath {
        let shapes = contours(of: path)
        let segmentCount = shapes.reduce(0) { $0 + max(0, $1.vertices.count) }
        let ridges = max(1, min(ridges, 1000, maxPoints / max(1, segmentCount)))
        var output = RasterPath()
        for c in shapes where c.vertices.count > 1 {
            let n = c.vertices.count
            let segments = c.closed ? n : n - 1
            var points: [Point] = []
            var side = 1.0
            for i in 0..<segments {
                let j = (i + 1) % n
                let p0 = c.vertices[i], p1 = c.outs[i], p2 = c.ins[j], p3 = c.vertices[j]
                for s in 0..<ridges {
                    let t = Double(s) / Double(ridges)
                    let (pt, tangent) = cubicPointAndTangent(p0, p1, p2, p3, t)
                    let len = max(1e-9, (tangent.x * tangent.x + tangent.y * tangent.y).squareRoot())
                    points.append(Point(pt.x - tangent.y / len * amplitude * side, pt.y + tangent.x / len * amplitude * side))
                    side = -side
                }
            }
            if !c.closed, let last = c.vertices.last { points.append(last) }
            guard let first = points.first else { continue }
            output.move(to: first)
            if smooth && points.count > 2 {
                let m = points.count
                for i in 1..<(c.closed ? m + 1 : m) {
                    let a = points[(i - 1) % m], b = points[i % m]
                    output.cubic(to: b, control1: Point(a.x + (b.x - a.x) / 2, a.y), control2: Point(b.x - (b.x - a.x) / 2, b.y))
                }
            } else {
                for p in points.dropFirst() { output.line(to: p) }
            }
            if c.closed { output.close() }
        }
        return output
    }

    /// Offset path: moves every vertex (and its handles) along the bisector of its segments'
    /// normals, scaled so straight edges move by exactly `amount`.
    static func offset(_ path: RasterPath, by amount: Double, join: Int, miterLimit: Double) -> RasterPath {
        var output: [Contour] = []
        for var c in contours(of: path) {
            let n = c.vertices.count
            guard n >= 2 else { continue }
            // Closed shapes drawn clockwise on screen grow outwards with a positive amount.
            let sign: Double = signedArea(c) >= 0 ? 1 : -1
            var moved = c
            for i in 0..<n {
                let prev = c.vertices[(i + n - 1) % n], v = c.vertices[i], next = c.vertices[(i + 1) % n]
                let useIn = c.closed || i > 0, useOut = c.closed || i < n - 1
                let dIn = useIn ? unit(Point(v.x - (c.ins[i] == v ? prev : c.ins[i]).x, v.y - (c.ins[i] == v ? prev : c.ins[i]).y)) : nil
                let dOut = useOut ? unit(Point((c.outs[i] == v ? next : c.outs[i]).x - v.x, (c.outs[i] == v ? next : c.outs[i]).y - v.y)) : nil
                let nIn = dIn.map { Point($0.y, -$0.x) }, nOut = dOut.map { Point($0.y, -$0.x) }
                var normal: Point
                switch (nIn, nOut) {
                case let (a?, b?):
                    let sum = Point(a.x + b.x, a.y + b.y)
                    let dot = max(0.1, (a.x * b.x + a.y * b.y + 1) / 2)
                    let len = max(1e-9, (sum.x * sum.x + sum.y * sum.y).squareRoot())
                    normal = Point(sum.x / len / dot.squareRoot(), sum.y / len / dot.squareRoot())
                case let (a?, nil): normal = a
                case let (nil, b?): normal = b
                default: normal = Point(0, 0)
                }
                let dx = normal.x * amount * sign, dy = normal.y * amount * sign
                moved.vertices[i] = Point(v.x + dx, v.y + dy)
                moved.ins[i] = Point(c.ins[i].x + dx, c.ins[i].y + dy)
                moved.outs[i] = Point(c.outs[i].x + dx, c.outs[i].y + dy)
            }
            c = moved
            output.append(c)
        }
        return Self.path(from: output)
    }

    private static func signedArea(_ c: Contour) -> Double {
        var area = 0.0
        let n = c.vertices.count
        for i in 0..<n {
            let a = c.vertices[i], b = c.vertices[(i + 1) % n]
            area += a.x * b.y - b.x * a.y
        }
        return area
    }

    private static func unit(_ p: Point) -> Point? {
        let len = (p.x * p.x + p.y * p.y).squareRoot()
        return len > 1e-12 ? Point(p.x / len, p.y / len) : nil
    }

    static func distance(_ a: Point, _ b: Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    static func cubicPointAndTangent(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> (Point, Point) {
        let u = 1 - t
        let x = u * u * u * p0.x + 3 * u * u * t * p1.x + 3 * u * t * t * p2.x + t * t * t * p3.x
        let y = u * u * u * p0.y + 3 * u * u * t * p1.y + 3 * u * t * t * p2.y + t * t * t * p3.y
        var dx = 3 * u * u * (p1.x - p0.x) + 6 * u * t * (p2.x - p1.x) + 3 * t * t * (p3.x - p2.x)
        var dy = 3 * u * u * (p1.y - p0.y) + 6 * u * t * (p2.y - p1.y) + 3 * t * t * (p3.y - p2.y)
        if dx == 0 && dy == 0 { dx = p3.x - p0.x; dy = p3.y - p0.y }
        return (Point(x, y), Point(dx, dy))
    }
}
