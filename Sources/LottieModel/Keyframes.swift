import Glibc

/// A Bézier easing handle (`o` or `i` of a keyframe): x is time, y is progress, one entry per
/// dimension when the dimensions ease differently.
public struct EasingHandle: Equatable, Sendable {
    public var x: [Double]
    public var y: [Double]

    public init(x: [Double], y: [Double]) {
        self.x = x
        self.y = y
    }

    public static let linearOut = EasingHandle(x: [0], y: [0])
    public static let linearIn = EasingHandle(x: [1], y: [1])
}

/// The curved path a position travels between two keyframes (`to`/`ti`), with its arc
/// length sampled so progress moves at the eased speed along it.
public struct SpatialCurve: Equatable, Sendable {
    public var from: Vec2, control1: Vec2, control2: Vec2, to: Vec2
    private var lengths: [Double]

    static let samples = 32

    public init(from: Vec2, control1: Vec2, control2: Vec2, to: Vec2) {
        self.from = from; self.control1 = control1; self.control2 = control2; self.to = to
        var lengths = [0.0]
        var previous = from
        for k in 1...Self.samples {
            let p = Self.point(from, control1, control2, to, Double(k) / Double(Self.samples))
            lengths.append(lengths[k - 1] + ((p.x - previous.x) * (p.x - previous.x) + (p.y - previous.y) * (p.y - previous.y)).squareRoot())
            previous = p
        }
        self.lengths = lengths
    }

    /// Whether the control points lie on the line through the curve's two (distinct) ends: the
    /// triangle each makes with the ends has a twice-area of at most `straightTolerance`. Such
    /// a keyframe moves along the straight line at its eased progress, as lottie-ios and
    /// lottie-web both move it, not along the curve's length: control points beyond the ends
    /// would otherwise carry it past an end and back, at another speed.
    public var isStraight: Bool {
        guard from != to else { return false }
        func twiceArea(_ a: Vec2, _ b: Vec2, _ c: Vec2) -> Double { (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) }
        return abs(twiceArea(from, to, control1)) <= Self.straightTolerance && abs(twiceArea(from, to, control2)) <= Self.straightTolerance
    }

    /// In square units of the property (the bound lottie-ios gives its test of the same).
    static let straightTolerance = 0.05

    static func point(_ a: Vec2, _ b: Vec2, _ c: Vec2, _ d: Vec2, _ t: Double) -> Vec2 {
        let u = 1 - t
        let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
        return Vec2(x: w0 * a.x + w1 * b.x + w2 * c.x + w3 * d.x, y: w0 * a.y + w1 * b.y + w2 * c.y + w3 * d.y)
    }

    /// The point a fraction `progress` of the way along the curve's length.
    public func point(atProgress progress: Double) -> Vec2 {
        let total = lengths[Self.samples]
        guard total > 0, progress.isFinite else { return Vec2.interpolate(from, to, progress.isFinite ? progress : 0, perComponent: nil) }
        if progress <= 0 || progress >= 1 {
            // Overshooting easings continue along the straight tangent line.
            return Vec2.interpolate(from, to, progress, perComponent: nil)
        }
        let target = progress * total
        var lo = 0, hi = Self.samples
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if lengths[mid] < target { lo = mid } else { hi = mid }
        }
        let span = lengths[hi] - lengths[lo]
        let f = span > 0 ? (target - lengths[lo]) / span : 0
        return Self.point(from, control1, control2, to, (Double(lo) + f) / Double(Self.samples))
    }
}

// `Keyframe` and `Animated` take any value type; what needs interpolation asks for it in a
// constrained extension. A requirement on the type itself makes the runtime check it each
// time it builds the type's metadata from its mangled name (every array of keyframes does):
// a scan of every protocol conformance record of the binary for each value type, about a
// sixth of a million instructions each at every start.
public struct Keyframe<Value> {
    public var time: Double
    public var value: Value
    /// Where the segment after this keyframe ends: the next keyframe's value, or the legacy `e`.
    public var endValue: Value?
    public var hold: Bool
    public var easeOut: EasingHandle
    public var easeIn: EasingHandle
    public var spatial: SpatialCurve?

    public init(time: Double, value: Value, endValue: Value? = nil, hold: Bool = false,
                easeOut: EasingHandle = .linearOut, easeIn: EasingHandle = .linearIn, spatial: SpatialCurve? = nil) {
        self.time = time
        self.value = value
        self.endValue = endValue
        self.hold = hold
        self.easeOut = easeOut
        self.easeIn = easeIn
        self.spatial = spatial
    }
}

extension Keyframe: Sendable where Value: Sendable {}

/// A property that is either constant or keyframed.
public struct Animated<Value> {
    public var keyframes: [Keyframe<Value>]
    /// A dynamic value that replaces the keyframes while it is set.
    public var provider: (any ValueProvider<Value>)?

    public init(_ constant: Value) {
        keyframes = [Keyframe(time: 0, value: constant)]
    }

    public init(keyframes: [Keyframe<Value>]) {
        precondition(!keyframes.isEmpty, "an animated property needs at least one keyframe")
        self.keyframes = keyframes
    }

    public var isAnimated: Bool { keyframes.count > 1 || provider != nil }
}

extension Animated: Sendable where Value: Sendable {}

extension Animated where Value: Interpolatable {
    // Inlinable so that callers in other modules get a copy specialized for their value
    // type: evaluated unspecialized, every call went through generic metadata look-ups and
    // value-witness copies of whole keyframes (a fifth of a frame's time on stroke-heavy files).
    @inlinable
    public func value(at frame: Double) -> Value {
        if let provider { return provider.value(at: frame) }
        return keyframedValue(at: frame)
    }

    /// The value the file's keyframes give, ignoring any provider.
    @inlinable
    public func keyframedValue(at frame: Double) -> Value {
        if keyframes.count == 1 || !(frame > keyframes[0].time) { return keyframes[0].value }
        if frame >= keyframes[keyframes.count - 1].time { return keyframes[keyframes.count - 1].value }
        // The segment [k_i, k_i+1) holding `frame`.
        var lo = 0, hi = keyframes.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if keyframes[mid].time <= frame { lo = mid } else { hi = mid }
        }
        let k = keyframes[lo]
        if k.hold { return k.value }
        let duration = keyframes[hi].time - k.time
        guard duration > 0 else { return keyframes[hi].value }
        let linear = (frame - k.time) / duration
        let end = k.endValue ?? keyframes[hi].value
        if k.easeOut.x.count > 1 || k.easeIn.x.count > 1 {
            // Easing per dimension: no value reads past the second (x, y), so only those two
            // are eased, and passed without an array made for them at every evaluation.
            let tx = Easing.progress(linear, out: k.easeOut, in: k.easeIn, dimension: 0)
            let ty = Easing.progress(linear, out: k.easeOut, in: k.easeIn, dimension: 1)
            return Value.interpolate(k.value, end, x: tx, y: ty)
        }
        let t = Easing.progress(linear, out: k.easeOut, in: k.easeIn, dimension: 0)
        if let spatial = k.spatial, let point = spatial.point(atProgress: t) as? Value {
            return point
        }
        return Value.interpolate(k.value, end, t, perComponent: nil)
    }
}

/// What the keyframes give at a frame, before it is interpolated: one value as it stands,
/// or two and the eased fraction between them.
public enum KeyframeSpan<Value> {
    case value(Value)
    case between(Value, Value, Double)
}

extension Animated where Value: Interpolatable {
    /// `keyframedValue(at: frame)` before its interpolation: `.between(a, b, t)` stands for
    /// `Value.interpolate(a, b, t, perComponent: nil)`, so that a caller can interpolate into
    /// storage it keeps (a shape's outline) instead of a new value. Nil where the value is not
    /// one plain interpolation (easing per dimension, a spatial curve): read `keyframedValue`.
    @inlinable
    public func keyframedSpan(at frame: Double) -> KeyframeSpan<Value>? {
        if keyframes.count == 1 || !(frame > keyframes[0].time) { return .value(keyframes[0].value) }
        if frame >= keyframes[keyframes.count - 1].time { return .value(keyframes[keyframes.count - 1].value) }
        var lo = 0, hi = keyframes.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if keyframes[mid].time <= frame { lo = mid } else { hi = mid }
        }
        if keyframes[lo].hold { return .value(keyframes[lo].value) }
        let duration = keyframes[hi].time - keyframes[lo].time
        guard duration > 0 else { return .value(keyframes[hi].value) }
        let k = keyframes[lo]
        if k.easeOut.x.count > 1 || k.easeIn.x.count > 1 || k.spatial != nil { return nil }
        let t = Easing.progress((frame - k.time) / duration, out: k.easeOut, in: k.easeIn, dimension: 0)
        return .between(k.value, k.endValue ?? keyframes[hi].value, t)
    }
}

/// Cubic Bézier easing from (0,0) through the out handle and the in handle to (1,1).
@usableFromInline
enum Easing {
    @usableFromInline
    static func progress(_ x: Double, out: EasingHandle, in handle: EasingHandle, dimension d: Int) -> Double {
        func pick(_ v: [Double], _ fallback: Double) -> Double { v.isEmpty ? fallback : v[min(d, v.count - 1)] }
        let x1 = min(1, max(0, pick(out.x, 0))), y1 = pick(out.y, 0)
        let x2 = min(1, max(0, pick(handle.x, 1))), y2 = pick(handle.y, 1)
        if x1 == y1 && x2 == y2 { return x }
        // Solve bx(t) = x by Newton's method, falling back to bisection.
        func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
        }
        func slope(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
        }
        var t = x
        for _ in 0..<8 {
            let err = bezier(t, x1, x2) - x
            if abs(err) < 1e-7 { return bezier(t, y1, y2) }
            let s = slope(t, x1, x2)
            if abs(s) < 1e-6 { break }
            t -= err / s
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<40 {
            let v = bezier(t, x1, x2)
            if abs(v - x) < 1e-7 { break }
            if v < x { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return bezier(t, y1, y2)
    }
}

/// A layer position: one 2D property, or x and y animated separately (`"s": true`).
public enum PositionProperty: Sendable {
    case combined(Animated<Vec2>)
    case split(x: Animated<Double>, y: Animated<Double>)

    public func value(at frame: Double) -> Vec2 {
        switch self {
        case .combined(let p): return p.value(at: frame)
        case .split(let x, let y): return Vec2(x: x.value(at: frame), y: y.value(at: frame))
        }
    }

    public var isAnimated: Bool {
        switch self {
        case .combined(let p): return p.isAnimated
        case .split(let x, let y): return x.isAnimated || y.isAnimated
        }
    }
}
