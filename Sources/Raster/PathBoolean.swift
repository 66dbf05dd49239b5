/// Boolean operations on filled paths: union, difference, intersection and exclusion of the
/// regions paths enclose (non-zero rule), as After Effects' merge paths make them.
///
/// Curves are flattened first; every edge of one operand is split where it crosses an edge of
/// the other, each piece is kept or dropped by whether its midpoint lies inside the other
/// operand, and the kept pieces are chained back into closed contours. Pieces lying exactly
/// on the other operand's boundary (edges that coincide) are classified by that midpoint as
/// well, so such seams may keep or lose a sliver. The work is bounded by `maxEdges`.
public enum PathBoolean {
    public enum Operation: Sendable {
        case union, subtract, intersect, exclude
    }

    /// Contours (closed) of straight edges.
    typealias Rings = [[Point]]

    /// `paths` combined in order: the first, then each next one by `operation`; nil when they
    /// hold more than `maxEdges` edges once flattened (the caller keeps them as they are).
    public static func combine(_ paths: [Path], _ operation: Operation, tolerance: Double, maxEdges: Int = 4096) -> Path? {
        let operands = paths.map { rings($0, tolerance: tolerance) }
        guard operands.reduce(0, { $0 + $1.reduce(0) { $0 + $1.count } }) <= maxEdges, var result = operands.first else { return nil }
        for next in operands.dropFirst() { result = combine(result, next, operation) }
        var path = Path()
        for ring in result where ring.count >= 3 {
            path.move(to: ring[0])
            for p in ring.dropFirst() { path.line(to: p) }
            path.close()
        }
        return path
    }

    static func rings(_ path: Path, tolerance: Double) -> Rings {
        let t = tolerance.isFinite && tolerance > 0 ? tolerance : 0.1
        return Flatten.polylines(path, tolerance: t).compactMap { line in
            var points = line.points
            if points.count > 1, points.first == points.last { points.removeLast() }
            return points.count >= 3 && points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) ? points : nil
        }
    }

    /// A straight piece of an operand's boundary.
    struct Edge {
        var from: Point
        var to: Point
    }

    static func combine(_ a: Rings, _ b: Rings, _ operation: Operation) -> Rings {
        if b.isEmpty { return operation == .intersect ? [] : a }
        if a.isEmpty { return operation == .union || operation == .exclude ? b : [] }
        let (piecesA, piecesB) = split(edges(a), edges(b))
        var kept: [Edge] = []
        for e in piecesA {
            let inside = winding(b, midpoint(e)) != 0
            switch operation {
            case .union, .subtract: if !inside { kept.append(e) }
            case .intersect: if inside { kept.append(e) }
            case .exclude: kept.append(inside ? Edge(from: e.to, to: e.from) : e)
            }
        }
        for e in piecesB {
            let inside = winding(a, midpoint(e)) != 0
            switch operation {
            case .union: if !inside { kept.append(e) }
            case .subtract: if inside { kept.append(Edge(from: e.to, to: e.from)) }
            case .intersect: if inside { kept.append(e) }
            case .exclude: kept.append(inside ? Edge(from: e.to, to: e.from) : e)
            }
        }
        return chain(kept)
    }

    static func edges(_ rings: Rings) -> [Edge] {
        var result: [Edge] = []
        for ring in rings {
            for i in ring.indices {
                let p = ring[i], q = ring[(i + 1) % ring.count]
                if p != q { result.append(Edge(from: p, to: q)) }
            }
        }
        return result
    }

    static func midpoint(_ e: Edge) -> Point { Point((e.from.x + e.to.x) / 2, (e.from.y + e.to.y) / 2) }

    /// Each edge of `a` and of `b` cut where it crosses an edge of the other; a crossing point
    /// is computed once and shared by both pieces, so that they chain exactly.
    static func split(_ a: [Edge], _ b: [Edge]) -> ([Edge], [Edge]) {
        var cutsA = [[(Double, Point)]](repeating: [], count: a.count)
        var cutsB = [[(Double, Point)]](repeating: [], count: b.count)
        let boxesB = b.map { box($0) }
        for (i, e) in a.enumerated() {
            let boxA = box(e)
            for (j, f) in b.enumerated() where overlaps(boxA, boxesB[j]) {
                guard let (t, u, point) = crossing(e, f) else { continue }
                if t > 0 && t < 1 { cutsA[i].append((t, point)) }
                if u > 0 && u < 1 { cutsB[j].append((u, point)) }
            }
        }
        return (pieces(a, cutsA), pieces(b, cutsB))
    }

    static func pieces(_ edges: [Edge], _ cuts: [[(Double, Point)]]) -> [Edge] {
        var result: [Edge] = []
        for (i, e) in edges.enumerated() {
            var start = e.from
            for (_, p) in cuts[i].sorted(by: { $0.0 < $1.0 }) where p != start {
                result.append(Edge(from: start, to: p))
                start = p
            }
            if start != e.to { result.append(Edge(from: start, to: e.to)) }
        }
        return result
    }

    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)

    static func box(_ e: Edge) -> Box {
        (min(e.from.x, e.to.x), min(e.from.y, e.to.y), max(e.from.x, e.to.x), max(e.from.y, e.to.y))
    }

    static func overlaps(_ p: Box, _ q: Box) -> Bool { p.x0 <= q.x1 && q.x0 <= p.x1 && p.y0 <= q.y1 && q.y0 <= p.y1 }

    /// Where `e` crosses `f`: the parameters along each and the point; a crossing at an end
    /// of one edge is that end point exactly. Nil for parallel edges or no crossing.
    static func crossing(_ e: Edge, _ f: Edge) -> (Double, Double, Point)? {
        let r = Point(e.to.x - e.from.x, e.to.y - e.from.y), s = Point(f.to.x - f.from.x, f.to.y - f.from.y)
        let denominator = r.x * s.y - r.y * s.x
        let scale = max(abs(r.x), abs(r.y)) * max(abs(s.x), abs(s.y))
        guard abs(denominator) > 1e-12 * scale, scale > 0 else { return nil }
        let qp = Point(f.from.x - e.from.x, f.from.y - e.from.y)
        let t = (qp.x * s.y - qp.y * s.x) / denominator
        let u = (qp.x * r.y - qp.y * r.x) / denominator
        let eps = 1e-9
        guard t >= -eps, t <= 1 + eps, u >= -eps, u <= 1 + eps else { return nil }
        let point: Point
        if t <= eps { point = e.from } else if t >= 1 - eps { point = e.to } else if u <= eps { point = f.from } else if u >= 1 - eps {
            point = f.to
        } else {
            point = Point(e.from.x + t * r.x, e.from.y + t * r.y)
        }
        return (t, u, point)
    }

    /// The winding number of `rings` around `p`.
    static func winding(_ rings: Rings, _ p: Point) -> Int {
        var w = 0
        for ring in rings {
            var a = ring[ring.count - 1]
            for b in ring {
                if a.y <= p.y {
                    if b.y > p.y, cross(a, b, p) > 0 { w += 1 }
                } else if b.y <= p.y, cross(a, b, p) < 0 {
                    w -= 1
                }
                a = b
            }
        }
        return w
    }

    static func cross(_ a: Point, _ b: Point, _ p: Point) -> Double { (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y) }

    /// Joins edges end to start into closed contours; a walk that finds no edge to go on with
    /// closes where it stands.
    static func chain(_ edges: [Edge]) -> Rings {
        struct Key: Hashable {
            let x: UInt64, y: UInt64
            init(_ p: Point) { x = p.x.bitPattern; y = p.y.bitPattern }
        }
        var starting: [Key: [Int]] = [:]
        for (i, e) in edges.enumerated() { starting[Key(e.from), default: []].append(i) }
        var used = [Bool](repeating: false, count: edges.count)
        var rings: Rings = []
        for first in edges.indices where !used[first] {
            used[first] = true
            var ring = [edges[first].from]
            var end = edges[first].to
            let origin = Key(edges[first].from)
            while Key(end) != origin {
                guard let next = starting[Key(end)]?.first(where: { !used[$0] }) else { break }
                used[next] = true
                ring.append(end)
                end = edges[next].to
            }
            if ring.count >= 3 { rings.append(ring) } else if ring.count == 2, Key(end) != origin { rings.append(ring + [end]) }
        }
        return rings
    }
}
