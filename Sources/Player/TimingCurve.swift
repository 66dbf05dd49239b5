import Foundation

/// How an animator's progress follows time (UIKit's timing parameters).
public enum TimingCurve: Equatable, Sendable {
    case linear
    case easeIn
    case easeOut
    case easeInOut
    /// A cubic Bézier from (0,0) to (1,1) through two control points.
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
    /// A spring that settles within the animator's duration; `dampingRatio` 1 is critical
    /// (no overshoot), lower bounces. Initial velocity is in whole distances per second.
    case spring(dampingRatio: Double, initialVelocity: Double = 0)
    /// A physical spring: it moves at its own pace; the animator ends when its duration is up.
    case springPhysics(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double = 0)

    /// Progress (0 at the start, 1 at the end; a spring may overshoot) at `fraction` of an
    /// animation lasting `duration` seconds.
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
            let zeta = min(max(ratio, 0.01), 10)
            // Natural frequency chosen so the envelope has decayed to 0.1% at the end.
            let omega = log(1000) / (zeta * max(duration, 1e-6))
            return Self.spring(t: f * duration, zeta: zeta, omega: omega, velocity: velocity)
        case .springPhysics(let mass, let stiffness, let damping, let velocity):
            let m = max(mass, 1e-6), k = max(stiffness, 1e-6)
            let omega = (k / m).squareRoot()
            let zeta = max(damping, 0) / (2 * (k * m).squareRoot())
            return Self.spring(t: f * duration, zeta: zeta, omega: omega, velocity: velocity)
        }
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
