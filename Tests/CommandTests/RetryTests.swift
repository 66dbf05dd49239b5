import Foundation
import XCTest

/// `buoy run` itself against the loopback HTTP server of the download tests: automatic
/// retries after a failed download back off, and a limit makes it give up with exit 5.
final class RetryTests: CommandTestCase {
    /// Spans of consecutive "failed" frames in a trace, in seconds.
    func failedSpans(_ trace: String) throws -> [Double] {
        var spans: [Double] = []
        var start: Double?
        for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
            let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let t = try XCTUnwrap(entry["t"] as? Double), state = try XCTUnwrap(entry["state"] as? String)
            if state == "failed" {
                if start == nil { start = t }
            } else if let s = start {
                spans.append(t - s)
                start = nil
            }
        }
        return spans
    }

    func testRetriesBackOffUntilTheDownloadSucceeds() throws {
        let dest = dir + "/firmware.bin"
        let (status, log) = try run(["run", "--url", "http://127.0.0.1:\(port)/flaky/60000?fails=2", "--output", dest,
                                     "--display", "headless:\(dir)/frames", "--size", "64x36", "--every", "1000",
                                     "--retry-after", "0.3", "--on-complete", "exit", "--trace", dir + "/trace.jsonl"])
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(requests().filter { $0.hasPrefix("GET /flaky/60000") }.count, 3, "two 404s, then the file")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dest)).count, 60000)
        XCTAssertTrue(log.contains("automatic retry 2"), log)
        // The screen showed the failure between attempts, the second wait twice the first.
        let spans = try failedSpans(dir + "/trace.jsonl")
        XCTAssertEqual(spans.count, 2, "\(spans)")
        if spans.count == 2 {
            XCTAssertGreaterThanOrEqual(spans[0], 0.25)
            XCTAssertGreaterThanOrEqual(spans[1], 0.55)
            XCTAssertGreaterThan(spans[1], spans[0] * 1.5)
        }
    }

    func testGivesUpAfterMaxRetriesWithExitFiveAndNoFile() throws {
        let dest = dir + "/firmware.bin"
        let (status, log) = try run(["run", "--url", "http://127.0.0.1:\(port)/status/404", "--output", dest,
                                     "--display", "headless:\(dir)/frames", "--size", "64x36", "--every", "1000",
                                     "--retry-after", "0.2", "--max-retries", "2", "--on-complete", "exit"])
        XCTAssertEqual(status, 5, log)
        XCTAssertEqual(requests().filter { $0.hasPrefix("GET /status/404") }.count, 3, "the first attempt and two retries")
        XCTAssertTrue(log.contains("giving up after 2 automatic retries"), log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest + ".part"))
    }

    func testMaxRetriesWithoutRetryAfterIsRefused() throws {
        let (status, log) = try run(["run", "--url", "http://127.0.0.1:\(port)/file/10", "--output", dir + "/x", "--max-retries", "2"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(log.contains("--max-retries needs --retry-after"), log)
        XCTAssertTrue(requests().isEmpty)
    }
}
