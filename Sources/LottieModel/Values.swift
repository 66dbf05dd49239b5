/// The kinds of values Lottie animates.

public struct Vec2: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A colour with straight components 0...1.
public struct RGBA: Equatable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double

    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
}

/// A Bézier shape as Lottie stores it: vertices with in and out tangents relative to them.
public struct BezierPath: Equatable, Sendable {
    public var closed: Bool
    public var vertices: [Vec2]
    public var inTangents: [Vec2]
    public var outTangents: [Vec2]

    public init(closed: Bool, vertices: [Vec2], inTangents: [Vec2], outTangents: [Vec2]) {
        self.closed = closed
        self.vertices = vertices
        self.inTangents = inTangents
        self.outTangents = outTangents
    }
}

/// Gradient stops as Lottie packs them: `colorCount` groups of (offset, r, g, b), then
/// optionally (offset, alpha) pairs.
public struct GradientColors: Equatable, Sendable {
    public var colorCount: Int
    public var raw: [Double]

    public init(colorCount: Int, raw: [Double]) {
        self.colorCount = colorCount
        self.raw = raw
    }

    public var colorStops: [(offset: Double, r: Double, g: Double, b: Double)] {
        var stops: [(offset: Double, r: Double, g: Double, b: Double)] = []
        let n = min(colorCount, raw.count / 4)
        // Sized once: grown stop by stop, each gradient of each frame reallocated it several times.
        stops.reserveCapacity(max(0, n))
        for i in 0..<max(0, n) {
            stops.append((raw[i * 4], raw[i * 4 + 1], raw[i * 4 + 2], raw[i * 4 + 3]))
        }
        return stops
    }

    public var alphaStops: [(offset: Double, alpha: Double)] {
        let start = max(0, colorCount) * 4
        guard raw.count >= start + 2 else { return [] }
        var stops: [(offset: Double, alpha: Double)] = []
        stops.reserveCapacity((raw.count - start) / 2)
        var i = start
        while i + 1 < raw.count {
            stops.append((raw[i], raw[i + 1]))
            i += 2
        }
        return stops
    }
}

/// A value that keyframes can move between.
public protocol Interpolatable: Sendable {
    /// The value a fraction `t` of the way from `a` to `b`; `perComponent` carries one
    /// fraction per dimension when the easing differs per dimension.
    static func interpolate(_ a: Self, _ b: Self, _ t: Double, perComponent: [Double]?) -> Self
    /// The value with easing per dimension: `tx` the fraction of the first dimension, `ty`
    /// of the second (a value with one dimension takes `tx`). The same as `perComponent: [tx, ty]`.
    static func interpolate(_ a: Self, _ b: Self, x tx: Double, y ty: Double) -> Self
}

extension Interpolatable {
    /// The reference: the fractions passed as an array.
    public static func interpolate(_ a: Self, _ b: Self, x tx: Double, y ty: Double) -> Self {
        interpolate(a, b, tx, perComponent: [tx, ty])
    }
}

extension Double: Interpolatable {
    public static func interpolate(_ a: Double, _ b: Double, _ t: Double, perComponent: [Double]?) -> Double {
        a + (b - a) * t
    }

    /// One dimension: the first fraction.
    public static func interpolate(_ a: Double, _ b: Double, x tx: Double, y ty: Double) -> Double {
        a + (b - a) * tx
    }
}

extension Vec2: Interpolatable {
    public static func interpolate(_ a: Vec2, _ b: Vec2, _ t: Double, perComponent: [Double]?) -> Vec2 {
        let tx = perComponent?.first ?? t
        let ty = perComponent.flatMap { $0.count > 1 ? $0[1] : nil } ?? tx
        return Vec2(x: a.x + (b.x - a.x) * tx, y: a.y + (b.y - a.y) * ty)
    }

    /// As `interpolate(a, b, tx, perComponent: [tx, ty])`, with no array made.
    public static func interpolate(_ a: Vec2, _ b: Vec2, x tx: Double, y ty: Double) -> Vec2 {
        Vec2(x: a.x + (b.x - a.x) * tx, y: a.y + (b.y - a.y) * ty)
    }
}

extension RGBA: Interpolatable {
    public static func interpolate(_ a: RGBA, _ b: RGBA, _ t: Double, perComponent: [Double]?) -> RGBA {
        RGBA(r: a.r + (b.r - a.r) * t, g: a.g + (b.g - a.g) * t, b: a.b + (b.b - a.b) * t, a: a.a + (b.a - a.a) * t)
    }
}

extension BezierPath: Interpolatable {
    /// Shapes with the same vertex count morph point by point; others jump at the end.
    public static func interpolate(_ a: BezierPath, _ b: BezierPath, _ t: Double, perComponent: [Double]?) -> BezierPath {
        guard a.vertices.count == b.vertices.count, a.inTangents.count == b.inTangents.count,
              a.outTangents.count == b.outTangents.count else { return t < 1 ? a : b }
        func mix(_ p: [Vec2], _ q: [Vec2]) -> [Vec2] {
            var out = p
            for i in out.indices { out[i] = Vec2(x: p[i].x + (q[i].x - p[i].x) * t, y: p[i].y + (q[i].y - p[i].y) * t) }
            return out
        }
        return BezierPath(closed: a.closed, vertices: mix(a.vertices, b.vertices),
                          inTangents: mix(a.inTangents, b.inTangents), outTangents: mix(a.outTangents, b.outTangents))
    }
}

extension GradientColors: Interpolatable {
    public static func interpolate(_ a: GradientColors, _ b: GradientColors, _ t: Double, perComponent: [Double]?) -> GradientColors {
        guard a.raw.count == b.raw.count else { return t < 1 ? a : b }
        var raw = a.raw
        for i in raw.indices { raw[i] += (b.raw[i] - a.raw[i]) * t }
        return GradientColors(colorCount: a.colorCount, raw: raw)
    }
}
