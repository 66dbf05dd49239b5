import Glibc

/// How an animator's progress follows time (UIKit's timing parameters).
public enum TimingCurve: Equatable, Sendable {
    case linear
    case easeIn
    case easeOut
    case easeInOut
    /// A cubic Bézier from (0,0) to (1,1) through two control points.
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
    /// A spring that settles within the animator's duration; `dampingRatio` 1 is critical
    /// (no overshoot), lower bounces, higher creeps. Initial velocity is in whole distances
    /// per second. The stiffness is chosen so that, without initial velocity, the oscillator's
    /// envelope has fallen to `settlingThreshold` exactly at the end of the duration.
    case spring(dampingRatio: Double, initialVelocity: Double = 0)
    /// A physical spring (UIKit's mass/stiffness/damping): it moves at its own pace, and lasts
    /// its own settling time (`settlingDuration`), not a duration given to the animator.
    case springPhysics(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double = 0)

    /// A spring counts as settled once the envelope of its distance from the target stays
    /// below this fraction of the whole move (0.1 %: under half a pixel on a 1080p screen).
    public static let settlingThreshold = 0.001
    /// A spring without damping never settles; it is cut after this many seconds.
    public static let maximumSettlingDuration = 60.0

    /// How long the animation lasts when its timing decides that itself: a physical spring's
    /// settling time (its envelope down to `settlingThreshold`); nil for every other curve,
    /// which follows the animator's duration.
    public var settlingDuration: Double? {
        guard case .springPhysics(let mass, let stiffness, let damping, let velocity) = self else { return nil }
        let (zeta, omega) = Self.physics(mass: mass, stiffness: stiffness, damping: damping)
        return Self.settlingTime(zeta: zeta, omega: omega, velocity: velocity)
    }

    /// Progress (0 at the start, 1 at the end; a spring may overshoot) at `fraction` of an
    /// animation lasting `duration` seconds. A physical spring ignores `duration`: fraction 1
    /// is its own settling time.
    public func progress(atFraction fraction: Double, duration: Double) -> Double {
        let f = min(max(fraction, 0), 1)
        if f >= 1 { return 1 }
        switch self {
        case .linear: return f
        case .easeIn: return Self.bezier(f, 0.42, 0, 1, 1)
        case .easeOut: return Self.bezier(f, 0, 0, 0.58, 1)
        case .easeInOut: return Self.bezier(f, 0.42, 0, 0.58, 1)
        case .cubicBezier(let x1, let y1, let x2, let y2): return Self.bezier(f, x1, y1, x2, y2)
        case .spring(let ratio, let velocity):
            let zeta = min(max(ratio.isFinite ? ratio : 1, 0.01), 10)
            let d = max(duration, 1e-6)
            // Settling time scales as 1/ω when there is no initial velocity, so the time at
            // ω = 1 divided by the duration is the ω that settles exactly at the end.
            // (At ω = 1 time is dimensionless: no cap in seconds applies; ζ ≥ 0.01 keeps it finite.)
            let omega = Self.settlingTime(zeta: zeta, omega: 1, velocity: 0, limit: .greatestFiniteMagnitude) / d
            return Self.spring(t: f * d, zeta: zeta, omega: omega, velocity: velocity)
        case .springPhysics(let mass, let stiffness, let damping, let velocity):
            let (zeta, omega) = Self.physics(mass: mass, stiffness: stiffness, damping: damping)
            let settling = Self.settlingTime(zeta: zeta, omega: omega, velocity: velocity)
            return Self.spring(t: f * settling, zeta: zeta, omega: omega, velocity: velocity)
        }
    }

    /// Damping ratio and natural frequency of m·x'' + c·x' + k·x = 0.
    static func physics(mass: Double, stiffness: Double, damping: Double) -> (zeta: Double, omega: Double) {
        let m = mass.isFinite ? max(mass, 1e-6) : 1, k = stiffness.isFinite ? max(stiffness, 1e-6) : 1
        let c = damping.isFinite ? max(damping, 0) : 0
        return (c / (2 * (k * m).squareRoot()), (k / m).squareRoot())
    }

    /// Displacement from the target of the oscillator below, x(0) = −1, x'(0) = v0, written
    /// as the terms whose magnitudes bound it: |x(t)| ≤ Σ |amplitude|·e^{rate·t}, plus for
    /// critical damping a term growing linearly in t.
    private static func envelope(t: Double, zeta: Double, omega: Double, velocity v0: Double) -> Double {
        let x0 = -1.0
        if zeta < 1 {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            let b = (v0 + zeta * omega * x0) / wd
            return (x0 * x0 + b * b).squareRoot() * exp(-zeta * omega * t)
        } else if zeta == 1 {
            return (abs(x0) + abs(v0 + omega * x0) * t) * exp(-omega * t)
        } else {
            let s = omega * (zeta * zeta - 1).squareRoot()
            let r1 = -zeta * omega + s, r2 = -zeta * omega - s
            let c2 = (v0 - r1 * x0) / (r2 - r1), c1 = x0 - c2
            return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        }
    }

    /// The time after which the envelope stays below `settlingThreshold`, at most `limit`.
    /// Every envelope above either only falls or rises once and then falls, so the times
    /// where it is above the threshold form one interval from 0, and bisection finds its end.
    static func settlingTime(zeta: Double, omega: Double, velocity: Double, limit: Double = maximumSettlingDuration) -> Double {
        let v0 = velocity.isFinite ? velocity : 0
        guard zeta > 0, omega > 0 else { return limit }
        func above(_ t: Double) -> Bool { envelope(t: t, zeta: zeta, omega: omega, velocity: v0) > settlingThreshold }
        var hi = 1 / omega
        while above(hi) {
            if hi >= limit { return limit }
            hi = min(hi * 2, limit)
        }
        var lo = 0.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if above(mid) { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// Closed-form damped harmonic oscillator moving from 0 to 1 with initial velocity v0.
    static func spring(t: Double, zeta: Double, omega: Double, velocity v0: Double) -> Double {
        // Displacement from the target: x(0) = -1, x'(0) = v0.
        let x0 = -1.0
        let x: Double
        if zeta < 1 {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            let a = x0, b = (v0 + zeta * omega * x0) / wd
            x = exp(-zeta * omega * t) * (a * cos(wd * t) + b * sin(wd * t))
        } else if zeta == 1 {
            x = exp(-omega * t) * (x0 + (v0 + omega * x0) * t)
        } else {
            let s = omega * (zeta * zeta - 1).squareRoot()
            let r1 = -zeta * omega + s, r2 = -zeta * omega - s
            let c2 = (v0 - r1 * x0) / (r2 - r1), c1 = x0 - c2
            x = c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
        return 1 + x
    }

    /// y of the cubic Bézier easing at x = f (solved for the curve parameter).
    static func bezier(_ f: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func at(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
        }
        var lo = 0.0, hi = 1.0, t = f
        for _ in 0..<60 {
            let x = at(t, x1, x2)
            if abs(x - f) < 1e-12 { break }
            if x < f { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return at(t, y1, y2)
    }
}
