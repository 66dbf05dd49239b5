import Control
import Download
import XCTest

/// What a socket client may ask the daemon to fetch, and where to.
final class FetchCommandTests: XCTestCase {
    let downloads = try! DownloadDirectory("/var/lib/buoy/downloads/")

    func parse(_ fields: [String: String]) throws -> DownloadRequest {
        try FetchCommand.parse(fields: fields, downloadDirectory: downloads)
    }

    func refusal(_ fields: [String: String], file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let request = try parse(fields)
            XCTFail("accepted \(request)", file: file, line: line)
            return ""
        } catch { return "\(error)" }
    }

    func testANameInsideTheDirectoryBecomesARelativeDestinationBeneathIt() throws {
        let request = try parse(["url": "https://example.org/a.img", "output": "updates/a.img", "sha256": String(repeating: "AB", count: 32)])
        XCTAssertEqual(request.url, "https://example.org/a.img")
        XCTAssertEqual(request.sha256, String(repeating: "ab", count: 32))
        XCTAssertEqual(request.destination, "updates/a.img")
        XCTAssertEqual(request.directory, "/var/lib/buoy/downloads")
        XCTAssertFalse(request.allowsFileScheme)
        // An absolute name inside the directory is made relative; the scheme's case does not matter.
        XCTAssertEqual(try parse(["url": "HTTP://example.org/b", "output": "/var/lib/buoy/downloads/b"]).destination, "b")
    }

    func testEscapesAndEmptyNamesAreRefused() {
        for output in ["/etc/buoy-pwned", "../../etc/x", "a/../../x", "./a", "a/./b", "a//b", "a/", "", "/var/lib/buoy/downloads",
                       "/var/lib/buoy/downloads/", "/var/lib/buoy/downloadsX/a", "/var/lib/buoy/downloads/../x", "..", "a\nb", "a\u{1B}b"] {
            XCTAssertTrue(refusal(["url": "http://h/x", "output": output]).hasPrefix("output:"), output)
        }
        XCTAssertTrue(refusal(["url": "http://h/x", "output": String(repeating: "a", count: 256)]).contains("255"))
        // The refusal shows the name escaped.
        XCTAssertTrue(refusal(["url": "http://h/x", "output": "/etc/\u{1B}[2J"]).contains("\\x1B[2J"))
    }

    func testOnlyHTTPAndHTTPSURLsAreFetchedForASocketClient() {
        for url in ["file:///etc/shadow", "FILE:///etc/shadow", "ftp://h/x", "gopher://127.0.0.1:25/", "dict://127.0.0.1:6379/info",
                    "scp://h/x", "/etc/shadow", "http:/x", "http//x", "", "http://h/\u{0}", "http://h/a b"] {
            XCTAssertTrue(refusal(["url": url, "output": "x"]).hasPrefix("url:"), url)
        }
        XCTAssertTrue(refusal(["url": "http://h/" + String(repeating: "a", count: 9000), "output": "x"]).contains("8192"))
    }

    func testAMissingFieldOrABadChecksumIsRefused() {
        XCTAssertTrue(refusal(["url": "http://h/x"]).contains("needs url and output"))
        XCTAssertTrue(refusal(["output": "x"]).contains("needs url and output"))
        for sum in ["abc", String(repeating: "g", count: 64), String(repeating: "a", count: 65)] {
            XCTAssertTrue(refusal(["url": "http://h/x", "output": "x", "sha256": sum]).hasPrefix("sha256:"), sum)
        }
    }

    func testTheDownloadDirectoryMustBeAbsoluteWithoutDotDot() {
        XCTAssertThrowsError(try DownloadDirectory("downloads"))
        XCTAssertThrowsError(try DownloadDirectory("/var/lib/../tmp"))
        XCTAssertEqual(try DownloadDirectory("//var/./lib//buoy/").path, "/var/lib/buoy")
        XCTAssertEqual(try DownloadDirectory("/").relativeName(of: "/etc/x"), "etc/x")
    }

    func testClientTextIsEscapedForTheLog() {
        XCTAssertEqual(LogText.escaped("done\n[buoy] forged\r\u{1B}[31mred\u{7}\t\u{7F}"), "done\\n[buoy] forged\\r\\x1B[31mred\\x07\\t\\x7F")
        XCTAssertEqual(LogText.escaped("a\\nb"), "a\\\\nb")
        XCTAssertEqual(LogText.escaped("\u{9B}2J\u{2028}\u{202E}gnp.exe"), "\\u{009B}2J\\u{2028}\\u{202E}gnp.exe")
        XCTAssertEqual(LogText.escaped("Ünïcode ok ⛵"), "Ünïcode ok ⛵")
        XCTAssertFalse(LogText.escaped((0..<0x200).compactMap { Unicode.Scalar($0) }.map(String.init).joined()).unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
    }
}
