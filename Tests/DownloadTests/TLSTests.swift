import Download
import Foundation
import XCTest

/// https against a loopback server whose certificate is made for the test (openssl): trusted
/// through `DownloadPolicy.caFile`, refused without it.
final class TLSTests: DownloadTestCase {
    override var scheme: String { "https" }
    var caFile: String { dir + "/ca.pem" }

    override func serverOptions() throws -> [String] {
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", dir + "/key.pem", "-out", caFile]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw XCTSkip("openssl could not make a certificate") }
        return ["--tls", caFile, dir + "/key.pem"]
    }

    func testTheCAFileIsTrusted() {
        var policy = fastPolicy
        policy.caFile = caFile
        let dest = dir + "/out.bin"
        let status = DownloadSession(requests: [DownloadRequest(url: url("/file/20000"), destination: dest, sha256: Self.sha(Self.body(20000)))],
                                     policy: policy).run()
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertTrue(contents(dest) == Self.body(20000))
    }

    func testWithoutTheCAFileTheServerIsRefused() {
        var policy = fastPolicy
        policy.maxAttempts = 1
        let dest = dir + "/out.bin"
        let status = DownloadSession(requests: [DownloadRequest(url: url("/file/20000"), destination: dest)], policy: policy).run()
        guard case .transfer(_, let reason)? = status.errors.first else { return XCTFail("\(status.errors)") }
        XCTAssertTrue(reason.lowercased().contains("certificate"), reason)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest))
        XCTAssertEqual(requests(), [], "no request got through")
    }
}
