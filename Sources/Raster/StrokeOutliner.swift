import Glibc

/// The stroker behind `strokeOutline`: the polygons `ReferenceStrokeBuilder` makes, from the
/// same arithmetic in the same order, but built in buffers kept for the whole stroke. The
/// reference gives every polyline, chain, offset side, cap, join and polygon an array of its
/// own (and the outline one more copy to transform it); at the sizes most strokes are drawn,
/// those allocations cost more than the geometry. The only other difference is how the round
/// pieces' circle is worked out (`circleDirections`: one sine and cosine, then rotation), which
/// moves its vertices by about 1e-15 of the radius.
struct StrokeOutliner {
    let halfWidth: Double
    let style: StrokeStyle
    let tolerance: Double
    /// Applied to every point as it is written out.
    let transform: Transform?
    private(set) var output = Path()
    /// Whether the outer side of a flattened curve turns at the meeting point of the two
    /// segments' offsets (one vertex) instead of stepping between them (two vertices, the
    /// reference), where that point lies within `tolerance` of the true round turn: in a curve
    /// whose radius is at least the half width, every point. A third fewer vertices for the
    /// rasterizer, and the area closer to the true one (the reference's step cuts inside
    /// the round turn by twice the area this adds outside it). `StrokeOutlinerTests`.
    var mitersSmoothTurns = true

    // Buffers reused for every contour of the stroke.
    /// The current contour, flattened, repeated points dropped; `corners` as in `Polyline`.
    private var points: [Point] = []
    private var corners: [Bool] = []
    /// Where the contour's chains end (`ReferenceStrokeBuilder.add`).
    private var splits: [Int] = []
    /// Segment `i` of the contour, from point `i` to the next (the last of a closed one back
    /// to the first): its unit normal and its length, worked out once for the split test,
    /// the offsets and the joins, which would each find them again (a square root and two
    /// divisions a point each time); the reference's `unitNormal` and lengths, to the bit.
    /// Only the first `closed ? n : n - 1` are the contour's (the array is kept at its most).
    private var segments: [Segment] = []
    fileprivate struct Segment {
        var normal: Point
        var length: Double
    }
    /// The run being outlined: `chainCount` points of the contour from `chainStart` on,
    /// wrapping past its end (read in place, not copied out).
    private var chainStart = 0
    private var chainCount = 0
    /// The right side of the run; the left one is written straight into `polygon`, which
    /// it starts.
    private var right: [Point] = []
    /// The polygon being assembled.
    private var polygon: [Point] = []
    private var circle: [(cos: Double, sin: Double)] = []

    init(style: StrokeStyle, tolerance: Double, transform: Transform?) {
        self.halfWidth = style.width / 2
        self.style = style
        self.tolerance = max(tolerance, 1e-6)
        self.transform = transform
    }

    /// A stroker working in the buffers of `scratch` (left empty until `finish(keepingIn:)`).
    init(style: StrokeStyle, tolerance: Double, transform: Transform?, scratch: inout StrokeScratch) {
        self.init(style: style, tolerance: tolerance, transform: transform)
        exchangeBuffers(with: &scratch)
        // The circle is this stroke's width's; the other buffers are emptied or written over
        // before they are read.
        circle.removeAll(keepingCapacity: true)
    }

    /// The outline, with the buffers handed back to `scratch` unless they grew past
    /// `StrokeScratch.byteLimit` (a large stroke's are freed: it pays little for them beside
    /// its geometry, and they would stay held).
    mutating func finish(keepingIn scratch: inout StrokeScratch) -> Path {
        let bytes = points.capacity * MemoryLayout<Point>.stride + corners.capacity + splits.capacity * MemoryLayout<Int>.stride
            + segments.capacity * MemoryLayout<Segment>.stride + (right.capacity + polygon.capacity) * MemoryLayout<Point>.stride
            + circle.capacity * MemoryLayout<(cos: Double, sin: Double)>.stride
        if bytes <= StrokeScratch.byteLimit { exchangeBuffers(with: &scratch) }
        return output
    }

    /// Trades the working buffers with `scratch`'s (taking them at the start of a stroke,
    /// handing them back at its end).
    private mutating func exchangeBuffers(with scratch: inout StrokeScratch) {
        swap(&points, &scratch.points)
        swap(&corners, &scratch.corners)
        swap(&splits, &scratch.splits)
        swap(&segments, &scratch.segments)
        swap(&right, &scratch.right)
        swap(&polygon, &scratch.polygon)
        swap(&circle, &scratch.circle)
    }

    /// Strokes every contour of `path` (as `Flatten.polylines` cuts it) into `output`.
    mutating func stroke(_ path: Path) {
        reserve(for: path)
        var last = Point.zero
        for element in path.elements {
            switch element {
            case .move(let p):
                finishContour(closed: false)
                append(p, corner: true)
                last = p
            case .line(let p):
                if points.isEmpty { append(last, corner: true) }
                append(p, corner: true)
                last = p
            case .cubic(let c1, let c2, let p):
                if points.isEmpty { append(last, corner: true) }
                Flatten.cubic(last, c1, c2, p, tolerance: tolerance) { q in append(q, corner: false) }
                corners[corners.count - 1] = true
                last = p
            case .close:
                if let first = points.first { last = first }
                finishContour(closed: true)
            }
        }
        finishContour(closed: false)
    }

    /// Sizes the buffers and the outline for `path` once: grown point by point from empty,
    /// each would move its storage some seven times for a small stroke, which cost as much as
    /// the stroke's geometry. From the points the flattening makes (an upper bound: repeated
    /// points are dropped) and the vertices of one round piece.
    private mutating func reserve(for path: Path) {
        var points = 1, contours = 1, turns = 0, last = Point.zero, start = Point.zero
        for element in path.elements {
            switch element {
            case .move(let p): points += 1; contours += 1; last = p; start = p
            case .line(let p): points += 1; turns += 1; last = p
            case .cubic(let c1, let c2, let p):
                points += Flatten.segmentCount(last, c1, c2, p, tolerance: tolerance)
                turns += 1
                last = p
            case .close: points += 1; turns += 1; last = start
            }
        }
        // Past this, growing by doubling costs little beside the geometry; and a path of
        // many contours (fine dashes) is not given room for more than it will use.
        points = min(points, 1 << 16)
        let round = style.cap == .round || style.join == .round
        let circle = round ? ReferenceStrokeBuilder.circleVertexCount(radius: halfWidth, tolerance: tolerance) : 4
        self.points.reserveCapacity(points)
        corners.reserveCapacity(points)
        segments.reserveCapacity(points)
        right.reserveCapacity(2 * points)
        polygon.reserveCapacity(4 * points + circle)
        // Two sides of every point, a cap's vertices and a close per contour; and at every
        // corner where the contour may split, the two runs' ends (two vertices each side), a
        // move and a close, and the join's own polygon (up to six elements, or its arc).
        // Line art turns at most of its points: sized for the sides alone, its outline grew
        // two or three times over (each growth a copy of every element so far).
        let join = style.join == .round ? circle / 2 + 4 : 6
        output.reserveCapacity(min(3 * points + turns * (6 + join) + contours * (circle + 2), 1 << 17))
    }

    /// Adds a point to the contour; one equal to the last (within 1e-9) only passes on its corner.
    @inline(__always)
    private mutating func append(_ p: Point, corner: Bool) {
        if let q = points.last, abs(q.x - p.x) < 1e-9, abs(q.y - p.y) < 1e-9 {
            if corner { corners[corners.count - 1] = true }
            return
        }
        points.append(p)
        corners.append(corner)
    }

    private mutating func finishContour(closed isClosed: Bool) {
        defer {
            points.removeAll(keepingCapacity: true)
            corners.removeAll(keepingCapacity: true)
        }
        guard let first = points.first, let final = points.last else { return }
        var closed = isClosed
        if closed, points.count > 1, abs(first.x - final.x) < 1e-9, abs(first.y - final.y) < 1e-9 {
            points.removeLast()
            corners.removeLast()
        }
        if points.count == 1 {
            // A zero-length contour shows only its caps (a dot for round, a square for square).
            if !closed { addDot(at: first) }
            return
        }
        if points.count == 2 { closed = false }
        addContour(closed: closed)
    }

    /// The end of chain `k`: the splits of a closed contour; for an open one its first point,
    /// the splits, its last point.
    private func bound(_ k: Int, closed: Bool) -> Int {
        if closed { return splits[k] }
        return k == 0 ? 0 : (k <= splits.count ? splits[k - 1] : points.count - 1)
    }

    /// `ReferenceStrokeBuilder.add` for the contour in `points` (at least two of them).
    private mutating func addContour(closed: Bool) {
        let n = points.count
        measureSegments(closed: closed)
        splits.removeAll(keepingCapacity: true)
        for i in closed ? 0..<n : 1..<(n - 1) {
            let n0 = segments[i == 0 ? n - 1 : i - 1].normal, n1 = segments[i].normal
            if corners[i] || n0.x * n1.x + n0.y * n1.y < 0 { splits.append(i) }
        }
        if closed && splits.isEmpty { splits.append(0) }
        let boundCount = closed ? splits.count : splits.count + 2
        let chains = closed ? boundCount : boundCount - 1
        var capsMerged = (start: false, end: false)
        for k in 0..<chains {
            let from = bound(k, closed: closed), to = bound((k + 1) % boundCount, closed: closed)
            let segments = (to - from + n) % n
            chainStart = from
            chainCount = (segments == 0 ? n : segments) + 1
            let start = !closed && k == 0 && capMerges(atStart: true)
            let end = !closed && k == chains - 1 && capMerges(atStart: false)
            capsMerged = (capsMerged.start || start, capsMerged.end || end)
            addChain(startCap: start, endCap: end)
        }
        for i in splits { addJoin(at: i) }
        if !closed {
            if !capsMerged.start { addCap(at: points[0], from: points[1]) }
            if !capsMerged.end { addCap(at: points[n - 1], from: points[n - 2]) }
        }
    }

    /// Fills `segments` for the contour (`closed`: one more, back to the start), in place.
    private mutating func measureSegments(closed: Bool) {
        let n = points.count, count = closed ? n : n - 1
        while segments.count < count { segments.append(Segment(normal: .zero, length: 0)) }
        let points = self.points
        points.withUnsafeBufferPointer { p in
            segments.withUnsafeMutableBufferPointer { out in
                for i in 0..<count {
                    let a = p[i], b = p[i + 1 == n ? 0 : i + 1]
                    let dx = b.x - a.x, dy = b.y - a.y
                    let len = (dx * dx + dy * dy).squareRoot()
                    out[i] = Segment(normal: len > 0 ? Point(-dy / len, dx / len) : Point(0, 0), length: len)
                }
            }
        }
    }

    /// The contour's segment index of the run's segment `j` (from its point `j` to `j + 1`).
    @inline(__always)
    private func segment(_ j: Int) -> Int {
        let i = chainStart + j
        return i >= points.count ? i - points.count : i
    }

    /// Point `j` of the run (`chainStart`, `chainCount`): `j` is at most the contour's count.
    @inline(__always)
    private func chain(_ j: Int) -> Point {
        let i = chainStart + j
        return points[i >= points.count ? i - points.count : i]
    }

    /// `ReferenceStrokeBuilder.capMerges` for the run.
    private func capMerges(atStart: Bool) -> Bool {
        guard chainCount >= 2 else { return false }
        switch style.cap {
        case .butt: return false
        case .square: return true
        case .round:
            if chainCount == 2 { return true }
            let (a, b) = atStart ? (chain(0), chain(1)) : (chain(chainCount - 1), chain(chainCount - 2))
            return ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() >= halfWidth
        }
    }

    /// Writes `polygon` out as a closed contour, turned so its signed area is positive.
    private mutating func emitPolygon() {
        let count = polygon.count
        guard count >= 3 else { return }
        var area = 0.0
        for i in 0..<count {
            let a = polygon[i], b = polygon[i + 1 == count ? 0 : i + 1]
            area += a.x * b.y - b.x * a.y
        }
        if abs(area) < 1e-18 { return }
        let points = polygon, m = transform
        points.withUnsafeBufferPointer { p in
            if area > 0 {
                output.appendPolygon(count: count) { i in Self.device(p[i], m) }
            } else {
                output.appendPolygon(count: count) { i in Self.device(p[count - 1 - i], m) }
            }
        }
    }

    @inline(__always)
    private static func device(_ p: Point, _ transform: Transform?) -> Point {
        guard let m = transform else { return p }
        return m.apply(p)
    }

    /// An open run (`chainStart`, `chainCount`): one polygon, out along one side and back
    /// along the other, round the end cap and the start cap when they are merged.
    private mutating func addChain(startCap: Bool, endCap: Bool) {
        let m = chainCount
        guard m >= 2 else { return }
        offsets()
        if endCap { appendCap(at: chain(m - 1), from: chain(m - 2)) }
        for i in stride(from: right.count - 1, through: 0, by: -1) { polygon.append(right[i]) }
        if startCap { appendCap(at: chain(0), from: chain(1)) }
        emitPolygon()
    }

    /// `ReferenceStrokeBuilder.offsets` of the run, its left side into `polygon` (emptied
    /// first) and its right side into `right`; with
    /// `mitersSmoothTurns`, the outer side turns at one vertex, not two, where it can.
    private mutating func offsets() {
        let m = chainCount
        let h = halfWidth
        polygon.removeAll(keepingCapacity: true)
        right.removeAll(keepingCapacity: true)
        var previous = segments[segment(0)].normal
        var previousLength = segments[segment(0)].length
        // How much of the current segment's inner side the previous crossing took.
        var taken = 0.0
        let first = chain(0)
        polygon.append(Point(first.x + previous.x * h, first.y + previous.y * h))
        right.append(Point(first.x - previous.x * h, first.y - previous.y * h))
        for k in 1..<(m - 1) {
            let v = chain(k), before = chain(k - 1), after = chain(k + 1)
            let normal = segments[segment(k)].normal, length = segments[segment(k)].length
            let cross = (v.x - before.x) * (after.y - v.y) - (v.y - before.y) * (after.x - v.x)
            let a = Point(v.x + previous.x * h, v.y + previous.y * h), b = Point(v.x + normal.x * h, v.y + normal.y * h)
            let c = Point(v.x - previous.x * h, v.y - previous.y * h), d = Point(v.x - normal.x * h, v.y - normal.y * h)
            // The offsets cross h·tan(θ/2) before and after the point (θ the turn, < 90°).
            let cosTurn = previous.x * normal.x + previous.y * normal.y
            let sinTurn = abs(previous.x * normal.y - previous.y * normal.x)
            let reach = h * sinTurn / (1 + cosTurn)
            let fits = cross != 0 && reach + taken <= previousLength && reach <= length
            let inner = fits ? 1 / (1 + cosTurn) : 0
            let crossing = Point(h * (previous.x + normal.x) * inner, h * (previous.y + normal.y) * inner)
            // The outer offsets meet h / cos(θ/2) from the point: one vertex there instead of
            // two when that is within the tolerance of the round turn (h / cos(θ/2) − h).
            let mitered = mitersSmoothTurns && cosTurn > 0 && ((1 + cosTurn) / 2).squareRoot() * (h + tolerance) >= h
            let miter = mitered ? Point(h * (previous.x + normal.x) / (1 + cosTurn), h * (previous.y + normal.y) / (1 + cosTurn)) : Point.zero
            // The outer side is opposite the turn (as in addJoin).
            if cross > 0 {
                if fits { polygon.append(Point(v.x + crossing.x, v.y + crossing.y)) } else { polygon.append(a); polygon.append(v); polygon.append(b) }
                if mitered { right.append(Point(v.x - miter.x, v.y - miter.y)) } else { right.append(c); right.append(d) }
            } else if cross < 0 {
                if fits { right.append(Point(v.x - crossing.x, v.y - crossing.y)) } else { right.append(c); right.append(v); right.append(d) }
                if mitered { polygon.append(Point(v.x + miter.x, v.y + miter.y)) } else { polygon.append(a); polygon.append(b) }
            } else {
                polygon.append(a); polygon.append(b)
                right.append(c); right.append(d)
            }
            taken = fits ? reach : 0
            previous = normal
            previousLength = length
        }
        let last = chain(m - 1)
        polygon.append(Point(last.x + previous.x * h, last.y + previous.y * h))
        right.append(Point(last.x - previous.x * h, last.y - previous.y * h))
    }

    /// `ReferenceStrokeBuilder.capPoints`, appended to `polygon`.
    private mutating func appendCap(at end: Point, from inner: Point) {
        let dx = end.x - inner.x, dy = end.y - inner.y
        let len = (dx * dx + dy * dy).squareRoot()
        guard len > 0 else { return }
        let ux = dx / len * halfWidth, uy = dy / len * halfWidth
        // The left offset is end + (−uy, ux); the right one end − (−uy, ux).
        if style.cap == .square {
            polygon.append(Point(end.x - uy + ux, end.y + ux + uy))
            polygon.append(Point(end.x + uy + ux, end.y - ux + uy))
            return
        }
        appendArc(at: end, from: atan2(ux, -uy), turning: -Double.pi)
    }

    /// `ReferenceStrokeBuilder.arcPoints`, appended to `polygon`.
    private mutating func appendArc(at c: Point, from start: Double, turning turn: Double) {
        if circle.isEmpty { Self.circleDirections(radius: halfWidth, tolerance: tolerance, into: &circle) }
        let count = circle.count, step = 2 * Double.pi / Double(count)
        guard start.isFinite, turn.isFinite, abs(turn) > 0 else { return }
        // Index of the first vertex past `start` in the direction of the turn.
        let position = start / step
        var index = turn < 0 ? Int(position.rounded(.down)) : Int(position.rounded(.up))
        if abs(Double(index) - position) < 1e-9 { index += turn < 0 ? -1 : 1 }
        var angle = Double(index) * step
        while (turn < 0 ? start - angle : angle - start) < abs(turn) - 1e-9 {
            let d = circle[((index % count) + count) % count]
            polygon.append(Point(c.x + halfWidth * d.cos, c.y + halfWidth * d.sin))
            index += turn < 0 ? -1 : 1
            angle = Double(index) * step
        }
    }

    private mutating func addCircle(at c: Point) {
        if circle.isEmpty { Self.circleDirections(radius: halfWidth, tolerance: tolerance, into: &circle) }
        let r = halfWidth
        polygon.removeAll(keepingCapacity: true)
        for d in circle { polygon.append(Point(c.x + r * d.cos, c.y + r * d.sin)) }
        emitPolygon()
    }

    /// `ReferenceStrokeBuilder.circleDirections`' vertex count; the directions from one cosine
    /// and sine, each the one before turned by the step (the drift after 256 turns is about
    /// 256 ulps, far below a chord's 1e-6 of tolerance).
    static func circleDirections(radius r: Double, tolerance: Double) -> [(cos: Double, sin: Double)] {
        var directions: [(cos: Double, sin: Double)] = []
        circleDirections(radius: r, tolerance: tolerance, into: &directions)
        return directions
    }

    /// `circleDirections(radius:tolerance:)` written over `directions`, in its storage.
    static func circleDirections(radius r: Double, tolerance: Double, into directions: inout [(cos: Double, sin: Double)]) {
        let count = ReferenceStrokeBuilder.circleVertexCount(radius: r, tolerance: tolerance)
        let step = 2 * Double.pi / Double(count)
        let (c, s) = (cos(step), sin(step))
        directions.removeAll(keepingCapacity: true)
        directions.reserveCapacity(count)
        var d = (cos: 1.0, sin: 0.0)
        for _ in 0..<count {
            directions.append(d)
            d = (d.cos * c - d.sin * s, d.sin * c + d.cos * s)
        }
    }

    /// `ReferenceStrokeBuilder.addRoundCorner`.
    private mutating func addRoundCorner(_ lengths: (before: Double, after: Double), _ v: Point, _ a: Point, _ b: Point) {
        let from = atan2(a.y - v.y, a.x - v.x), to = atan2(b.y - v.y, b.x - v.x)
        var turn = to - from
        if turn > Double.pi { turn -= 2 * Double.pi }
        if turn < -Double.pi { turn += 2 * Double.pi }
        guard lengths.before >= halfWidth, lengths.after >= halfWidth, abs(turn) < Double.pi - 1e-6 else {
            addCircle(at: v)
            return
        }
        polygon.removeAll(keepingCapacity: true)
        polygon.append(v); polygon.append(a)
        appendArc(at: v, from: from, turning: turn)
        polygon.append(b)
        emitPolygon()
    }

    /// The polygon of the points given, written out.
    private mutating func addPolygon(_ a: Point, _ b: Point, _ c: Point, _ d: Point? = nil) {
        polygon.removeAll(keepingCapacity: true)
        polygon.append(a); polygon.append(b); polygon.append(c)
        if let d { polygon.append(d) }
        emitPolygon()
    }

    /// `ReferenceStrokeBuilder.addJoin` at point `i` of the contour.
    private mutating func addJoin(at i: Int) {
        let n = points.count, before = i == 0 ? n - 1 : i - 1
        let prev = points[before], v = points[i], next = points[i + 1 == n ? 0 : i + 1]
        let smooth = !corners[i]
        let n0 = segments[before].normal, n1 = segments[i].normal
        let cross = (v.x - prev.x) * (next.y - v.y) - (v.y - prev.y) * (next.x - v.x)
        if abs(n0.x - n1.x) < 1e-12 && abs(n0.y - n1.y) < 1e-12 { return }
        // The outer side is opposite the turn.
        let side: Double = cross > 0 ? -1 : 1
        let a = Point(v.x + n0.x * halfWidth * side, v.y + n0.y * halfWidth * side)
        let b = Point(v.x + n1.x * halfWidth * side, v.y + n1.y * halfWidth * side)
        let join: LineJoin = smooth ? .round : style.join
        switch join {
        case .round:
            // Points inside a flattened curve turn by little: a triangle closes the gap.
            if smooth { addPolygon(v, a, b) } else { addRoundCorner((segments[before].length, segments[i].length), v, a, b) }
        case .bevel:
            addPolygon(v, a, b)
        case .miter:
            let cosTheta = max(-1, min(1, n0.x * n1.x + n0.y * n1.y))
            // Miter length over stroke width = 1 / sin(half the angle between the segments).
            let halfCos = ((1 + cosTheta) / 2).squareRoot()
            if halfCos > 1e-9, 1 / halfCos <= style.miterLimit {
                let mx = n0.x + n1.x, my = n0.y + n1.y
                let len = (mx * mx + my * my).squareRoot()
                let reach = halfWidth / halfCos
                addPolygon(v, a, Point(v.x + mx / len * reach * side, v.y + my / len * reach * side), b)
            } else {
                addPolygon(v, a, b)
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
            polygon.removeAll(keepingCapacity: true)
            polygon.append(Point(end.x + nx, end.y + ny)); polygon.append(Point(end.x + nx + ux, end.y + ny + uy))
            polygon.append(Point(end.x - nx + ux, end.y - ny + uy)); polygon.append(Point(end.x - nx, end.y - ny))
            emitPolygon()
        }
    }

    private mutating func addDot(at p: Point) {
        switch style.cap {
        case .butt: return
        case .round: addCircle(at: p)
        case .square:
            let h = halfWidth
            addPolygon(Point(p.x - h, p.y - h), Point(p.x + h, p.y - h), Point(p.x + h, p.y + h), Point(p.x - h, p.y + h))
        }
    }
}

/// The working buffers of `StrokeOutliner`, kept from one stroke to the next (a surface keeps
/// one): a small stroke made them anew each time, about five allocations and frees, which
/// cost some 3 % of a frame of line art at 512 pixels. What they hold between strokes is
/// never read: each stroke empties or writes over a buffer before reading it.
struct StrokeScratch {
    /// Buffers that grew past this many bytes together are not kept (see `finish(keepingIn:)`).
    static let byteLimit = 1 << 17
    fileprivate var points: [Point] = []
    fileprivate var corners: [Bool] = []
    fileprivate var splits: [Int] = []
    fileprivate var segments: [StrokeOutliner.Segment] = []
    fileprivate var right: [Point] = []
    fileprivate var polygon: [Point] = []
    fileprivate var circle: [(cos: Double, sin: Double)] = []

    init() {}
}
