import Glibc

/// The reference stroker: the outline `strokeOutline` makes, built the plain way (each
/// polyline, chain, offset side, cap and polygon an array of its own). `StrokeOutliner` is
/// the fast path, which builds the same polygons from the same arithmetic in buffers reused
/// for the whole stroke; `StrokeOutlinerTests` compares the two on random paths and styles.
/// `strokeOutline(separatePieces: true)` still runs here.
func referenceStrokeOutline(_ path: Path, style: StrokeStyle, tolerance: Double, separatePieces: Bool = false) -> Path {
    var builder = ReferenceStrokeBuilder(halfWidth: style.width / 2, style: style, tolerance: max(tolerance, 1e-6))
    builder.merges = !separatePieces
    for line in Flatten.polylines(path, tolerance: builder.tolerance) {
        builder.add(line)
    }
    return builder.output
}

struct ReferenceStrokeBuilder {
    let halfWidth: Double
    let style: StrokeStyle
    let tolerance: Double
    var output = Path()
    /// `circleDirections`, worked out at the first circle: every circle of one stroke has the
    /// same radius, so the same vertices about its centre (the sines and cosines of a round
    /// join at every corner were a tenth of stroking text).
    private var circle: [(cos: Double, sin: Double)] = []
    /// Whether caps and round joins merge into the pieces they close (see `strokeOutline`).
    var merges = true

    init(halfWidth: Double, style: StrokeStyle, tolerance: Double) {
        self.halfWidth = halfWidth
        self.style = style
        self.tolerance = tolerance
    }

    mutating func add(_ line: Polyline) {
        // Drop repeated points; they have no direction.
        var points: [Point] = []
        var corners: [Bool] = []
        for (i, p) in line.points.enumerated() {
            if let last = points.last, abs(last.x - p.x) < 1e-9, abs(last.y - p.y) < 1e-9 {
                corners[corners.count - 1] = corners[corners.count - 1] || line.corners[i]
                continue
            }
            points.append(p)
            corners.append(line.corners[i])
        }
        var closed = line.closed
        if closed, points.count > 1, let first = points.first, let last = points.last,
           abs(first.x - last.x) < 1e-9, abs(first.y - last.y) < 1e-9 {
            points.removeLast()
            corners.removeLast()
        }
        guard let first = points.first else { return }
        if points.count == 1 {
            // A zero-length contour shows only its caps (a dot for round, a square for square).
            if !closed { addDot(at: first, direction: Point(1, 0)) }
            return
        }
        if points.count == 2 { closed = false }
        let n = points.count
        // Chains of segments run between corners (and turns sharper than a right angle,
        // where offsetting through the pivot would fold over); those get join pieces.
        let joints = closed ? Array(0..<n) : Array(1..<(n - 1))
        var splits = joints.filter { i in
            let n0 = unitNormal(points[(i + n - 1) % n], points[i]), n1 = unitNormal(points[i], points[(i + 1) % n])
            return corners[i] || n0.x * n1.x + n0.y * n1.y < 0
        }
        // A closed contour starts at a path vertex, which is a corner; should one ever turn
        // smoothly all round, its first point still ends one chain and starts the next.
        if closed && splits.isEmpty { splits = [0] }
        let bounds = closed ? splits : [0] + splits + [n - 1]
        let chains = closed ? bounds.count : bounds.count - 1
        var capsMerged = (start: false, end: false)
        for k in 0..<chains {
            let from = bounds[k], to = bounds[(k + 1) % bounds.count]
            let segments = (to - from + n) % n
            let q = (0...(segments == 0 ? n : segments)).map { points[(from + $0) % n] }
            let start = !closed && k == 0 && capMerges(q, atStart: true)
            let end = !closed && k == chains - 1 && capMerges(q, atStart: false)
            capsMerged = (capsMerged.start || start, capsMerged.end || end)
            addChain(q, startCap: start, endCap: end)
        }
        for i in splits {
            let prev = points[(i + n - 1) % n], v = points[i], next = points[(i + 1) % n]
            addJoin(prev, v, next, smooth: !corners[i])
        }
        if !closed {
            if !capsMerged.start { addCap(at: points[0], from: points[1]) }
            if !capsMerged.end { addCap(at: points[n - 1], from: points[n - 2]) }
        }
    }

    /// Whether the cap at one end of the open run `q` can be part of the run's polygon: a
    /// square always (it only extends the run); a round one when the half of its circle
    /// facing back along the run is inside the run's own polygon anyway: the run is one
    /// straight segment (with both caps, exactly a capsule) or its end segment is at least a
    /// half width long.
    private func capMerges(_ q: [Point], atStart: Bool) -> Bool {
        guard merges, q.count >= 2 else { return false }
        switch style.cap {
        case .butt: return false
        case .square: return true
        case .round:
            if q.count == 2 { return true }
            let (a, b) = atStart ? (q[0], q[1]) : (q[q.count - 1], q[q.count - 2])
            return ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() >= halfWidth
        }
    }

    private func unitNormal(_ a: Point, _ b: Point) -> Point {
        let dx = b.x - a.x, dy = b.y - a.y
        let len = (dx * dx + dy * dy).squareRoot()
        return len > 0 ? Point(-dy / len, dx / len) : Point(0, 0)
    }

    /// Appends a closed polygon, turned so its signed area is positive.
    private mutating func addPolygon(_ pts: [Point]) {
        guard pts.count >= 3 else { return }
        var area = 0.0
        for i in 0..<pts.count {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            area += a.x * b.y - b.x * a.y
        }
        if abs(area) < 1e-18 { return }
        let ordered = area > 0 ? pts : pts.reversed()
        output.move(to: ordered[0])
        for p in ordered.dropFirst() { output.line(to: p) }
        output.close()
    }

    /// Both offset sides of a run of points that meet smoothly. At each point the outer side
    /// steps straight from one segment's offset to the next (a bevel, which is what the turn
    /// of a flattened curve needs). On the inner side the two offsets cross: where the
    /// crossing lies within both segments (what is left of them after the previous point's
    /// crossing) the side simply goes through it; where the bend is tighter than the stroke is
    /// wide it goes through the point itself instead, so that the folded-over offsets are
    /// wound like the rest and add instead of cancelling.
    private func offsets(_ q: [Point]) -> (left: [Point], right: [Point]) {
        let m = q.count
        let h = halfWidth
        var left: [Point] = [], right: [Point] = []
        left.reserveCapacity(m * 2)
        right.reserveCapacity(m * 2)
        func length(_ a: Point, _ b: Point) -> Double { ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() }
        var previous = unitNormal(q[0], q[1])
        // How much of the current segment's inner side the previous crossing took.
        var taken = 0.0
        left.append(Point(q[0].x + previous.x * h, q[0].y + previous.y * h))
        right.append(Point(q[0].x - previous.x * h, q[0].y - previous.y * h))
        for k in 1..<(m - 1) {
            let v = q[k], before = q[k - 1], after = q[k + 1]
            let normal = unitNormal(v, after)
            let cross = (v.x - before.x) * (after.y - v.y) - (v.y - before.y) * (after.x - v.x)
            let a = Point(v.x + previous.x * h, v.y + previous.y * h), b = Point(v.x + normal.x * h, v.y + normal.y * h)
            let c = Point(v.x - previous.x * h, v.y - previous.y * h), d = Point(v.x - normal.x * h, v.y - normal.y * h)
            // The offsets cross h·tan(θ/2) before and after the point (θ the turn, < 90°).
            let cosTurn = previous.x * normal.x + previous.y * normal.y
            let sinTurn = abs(previous.x * normal.y - previous.y * normal.x)
            let reach = h * sinTurn / (1 + cosTurn)
            let fits = cross != 0 && reach + taken <= length(before, v) && reach <= length(v, after)
            let inner = fits ? 1 / (1 + cosTurn) : 0
            let crossing = Point(h * (previous.x + normal.x) * inner, h * (previous.y + normal.y) * inner)
            // The outer side is opposite the turn (as in addJoin).
            if cross > 0 {
                if fits { left.append(Point(v.x + crossing.x, v.y + crossing.y)) } else { left += [a, v, b] }
                right += [c, d]
            } else if cross < 0 {
                if fits { right.append(Point(v.x - crossing.x, v.y - crossing.y)) } else { right += [c, v, d] }
                left += [a, b]
            } else {
                left += [a, b]
                right += [c, d]
            }
            taken = fits ? reach : 0
            previous = normal
        }
        left.append(Point(q[m - 1].x + previous.x * h, q[m - 1].y + previous.y * h))
        right.append(Point(q[m - 1].x - previous.x * h, q[m - 1].y - previous.y * h))
        return (left, right)
    }

    /// An open run: one polygon, out along one side and back along the other, round the end
    /// cap and the start cap when they are merged.
    private mutating func addChain(_ q: [Point], startCap: Bool = false, endCap: Bool = false) {
        guard q.count >= 2 else { return }
        let (left, right) = offsets(q)
        var outline = left
        if endCap { outline += capPoints(at: q[q.count - 1], from: q[q.count - 2]) }
        outline += right.reversed()
        if startCap { outline += capPoints(at: q[0], from: q[1]) }
        addPolygon(outline)
    }

    /// The points a merged cap adds between the two offsets of the run's end at `end`
    /// (coming from `inner`), from the left offset round to the right one: the corners of a
    /// square, or the circle's vertices on the far side of a round cap.
    private mutating func capPoints(at end: Point, from inner: Point) -> [Point] {
        let dx = end.x - inner.x, dy = end.y - inner.y
        let len = (dx * dx + dy * dy).squareRoot()
        guard len > 0 else { return [] }
        let ux = dx / len * halfWidth, uy = dy / len * halfWidth
        // The left offset is end + (−uy, ux); the right one end − (−uy, ux).
        if style.cap == .square {
            return [Point(end.x - uy + ux, end.y + ux + uy), Point(end.x + uy + ux, end.y - ux + uy)]
        }
        return arcPoints(at: end, from: atan2(ux, -uy), turning: -Double.pi)
    }

    /// The vertices of the circle about `c` (the same ones `addCircle` uses) strictly inside
    /// the arc that starts at angle `start` and turns by `turn` (negative: clockwise in the
    /// angle's sense), in the order the arc meets them.
    private mutating func arcPoints(at c: Point, from start: Double, turning turn: Double) -> [Point] {
        if circle.isEmpty { circle = Self.circleDirections(radius: halfWidth, tolerance: tolerance) }
        let count = circle.count, step = 2 * Double.pi / Double(count)
        guard start.isFinite, turn.isFinite, abs(turn) > 0 else { return [] }
        // Index of the first vertex past `start` in the direction of the turn.
        let position = start / step
        var index = turn < 0 ? Int(position.rounded(.down)) : Int(position.rounded(.up))
        if abs(Double(index) - position) < 1e-9 { index += turn < 0 ? -1 : 1 }
        let first = Double(index) * step
        var points: [Point] = []
        var angle = first
        while (turn < 0 ? start - angle : angle - start) < abs(turn) - 1e-9 {
            let d = circle[((index % count) + count) % count]
            points.append(Point(c.x + halfWidth * d.cos, c.y + halfWidth * d.sin))
            index += turn < 0 ? -1 : 1
            angle = Double(index) * step
        }
        return points
    }

    private mutating func addCircle(at c: Point) {
        if circle.isEmpty { circle = Self.circleDirections(radius: halfWidth, tolerance: tolerance) }
        let r = halfWidth
        addPolygon(circle.map { Point(c.x + r * $0.cos, c.y + r * $0.sin) })
    }

    /// A round join at a corner: the sector of its circle outside the corner, from `a` (the
    /// incoming side's offset) to `b` (the outgoing one's), when both segments are at least a
    /// half width long (the rest of the circle then lies inside their polygons); else the
    /// whole circle.
    private mutating func addRoundCorner(_ prev: Point, _ v: Point, _ next: Point, _ a: Point, _ b: Point) {
        func length(_ p: Point, _ q: Point) -> Double { ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot() }
        let from = atan2(a.y - v.y, a.x - v.x), to = atan2(b.y - v.y, b.x - v.x)
        var turn = to - from
        if turn > Double.pi { turn -= 2 * Double.pi }
        if turn < -Double.pi { turn += 2 * Double.pi }
        guard merges, length(prev, v) >= halfWidth, length(v, next) >= halfWidth, abs(turn) < Double.pi - 1e-6 else {
            addCircle(at: v)
            return
        }
        addPolygon([v, a] + arcPoints(at: v, from: from, turning: turn) + [b])
    }

    /// The cosine and sine of each vertex angle of a round join's or cap's circle: as many
    /// vertices as keep the chords within `tolerance` of the arc (8 to 256).
    static func circleDirections(radius r: Double, tolerance: Double) -> [(cos: Double, sin: Double)] {
        let count = circleVertexCount(radius: r, tolerance: tolerance)
        return (0..<count).map { i in
            let t = 2 * Double.pi * Double(i) / Double(count)
            return (cos(t), sin(t))
        }
    }

    /// How many vertices a round piece's circle has (see `circleDirections`).
    static func circleVertexCount(radius r: Double, tolerance: Double) -> Int {
        let step = acos(max(-1, min(1, 1 - tolerance / max(r, tolerance))))
        return step.isFinite ? max(8, min(256, Int((Double.pi / max(step, 1e-3)).rounded(.up)))) : 8
    }

    private mutating func addJoin(_ prev: Point, _ v: Point, _ next: Point, smooth: Bool) {
        let n0 = unitNormal(prev, v), n1 = unitNormal(v, next)
        let cross = (v.x - prev.x) * (next.y - v.y) - (v.y - prev.y) * (next.x - v.x)
        if abs(n0.x - n1.x) < 1e-12 && abs(n0.y - n1.y) < 1e-12 { return }
        // The outer side is opposite the turn.
        let side: Double = cross > 0 ? -1 : 1
        let a = Point(v.x + n0.x * halfWidth * side, v.y + n0.y * halfWidth * side)
        let b = Point(v.x + n1.x * halfWidth * side, v.y + n1.y * halfWidth * side)
        let join: LineJoin = smooth ? .round : style.join
        switch join {
        case .round:
            if smooth {
                // Points inside a flattened curve turn by little: a triangle closes the gap.
                addPolygon([v, a, b])
            } else {
                addRoundCorner(prev, v, next, a, b)
            }
        case .bevel:
            addPolygon([v, a, b])
        case .miter:
            let cosTheta = max(-1, min(1, n0.x * n1.x + n0.y * n1.y))
            // Miter length over stroke width = 1 / sin(half the angle between the segments).
            let halfCos = ((1 + cosTheta) / 2).squareRoot()
            if halfCos > 1e-9, 1 / halfCos <= style.miterLimit {
                let mx = n0.x + n1.x, my = n0.y + n1.y
                let len = (mx * mx + my * my).squareRoot()
                let reach = halfWidth / halfCos
                let tip = Point(v.x + mx / len * reach * side, v.y + my / len * reach * side)
                addPolygon([v, a, tip, b])
            } else {
                addPolygon([v, a, b])
            }
        }
    }

    private mutating func addCap(at end: Point, from inner: Point) {
        switch style.cap {
        case .butt:
            return
        case .round:
            addCircle(at: end)
        case .square:
            let dx = end.x - inner.x, dy = end.y - inner.y
            let len = (dx * dx + dy * dy).squareRoot()
            guard len > 0 else { return }
            let ux = dx / len * halfWidth, uy = dy / len * halfWidth
            let nx = -uy, ny = ux
            addPolygon([Point(end.x + nx, end.y + ny), Point(end.x + nx + ux, end.y + ny + uy),
                        Point(end.x - nx + ux, end.y - ny + uy), Point(end.x - nx, end.y - ny)])
        }
    }

    private mutating func addDot(at p: Point, direction: Point) {
        switch style.cap {
        case .butt: return
        case .round: addCircle(at: p)
        case .square:
            let h = halfWidth
            addPolygon([Point(p.x - h, p.y - h), Point(p.x + h, p.y - h), Point(p.x + h, p.y + h), Point(p.x - h, p.y + h)])
        }
    }
}
