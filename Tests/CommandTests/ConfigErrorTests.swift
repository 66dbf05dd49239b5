import Foundation
import XCTest

/// `buoy run --config` with a broken file: each kind of mistake ends with status 1 before
/// anything is downloaded or drawn, and the message names the file, the line and the key.
final class ConfigErrorTests: CommandTestCase {
    func runConfig(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = dir + "/buoy.toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (status, log) = try run(["run", "--config", path, "--display", "headless:\(dir)/frames", "--on-complete", "exit"])
        XCTAssertEqual(status, 1, log, file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/frames"), "nothing is drawn", file: file, line: line)
        XCTAssertTrue(requests().filter { $0.hasPrefix("GET ") }.isEmpty, "nothing is downloaded", file: file, line: line)
        XCTAssertTrue(log.hasPrefix("buoy: \(path):"), log, file: file, line: line)
        return log
    }

    var download: String { "[[download]]\nurl = \"\(base)/file/100\"\noutput = \"\(dir)/a.out\"\n" }

    func testASyntaxErrorNamesItsLine() throws {
        let log = try runConfig("# settings\nrotate = 90\nkeys = [28,\n\n" + download)
        XCTAssertTrue(log.contains("buoy.toml:3") || log.contains("buoy.toml:4") || log.contains("buoy.toml:5"), log)
    }

    func testAWronglyTypedValueNamesTheKeyAndTheTypeNotAFlag() throws {
        let log = try runConfig("display = \"headless:\(dir)/frames\"\n\n[screen]\nrotate = \"90\"\n" + download)
        XCTAssertTrue(log.contains("buoy.toml:4: rotate: expected an integer, found a string"), log)
        XCTAssertFalse(log.contains("--rotate"), log)
    }

    func testAnUnknownKeySuggestsTheClosestOne() throws {
        let log = try runConfig("content_mode = \"fit\"\nretry_afer = 5\n" + download)
        XCTAssertTrue(log.contains("buoy.toml:2: unknown key retry_afer (did you mean retry-after?)"), log)
        let far = try runConfig("colour = \"red\"\n" + download)
        XCTAssertTrue(far.contains("buoy.toml:1: unknown key colour") && !far.contains("did you mean"), far)
        let inDownload = try runConfig(download + "checksum = \"none\"\n")
        XCTAssertTrue(inDownload.contains("buoy.toml:4: unknown key checksum in [[download]]"), inDownload)
    }

    func testABadValueNamesTheKeyAndWhatIsExpected() throws {
        let size = try runConfig("size = '12x'\n" + download)
        XCTAssertTrue(size.contains("buoy.toml:1: size = \"12x\": expected a string \"WxH\""), size)
        let rotate = try runConfig("[screen]\nrotate = 45\n" + download)
        XCTAssertTrue(rotate.contains("buoy.toml:2: rotate = 45: must be 0, 90, 180 or 270"), rotate)
        let checksum = try runConfig(download + "sha256 = 'abc'\n")
        XCTAssertTrue(checksum.contains("buoy.toml:4: sha256: expected 64 hex digits"), checksum)
    }

    func testANulInAStringIsRefusedNotCut() throws {
        // TOMLKit would hand "/tmp/a\u0000b" over as "/tmp/a".
        let log = try runConfig("[[download]]\nurl = \"\(base)/file/100\"\noutput = \"\(dir)/a.out\\u0000.sh\"\n")
        XCTAssertTrue(log.contains("buoy.toml:3: a NUL character"), log)
    }

    func testAKeyUnderTheWrongSectionNamesItsHome() throws {
        let log = try runConfig("[input]\nfps = 30\n" + download)
        XCTAssertTrue(log.contains("buoy.toml:2: fps belongs at the top or under [screen], not under [input]"), log)
    }

    func testArraysSingleQuotesAndSectionsWork() throws {
        let path = dir + "/buoy.toml"
        try """
        # every form the old reader refused
        on_complete = 'exit'
        keys = [28, 57]

        [screen]
        display = 'headless:\(dir)/frames'
        size = "64x36"
        every = 1000

        [playback]
        content-mode = "fit"

        [[download]]
        url = '\(base)/file/1234'
        output = '\(dir)/a.out'
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let (status, log) = try run(["run", "--config", path])
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.out")).count, 1234)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir + "/frames").isEmpty)
    }

    func testTheExampleFileIsValidAndListsEveryKey() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../deploy/buoy.toml.example").standardized.path
        let text = try String(contentsOfFile: example, encoding: .utf8)
        // Every flag of `buoy run` that a file may set appears, commented or not.
        let (_, help, _) = try runCapturing(["run", "--help"])
        let flags = Set(help.components(separatedBy: .whitespaces).filter { $0.hasPrefix("--") }
            .map { String($0.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" }) })
            .subtracting(["config", "no-config-downloads", "url", "output", "sha256", "help", "version", ""])
        for flag in flags {
            XCTAssertTrue(text.contains("\n\(flag) =") || text.contains("# \(flag) ="), "deploy/buoy.toml.example lacks \(flag)")
        }
        // Uncommented, it parses as it stands (pointing its paths here).
        let path = dir + "/example.toml"
        try text.replacingOccurrences(of: "https://updates.example.org/", with: base + "/file/")
            .replacingOccurrences(of: "/var/lib/buoy/", with: dir + "/")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let (status, log) = try run(["run", "--config", path, "--display", "headless:\(dir)/frames", "--every", "1000", "--size", "32x18"])
        XCTAssertFalse(log.contains("buoy.toml") || log.contains("example.toml:"), log)
        XCTAssertEqual(status, 0, log)
    }
}
