import LottieModel
import Player
import XCTest

final class AnimationPlayerTests: XCTestCase {
    /// 0...120 at 60 fps: two seconds.
    func makePlayer(markers: [Marker] = []) -> (AnimationPlayer, VirtualClock) {
        let clock = VirtualClock()
        return (AnimationPlayer(inPoint: 0, outPoint: 120, frameRate: 60, markers: markers, clock: clock), clock)
    }

    func testPlayOnceReachesTheEndAndCompletes() {
        let (player, clock) = makePlayer()
        var result: [Bool] = []
        player.play(toProgress: 1) { result.append($0) }
        clock.now = 0.5
        XCTAssertEqual(player.tick(), 30, accuracy: 1e-9)
        clock.now = 2.0
        XCTAssertEqual(player.tick(), 120)
        XCTAssertEqual(result, [true])
        clock.now = 5
        XCTAssertEqual(player.tick(), 120)
        XCTAssertFalse(player.isPlaying)
        XCTAssertEqual(result, [true])
    }

    func testLoopModesFrameByFrame() {
        let table: [(LoopMode, Double, Double)] = [
            (.loop, 2.5, 30),          // 150 frames into a 120-frame loop
            (.autoReverse, 3.0, 60),   // 180: forwards 120, back 60
            (.autoReverse, 1.5, 90),
            (.repeat(2), 3.5, 90),
            (.repeat(2), 4.5, 120),    // done after two runs
            (.playOnce, 0.25, 15),
        ]
        for (mode, time, expected) in table {
            let (player, clock) = makePlayer()
            player.play(fromProgress: 0, toProgress: 1, loopMode: mode)
            clock.now = time
            XCTAssertEqual(player.tick(), expected, accuracy: 1e-9, "\(mode) at \(time) s")
        }
    }

    func testSpeedScalesAndNegativeSpeedPlaysBackwards() {
        let (player, clock) = makePlayer()
        player.speed = 2
        player.play(toProgress: 1)
        clock.now = 0.5
        XCTAssertEqual(player.tick(), 60, accuracy: 1e-9)
        let (back, clock2) = makePlayer()
        back.speed = -1
        var done = false
        back.play(fromProgress: 0, toProgress: 1) { done = $0 }
        clock2.now = 0.5
        XCTAssertEqual(back.tick(), 90, accuracy: 1e-9)
        clock2.now = 2.5
        XCTAssertEqual(back.tick(), 0)
        XCTAssertTrue(done)
    }

    func testChangingSpeedMidwayDoesNotJump() {
        let (player, clock) = makePlayer()
        player.play(toProgress: 1)
        clock.now = 0.5
        XCTAssertEqual(player.tick(), 30, accuracy: 1e-9)
        player.speed = 0.5
        XCTAssertEqual(player.tick(), 30, accuracy: 1e-9)
        clock.now = 1.5
        XCTAssertEqual(player.tick(), 60, accuracy: 1e-9)
    }

    func testMarkers() throws {
        let (player, clock) = makePlayer(markers: [Marker(name: "wave", time: 10, duration: 20), Marker(name: "done", time: 90, duration: 30)])
        try player.play(marker: "wave")
        clock.now = 0.25
        XCTAssertEqual(player.tick(), 25, accuracy: 1e-9)
        try player.play(fromMarker: "wave", toMarker: "done")
        clock.now = 0.25 + 80.0 / 60
        XCTAssertEqual(player.tick(), 90, accuracy: 1e-9)
        XCTAssertThrowsError(try player.play(marker: "nope")) { XCTAssertEqual($0 as? PlayerError, .unknownMarker("nope")) }
    }

    func testPauseResumeScrubAndStop() {
        let (player, clock) = makePlayer()
        var results: [Bool] = []
        player.play(toProgress: 1) { results.append($0) }
        clock.now = 0.5
        player.pause()
        clock.now = 1.5
        XCTAssertEqual(player.tick(), 30, accuracy: 1e-9)
        player.resume()
        clock.now = 2.0
        XCTAssertEqual(player.tick(), 60, accuracy: 1e-9)
        player.currentProgress = 0.25
        XCTAssertEqual(player.currentFrame, 30, accuracy: 1e-9)
        XCTAssertFalse(player.isPlaying)
        XCTAssertEqual(results, [false])  // scrubbing interrupted the segment
        player.play(toProgress: 1) { results.append($0) }
        player.stop()
        XCTAssertEqual(results, [false, false])
        XCTAssertEqual(player.currentFrame, 0)
    }

    func testRespectingTheFrameRateGivesWholeFrames() {
        let (player, clock) = makePlayer()
        player.respectsFrameRate = true
        player.play(toProgress: 1)
        clock.now = 0.51
        XCTAssertEqual(player.tick(), 30)
        player.respectsFrameRate = false
        XCTAssertEqual(player.tick(), 30.6, accuracy: 1e-9)
    }

    /// The download screen's ending: the first half loops; the download completes at 1.3 s;
    /// the current loop plays on at 4× to 0.5 (frame 60), then 0.5 → 1 at 1×, then completion.
    func testFinishingMoveIsExactAndContinuous() {
        let (player, clock) = makePlayer()
        var loopEnded: [Bool] = [], finished: [Bool] = []
        player.play(fromProgress: 0, toProgress: 0.5, loopMode: .loop) { loopEnded.append($0) }
        var frames: [(Double, Double)] = []
        let step = 1.0 / 60
        var t = 0.0
        while t < 1.3 - 1e-9 { clock.now = t; frames.append((t, player.tick())); t += step }
        clock.now = 1.3
        XCTAssertEqual(player.tick(), 18, accuracy: 1e-6)  // 78 frames into 60-frame loops
        player.finishLoop(finishSpeed: 4, thenPlayToProgress: 1) { finished.append($0) }
        // 42 frames left at 240 frames/s: frame 60 at 1.475 s; 60 more at 60 frames/s: 2.475 s.
        // Sample at 240 Hz: k = 42 is 1.475 s, k = 162 is 1.975 s.
        var after: [(Double, Double)] = []
        for k in 0..<408 {
            clock.now = 1.3 + Double(k) / 240
            after.append((clock.now, player.tick()))
        }
        for i in 1..<after.count { XCTAssertGreaterThanOrEqual(after[i].1, after[i - 1].1, "monotonic at \(after[i].0)") }
        XCTAssertEqual(after[41].1, 59, accuracy: 1e-6)  // 4 × 60 frames/s: one frame per 240 Hz step
        XCTAssertEqual(after[42].1, 60, accuracy: 1e-6)
        XCTAssertEqual(after[43].1, 60.25, accuracy: 1e-6)
        XCTAssertEqual(after[162].1, 90, accuracy: 1e-6)
        XCTAssertEqual(after.filter { abs($0.1 - 60) < 1e-9 }.count, 1, "the boundary frame shows once")
        XCTAssertEqual(loopEnded, [true])
        XCTAssertEqual(finished, [true])
        XCTAssertEqual(after.last!.1, 120)
        XCTAssertFalse(player.isPlaying)
        // Speed during the second part was 1.
        XCTAssertEqual(player.speed, 1)
    }
}
