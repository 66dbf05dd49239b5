import Foundation
import Player
import XCTest

final class TimingCurveTests: XCTestCase {
    func testCurvesAgainstTheirClosedForms() {
        XCTAssertEqual(TimingCurve.linear.progress(atFraction: 0.3, duration: 1), 0.3, accuracy: 1e-12)
        XCTAssertEqual(TimingCurve.easeInOut.progress(atFraction: 0.5, duration: 1), 0.5, accuracy: 1e-9)
        XCTAssertEqual(TimingCurve.cubicBezier(x1: 1.0 / 3, y1: 1.0 / 3, x2: 2.0 / 3, y2: 2.0 / 3).progress(atFraction: 0.37, duration: 1),
                       0.37, accuracy: 1e-9)
        // ease-in at x: y(t) with x(t) = 3(1−t)t²·0.42·… checked at the curve's own parameter.
        let t = 0.6
        let x = 3 * (1 - t) * (1 - t) * t * 0.42 + 3 * (1 - t) * t * t * 1 + t * t * t
        let y = 3 * (1 - t) * t * t + t * t * t
        XCTAssertEqual(TimingCurve.easeIn.progress(atFraction: x, duration: 1), y, accuracy: 1e-9)
        for curve in [TimingCurve.easeIn, .easeOut, .easeInOut, .spring(dampingRatio: 0.3)] {
            XCTAssertEqual(curve.progress(atFraction: 0, duration: 1), 0, accuracy: 1e-12)
            XCTAssertEqual(curve.progress(atFraction: 1, duration: 1), 1)
        }
    }

    func testSpringsMatchTheDampedOscillator() {
        // Critically damped, mass 1, stiffness 100 (ω = 10): x(t) = 1 − e^{−10t}(1 + 10t);
        // fraction 1 is the spring's own settling time.
        let critical = TimingCurve.springPhysics(mass: 1, stiffness: 100, damping: 20)
        let settling = critical.settlingDuration ?? 0
        for t in [0.05, 0.1, 0.3] {
            XCTAssertEqual(critical.progress(atFraction: t / settling, duration: 1), 1 - exp(-10 * t) * (1 + 10 * t), accuracy: 1e-12)
        }
        // Under-damped overshoots the target; over-damped never does.
        let bouncy = (1..<100).map { TimingCurve.spring(dampingRatio: 0.3).progress(atFraction: Double($0) / 100, duration: 1) }
        XCTAssertGreaterThan(bouncy.max()!, 1.2)
        let slow = (1..<100).map { TimingCurve.springPhysics(mass: 1, stiffness: 10, damping: 20).progress(atFraction: Double($0) / 100, duration: 1) }
        XCTAssertLessThan(slow.max()!, 1)
    }
}

final class PropertyAnimatorTests: XCTestCase {
    func make(_ timing: TimingCurve = .linear) -> (PropertyAnimator, VirtualClock, Box) {
        let clock = VirtualClock()
        let animator = PropertyAnimator(duration: 1, timing: timing, clock: clock)
        let box = Box()
        animator.addAnimation(from: 10, to: 20) { box.value = $0 }
        animator.addCompletion { box.completions.append($0) }
        return (animator, clock, box)
    }

    final class Box { var value = 0.0; var completions: [PropertyAnimator.Position] = [] }

    func testRunsToTheEndExactly() throws {
        let (a, clock, box) = make(.easeInOut)
        try a.start()
        XCTAssertEqual(a.state, .active)
        clock.now = 0.5; a.tick()
        XCTAssertEqual(box.value, 15, accuracy: 1e-9)
        clock.now = 1.2; a.tick()
        XCTAssertEqual(box.value, 20)
        XCTAssertEqual(box.completions, [.end])
        XCTAssertEqual(a.state, .inactive)
    }

    func testPauseScrubAndContinue() throws {
        let (a, clock, box) = make()
        try a.start()
        clock.now = 0.4; a.tick()
        try a.pause()
        clock.now = 3; a.tick()
        XCTAssertEqual(a.fractionComplete, 0.4, accuracy: 1e-9)
        XCTAssertEqual(box.value, 14, accuracy: 1e-9)
        try a.setFractionComplete(0.25)
        XCTAssertEqual(box.value, 12.5, accuracy: 1e-9)
        // The remaining 0.75 at twice the duration takes 1.5 s.
        try a.continueAnimation(withTimingParameters: .linear, durationFactor: 2)
        clock.now = 3.75; a.tick()
        XCTAssertEqual(box.value, 16.25, accuracy: 1e-9)
        clock.now = 4.5; a.tick()
        XCTAssertEqual(box.completions, [.end])
    }

    func testReversingEndsAtTheStart() throws {
        let (a, clock, box) = make()
        try a.start()
        clock.now = 0.6; a.tick()
        a.isReversed = true
        clock.now = 0.9; a.tick()
        XCTAssertEqual(box.value, 13, accuracy: 1e-9)
        clock.now = 1.3; a.tick()
        XCTAssertEqual(box.value, 10)
        XCTAssertEqual(box.completions, [.start])
    }

    func testStopAndFinishStateTable() throws {
        let (a, clock, box) = make()
        XCTAssertThrowsError(try a.finishAnimation(at: .end))          // inactive
        XCTAssertThrowsError(try a.stopAnimation(withoutFinishing: true))
        try a.start()
        XCTAssertThrowsError(try a.setFractionComplete(0.5))            // running
        XCTAssertThrowsError(try a.finishAnimation(at: .end))           // active
        clock.now = 0.3; a.tick()
        try a.stopAnimation(withoutFinishing: false)
        XCTAssertEqual(a.state, .stopped)
        XCTAssertThrowsError(try a.start())
        XCTAssertThrowsError(try a.pause())
        try a.finishAnimation(at: .current)
        XCTAssertEqual(box.value, 13, accuracy: 1e-9)
        XCTAssertEqual(box.completions, [.current])
        XCTAssertEqual(a.state, .inactive)

        let (b, clock2, box2) = make()
        try b.start()
        clock2.now = 0.5; b.tick()
        try b.stopAnimation(withoutFinishing: true)
        XCTAssertEqual(b.state, .inactive)
        XCTAssertEqual(box2.completions, [])
        XCTAssertEqual(box2.value, 15, accuracy: 1e-9)
    }

    func testStartAfterDelay() throws {
        let (a, clock, box) = make()
        try a.start(afterDelay: 0.5)
        clock.now = 0.4; a.tick()
        XCTAssertEqual(a.fractionComplete, 0)
        clock.now = 1.0; a.tick()
        XCTAssertEqual(box.value, 15, accuracy: 1e-9)
    }

    func testRetargetingKeepsTheValueAndReachesTheNewTarget() throws {
        let clock = VirtualClock()
        let a = PropertyAnimator(duration: 1, timing: .easeOut, clock: clock)
        var level = 0.0
        let id = a.addAnimation(from: 0, to: 0.3) { level = $0 }
        try a.start()
        clock.now = 0.4; a.tick()
        let before = level
        a.retarget(id, to: 0.8)
        a.tick()
        XCTAssertEqual(level, before, accuracy: 1e-12, "no jump")
        clock.now = 0.7; a.tick()
        XCTAssertGreaterThan(level, before)
        clock.now = 1.0; a.tick()
        XCTAssertEqual(level, 0.8)
    }

    func testAnimationAddedWhileRunningUsesTheRemainingTime() throws {
        let (a, clock, _) = make()
        try a.start()
        clock.now = 0.5; a.tick()
        var late = -1.0
        a.addAnimation(from: 100, to: 200) { late = $0 }
        XCTAssertEqual(late, 100, accuracy: 1e-9)
        clock.now = 0.75; a.tick()
        XCTAssertEqual(late, 150, accuracy: 1e-9)
        clock.now = 1; a.tick()
        XCTAssertEqual(late, 200)
    }
}
