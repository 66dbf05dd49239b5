import Foundation
import XCTest

/// Two `buoy fetch` processes to one DEST: the second is told at once, the first installs the
/// right file; never a mix of both.
final class ConcurrentFetchTests: CommandTestCase {
    func testASecondProcessFetchingTheSameDestinationFailsClearly() throws {
        let n = 300_000
        let dest = dir + "/out.bin"
        let sum = try sha256OfServerBody(n)
        let common = ["-o", dest, "--sha256", sum, "--display", "none", "--socket", dir + "/no.sock"]
        let first = try start(["fetch", "\(base)/slow/\(n)?rate=150000"] + common, name: "first")
        XCTAssertTrue(waitUntil(10) { ((try? FileManager.default.attributesOfItem(atPath: dest + ".part"))?[.size] as? Int ?? 0) > 0 },
                      "the first fetch started writing")
        let (status, log) = try run(["fetch", "\(base)/file/\(n)"] + common)
        XCTAssertEqual(status, 5, log)
        XCTAssertTrue(log.contains("\(dest) is being downloaded by another process"), log)
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0, errors(of: "first"))
        XCTAssertEqual(try sha256(of: dest), sum, "the installed file is the right one")
        XCTAssertFalse(requests().contains { $0.hasPrefix("GET /file/") }, "the second never fetched")
    }
}
