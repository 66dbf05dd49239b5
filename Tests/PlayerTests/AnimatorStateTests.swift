import Foundation
import Player
import XCTest

/// The property animator's transitions with a virtual clock: continuing with new timing,
/// starting after a delay, the settable fraction, finishing at either end, and a state table
/// of reversing, scrubbing and continuing.
final class AnimatorStateTests: XCTestCase {
    final class Box { var value = 0.0; var completions: [PropertyAnimator.Position] = [] }

    func make(_ timing: TimingCurve = .linear, from: Double = 10, to: Double = 20) -> (PropertyAnimator, VirtualClock, Box) {
        let clock = VirtualClock()
        let animator = PropertyAnimator(duration: 1, timing: timing, clock: clock)
        let box = Box()
        animator.addAnimation(from: from, to: to) { box.value = $0 }
        animator.addCompletion { box.completions.append($0) }
        return (animator, clock, box)
    }

    /// ease-in's y at x, solved here by bisection on the curve parameter.
    func easeIn(_ x: Double) -> Double {
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let t = (lo + hi) / 2
            if 3 * (1 - t) * (1 - t) * t * 0.42 + 3 * (1 - t) * t * t + t * t * t < x { lo = t } else { hi = t }
        }
        let t = (lo + hi) / 2
        return 3 * (1 - t) * t * t + t * t * t
    }

    /// Paused at 0.25 of a linear move 0 → 1, then continued with ease-in: the value stays
    /// 0.25 (it used to jump to ease-in(0.25) ≈ 0.093) and the rest follows ease-in, rebased
    /// so that it still ends at 1.
    func testContinuingWithNewTimingKeepsTheValue() throws {
        let (a, clock, box) = make(.linear, from: 0, to: 1)
        try a.start()
        clock.now = 0.25; a.tick()
        XCTAssertEqual(box.value, 0.25, accuracy: 1e-12)
        try a.pause()
        clock.now = 2
        try a.continueAnimation(withTimingParameters: .easeIn, durationFactor: 2)
        a.tick()
        XCTAssertEqual(box.value, 0.25, accuracy: 1e-9, "no jump")
        // from' solves from' + (1 − from')·easeIn(0.25) = 0.25.
        let e0 = easeIn(0.25)
        let from = (0.25 - e0) / (1 - e0)
        // The remaining 0.75 of the duration takes 2 × 0.75 s.
        var previous = box.value
        for k in 1..<30 {
            clock.now = 2 + 1.5 * Double(k) / 30
            a.tick()
            let f = 0.25 + 0.75 * Double(k) / 30
            XCTAssertEqual(box.value, from + (1 - from) * easeIn(f), accuracy: 1e-9, "at fraction \(f)")
            XCTAssertGreaterThan(box.value, previous)
            previous = box.value
        }
        XCTAssertEqual(box.completions, [])
        clock.now = 3.5; a.tick()
        XCTAssertEqual(box.value, 1)
        XCTAssertEqual(box.completions, [.end])
    }

    func testStartAfterDelayWhileRunningThrowsAndKeepsTheFraction() throws {
        let (a, clock, box) = make()
        try a.start()
        clock.now = 0.5; a.tick()
        XCTAssertThrowsError(try a.start(afterDelay: 1)) {
            XCTAssertEqual($0 as? PropertyAnimator.AnimatorError, .invalidTransition(action: "start after a delay", state: .active))
        }
        XCTAssertEqual(a.fractionComplete, 0.5, accuracy: 1e-12, "not sent back to 0")
        clock.now = 0.75; a.tick()
        XCTAssertEqual(box.value, 17.5, accuracy: 1e-9)
        // Paused, a delayed start goes on from where it is once the delay is over.
        try a.pause()
        try a.start(afterDelay: 0.5)
        clock.now = 1.1; a.tick()
        XCTAssertEqual(box.value, 17.5, accuracy: 1e-9)
        clock.now = 1.35; a.tick()
        XCTAssertEqual(box.value, 18.5, accuracy: 1e-9)
        // Stopped: an invalid transition too.
        try a.stopAnimation(withoutFinishing: false)
        XCTAssertThrowsError(try a.start(afterDelay: 0))
        XCTAssertThrowsError(try a.start(afterDelay: -1)) {
            XCTAssertEqual($0 as? PropertyAnimator.AnimatorError, .invalidArgument("delay must be a non-negative number"))
        }
    }

    func testSettableFractionCompleteScrubsOrIsIgnored() throws {
        let (a, clock, box) = make()
        // Inactive: scrubbing makes it active and paused, like UIKit.
        a.fractionComplete = 0.3
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        XCTAssertEqual(box.value, 13, accuracy: 1e-9)
        a.fractionComplete = 2
        XCTAssertEqual(a.fractionComplete, 1)
        a.fractionComplete = 0.4
        try a.start()
        clock.now = 0.1; a.tick()
        // Running: ignored (setFractionComplete throws).
        a.fractionComplete = 0.9
        XCTAssertThrowsError(try a.setFractionComplete(0.9))
        XCTAssertEqual(a.fractionComplete, 0.5, accuracy: 1e-12)
        try a.pause()
        a.fractionComplete = .nan
        XCTAssertEqual(a.fractionComplete, 0.5, accuracy: 1e-12)
        try a.stopAnimation(withoutFinishing: false)
        a.fractionComplete = 0.1
        XCTAssertEqual(a.fractionComplete, 0.5, accuracy: 1e-12, "stopped: ignored")
        XCTAssertEqual(box.value, 15, accuracy: 1e-9)
    }

    func testFinishAtTheStartAndAtTheEnd() throws {
        for (position, value, fraction) in [(PropertyAnimator.Position.start, 10.0, 0.0), (.end, 20, 1)] {
            let (a, clock, box) = make(.easeInOut)
            try a.start()
            clock.now = 0.3; a.tick()
            try a.stopAnimation(withoutFinishing: false)
            XCTAssertEqual(a.state, .stopped)
            clock.now = 0.6; a.tick()
            XCTAssertEqual(box.value, 10 + 10 * TimingCurve.easeInOut.progress(atFraction: 0.3, duration: 1), accuracy: 1e-9, "stopped holds")
            try a.finishAnimation(at: position)
            XCTAssertEqual(box.value, value, "\(position)")
            XCTAssertEqual(box.completions, [position])
            XCTAssertEqual(a.state, .inactive)
            XCTAssertEqual(a.fractionComplete, fraction)
            XCTAssertThrowsError(try a.finishAnimation(at: position), "only once")
            XCTAssertEqual(box.completions, [position])
            // Inactive again: it can run anew from the start (completions are one-shot, as
            // in UIKit: a new run needs its own).
            a.addCompletion { box.completions.append($0) }
            try a.start()
            clock.now = 1.6; a.tick()
            XCTAssertEqual(box.value, 20)
            XCTAssertEqual(box.completions, [position, .end])
        }
    }

    /// Each row: an action at a time, then the state, running flag, fraction and value.
    func testReverseScrubContinueStateTable() throws {
        let (a, clock, box) = make()
        typealias Row = (time: Double, action: String, state: PropertyAnimator.State, running: Bool, fraction: Double, value: Double)
        let rows: [Row] = [
            (0.0, "start", .active, true, 0, 10),
            (0.6, "tick", .active, true, 0.6, 16),
            (0.6, "reverse", .active, true, 0.6, 16),
            (0.7, "tick", .active, true, 0.5, 15),
            (0.7, "pause", .active, false, 0.5, 15),
            (5.0, "tick", .active, false, 0.5, 15),
            (5.0, "scrub 0.8", .active, false, 0.8, 18),
            (5.0, "continue", .active, true, 0.8, 18),
            (5.4, "tick", .active, true, 0.4, 14),
            (5.4, "forward", .active, true, 0.4, 14),
            (5.5, "tick", .active, true, 0.5, 15),
            (5.5, "pause", .active, false, 0.5, 15),
            (5.5, "reverse", .active, false, 0.5, 15),
            (5.5, "continue x2", .active, true, 0.5, 15),
            (6.0, "tick", .active, true, 0.25, 12.5),
            (6.5, "tick", .inactive, false, 0, 10),
        ]
        for row in rows {
            clock.now = row.time
            switch row.action {
            case "start": try a.start()
            case "tick": break
            case "reverse": a.isReversed = true
            case "forward": a.isReversed = false
            case "pause": try a.pause()
            case "scrub 0.8": a.fractionComplete = 0.8
            case "continue": try a.continueAnimation()
            case "continue x2": try a.continueAnimation(withTimingParameters: nil, durationFactor: 2)
            default: XCTFail(row.action)
            }
            a.tick()
            let label = "\(row.action) at \(row.time)"
            XCTAssertEqual(a.state, row.state, label)
            XCTAssertEqual(a.isRunning, row.running, label)
            XCTAssertEqual(a.fractionComplete, row.fraction, accuracy: 1e-9, label)
            XCTAssertEqual(box.value, row.value, accuracy: 1e-9, label)
        }
        XCTAssertEqual(box.completions, [.start])
    }
}
