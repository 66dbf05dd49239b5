import Foundation
import XCTest

/// `buoy message TEXT` against a real daemon on a real socket, and a failure's reason in the
/// log once.
final class MessageTests: CommandTestCase {
    var socket: String { dir + "/buoy.sock" }

    func testMessageReachesTheDaemonAndIsLoggedOnceWhileItStaysTheSame() throws {
        let daemon = try start(["run", "--socket", socket, "--display", "headless:\(dir)/frames",
                                "--size", "48x27", "--every", "1000"], name: "daemon")
        defer { daemon.terminate(); daemon.waitUntilExit() }
        XCTAssertTrue(waitUntil(20) { FileManager.default.fileExists(atPath: self.socket) }, errors(of: "daemon"))
        for _ in 0..<3 {
            let (status, out, err) = try runCapturing(["message", "Rebooting at 02:00", "--socket", socket])
            XCTAssertEqual(status, 0, err)
            XCTAssertEqual(try jsonLines(out).first?["event"] as? String, "ok", out)
        }
        // Control characters reach neither the log nor the screen as such.
        XCTAssertEqual(try run(["message", "evil\u{1B}[2Jtext", "--socket", socket]).0, 0)
        XCTAssertEqual(try run(["message", "", "--socket", socket]).0, 0, "an empty text clears the line")
        XCTAssertTrue(waitUntil(10) { self.errors(of: "daemon").contains("evil\\x1B[2Jtext") }, errors(of: "daemon"))
        let log = errors(of: "daemon")
        XCTAssertEqual(log.components(separatedBy: "Rebooting at 02:00").count - 1, 1, "logged when it changes:\n\(log)")
        XCTAssertFalse(log.contains("\u{1B}"), log)
    }

    func testMessageWithoutADaemonOrWithATooLongTextFails() throws {
        let (status, _, err) = try runCapturing(["message", "hello", "--socket", dir + "/nobody.sock"])
        XCTAssertEqual(status, 4, err)
        XCTAssertTrue(err.contains("nobody.sock"), err)
        let (tooLong, _, why) = try runCapturing(["message", String(repeating: "x", count: 5000), "--socket", dir + "/nobody.sock"])
        XCTAssertEqual(tooLong, 1, why)
        XCTAssertTrue(why.contains("at most 4096"), why)
        let (help, out, _) = try runCapturing(["message", "--help"])
        XCTAssertEqual(help, 0)
        XCTAssertTrue(out.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("Exit status: 0 the daemon took the request"), out)
    }

    /// A download that fails is reported once with its reason (it was three times: the
    /// warning, the status line echoed to the log, and the exit message).
    func testAFailureIsLoggedOnce() throws {
        let (status, err) = try run(["run", "--url", "\(base)/status/404", "--output", dir + "/x.bin",
                                     "--display", "headless:\(dir)/frames", "--size", "32x18", "--every", "1000"])
        XCTAssertEqual(status, 5, err)
        XCTAssertEqual(err.components(separatedBy: "HTTP status 404").count - 1, 1, "the reason once:\n\(err)")
        XCTAssertTrue(err.contains("exit status 5"), err)
        XCTAssertTrue(err.contains("buoy: Download failed: \(base)/status/404: HTTP status 404"), err)
    }
}
