import Glibc
import LottieModel
import Raster

/// Builds raster paths from the model's shape primitives, starting each one at the vertex
/// After Effects starts it at and running in its direction, because trim paths depend on both.
enum ShapeGeometry {
    /// Handle length for a quarter circle made of one cubic.
    static let kappa = 0.5519150244935105

    static func path(_ bezier: BezierPath) -> RasterPath {
        var path = RasterPath()
        build(bezier, into: &path)
        return path
    }

    /// `path(bezier)` built into `path` (emptied first), whose storage it reuses.
    static func build(_ bezier: BezierPath, into path: inout RasterPath) {
        let v = bezier.vertices, ins = bezier.inTangents, outs = bezier.outTangents
        build(count: v.count, closed: bezier.closed, into: &path, vertex: { v[$0] },
              inTangent: { $0 < ins.count ? ins[$0] : Vec2(x: 0, y: 0) },
              outTangent: { $0 < outs.count ? outs[$0] : Vec2(x: 0, y: 0) })
    }

    /// `path(BezierPath.interpolate(a, b, t, perComponent: nil))` built into `path`, each point
    /// mixed as it is used (the same arithmetic), with no interpolated shape made first.
    static func build(between a: BezierPath, _ b: BezierPath, _ t: Double, into path: inout RasterPath) {
        guard a.vertices.count == b.vertices.count, a.inTangents.count == b.inTangents.count,
              a.outTangents.count == b.outTangents.count else { return build(t < 1 ? a : b, into: &path) }
        func mix(_ p: Vec2, _ q: Vec2) -> Vec2 { Vec2(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t) }
        let va = a.vertices, vb = b.vertices, ia = a.inTangents, ib = b.inTangents, oa = a.outTangents, ob = b.outTangents
        build(count: va.count, closed: a.closed, into: &path, vertex: { mix(va[$0], vb[$0]) },
              inTangent: { $0 < ia.count ? mix(ia[$0], ib[$0]) : Vec2(x: 0, y: 0) },
              outTangent: { $0 < oa.count ? mix(oa[$0], ob[$0]) : Vec2(x: 0, y: 0) })
    }

    /// The outline through `count` vertices with their tangents, into `path` (emptied first).
    private static func build(count: Int, closed: Bool, into path: inout RasterPath, vertex: (Int) -> Vec2,
                              inTangent: (Int) -> Vec2, outTangent: (Int) -> Vec2) {
        path.removeAll(keepingCapacity: true)
        guard count > 0 else { return }
        path.reserveCapacity(count + 2)
        path.move(to: vertex(0).point)
        func segment(from i: Int, to j: Int) {
            let o = outTangent(i), n = inTangent(j)
            let vi = vertex(i), vj = vertex(j)
            if o.x == 0 && o.y == 0 && n.x == 0 && n.y == 0 {
                path.line(to: vj.point)
            } else {
                path.cubic(to: vj.point, control1: Point(vi.x + o.x, vi.y + o.y), control2: Point(vj.x + n.x, vj.y + n.y))
            }
        }
        for i in 1..<max(1, count) { segment(from: i - 1, to: i) }
        if closed {
            if count > 1 { segment(from: count - 1, to: 0) }
            path.close()
        }
    }

    static func rectangle(center c: Vec2, size: Vec2, roundness: Double, reversed: Bool) -> RasterPath {
        var path = RasterPath()
        build(rectangleAt: c, size: size, roundness: roundness, reversed: reversed, into: &path)
        return path
    }

    /// `rectangle(…)` built into `path` (emptied first).
    static func build(rectangleAt c: Vec2, size: Vec2, roundness: Double, reversed: Bool, into path: inout RasterPath) {
        let w = abs(size.x), h = abs(size.y)
        let r = max(0, min(roundness, min(w, h) / 2))
        let l = c.x - w / 2, t = c.y - h / 2, rt = c.x + w / 2, b = c.y + h / 2
        path.removeAll(keepingCapacity: true)
        if r <= 0 {
            // The corners as literals, not an array made for them.
            path.move(to: Point(rt, t))
            path.line(to: reversed ? Point(l, t) : Point(rt, b))
            path.line(to: Point(l, b))
            path.line(to: reversed ? Point(rt, b) : Point(l, t))
            path.close()
            return
        }
        let k = r * (1 - kappa)
        if !reversed {
            path.move(to: Point(rt, t + r))
            path.line(to: Point(rt, b - r))
            path.cubic(to: Point(rt - r, b), control1: Point(rt, b - k), control2: Point(rt - k, b))
            path.line(to: Point(l + r, b))
            path.cubic(to: Point(l, b - r), control1: Point(l + k, b), control2: Point(l, b - k))
            path.line(to: Point(l, t + r))
            path.cubic(to: Point(l + r, t), control1: Point(l, t + k), control2: Point(l + k, t))
            path.line(to: Point(rt - r, t))
            path.cubic(to: Point(rt, t + r), control1: Point(rt - k, t), control2: Point(rt, t + k))
        } else {
            path.move(to: Point(rt, t + r))
            path.cubic(to: Point(rt - r, t), control1: Point(rt, t + k), control2: Point(rt - k, t))
            path.line(to: Point(l + r, t))
            path.cubic(to: Point(l, t + r), control1: Point(l + k, t), control2: Point(l, t + k))
            path.line(to: Point(l, b - r))
            path.cubic(to: Point(l + r, b), control1: Point(l, b - k), control2: Point(l + k, b))
            path.line(to: Point(rt - r, b))
            path.cubic(to: Point(rt, b - r), control1: Point(rt - k, b), control2: Point(rt, b - k))
        }
        path.close()
    }

    static func ellipse(center c: Vec2, size: Vec2, reversed: Bool) -> RasterPath {
        var path = RasterPath()
        build(ellipseAt: c, size: size, reversed: reversed, into: &path)
        return path
    }

    /// `ellipse(…)` built into `path` (emptied first).
    static func build(ellipseAt c: Vec2, size: Vec2, reversed: Bool, into path: inout RasterPath) {
        let rx = abs(size.x) / 2, ry = abs(size.y) / 2
        let kx = rx * kappa, ky = ry * kappa
        path.removeAll(keepingCapacity: true)
        let top = Point(c.x, c.y - ry), right = Point(c.x + rx, c.y), bottom = Point(c.x, c.y + ry), left = Point(c.x - rx, c.y)
        path.move(to: top)
        if !reversed {
            path.cubic(to: right, control1: Point(c.x + kx, top.y), control2: Point(right.x, c.y - ky))
            path.cubic(to: bottom, control1: Point(right.x, c.y + ky), control2: Point(c.x + kx, bottom.y))
            path.cubic(to: left, control1: Point(c.x - kx, bottom.y), control2: Point(left.x, c.y + ky))
            path.cubic(to: top, control1: Point(left.x, c.y - ky), control2: Point(c.x - kx, top.y))
        } else {
            path.cubic(to: left, control1: Point(c.x - kx, top.y), control2: Point(left.x, c.y - ky))
            path.cubic(to: bottom, control1: Point(left.x, c.y + ky), control2: Point(c.x - kx, bottom.y))
            path.cubic(to: right, control1: Point(c.x + kx, bottom.y), control2: Point(right.x, c.y + ky))
            path.cubic(to: top, control1: Point(right.x, c.y - ky), control2: Point(c.x + kx, top.y))
        }
        path.close()
    }

    /// Stars alternate outer and inner vertices; polygons use only the outer radius. Roundness
    /// turns each vertex into a smooth point whose handles lie along the circle's tangent.
    static func polystar(_ s: Polystar, at frame: Double) -> RasterPath {
        let points = s.points.value(at: frame)
        guard points.isFinite, points >= 1 else { return RasterPath() }
        let n = Int(min(points, 1000).rounded(.down))
        let center = s.position.value(at: frame)
        let outerRadius = s.outerRadius.value(at: frame)
        let outerRound = s.outerRoundness.value(at: frame) / 100
        let direction: Double = s.reversed ? -1 : 1
        var angle = -Double.pi / 2 + s.rotation.value(at: frame) * degreesToRadians
        var vertices: [(Point, Double, Double)] = [] // point, radius, roundness
        let count = s.star ? n * 2 : n
        let step = 2 * Double.pi / Double(count) * direction
        let innerRadius = s.star ? (s.innerRadius?.value(at: frame) ?? 0) : 0
        let innerRound = s.star ? (s.innerRoundness?.value(at: frame) ?? 0) / 100 : 0
        for i in 0..<count {
            let outer = !s.star || i % 2 == 0
            let radius = outer ? outerRadius : innerRadius
            vertices.append((Point(center.x + radius * cos(angle), center.y + radius * sin(angle)), radius, outer ? outerRound : innerRound))
            angle += step
        }
        var path = RasterPath()
        guard !vertices.isEmpty else { return path }
        // Each vertex's handle: along the tangent of its circle, a fraction of the arc per vertex.
        let perimeterDivisor = Double(count) * (s.star ? 2 : 4)
        func handles(_ i: Int) -> (out: Point, in: Point) {
            let (p, radius, roundness) = vertices[i]
            let dx = p.x - center.x, dy = p.y - center.y
            let len = (dx * dx + dy * dy).squareRoot()
            guard len > 0, roundness != 0 else { return (p, p) }
            let ox = dy / len, oy = -dx / len
            let segment = 2 * Double.pi * radius / perimeterDivisor
            let k = segment * roundness * direction
            return (Point(p.x - ox * k, p.y - oy * k), Point(p.x + ox * k, p.y + oy * k))
        }
        path.move(to: vertices[0].0)
        for i in 0..<count {
            let j = (i + 1) % count
            let hi = handles(i), hj = handles(j)
            if hi.out == vertices[i].0 && hj.in == vertices[j].0 {
                path.line(to: vertices[j].0)
            } else {
                path.cubic(to: vertices[j].0, control1: hi.out, control2: hj.in)
            }
        }
        path.close()
        return path
    }
}
