import Foundation
import XCTest

/// `buoy run --config`: each [[download]] keeps its own checksum, the file's settings apply,
/// and flags override the file (a --url on the command line replaces its downloads).
final class ConfigTests: CommandTestCase {
    func writeConfig(_ text: String) throws -> String {
        let path = dir + "/buoy.toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A headless, fast screen so each run takes a moment.
    var screen: [String] { ["--display", "headless:\(dir)/frames", "--size", "64x36", "--every", "1000", "--on-complete", "exit"] }

    func testADownloadWithoutAChecksumDoesNotTakeTheNextOnes() throws {
        // a has no checksum; b's is wrong. Paired by position, b's would land on a (a refused,
        // b installed unchecked); each keeps its own: a installed, b refused.
        let config = try writeConfig("""
        [[download]]
        url = "\(base)/file/3000"
        output = "\(dir)/a.out"

        [[download]]
        url = "\(base)/file/5000"
        output = "\(dir)/b.out"
        sha256 = "\(String(repeating: "0", count: 64))"
        """)
        let (status, log) = try run(["run", "--config", config] + screen)
        XCTAssertEqual(status, 5, log)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.out")).count, 3000, log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/b.out"), "b.out was installed without its checksum")
        XCTAssertTrue(log.contains("b.out") && log.contains("SHA-256"), log)
    }

    func testEveryDownloadIsCheckedAgainstItsOwnChecksum() throws {
        let config = try writeConfig("""
        [[download]]
        url = "\(base)/file/3000"
        output = "\(dir)/a.out"
        [[download]]
        url = "\(base)/file/5000"   # the second one checked
        output = "\(dir)/b.out"
        sha256 = "\(try sha256OfServerBody(5000))"
        [[download]]
        url = "\(base)/file/700"
        output = "\(dir)/c.out"
        """)
        let (status, log) = try run(["run", "--config", config] + screen)
        XCTAssertEqual(status, 0, log)
        for (name, size) in [("a", 3000), ("b", 5000), ("c", 700)] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name).out")).count, size, name)
        }
    }

    func testACommandLineURLReplacesTheConfigDownloadsAndTheSettingsStay() throws {
        let config = try writeConfig("""
        display = "headless:\(dir)/config-frames"
        size = "64x36"
        every = 1000
        [[download]]
        url = "\(base)/file/1111"
        output = "\(dir)/from-config.out"
        """)
        let (status, log) = try run(["run", "--config=\(config)", "--url", "\(base)/file/2222", "--output", "\(dir)/from-flags.out",
                                     "--on-complete", "exit"])
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(requests().filter { $0.hasPrefix("GET ") }.map { $0.split(separator: " ")[1] }, ["/file/2222"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/from-flags.out"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/from-config.out"))
        // The file's display settings applied: frames of its size in its directory.
        let frames = try FileManager.default.contentsOfDirectory(atPath: dir + "/config-frames")
        XCTAssertFalse(frames.isEmpty)
    }

    func testAnExplicitNoneChecksumKeepsTheCommandLinePairing() throws {
        let (status, log) = try run(["run", "--url", "\(base)/file/3000", "--output", "\(dir)/a.out",
                                     "--url", "\(base)/file/5000", "--output", "\(dir)/b.out",
                                     "--sha256", "none", "--sha256", try sha256OfServerBody(5000)] + screen)
        XCTAssertEqual(status, 0, log)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/a.out"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/b.out"))
    }

    func testRunHelpShowsTheConfigFile() throws {
        let (status, out, _) = try runCapturing(["run", "--help"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(out.contains("--config"), out)
        XCTAssertTrue(out.contains("--no-config-downloads"), out)
        XCTAssertTrue(out.contains("replaces"), out)
    }

    func testABadConfigLineIsNamed() throws {
        let config = try writeConfig("display = \"headless:\(dir)/f\"\nspeed = 3\n")
        let (status, log) = try run(["run", "--config", config, "--url", "\(base)/file/10", "--output", dir + "/x"])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(log.contains("buoy.toml:2: unknown key speed"), log)
        XCTAssertTrue(requests().isEmpty)
    }
}
