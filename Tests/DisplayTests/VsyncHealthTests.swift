import Display
import Foundation
import XCTest

/// fbdev's vsync: a driver that has none says so and is paced by a timer from then on; a wait
/// that fails now and then (a timeout, a busy device) does not turn it off for the run.
final class VsyncHealthTests: XCTestCase {
    func testOneFailedWaitKeepsVsync() {
        var v = VsyncHealth()
        for _ in 0..<10 {
            v.record(failure: ETIMEDOUT)
            XCTAssertTrue(v.isOn)
            v.record(failure: nil)
        }
        v.record(failure: EBUSY)
        v.record(failure: EBUSY)
        XCTAssertTrue(v.isOn, "two in a row")
        v.record(failure: EBUSY)
        XCTAssertFalse(v.isOn, "\(VsyncHealth.failureLimit) in a row")
    }

    func testADriverWithoutVsyncSaysSoAtOnce() {
        for e in [ENOTTY, EINVAL, EOPNOTSUPP] {
            var v = VsyncHealth()
            v.record(failure: e)
            XCTAssertFalse(v.isOn, "errno \(e)")
        }
    }
}
