import Input
import XCTest

/// Which presses answer a failed download: only those made after the failure. (The devices
/// themselves cannot be simulated here; `buoy run` passes what it polls through this.)
final class RetryInputTests: XCTestCase {
    func press(_ code: UInt32, at time: Double?) -> InputWatcher.Press {
        InputWatcher.Press(device: "/dev/input/event0", code: code, time: time)
    }

    func testPressesMadeBeforeTheFailureAreIgnored() {
        let failedAt = 100.0
        let presses = [press(28, at: 97.5), press(57, at: 99.999), press(28, at: 100.0), press(57, at: 101.2)]
        XCTAssertEqual(InputWatcher.presses(presses, madeSince: failedAt).map(\.time), [100.0, 101.2])
    }

    func testAllPressesBeforeTheFailureLeaveNothingToRetry() {
        XCTAssertTrue(InputWatcher.presses([press(28, at: 10), press(28, at: 11)], madeSince: 12).isEmpty)
    }

    func testWithoutAFailureOrATimestampEveryPressCounts() {
        let presses = [press(28, at: 5), press(57, at: nil)]
        XCTAssertEqual(InputWatcher.presses(presses, madeSince: nil), presses)
        XCTAssertEqual(InputWatcher.presses(presses, madeSince: 6).map(\.code), [57], "no timestamp: it counts")
    }
}
