import Download
import Foundation
import XCTest

/// A server that redirects to other schemes or asks for a wait, and URLs of other schemes.
final class HostileServerTests: DownloadTestCase {
    func fetch(_ request: DownloadRequest, policy: DownloadPolicy? = nil) -> DownloadStatus {
        DownloadSession(requests: [request], policy: policy ?? fastPolicy).run()
    }

    func assertRefused(_ status: DownloadStatus, _ why: String, file: StaticString = #filePath, line: UInt = #line) {
        guard case .refused? = status.errors.first else {
            return XCTFail("\(why): expected a refusal, got \(status.errors)", file: file, line: line)
        }
    }

    func testARedirectToFTPIsRefusedAndNotRetried() {
        let dest = dir + "/out.bin"
        let status = fetch(DownloadRequest(url: url("/redirect-to?u=ftp://127.0.0.1:1/x"), destination: dest))
        assertRefused(status, "ftp redirect")
        XCTAssertEqual(requests().count, 1, "a refusal is not retried")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest + ".part"))
    }

    func testARedirectToFileIsRefusedEvenWhenTheOperatorAllowsFile() throws {
        let secret = dir + "/secret"
        try "secret".write(toFile: secret, atomically: true, encoding: .utf8)
        let dest = dir + "/out.bin"
        let status = fetch(DownloadRequest(url: url("/redirect-to?u=file://" + secret), destination: dest, allowsFileScheme: true))
        assertRefused(status, "file redirect")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest))
    }

    func testAFileURLNeedsTheOperatorsConsent() throws {
        let source = dir + "/source.bin"
        FileManager.default.createFile(atPath: source, contents: Data(Self.body(5000)))
        let dest = dir + "/out.bin"
        let refused = fetch(DownloadRequest(url: "file://" + source, destination: dest))
        assertRefused(refused, "file:// without consent")
        XCTAssertTrue("\(refused.errors[0])".contains("command line"), "\(refused.errors[0])")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest + ".part"), "refused before anything is created")
        let allowed = fetch(DownloadRequest(url: "file://" + source, destination: dest, allowsFileScheme: true))
        XCTAssertTrue(allowed.succeeded, "\(allowed.errors)")
        XCTAssertTrue(contents(dest) == Self.body(5000))
    }

    func testOtherSchemesAreRefusedBeforeAnyTransfer() {
        let dest = dir + "/out.bin"
        for u in ["ftp://127.0.0.1:\(port)/x", "gopher://127.0.0.1:\(port)/x", "dict://127.0.0.1:\(port)/x", "FILE:///etc/hostname",
                  "127.0.0.1:\(port)/file/10", "scp://127.0.0.1/x"] {
            let status = fetch(DownloadRequest(url: u, destination: dest))
            assertRefused(status, u)
        }
        let sum = fetch(DownloadRequest(url: url("/file/10"), destination: dest, checksumURL: "file:///etc/hostname"))
        assertRefused(sum, "a file:// checksum URL")
        XCTAssertEqual(requests(), [], "nothing reached the server")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest + ".part"))
    }

    /// 503 with Retry-After: 2 — the retry waits 2 s, not the policy's 0.05 s back-off.
    func testRetryAfterSecondsIsHonoured() {
        var seenDelay: Double?
        let started = Date()
        let session = DownloadSession(requests: [DownloadRequest(url: url("/busy/2000?fails=1&after=2"), destination: dir + "/out.bin")], policy: fastPolicy)
        let status = session.run { s in if let d = s.files[0].retryDelay { seenDelay = d } }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertEqual(seenDelay, 2, "the retry time shows the server's wait")
        XCTAssertGreaterThanOrEqual(elapsed, 1.95)
        XCTAssertLessThan(elapsed, 6)
        XCTAssertEqual(requests().count, 2)
    }

    /// 429 with Retry-After as an HTTP date, two seconds ahead (whole seconds: 1-2 s of wait).
    func testRetryAfterDateIsHonoured() {
        let started = Date()
        let status = fetch(DownloadRequest(url: url("/busy/2000?fails=1&after=2&date=1&code=429"), destination: dir + "/out.bin"))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertGreaterThanOrEqual(elapsed, 0.95)
        XCTAssertEqual(requests().count, 2)
    }

    /// A Retry-After of an hour is cut to the policy's bound.
    func testRetryAfterIsBounded() {
        var policy = fastPolicy
        policy.maxRetryAfter = 1
        let started = Date()
        let status = fetch(DownloadRequest(url: url("/busy/2000?fails=1&after=3600"), destination: dir + "/out.bin"), policy: policy)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertGreaterThanOrEqual(elapsed, 0.95)
        XCTAssertLessThan(elapsed, 5)
    }
}
