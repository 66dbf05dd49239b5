import Download
import Kiosk
import XCTest

/// The kiosk's decisions, event by event with a fake clock (plain numbers): each table is a
/// sequence of (time, event, the effects expected, the state after).
final class KioskControllerTests: XCTestCase {
    struct Step {
        var time: Double
        var event: KioskEvent
        var effects: [KioskEffect]?
        var state: DownloadScreen.State?
        init(_ time: Double, _ event: KioskEvent, _ effects: [KioskEffect]? = nil, state: DownloadScreen.State? = nil) {
            self.time = time
            self.event = event
            self.effects = effects
            self.state = state
        }
    }

    static let file = DownloadRequest(url: "http://127.0.0.1/fw.bin", destination: "/tmp/fw.bin")
    static let other = DownloadRequest(url: "http://127.0.0.1/other.bin", destination: "/tmp/other.bin")

    func configuration(_ change: (inout KioskConfiguration) -> Void = { _ in }) -> KioskConfiguration {
        var c = KioskConfiguration()
        c.job = [Self.file]
        change(&c)
        return c
    }

    @discardableResult
    func play(_ configuration: KioskConfiguration, _ steps: [Step], file: StaticString = #filePath, line: UInt = #line) -> KioskController {
        var controller = KioskController(configuration: configuration)
        for (i, step) in steps.enumerated() {
            let effects = controller.handle(step.event, at: step.time)
            if let expected = step.effects {
                XCTAssertEqual(effects, expected, "step \(i): \(step.event)", file: file, line: line)
            }
            if let state = step.state {
                XCTAssertEqual(controller.state, state, "step \(i): \(step.event)", file: file, line: line)
            }
        }
        return controller
    }

    func testWaitingForAPressThenTheWholeSequenceToExit() {
        let c = play(configuration { $0.trigger = .input }, [
            Step(0, .start, [.screen(.waiting), .showMessage("Press Enter, Space or touch the screen to start")], state: .waiting),
            Step(0.5, .progress(fraction: 0.3), [], state: .waiting),
            Step(1, .press(code: 28, device: "/dev/input/event0", time: 1, offPrompt: nil),
                 [.log("input: key 28 on /dev/input/event0: starting the download"), .showMessage(""),
                  .screen(.downloading(fresh: false)), .startTransfer([Self.file]), .cancelTimer(.retry), .setTimer(.publish, at: 1.2)],
                 state: .downloading),
            Step(1.1, .screen(.downloading), [.publish(event: "progress", jobEnded: false)]),
            Step(1.2, .timer(.publish), [.publish(event: "progress", jobEnded: false), .setTimer(.publish, at: 1.4)]),
            Step(1.3, .progress(fraction: 0.5), [.screen(.progress(0.5))]),
            Step(1.35, .press(code: 28, device: "/dev/input/event0", time: 1.35, offPrompt: nil), [], state: .downloading),
            Step(2, .transferEnded(failure: nil), [.screen(.succeeded)], state: .downloading),
            Step(2.1, .screen(.finishing), [.publish(event: "progress", jobEnded: false)], state: .finishing),
            Step(2.5, .screen(.success), [.publish(event: "progress", jobEnded: false)], state: .success),
            Step(3, .screen(.done), [.publish(event: "done", jobEnded: true), .cancelTimer(.retry), .cancelTimer(.publish), .exit(.completed)],
                 state: .done),
            Step(4, .press(code: 28, device: "/dev/input/event0", time: 4, offPrompt: nil), []),
        ])
        XCTAssertEqual(c.outcome, .completed)
    }

    func testHoldStaysAfterDoneAndAnswersStatus() {
        let c = play(configuration { $0.onComplete = .hold }, [
            Step(0, .start, nil, state: .downloading),
            Step(1, .transferEnded(failure: nil)),
            Step(2, .screen(.done), [.publish(event: "done", jobEnded: true)], state: .done),
            Step(3, .screen(.done), []),
            Step(4, .request(client: 7, .status), [.reply(client: 7, .progress("status"))]),
            Step(5, .signal(15), [.cancelTimer(.retry), .cancelTimer(.publish), .exit(.stopped(signal: 15))]),
        ])
        XCTAssertEqual(c.outcome, .stopped(signal: 15))
    }

    /// `buoy play`: an animation on its own. Nothing to download, wait for or publish on a
    /// timer; psplash lines do not drive it; the run ends when the screen reports done.
    func testAnAnimationAloneEndsWhenItsScreenIsDone() {
        let alone = configuration { $0.job = []; $0.animationOnly = true }
        XCTAssertFalse(alone.external)
        let c = play(alone, [
            Step(0, .start, [.screen(.idle)], state: .idle),
            Step(0.1, .screen(.idle), [.publish(event: "progress", jobEnded: false)], state: .idle),
            Step(0.5, .psplash(.progress(50)), []),
            Step(0.6, .press(code: 28, device: "/dev/input/event0", time: 0.6, offPrompt: nil), []),
            Step(2, .screen(.done), [.publish(event: "done", jobEnded: true), .cancelTimer(.retry), .cancelTimer(.publish), .exit(.completed)],
                 state: .done),
        ])
        XCTAssertEqual(c.outcome, .completed)
        // A still picture held until a signal.
        let held = play(alone, [
            Step(0, .start, [.screen(.idle)]),
            Step(0.1, .screen(.idle)),
            Step(30, .signal(2), [.cancelTimer(.retry), .cancelTimer(.publish), .exit(.stopped(signal: 2))]),
        ])
        XCTAssertEqual(held.outcome, .stopped(signal: 2))
    }

    func testAutomaticRetriesBackOffThenGiveUp() {
        let failed = KioskEvent.transferEnded(failure: "http://127.0.0.1/fw.bin: HTTP status 404")
        let c = play(configuration { $0.retryAfter = 2; $0.maxRetries = 2 }, [
            Step(0, .start, nil, state: .downloading),
            Step(1, failed, [.screen(.failed("http://127.0.0.1/fw.bin: HTTP status 404")), .warn("http://127.0.0.1/fw.bin: HTTP status 404"),
                             .cancelTimer(.publish), .setTimer(.retry, at: 3), .showMessage("Download failed: http://127.0.0.1/fw.bin: HTTP status 404\nTrying again in 2 s")], state: .failed),
            Step(1.1, .screen(.failed), [.publish(event: "failed", jobEnded: true)]),
            Step(3, .timer(.retry), [.log("retrying the download (automatic retry 1 of 2)"), .showMessage(""),
                                     .screen(.downloading(fresh: true)), .startTransfer([Self.file]), .cancelTimer(.retry),
                                     .setTimer(.publish, at: 3.2)], state: .downloading),
            // The second failure waits twice as long.
            Step(4, failed, nil, state: .failed),
            Step(4.1, .screen(.failed)),
            Step(8, .timer(.retry), nil, state: .downloading),
            Step(8.1, .screen(.downloading), [.publish(event: "progress", jobEnded: false)]),
            // The third: no more retries; the screen shows it, then the run ends with the failure.
            Step(9, failed, [.screen(.failed("http://127.0.0.1/fw.bin: HTTP status 404")), .warn("http://127.0.0.1/fw.bin: HTTP status 404"),
                             .cancelTimer(.publish), .log("giving up after 2 automatic retries"),
                             .showMessage("Download failed: http://127.0.0.1/fw.bin: HTTP status 404")]),
            Step(9.1, .screen(.failed), [.publish(event: "failed", jobEnded: true), .cancelTimer(.retry), .cancelTimer(.publish),
                                         .exit(.failed("http://127.0.0.1/fw.bin: HTTP status 404"))]),
        ])
        XCTAssertEqual(c.automaticRetries, 2)
    }

    func testTheBackOffDoublesUpToFiveMinutes() {
        var c = KioskController(configuration: configuration { $0.retryAfter = 100 })
        _ = c.handle(.start, at: 0)
        var delays: [Double] = []
        var now = 0.0
        for _ in 0..<4 {
            _ = c.handle(.transferEnded(failure: "down"), at: now)
            delays.append(c.retryDelay ?? -1)
            now += c.retryDelay ?? 0
            _ = c.handle(.timer(.retry), at: now)
        }
        XCTAssertEqual(delays, [100, 200, 300, 300])
    }

    func testAPressRetriesOnlyWhenMadeAfterTheFailure() {
        play(configuration { $0.trigger = .input }, [
            Step(0, .start, nil, state: .waiting),
            Step(1, .press(code: 57, device: "kbd", time: 1, offPrompt: nil), nil, state: .downloading),
            Step(5, .transferEnded(failure: "gone"), nil, state: .failed),
            Step(5.1, .screen(.failed), [.publish(event: "failed", jobEnded: true)], state: .failed),
            // Pressed at 4.9 (while it ran), read at 5.2: no answer to a failure nobody had seen.
            Step(5.2, .press(code: 28, device: "kbd", time: 4.9, offPrompt: nil), [], state: .failed),
            Step(6, .press(code: 28, device: "kbd", time: 6, offPrompt: "input: touch at 1,2 is not on the start prompt"),
                 [.log("input: touch at 1,2 is not on the start prompt")], state: .failed),
            Step(7, .press(code: 28, device: "kbd", time: 7, offPrompt: nil),
                 [.log("input: key 28: retrying the download"), .showMessage(""), .screen(.downloading(fresh: true)),
                  .startTransfer([Self.file]), .cancelTimer(.retry), .setTimer(.publish, at: 7.2)], state: .downloading),
        ])
    }

    func testOnFilesAFailureWithInputTriggerEndsTheRun() {
        let c = play(configuration { $0.trigger = .input; $0.writesFiles = true }, [
            Step(0, .start), Step(1, .press(code: 28, device: "kbd", time: 1, offPrompt: nil)),
            Step(2, .transferEnded(failure: "gone")), Step(2.1, .screen(.failed)),
        ])
        XCTAssertEqual(c.outcome, .failed("gone"))
    }

    func testADaemonIdlesTakesAFetchRefusesASecondAndCancels() {
        let c = play(configuration { $0.job = []; $0.daemon = true }, [
            Step(0, .start, [.screen(.idle)], state: .idle),
            Step(0.1, .screen(.idle), [.publish(event: "progress", jobEnded: false)]),
            Step(0.2, .press(code: 28, device: "kbd", time: 0.2, offPrompt: nil), [], state: .idle),
            Step(1, .request(client: 5, .fetch(Self.file)),
                 [.showMessage(""), .screen(.downloading(fresh: true)), .startTransfer([Self.file]), .cancelTimer(.retry),
                  .setTimer(.publish, at: 1.2), .subscribe(client: 5, watching: false), .reply(client: 5, .progress("accepted"))],
                 state: .downloading),
            Step(1.5, .request(client: 6, .fetch(Self.other)), [.reply(client: 6, .error("busy: a download is running"))]),
            Step(2, .request(client: 6, .cancel), [.cancelTransfer, .reply(client: 6, .ok)]),
            Step(2.1, .transferEnded(failure: "http://127.0.0.1/fw.bin: cancelled"), nil, state: .failed),
            // A daemon does not exit on a failure.
            Step(2.2, .screen(.failed), [.publish(event: "failed", jobEnded: true)]),
            Step(3, .request(client: 6, .fetch(Self.other)), nil, state: .downloading),
            Step(4, .transferEnded(failure: nil)),
            Step(5, .screen(.done), [.publish(event: "done", jobEnded: true)], state: .done),
            Step(6, .request(client: 8, .message("Rebooting soon")), [.showMessage("Rebooting soon"), .reply(client: 8, .ok)]),
            Step(6.5, .request(client: 8, .invalid("unknown command x")), [.reply(client: 8, .error("unknown command x"))]),
            Step(7, .request(client: 8, .quit), [.reply(client: 8, .ok), .cancelTimer(.retry), .cancelTimer(.publish), .exit(.quit)]),
            Step(8, .request(client: 8, .status), []),
        ])
        XCTAssertEqual(c.job, [Self.other])
        XCTAssertEqual(c.outcome, .quit)
    }

    func testAFetchAfterADaemonJobEndedIsNotBusy() {
        play(configuration { $0.job = []; $0.daemon = true }, [
            Step(0, .start), Step(1, .request(client: 5, .fetch(Self.file))),
            // The transfer is over while the screen still finishes: a new fetch is taken.
            Step(2, .transferEnded(failure: nil)), Step(2.1, .screen(.finishing), nil, state: .finishing),
            Step(2.2, .request(client: 6, .fetch(Self.other)), nil, state: .downloading),
        ])
    }

    /// psplash exits at once on QUIT; so does Buoy by default (no success segment first).
    func testPsplashQuitEndsTheRunAtOnce() {
        let c = play(configuration { $0.job = [] }, [
            Step(0, .start, [.screen(.downloading(fresh: false)), .cancelTimer(.retry), .setTimer(.publish, at: 0.2)], state: .downloading),
            Step(1, .psplash(.progress(0.4)), [.screen(.progress(0.4))]),
            Step(2, .psplash(.quit), [.log("psplash: QUIT"), .cancelTimer(.retry), .cancelTimer(.publish), .exit(.psplashQuit)]),
            Step(2.1, .psplash(.message("late")), []),
        ])
        XCTAssertEqual(c.outcome, .psplashQuit)
        // retain ends the same way: what is left on the panel is the CLI's business.
        let retained = play(configuration { $0.job = []; $0.psplashQuit = .retain }, [
            Step(0, .start, nil, state: .downloading),
            Step(1, .psplash(.quit), [.log("psplash: QUIT"), .cancelTimer(.retry), .cancelTimer(.publish), .exit(.psplashQuit)]),
        ])
        XCTAssertEqual(retained.outcome, .psplashQuit)
    }

    func testPsplashDrivesTheWaterWithoutFilesOrSocket() {
        let c = play(configuration { $0.job = []; $0.psplashQuit = .success }, [
            Step(0, .start, [.screen(.downloading(fresh: false)), .cancelTimer(.retry), .setTimer(.publish, at: 0.2)], state: .downloading),
            Step(1, .psplash(.progress(0.4)), [.screen(.progress(0.4))]),
            Step(2, .psplash(.message("Installing")), [.showMessage("Installing")]),
            Step(3, .psplash(.quit), [.screen(.succeeded)]),
            Step(3.1, .psplash(.quit), []),
            Step(4, .screen(.done), [.publish(event: "done", jobEnded: true), .cancelTimer(.retry), .cancelTimer(.publish), .exit(.completed)]),
        ])
        XCTAssertEqual(c.outcome, .completed)
    }

    func testPsplashProgressDoesNotMoveADownloadsWater() {
        play(configuration(), [
            Step(0, .start, nil, state: .downloading),
            Step(1, .psplash(.progress(0.9)), []),
            Step(1.5, .psplash(.quit), []),
            Step(2, .psplash(.message("hello")), [.showMessage("hello")]),
        ])
    }

    func testARetryTimerAfterASuccessfulPressRetryDoesNothing() {
        play(configuration { $0.trigger = .input; $0.retryAfter = 10 }, [
            Step(0, .start), Step(1, .press(code: 28, device: "k", time: 1, offPrompt: nil)),
            Step(2, .transferEnded(failure: "x"), nil, state: .failed),
            Step(3, .press(code: 28, device: "k", time: 3, offPrompt: nil), nil, state: .downloading),
            Step(12, .timer(.retry), [], state: .downloading),
        ])
    }
}
