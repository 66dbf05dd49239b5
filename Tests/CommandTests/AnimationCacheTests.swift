import Foundation
import XCTest

/// An animation given as a URL: cached on the first start, shown from the cache at once on
/// later starts while a new copy is fetched, and replaced only by a copy that parses.
final class AnimationCacheTests: CommandTestCase {
    /// A tiny valid animation whose name tells the copies apart.
    func animation(_ name: String) -> String {
        #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":40,"h":30,"nm":"\#(name)","ddd":0,"assets":[],"layers":[]}"#
    }

    func serve(_ name: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: dir + "/files", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/files/" + name))
    }

    /// Runs `buoy run` with the animation URL and a throttled download (so the screen runs long
    /// enough for the refresh), the cache in the scratch directory.
    func runScreen(animationURL: String, name: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = buoy
        process.arguments = ["run", "--animation", animationURL, "--url", "\(base)/slow/20000?rate=20000", "--output", "\(dir)/\(name).bin",
                             "--display", "headless:\(dir)/\(name)", "--size", "40x30", "--every", "1000", "--on-complete", "exit"]
        var environment = ProcessInfo.processInfo.environment
        environment["BUOY_CACHE_DIR"] = dir + "/cache"
        process.environment = environment
        let err = dir + "/\(name).err"
        FileManager.default.createFile(atPath: err, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: err)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    func cachedCopies() -> [String] {
        let animations = dir + "/cache/animations"
        return ((try? FileManager.default.contentsOfDirectory(atPath: animations)) ?? []).sorted().map { animations + "/" + $0 }
    }

    func testABrokenNewCopyNeverReplacesTheCachedOne() throws {
        let url = "\(base)/files/boat.json"
        try serve("boat.json", animation("good"))
        var (status, log) = try runScreen(animationURL: url, name: "first")
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(cachedCopies().count, 1, "\(cachedCopies())")
        let cached = try XCTUnwrap(cachedCopies().first)
        XCTAssertEqual(try String(contentsOfFile: cached, encoding: .utf8), animation("good"))

        // The server now has a broken file: the cached copy is shown and stays.
        try serve("boat.json", #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":40,"h":30,"layers":[{"ty":4,"#)
        (status, log) = try runScreen(animationURL: url, name: "second")
        XCTAssertEqual(status, 0, log)
        XCTAssertTrue(log.contains("keeping the cached copy"), log)
        XCTAssertEqual(try String(contentsOfFile: cached, encoding: .utf8), animation("good"))
        XCTAssertEqual(cachedCopies(), [cached], "no candidate left beside it")
        XCTAssertEqual(requests().filter { $0.hasPrefix("GET /files/boat.json") }.count, 2)

        // Offline (the server has nothing): still the cached copy, at once.
        try FileManager.default.removeItem(atPath: dir + "/files/boat.json")
        (status, log) = try runScreen(animationURL: url, name: "third")
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(try String(contentsOfFile: cached, encoding: .utf8), animation("good"))

        // A good new version replaces it (for the next start).
        try serve("boat.json", animation("better"))
        (status, log) = try runScreen(animationURL: url, name: "fourth")
        XCTAssertEqual(status, 0, log)
        XCTAssertTrue(log.contains("cached copy refreshed"), log)
        XCTAssertEqual(try String(contentsOfFile: cached, encoding: .utf8), animation("better"))
    }

    /// A broken first copy is not cached, and the download runs anyway under the built-in animation.
    func testABrokenFirstCopyIsNotCachedAndTheDownloadStillRuns() throws {
        try serve("bad.json", "not json at all")
        let (status, log) = try runScreen(animationURL: "\(base)/files/bad.json", name: "bad")
        XCTAssertEqual(status, 0, log)
        XCTAssertTrue(log.contains("not a Lottie animation"), log)
        XCTAssertTrue(log.contains("showing the built-in animation instead"), log)
        XCTAssertEqual(cachedCopies(), [])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/bad.bin")).count, 20000, "the download ran")
    }

    /// Issue 10, item 8: a custom animation that is missing, truncated, not Lottie or
    /// unreachable (no cached copy) never stops the update: one warning, the built-in
    /// animation, the download done and exit 0.
    func testAnAnimationThatCannotBeLoadedFallsBackToTheBuiltInOne() throws {
        let truncated = dir + "/truncated.json"
        try Data(animation("t").utf8.dropLast(20)).write(to: URL(fileURLWithPath: truncated))
        let notLottie = dir + "/notlottie.json"
        try Data(#"{"hello":"world"}"#.utf8).write(to: URL(fileURLWithPath: notLottie))
        let cases = [("missing", dir + "/no-such-animation.json"), ("truncated", truncated), ("notlottie", notLottie),
                     ("unreachable", "http://127.0.0.1:9/none.json")]
        for (name, animation) in cases {
            let (status, log) = try runScreen(animationURL: animation, name: name)
            XCTAssertEqual(status, 0, "\(name): \(log)")
            let warnings = log.components(separatedBy: "\n").filter { $0.contains("showing the built-in animation instead") }
            XCTAssertEqual(warnings.count, 1, "\(name): \(log)")
            XCTAssertTrue(warnings.first?.contains(name == "unreachable" ? "127.0.0.1:9" : animation) ?? false, "\(name): \(log)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name).bin")).count, 20000, "\(name): the download ran")
        }
    }
}
