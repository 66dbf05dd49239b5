import Display
import XCTest

/// The frame loop renders each frame for the refresh `FramePacing` predicts; a display
/// simulated here shows a flip at the first refresh after it is submitted (and at most one
/// flip per refresh), as DRM does.
final class FramePacingTests: XCTestCase {
    func testSlowFramesSkipByTimeAndAnimationTimeIsPresentationTime() {
        let interval = 1.0 / 60
        var last = 100.0           // the previous flip
        var now = last + 0.001     // its event woke the loop
        // Rendering times; the loop predicts each exactly here.
        let renders = [0.005, 0.005, 0.040, 0.005, 0.020, 0.0166, 0.100]
        var steps: [Int] = [], missed: [Int] = []
        for render in renders {
            let animationTime = FramePacing.presentationTime(notBefore: now + render, last: last, interval: interval)
            now += render
            // The display: the first refresh at or after submission, never the previous one.
            let shown = max(last + interval, last + ((now - last) / interval).rounded(.up) * interval)
            XCTAssertEqual(animationTime, shown, accuracy: 1e-9, "the frame is drawn for the instant it is seen")
            steps.append(Int(((shown - last) / interval).rounded()))
            missed.append(FramePacing.missed(presentedAt: shown, expected: last + interval, interval: interval))
            last = shown
            now = shown + 0.001
        }
        // A fast frame shows at the next refresh; a 40 ms one skips two refreshes (the
        // animation jumps 50 ms, as the clock did), never slows.
        XCTAssertEqual(steps, [1, 1, 3, 1, 2, 2, 7])
        XCTAssertEqual(missed, [0, 0, 2, 0, 1, 1, 6])
    }

    func testSnapKeepsToTheGrid() {
        let interval = 0.02
        // Never the refresh already shown: the next one at least.
        XCTAssertEqual(FramePacing.presentationTime(notBefore: 1.0, last: 1.0, interval: interval), 1.02, accuracy: 1e-12)
        XCTAssertEqual(FramePacing.presentationTime(notBefore: 0.5, last: 1.0, interval: interval), 1.02, accuracy: 1e-12)
        // A time on a refresh (up to rounding) stays on it; a hair later goes to the next.
        XCTAssertEqual(FramePacing.snap(1.0 + 3 * interval, base: 1.0, interval: interval), 1.06, accuracy: 1e-12)
        XCTAssertEqual(FramePacing.snap(1.0601, base: 1.0, interval: interval), 1.08, accuracy: 1e-12)
        // A late flip counts the refreshes that went by without a new frame.
        XCTAssertEqual(FramePacing.missed(presentedAt: 1.02, expected: 1.02, interval: interval), 0)
        XCTAssertEqual(FramePacing.missed(presentedAt: 1.0801, expected: 1.02, interval: interval), 3)
        XCTAssertEqual(FramePacing.missed(presentedAt: 1.01, expected: 1.02, interval: interval), 0)
    }
}
