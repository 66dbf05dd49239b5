import LottieModel
import Player
import XCTest

/// Playback frame by frame on a virtual clock: loop modes and negative speeds, fractional
/// repeat counts, markers with loop modes, completions of paused segments, and the finishing
/// move from an auto-reverse loop's backward pass. Frame by frame the animation runs at 64
/// frames per second and the clock steps 1/64 s, so step k is exactly k frames in (binary
/// fractions: a loop boundary is not missed by a rounding error).
final class PlaybackTableTests: XCTestCase {
    func makePlayer(markers: [Marker] = [], frameRate: Double = 64) -> (AnimationPlayer, VirtualClock) {
        let clock = VirtualClock()
        return (AnimationPlayer(inPoint: 0, outPoint: 120, frameRate: frameRate, markers: markers, clock: clock), clock)
    }

    /// Frames shown at steps 0..<count (step k at k/64 s).
    func frames(_ player: AnimationPlayer, _ clock: VirtualClock, count: Int) -> [Double] {
        (0..<count).map { k in
            clock.now = Double(k) / 64
            return player.tick()
        }
    }

    func assertFrames(_ actual: [Double], _ expected: (Int) -> Double, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        for (k, f) in actual.enumerated() where abs(f - expected(k)) > 1e-9 {
            XCTFail("\(label): step \(k) shows \(f), expected \(expected(k))", file: file, line: line)
            return
        }
    }

    func testLoopModesFrameByFrameBothWays() {
        // Segment 20 → 80 (60 frames).
        let table: [(LoopMode, Double, (Int) -> Double)] = [
            (.playOnce, 1, { k in Double(min(20 + k, 80)) }),
            (.loop, 1, { k in Double(20 + k % 60) }),
            (.autoReverse, 1, { k in Double(80 - abs(60 - k % 120)) }),
            (.repeat(2), 1, { k in k < 120 ? Double(20 + k % 60) : 80 }),
            // Backwards: the same timeline run in reverse; a loop pass begins at its `to`.
            (.playOnce, -1, { k in Double(max(80 - k, 20)) }),
            (.loop, -1, { k in Double(80 - k % 60) }),
            (.autoReverse, -1, { k in Double(20 + abs(60 - k % 120)) }),
            (.repeat(2), -1, { k in k < 120 ? Double(80 - k % 60) : 20 }),
            // Twice the speed: every second frame.
            (.loop, 2, { k in Double(20 + (2 * k) % 60) }),
            (.autoReverse, -2, { k in Double(20 + abs(60 - (2 * k) % 120)) }),
        ]
        for (mode, speed, expected) in table {
            let (player, clock) = makePlayer()
            player.speed = speed
            player.play(fromFrame: 20, toFrame: 80, loopMode: mode)
            assertFrames(frames(player, clock, count: 400), expected, "\(mode) at speed \(speed)")
        }
    }

    /// repeat(2.5) of 0 → 60 stops half-way through its third run, at 30, and completes there.
    func testFractionalRepeatEndsMidSegment() {
        for (from, to, end) in [(0.0, 60.0, 30.0), (60, 0, 30), (10, 70, 40)] {
            let (player, clock) = makePlayer()
            var results: [Bool] = []
            player.play(fromFrame: from, toFrame: to, loopMode: .repeat(2.5)) { results.append($0) }
            let direction = to > from ? 1.0 : -1.0
            for k in 0..<200 {
                clock.now = Double(k) / 64
                let shown = player.tick()
                let expected = k < 150 ? from + direction * Double(k % 60) : end
                XCTAssertEqual(shown, expected, accuracy: 1e-9, "\(from)→\(to) step \(k)")
                XCTAssertEqual(results, k < 150 ? [] : [true], "\(from)→\(to) step \(k)")
            }
            XCTAssertFalse(player.isPlaying)
            XCTAssertEqual(player.currentFrame, end, accuracy: 1e-9)
        }
        // A repeat count below one: a third of the way.
        let (player, clock) = makePlayer()
        player.play(fromFrame: 0, toFrame: 90, loopMode: .repeat(1.0 / 3))
        clock.now = 10
        XCTAssertEqual(player.tick(), 30, accuracy: 1e-9)
    }

    func testMarkerPlayedWithLoopModes() throws {
        let markers = [Marker(name: "wave", time: 10, duration: 20), Marker(name: "done", time: 90, duration: 30)]
        let table: [(LoopMode, (Int) -> Double)] = [
            (.loop, { k in Double(10 + k % 20) }),
            (.autoReverse, { k in Double(30 - abs(20 - k % 40)) }),
            (.repeat(1.5), { k in k < 30 ? Double(10 + k % 20) : 20 }),
        ]
        for (mode, expected) in table {
            let (player, clock) = makePlayer(markers: markers)
            var results: [Bool] = []
            try player.play(marker: "wave", loopMode: mode) { results.append($0) }
            assertFrames(frames(player, clock, count: 100), expected, "marker wave \(mode)")
            XCTAssertEqual(results, mode == .repeat(1.5) ? [true] : [])
        }
        // From marker to marker, looping backwards.
        let (player, clock) = makePlayer(markers: markers)
        player.speed = -1
        try player.play(fromMarker: "wave", toMarker: "done", loopMode: .loop)
        assertFrames(frames(player, clock, count: 300), { k in Double(90 - k % 80) }, "wave→done backwards")
    }

    /// A paused segment that is then replaced reports `false`, exactly once.
    func testPausedSegmentCompletionIsReportedWhenReplaced() throws {
        let actions: [(String, (AnimationPlayer) -> Void)] = [
            ("stop", { $0.stop() }),
            ("play", { $0.play(toProgress: 1) }),
            ("scrub frame", { $0.currentFrame = 100 }),
            ("scrub progress", { $0.currentProgress = 0.5 }),
            ("finishLoop", { $0.finishLoop() }),
        ]
        for (name, action) in actions {
            for mode in [LoopMode.playOnce, .loop] {
                let (player, clock) = makePlayer()
                var results: [Bool] = []
                player.play(fromProgress: 0, toProgress: 0.5, loopMode: mode) { results.append($0) }
                clock.now = 0.25
                player.pause()
                XCTAssertFalse(player.isPlaying)
                clock.now = 0.5
                action(player)
                XCTAssertEqual(results, [false], "\(name) after pause, \(mode)")
                for k in 1...300 {
                    clock.now = 0.5 + Double(k) / 64
                    player.tick()
                }
                player.stop()
                player.resume()
                XCTAssertEqual(results, [false], "\(name) after pause, \(mode): once")
            }
        }
        // Resumed instead, it completes with true; after that nothing is reported again.
        let (player, clock) = makePlayer()
        var results: [Bool] = []
        player.play(toProgress: 0.5) { results.append($0) }
        clock.now = 0.25
        player.pause()
        clock.now = 3
        player.resume()
        // 16 frames before the pause, 44 after it: 44/64 s.
        clock.now = 3 + 43.0 / 64
        XCTAssertEqual(player.tick(), 59, accuracy: 1e-9)
        XCTAssertEqual(results, [])
        clock.now = 3 + 44.0 / 64
        XCTAssertEqual(player.tick(), 60, accuracy: 1e-9)
        XCTAssertEqual(results, [true])
        player.resume()
        clock.now = 4
        XCTAssertEqual(player.tick(), 60, "a finished segment does not resume")
        player.stop()
        player.play(toProgress: 1)
        XCTAssertEqual(results, [true])
    }

    /// A completion that starts another segment is not overwritten by the call that
    /// interrupted it.
    func testInterruptedCompletionMayStartTheNextSegment() {
        let (player, clock) = makePlayer(frameRate: 60)
        var chained: [Bool] = []
        player.play(fromFrame: 0, toFrame: 60) { finished in
            if !finished { player.play(fromFrame: 100, toFrame: 120) { chained.append($0) } }
        }
        clock.now = 0.1
        player.currentFrame = 10
        XCTAssertTrue(player.isPlaying)
        clock.now = 0.2
        XCTAssertEqual(player.tick(), 106, accuracy: 1e-9)
        clock.now = 1
        player.tick()
        XCTAssertEqual(chained, [true])
    }

    /// An auto-reverse loop of the first half is on its way back (frame 45) when the download
    /// completes: the finishing move turns forwards where it is, plays on at 4× to 60, then
    /// 60 → 120 at 1×; no jump, monotonic, boundaries at the predicted times.
    func testFinishLoopFromABackwardAutoReversePass() {
        let (player, clock) = makePlayer(frameRate: 60)
        var loopResults: [Bool] = [], finished: [Bool] = []
        player.play(fromProgress: 0, toProgress: 0.5, loopMode: .autoReverse) { loopResults.append($0) }
        clock.now = 1.25  // 75 frames: forwards 60, back 15
        XCTAssertEqual(player.tick(), 45, accuracy: 1e-9)
        clock.now = 1.25 + 1.0 / 240
        XCTAssertEqual(player.tick(), 44.75, accuracy: 1e-9, "going backwards")
        let callTime = clock.now
        player.finishLoop(finishSpeed: 4, thenPlayToProgress: 1) { finished.append($0) }
        XCTAssertEqual(player.tick(), 44.75, accuracy: 1e-9, "no jump at the call")
        // 15.25 frames at 240 frames/s, then 60 frames at 60 frames/s.
        let reachesLoopEnd = callTime + 15.25 / 240
        let reachesEnd = reachesLoopEnd + 1
        var previous = 44.75
        var sawBoundary = 0
        for k in 1...600 {
            clock.now = callTime + Double(k) / 240
            let f = player.tick()
            XCTAssertGreaterThanOrEqual(f, previous, "monotonic at \(clock.now)")
            XCTAssertLessThanOrEqual(f - previous, 1 + 1e-9, "no skip at \(clock.now)")
            let expected = clock.now < reachesLoopEnd ? 44.75 + 240 * (clock.now - callTime)
                : min(60 + 60 * (clock.now - reachesLoopEnd), 120)
            XCTAssertEqual(f, expected, accuracy: 1e-6, "at \(clock.now)")
            if abs(f - 60) < 1e-9 { sawBoundary += 1 }
            previous = f
        }
        XCTAssertLessThanOrEqual(sawBoundary, 1)
        XCTAssertEqual(loopResults, [true])
        XCTAssertEqual(finished, [true])
        XCTAssertEqual(player.currentFrame, 120)
        // The exact instants, on a fresh run.
        let (p2, c2) = makePlayer(frameRate: 60)
        var loop2: [Bool] = [], done2: [Bool] = []
        p2.play(fromProgress: 0, toProgress: 0.5, loopMode: .autoReverse) { loop2.append($0) }
        c2.now = 1.25
        p2.finishLoop(finishSpeed: 4, thenPlayToProgress: 1) { done2.append($0) }
        c2.now = 1.25 + 15.0 / 240
        XCTAssertEqual(p2.tick(), 60, accuracy: 1e-9)
        XCTAssertEqual(loop2, [true])
        XCTAssertEqual(done2, [])
        c2.now = 1.25 + 15.0 / 240 + 1
        XCTAssertEqual(p2.tick(), 120)
        XCTAssertEqual(done2, [true])
        XCTAssertEqual(p2.speed, 1)
    }

    /// The second finishing move replaces the first one's second part, which reports false.
    func testASecondFinishLoopReportsTheReplacedSecondPart() {
        let (player, clock) = makePlayer(frameRate: 60)
        var first: [Bool] = [], second: [Bool] = []
        player.play(fromProgress: 0, toProgress: 0.5, loopMode: .loop)
        clock.now = 0.5
        player.finishLoop { first.append($0) }
        player.finishLoop(thenPlayToProgress: 0.75) { second.append($0) }
        XCTAssertEqual(first, [false])
        clock.now = 10
        XCTAssertEqual(player.tick(), 90)
        XCTAssertEqual(first, [false])
        XCTAssertEqual(second, [true])
    }
}
