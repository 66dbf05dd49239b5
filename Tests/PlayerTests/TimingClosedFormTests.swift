import Foundation
import Player
import XCTest

/// Timing curves against closed forms written out here, independently of the player's code:
/// Bézier easings solved for x by their own bisection, springs as the damped harmonic
/// oscillator with their stiffness found from the settling rule by their own search.
final class TimingClosedFormTests: XCTestCase {
    /// y at x of the cubic Bézier (0,0), (x1,y1), (x2,y2), (1,1): x(t) is increasing for
    /// control x in 0...1, so bisection on t finds the one t with x(t) = x.
    func bezierY(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func b(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if b(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return b((lo + hi) / 2, y1, y2)
    }

    /// Distance from the target of m·x'' + c·x' + k·x = 0 with x(0) = −1, x'(0) = v0, in terms
    /// of ζ and ω; and the envelope that bounds its magnitude.
    struct Oscillator {
        var zeta: Double, omega: Double, v0: Double

        func x(_ t: Double) -> Double {
            if zeta < 1 {
                let wd = omega * (1 - zeta * zeta).squareRoot()
                return exp(-zeta * omega * t) * (-cos(wd * t) + (v0 - zeta * omega) / wd * sin(wd * t))
            }
            if zeta == 1 { return exp(-omega * t) * (-1 + (v0 - omega) * t) }
            let r1 = omega * (-zeta + (zeta * zeta - 1).squareRoot()), r2 = omega * (-zeta - (zeta * zeta - 1).squareRoot())
            // c1 + c2 = −1, r1·c1 + r2·c2 = v0.
            let c2 = (v0 + r1) / (r2 - r1), c1 = -1 - c2
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }

        func envelope(_ t: Double) -> Double {
            if zeta < 1 {
                let wd = omega * (1 - zeta * zeta).squareRoot()
                let b = (v0 - zeta * omega) / wd
                return (1 + b * b).squareRoot() * exp(-zeta * omega * t)
            }
            if zeta == 1 { return (1 + abs(v0 - omega) * t) * exp(-omega * t) }
            let r1 = omega * (-zeta + (zeta * zeta - 1).squareRoot()), r2 = omega * (-zeta - (zeta * zeta - 1).squareRoot())
            let c2 = (v0 + r1) / (r2 - r1), c1 = -1 - c2
            return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        }

        /// First time after which the envelope stays under `threshold` (it decreases there).
        func settling(threshold: Double = 0.001) -> Double {
            var lo = 0.0, hi = 1000.0
            for _ in 0..<200 {
                let mid = (lo + hi) / 2
                if envelope(mid) > threshold { lo = mid } else { hi = mid }
            }
            return hi
        }
    }

    func testEaseOutAndAnAsymmetricBezierMatchTheirClosedForms() {
        for x in stride(from: 0.05, through: 0.95, by: 0.05) {
            XCTAssertEqual(TimingCurve.easeOut.progress(atFraction: x, duration: 1), bezierY(x, 0, 0, 0.58, 1), accuracy: 1e-9, "ease-out at \(x)")
            XCTAssertEqual(TimingCurve.easeIn.progress(atFraction: x, duration: 1), bezierY(x, 0.42, 0, 1, 1), accuracy: 1e-9, "ease-in at \(x)")
            // Asymmetric, and overshooting above 1 on the way (y2 > 1).
            let curve = TimingCurve.cubicBezier(x1: 0.1, y1: 0.6, x2: 0.3, y2: 1.4)
            XCTAssertEqual(curve.progress(atFraction: x, duration: 1), bezierY(x, 0.1, 0.6, 0.3, 1.4), accuracy: 1e-9, "bezier at \(x)")
        }
        // Ease-out is fast first: it is past the linear value all the way.
        XCTAssertGreaterThan(TimingCurve.easeOut.progress(atFraction: 0.3, duration: 1), 0.3 + 0.1)
    }

    /// A damping-ratio spring's ω settles the envelope (no velocity) exactly at the duration:
    /// under-damped in closed form, over-damped found by searching ω.
    func testDampingRatioSpringsMatchTheOscillator() {
        let duration = 0.8
        // Under-damped: envelope √(1 + (ζ/√(1−ζ²))²)·e^{−ζωt} = e^{−ζωt}/√(1−ζ²).
        let zeta = 0.4
        let omega = (log(1 / 0.001) - 0.5 * log(1 - zeta * zeta)) / (zeta * duration)
        let under = Oscillator(zeta: zeta, omega: omega, v0: 0)
        XCTAssertEqual(under.settling(), duration, accuracy: 1e-9)
        for f in stride(from: 0.0, through: 0.99, by: 0.03) {
            XCTAssertEqual(TimingCurve.spring(dampingRatio: zeta).progress(atFraction: f, duration: duration),
                           1 + under.x(f * duration), accuracy: 1e-6, "under-damped at \(f)")
        }
        // Over-damped: no overshoot; ω such that the slower exponential settles at the end.
        let slowZeta = 2.5
        var lo = 0.1, hi = 1000.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if Oscillator(zeta: slowZeta, omega: mid, v0: 0).envelope(duration) > 0.001 { lo = mid } else { hi = mid }
        }
        let over = Oscillator(zeta: slowZeta, omega: hi, v0: 0)
        var previous = 0.0
        for f in stride(from: 0.0, through: 0.99, by: 0.03) {
            let p = TimingCurve.spring(dampingRatio: slowZeta).progress(atFraction: f, duration: duration)
            XCTAssertEqual(p, 1 + over.x(f * duration), accuracy: 1e-6, "over-damped at \(f)")
            XCTAssertGreaterThanOrEqual(p, previous)
            XCTAssertLessThan(p, 1)
            previous = p
        }
        // It has (nearly) arrived when the duration is up: the end does not snap.
        XCTAssertEqual(TimingCurve.spring(dampingRatio: slowZeta).progress(atFraction: 0.999_999, duration: duration), 1, accuracy: 0.0011)
        XCTAssertEqual(TimingCurve.spring(dampingRatio: 1).progress(atFraction: 0.999_999, duration: duration), 1, accuracy: 0.0011)
        // So do very light and very heavy damping (the light one oscillates hundreds of times
        // its natural period before settling: no cap in seconds may cut it short).
        for ratio in [0.02, 0.05, 5, 10] {
            XCTAssertEqual(TimingCurve.spring(dampingRatio: ratio).progress(atFraction: 0.999_999, duration: duration), 1, accuracy: 0.0011, "ζ \(ratio)")
        }
    }

    func testInitialVelocityFollowsTheOscillator() throws {
        // Damping ratio 0.5 with 3 distances per second at the start; ω is the one the rule
        // gives without velocity.
        let duration = 1.0, zeta = 0.5
        let omega = (log(1 / 0.001) - 0.5 * log(1 - zeta * zeta)) / (zeta * duration)
        let osc = Oscillator(zeta: zeta, omega: omega, v0: 3)
        let curve = TimingCurve.spring(dampingRatio: zeta, initialVelocity: 3)
        for f in stride(from: 0.0, through: 0.99, by: 0.03) {
            XCTAssertEqual(curve.progress(atFraction: f, duration: duration), 1 + osc.x(f), accuracy: 1e-6, "at \(f)")
        }
        // The slope at the start is the velocity (distances per second).
        let h = 1e-6
        XCTAssertEqual(curve.progress(atFraction: h, duration: duration) / h, 3, accuracy: 1e-3)
        // A physical spring thrown backwards (v0 < 0) first moves away from the target.
        let physics = TimingCurve.springPhysics(mass: 2, stiffness: 200, damping: 16, initialVelocity: -4)
        let thrown = Oscillator(zeta: 16 / (2 * (200.0 * 2).squareRoot()), omega: (200.0 / 2).squareRoot(), v0: -4)
        let settling = try XCTUnwrap(physics.settlingDuration)
        XCTAssertEqual(settling, thrown.settling(), accuracy: 1e-9)
        for t in stride(from: 0.0, to: settling, by: settling / 37) {
            XCTAssertEqual(physics.progress(atFraction: t / settling, duration: 99), 1 + thrown.x(t), accuracy: 1e-9, "at \(t) s")
        }
        XCTAssertLessThan(physics.progress(atFraction: 0.01, duration: 99), 0)
    }

    /// A mass/stiffness/damping spring lasts its own settling time, not the animator's
    /// duration: it is not cut and snapped to the end.
    func testPhysicalSpringLastsItsSettlingTime() throws {
        let clock = VirtualClock()
        // ζ = 10 / (2·√100) = 0.5, ω = 10.
        let timing = TimingCurve.springPhysics(mass: 1, stiffness: 100, damping: 10)
        let osc = Oscillator(zeta: 0.5, omega: 10, v0: 0)
        // Envelope e^{−5t}/√0.75 down to 0.001: t = ln(1000/√0.75)/5 ≈ 1.41 s.
        let expected = log(1000 / 0.75.squareRoot()) / 5
        XCTAssertEqual(osc.settling(), expected, accuracy: 1e-9)
        let animator = PropertyAnimator(duration: 0.2, timing: timing, clock: clock)
        XCTAssertEqual(animator.duration, expected, accuracy: 1e-9)
        var value = 0.0
        var ended: [PropertyAnimator.Position] = []
        animator.addAnimation(from: 0, to: 100) { value = $0 }
        animator.addCompletion { ended.append($0) }
        try animator.start()
        for t in stride(from: 0.05, to: expected, by: 0.05) {
            clock.now = t
            animator.tick()
            XCTAssertEqual(value, 100 * (1 + osc.x(t)), accuracy: 1e-7, "at \(t) s")
            XCTAssertEqual(ended, [], "still moving at \(t) s")
        }
        clock.now = expected - 1e-6
        animator.tick()
        XCTAssertEqual(value, 100, accuracy: 0.1, "settled: within 0.1 % before the end")
        clock.now = expected + 1e-9
        animator.tick()
        XCTAssertEqual(value, 100)
        XCTAssertEqual(ended, [.end])
        // The critically damped closed form 1 − e^{−ωt}(1 + ωt), over its own settling time.
        let critical = TimingCurve.springPhysics(mass: 1, stiffness: 100, damping: 20)
        let settling = try XCTUnwrap(critical.settlingDuration)
        XCTAssertEqual(settling, Oscillator(zeta: 1, omega: 10, v0: 0).settling(), accuracy: 1e-9)
        for t in [0.05, 0.1, 0.3] {
            XCTAssertEqual(critical.progress(atFraction: t / settling, duration: 1), 1 - exp(-10 * t) * (1 + 10 * t), accuracy: 1e-12)
        }
        XCTAssertNil(TimingCurve.spring(dampingRatio: 0.5).settlingDuration)
        XCTAssertNil(TimingCurve.easeOut.settlingDuration)
    }
}
