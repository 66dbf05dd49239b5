/// Lengths along a path, and the pieces of it between two lengths (trim paths, dashes).
/// Curves stay curves: a piece of a cubic is the cubic split at the matching parameters.
public struct PathMeasure {
    struct Segment {
        var p0: Point, c1: Point, c2: Point, p3: Point
        var isLine: Bool
        var start: Double
        var length: Double
        var contour: Int
    }

    static let samples = 24
    private var segments: [Segment] = []
    /// Start and end length of every contour, and whether it was closed.
    public private(set) var contours: [(start: Double, end: Double, closed: Bool)] = []
    public private(set) var length: Double = 0

    public init(_ path: Path) {
        measure(path)
    }

    /// An empty measure, to measure paths into (`remeasure`).
    public init() {}

    /// Measures `path` anew, as `PathMeasure(path)` would, keeping the storage of its lists: a
    /// trim evaluated at every frame then allocates and frees none.
    public mutating func remeasure(_ path: Path) {
        segments.removeAll(keepingCapacity: true)
        contours.removeAll(keepingCapacity: true)
        length = 0
        measure(path)
    }

    /// Adds the segments and contours of `path` to this empty measure.
    private mutating func measure(_ path: Path) {
        segments.reserveCapacity(path.elements.count)
        var start = Point.zero, last = Point.zero
        var contour = -1
        var contourStartLength = 0.0
        var open = false
        func finish(closed: Bool) {
            guard open else { return }
            contours.append((contourStartLength, length, closed))
            open = false
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                finish(closed: false)
                contour += 1
                contourStartLength = length
                open = true
                start = p; last = p
            case .line(let p):
                if !open { contour += 1; contourStartLength = length; open = true; start = last }
                addLine(last, p, contour: contour); last = p
            case .cubic(let c1, let c2, let p):
                if !open { contour += 1; contourStartLength = length; open = true; start = last }
                addCubic(last, c1, c2, p, contour: contour); last = p
            case .close:
                if open {
                    addLine(last, start, contour: contour)
                    finish(closed: true)
                }
                last = start
            }
        }
        finish(closed: false)
    }

    /// Arc length of a cubic at t = k / samples, k = 0...samples, for each k in turn: the sum of
    /// the chords so far. Its last value is the length `addCubic` keeps; `parameter` walks it
    /// again for the one or two segments a piece starts or ends in, instead of every cubic
    /// keeping an array of it.
    @inline(__always)
    static func chordLengths(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point, _ body: (Int, Double) -> Bool) {
        var prev = p0, total = 0.0
        if !body(0, 0) { return }
        for k in 1...samples {
            let p = point(p0, c1, c2, p3, Double(k) / Double(samples))
            total += ((p.x - prev.x) * (p.x - prev.x) + (p.y - prev.y) * (p.y - prev.y)).squareRoot()
            if !body(k, total) { return }
            prev = p
        }
    }

    private mutating func addLine(_ a: Point, _ b: Point, contour: Int) {
        let len = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        guard len > 0, len.isFinite else { return }
        segments.append(Segment(p0: a, c1: a, c2: b, p3: b, isLine: true, start: length, length: len, contour: contour))
        length += len
    }

    private mutating func addCubic(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point, contour: Int) {
        var total = 0.0
        Self.chordLengths(p0, c1, c2, p3) { _, sum in total = sum; return true }
        guard total > 0, total.isFinite else { return }
        segments.append(Segment(p0: p0, c1: c1, c2: c2, p3: p3, isLine: false, start: length, length: total, contour: contour))
        length += total
    }

    static func point(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return Point(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// The parameter of a cubic segment at arc length `s` from its start: between the samples
    /// whose lengths hold `s`, linearly. Walks the chord lengths to the first sample at or past
    /// `s`, which is the pair `referenceParameter`'s binary search over the whole table finds
    /// (the lengths never decrease), from the same sums.
    func parameter(_ seg: Segment, _ s: Double) -> Double {
        if seg.isLine { return s / seg.length }
        var lower = 0.0, upper = 0.0, hi = Self.samples
        Self.chordLengths(seg.p0, seg.c1, seg.c2, seg.p3) { k, sum in
            if k == 0 { return true }
            lower = upper
            upper = sum
            if !(sum < s) { hi = k; return false }
            return true
        }
        let span = upper - lower
        let f = span > 0 ? (s - lower) / span : 0
        return (Double(hi - 1) + f) / Double(Self.samples)
    }

    /// The reference for `parameter`: the whole table of sample lengths, searched in halves.
    func referenceParameter(_ seg: Segment, _ s: Double) -> Double {
        if seg.isLine { return s / seg.length }
        var table: [Double] = []
        Self.chordLengths(seg.p0, seg.c1, seg.c2, seg.p3) { _, sum in table.append(sum); return true }
        var lo = 0, hi = table.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if table[mid] < s { lo = mid } else { hi = mid }
        }
        let span = table[hi] - table[lo]
        let f = span > 0 ? (s - table[lo]) / span : 0
        return (Double(lo) + f) / Double(Self.samples)
    }

    /// The cubic segments, for tests of `parameter`.
    var cubicSegments: [Segment] { segments.filter { !$0.isLine } }

    /// The cubic of `seg` between parameters t0 and t1.
    private static func split(_ seg: Segment, _ t0: Double, _ t1: Double) -> (Point, Point, Point, Point) {
        func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point { Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }
        // Left part up to t1.
        var p0 = seg.p0, p1 = seg.c1, p2 = seg.c2, p3 = seg.p3
        if t1 < 1 {
            let ab = lerp(p0, p1, t1), bc = lerp(p1, p2, t1), cd = lerp(p2, p3, t1)
            let abc = lerp(ab, bc, t1), bcd = lerp(bc, cd, t1)
            let m = lerp(abc, bcd, t1)
            p1 = ab; p2 = abc; p3 = m
        }
        // Right part of that from t0 / t1.
        if t0 > 0 {
            let t = t1 > 0 ? t0 / t1 : 0
            let ab = lerp(p0, p1, t), bc = lerp(p1, p2, t), cd = lerp(p2, p3, t)
            let abc = lerp(ab, bc, t), bcd = lerp(bc, cd, t)
            p0 = lerp(abc, bcd, t); p1 = bcd; p2 = cd
        }
        return (p0, p1, p2, p3)
    }

    /// The part of the path from length `from` to length `to`, as open pieces (a contour
    /// that lies wholly inside stays closed).
    public func segment(from: Double, to: Double) -> Path {
        var path = Path()
        path.reserveCapacity(elementCount(from: from, to: to))
        segment(from: from, to: to, appendingTo: &path)
        return path
    }

    /// How many elements `segment(from:to:)` makes: sized once, the piece's storage is not
    /// moved as it grows (a trim of a path of many curves moved it a few times a frame).
    public func elementCount(from: Double, to: Double) -> Int {
        let a = max(0, from), b = min(length, to)
        guard b > a else { return 0 }
        var count = 0, lastContour = -1
        for seg in segments {
            if seg.start + seg.length <= a { continue }
            if seg.start >= b { break }
            // A move where a contour starts, and room for its close.
            if seg.contour != lastContour { count += 2; lastContour = seg.contour }
            count += 1
        }
        return count
    }

    /// `segment(from:to:)` appended to `path` (its elements, and where it leaves the path's
    /// current point, as `path.append(segment(from:to:))`; an empty piece leaves the path as
    /// it was), with no path of its own made: a trim that wraps past the end and a dash
    /// pattern write all their pieces into one (`PathMeasureAppendTests`).
    public func segment(from: Double, to: Double, appendingTo path: inout Path) {
        let a = max(0, from), b = min(length, to)
        guard b > a else { return }
        var lastContour = -1
        var lastEnd: Point? = nil
        for seg in segments {
            let s0 = seg.start, s1 = seg.start + seg.length
            if s1 <= a { continue }
            if s0 >= b { break }
            let t0 = s0 >= a ? 0 : parameter(seg, a - s0)
            let t1 = s1 <= b ? 1 : parameter(seg, b - s0)
            let piece: (Point, Point, Point, Point)
            if seg.isLine {
                func at(_ t: Double) -> Point { Point(seg.p0.x + (seg.p3.x - seg.p0.x) * t, seg.p0.y + (seg.p3.y - seg.p0.y) * t) }
                let p = at(t0), q = at(t1)
                piece = (p, p, q, q)
            } else {
                piece = Self.split(seg, t0, t1)
            }
            if seg.contour != lastContour || lastEnd == nil {
                closeIfWhole(&path, contour: lastContour, a, b)
                path.move(to: piece.0)
                lastContour = seg.contour
            }
            if seg.isLine { path.line(to: piece.3) } else { path.cubic(to: piece.3, control1: piece.1, control2: piece.2) }
            lastEnd = piece.3
        }
        closeIfWhole(&path, contour: lastContour, a, b)
    }

    private func closeIfWhole(_ path: inout Path, contour: Int, _ a: Double, _ b: Double) {
        guard contour >= 0, contour < contours.count else { return }
        let range = contours[contour]
        if range.closed && a <= range.start + 1e-9 && b >= range.end - 1e-9 { path.close() }
    }
}

/// A zero-length dash: a piece too short to see but long enough to have a direction, so
/// round and square caps draw a dot turned along the path (butt caps draw nothing), as
/// Core Graphics and SVG renderers do.
private func capDot(_ measure: PathMeasure, at position: Double, contour: (start: Double, end: Double, closed: Bool)) -> Path {
    let epsilon = 1e-3
    if position + epsilon <= contour.end { return measure.segment(from: position, to: position + epsilon) }
    return measure.segment(from: max(contour.start, position - epsilon), to: position)
}

/// Most pieces (dashes and gaps) one stroke's pattern may cut its path into. A pattern finer
/// than this along its path (a period of 1e-3 on a long path, a denormal gap) would cost time
/// in proportion to length / period, with dashes far below a pixel that cannot be told apart
/// anyway; such a stroke is drawn solid instead, as an all-zero pattern is.
public let maxDashPieces = 100_000

/// How many pieces `dashed` would cut `measure`'s contours into with a pattern of period
/// `total` and `count` entries: infinite when the period is too small to measure against
/// the length (a denormal period overflows the quotient).
func dashPieceEstimate(_ measure: PathMeasure, total: Double, count: Int) -> Double {
    var pieces = 0.0
    for contour in measure.contours {
        pieces += ((contour.end - contour.start) / total + 2) * Double(count)
    }
    return pieces.isFinite ? pieces : .infinity
}

/// Whether `dashed` draws `path` solid because the pattern is too fine for `maxDashPieces`.
public func dashPatternIsTooFine(_ path: Path, dashes: [Double]) -> Bool {
    let pattern = dashes.map { $0.isFinite ? max(0, $0) : 0 }
    let total = pattern.reduce(0, +)
    guard !pattern.isEmpty, total > 0, total.isFinite else { return false }
    return dashPieceEstimate(PathMeasure(path), total: total, count: pattern.count) > Double(maxDashPieces)
}

/// The dashes of a path: each contour starts the pattern anew, shifted by `offset`. A pattern
/// that would cut the path into more than `maxDashPieces` pieces leaves it solid, so the cost
/// is bounded by that figure, not by length / period.
public func dashed(_ path: Path, dashes: [Double], offset: Double) -> Path {
    let pattern = dashes.map { $0.isFinite ? max(0, $0) : 0 }
    let total = pattern.reduce(0, +)
    guard !pattern.isEmpty, total > 0, total.isFinite else { return path }
    let measure = PathMeasure(path)
    guard dashPieceEstimate(measure, total: total, count: pattern.count) <= Double(maxDashPieces) else { return path }
    var result = Path()
    var budget = maxDashPieces  // a safety net: the estimate above already keeps within it
    for contour in measure.contours {
        var phase = offset.isFinite ? offset.truncatingRemainder(dividingBy: total) : 0
        if phase < 0 { phase += total }
        var index = 0
        var steps = 0
        // `>`: a zero-length dash where the contour starts is kept (it draws a cap dot).
        while phase > pattern[index] && steps < 2 * pattern.count {
            steps += 1
            phase -= pattern[index]
            index = (index + 1) % pattern.count
        }
        var remaining = pattern[index] - phase
        var position = contour.start
        // Every step counts against the budget: a dash too small to move `position` (5e-324
        // beside a length of 100) would otherwise never end the loop.
        while position < contour.end && budget > 0 {
            budget -= 1
            let end = min(position + remaining, contour.end)
            if index % 2 == 0 && end > position {
                measure.segment(from: position, to: end, appendingTo: &result)
            } else if index % 2 == 0 && pattern[index] == 0 {
                result.append(capDot(measure, at: position, contour: contour))
            }
            position = end
            index = (index + 1) % pattern.count
            remaining = pattern[index]
        }
    }
    return result
}
