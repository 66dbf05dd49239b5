import Glibc
import LottieModel
import Raster

/// Evaluates fills, strokes and gradients of the model at one frame into raster paints.
enum StyleEvaluation {
    /// Read in place from the item at `item` (passed as a value, its whole kind was copied).
    static func drawOp(for item: UnsafePointer<ShapeItem>, at frame: Double, nodeIDs: [Int], matrix: Matrix, opacity: Double) -> DrawOp? {
        switch item.pointee.kind {
        case .fill(let color, let fillOpacity, let evenOdd):
            let o = clamp01(fillOpacity.value(at: frame) / 100)
            return DrawOp(kind: .fill(.solid(color.value(at: frame).color), evenOdd ? .evenOdd : .nonZero),
                          opacity: o * opacity, nodeIDs: nodeIDs, matrix: matrix)
        case .stroke(let s):
            let width = s.width.value(at: frame)
            guard width.isFinite, width > 0 else { return nil }
            let style = strokeStyle(width: width, cap: s.lineCap, join: s.lineJoin, miterLimit: s.miterLimit, dashes: s.dashes, at: frame)
            return DrawOp(kind: .stroke(.solid(s.color.value(at: frame).color), style),
                          opacity: clamp01(s.opacity.value(at: frame) / 100) * opacity, nodeIDs: nodeIDs, matrix: matrix)
        case .gradientFill(let g):
            let paint = gradientPaint(isRadial: g.isRadial, start: g.start, end: g.end, highlightLength: g.highlightLength,
                                      highlightAngle: g.highlightAngle, colors: g.colors, at: frame)
            return DrawOp(kind: .fill(paint, g.evenOdd ? .evenOdd : .nonZero),
                          opacity: clamp01(g.opacity.value(at: frame) / 100) * opacity, nodeIDs: nodeIDs, matrix: matrix)
        case .gradientStroke(let g):
            let width = g.width.value(at: frame)
            guard width.isFinite, width > 0 else { return nil }
            let paint = gradientPaint(isRadial: g.isRadial, start: g.start, end: g.end, highlightLength: g.highlightLength,
                                      highlightAngle: g.highlightAngle, colors: g.colors, at: frame)
            let style = strokeStyle(width: width, cap: g.lineCap, join: g.lineJoin, miterLimit: g.miterLimit, dashes: g.dashes, at: frame)
            return DrawOp(kind: .stroke(paint, style),
                          opacity: clamp01(g.opacity.value(at: frame) / 100) * opacity, nodeIDs: nodeIDs, matrix: matrix)
        default:
            return nil
        }
    }

    static func strokeStyle(width: Double, cap: Int, join: Int, miterLimit: Double, dashes: [Dash], at frame: Double) -> StrokeStyle {
        var style = StrokeStyle()
        style.width = width
        style.cap = cap == 2 ? .round : cap == 3 ? .square : .butt
        style.join = join == 2 ? .round : join == 3 ? .bevel : .miter
        style.miterLimit = miterLimit > 0 ? miterLimit : 4
        var pattern: [Double] = []
        var dashOffset = 0.0
        for dash in dashes {
            let v = dash.value.value(at: frame)
            switch dash.kind {
            case "o": dashOffset = v
            default: pattern.append(max(0, v.isFinite ? v : 0))
            }
        }
        // An odd pattern repeats to make dash/gap pairs, as in SVG.
        if pattern.count % 2 == 1 { pattern += pattern }
        if pattern.reduce(0, +) > 0 {
            style.dashes = pattern
            style.dashOffset = dashOffset
        }
        return style
    }

    static func gradientPaint(isRadial: Bool, start: Animated<Vec2>, end: Animated<Vec2>, highlightLength: Animated<Double>?,
                              highlightAngle: Animated<Double>?, colors: Animated<GradientColors>, at frame: Double) -> Paint {
        let s = start.value(at: frame).point, e = end.value(at: frame).point
        let stops = gradientStops(colors.value(at: frame))
        if !isRadial {
            return .gradient(.linear(start: s, end: e, stops: stops), .identity)
        }
        let radius = ((e.x - s.x) * (e.x - s.x) + (e.y - s.y) * (e.y - s.y)).squareRoot()
        // The highlight moves the focal point from the centre towards the edge, along the
        // start→end direction turned by the highlight angle.
        let length = max(-0.99, min(0.99, (highlightLength?.value(at: frame) ?? 0) / 100))
        let angle = atan2(e.y - s.y, e.x - s.x) + (highlightAngle?.value(at: frame) ?? 0) * degreesToRadians
        let focal = Point(s.x + cos(angle) * radius * length, s.y + sin(angle) * radius * length)
        return .gradient(.radial(center: s, radius: radius, focal: focal, stops: stops), .identity)
    }

    /// More stops than this are thinned evenly before merging: the shader's colour table has
    /// far fewer entries, and a file with a million stops must not cost a million per frame.
    static let maxStops = 1024

    /// Merges the colour stops and the opacity stops of a Lottie gradient into one list of
    /// stops carrying both, at the union of their offsets: `gradientStopsReference`'s stops.
    /// Stops a file lists in order (as files do) are not sorted again, and the union of their
    /// offsets is merged from the two ordered lists, not hashed into a set and sorted: each
    /// gradient of each frame made a set, three arrays and two sorts for a few stops.
    static func gradientStops(_ g: GradientColors) -> [GradientStop] {
        let colors = thinned(g.colorStops)
        let alphas = thinned(g.alphaStops)
        guard !colors.isEmpty else { return [GradientStop(offset: 0, color: .clear)] }
        // A NaN offset or a negative zero (which a set keeps in either order with 0) takes
        // the reference, as do stops out of order.
        guard inPlainOrder(colors.lazy.map { $0.offset }), inPlainOrder(alphas.lazy.map { $0.offset }) else { return gradientStopsReference(g) }
        var stops: [GradientStop] = []
        stops.reserveCapacity(colors.count + alphas.count)
        var colorCursor = 0, alphaCursor = 0
        var i = 0, j = 0
        // Clamping keeps each list's order, so the union in order is a merge; equal offsets
        // are one stop, as in the set.
        while i < colors.count || j < alphas.count {
            let ci = i < colors.count ? clamp01(colors[i].offset) : .infinity
            let aj = j < alphas.count ? clamp01(alphas[j].offset) : .infinity
            let t = min(ci, aj)
            if ci == t { i += 1 }
            if aj == t { j += 1 }
            if let last = stops.last, last.offset == t { continue }
            let (r, gg, b) = interpolateColor(colors, at: t, cursor: &colorCursor)
            let a = alphas.isEmpty ? 1 : interpolateAlpha(alphas, at: t, cursor: &alphaCursor)
            stops.append(GradientStop(offset: t, color: Color(r: clamp01(r), g: clamp01(gg), b: clamp01(b), a: clamp01(a))))
        }
        return stops
    }

    /// Whether `offsets` are in non-decreasing order with no NaN and no negative zero.
    private static func inPlainOrder(_ offsets: some Sequence<Double>) -> Bool {
        var previous = -Double.infinity
        for offset in offsets {
            guard !offset.isNaN, !(offset == 0 && offset.sign == .minus), offset >= previous else { return false }
            previous = offset
        }
        return true
    }

    /// `gradientStops` as first written, the reference: both lists sorted, the union of their
    /// offsets found through a set, then sorted, and both lists walked once, side by side.
    static func gradientStopsReference(_ g: GradientColors) -> [GradientStop] {
        let colors = thinned(g.colorStops).sorted { $0.offset < $1.offset }
        let alphas = thinned(g.alphaStops).sorted { $0.offset < $1.offset }
        guard !colors.isEmpty else { return [GradientStop(offset: 0, color: .clear)] }
        let offsets = Array(Set((colors.map { $0.offset } + alphas.map { $0.offset }).map { clamp01($0) })).sorted()
        var colorCursor = 0, alphaCursor = 0
        return offsets.map { t in
            let (r, gg, b) = interpolateColor(colors, at: t, cursor: &colorCursor)
            let a = alphas.isEmpty ? 1 : interpolateAlpha(alphas, at: t, cursor: &alphaCursor)
            return GradientStop(offset: t, color: Color(r: clamp01(r), g: clamp01(gg), b: clamp01(b), a: clamp01(a)))
        }
    }

    static func thinned<T>(_ stops: [T]) -> [T] {
        guard stops.count > maxStops else { return stops }
        let step = (stops.count + maxStops - 1) / maxStops
        return stride(from: 0, to: stops.count, by: step).map { stops[$0] } + [stops[stops.count - 1]]
    }

    /// The colour at `t` of stops sorted by offset; `cursor` (the first stop at or after the
    /// previous, smaller `t`) only moves forward.
    private static func interpolateColor(_ stops: [(offset: Double, r: Double, g: Double, b: Double)], at t: Double,
                                         cursor: inout Int) -> (Double, Double, Double) {
        if t <= stops[0].offset { return (stops[0].r, stops[0].g, stops[0].b) }
        cursor = max(cursor, 1)
        while cursor < stops.count, t > stops[cursor].offset { cursor += 1 }
        guard cursor < stops.count else {
            let last = stops[stops.count - 1]
            return (last.r, last.g, last.b)
        }
        let a = stops[cursor - 1], b = stops[cursor]
        let f = b.offset > a.offset ? (t - a.offset) / (b.offset - a.offset) : 0
        return (a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f)
    }

    private static func interpolateAlpha(_ stops: [(offset: Double, alpha: Double)], at t: Double, cursor: inout Int) -> Double {
        if t <= stops[0].offset { return stops[0].alpha }
        cursor = max(cursor, 1)
        while cursor < stops.count, t > stops[cursor].offset { cursor += 1 }
        guard cursor < stops.count else { return stops[stops.count - 1].alpha }
        let a = stops[cursor - 1], b = stops[cursor]
        let f = b.offset > a.offset ? (t - a.offset) / (b.offset - a.offset) : 0
        return a.alpha + (b.alpha - a.alpha) * f
    }
}
