import Foundation
import XCTest

/// `buoy fetch` on a real pseudo-terminal (pty_run.py) of 50, 80 and 200 columns: each redraw
/// returns to the line's start and clears to its end, no line reaches the last column (so
/// nothing wraps or scrolls), and the only line that ends is the summary, last.
final class TerminalBarTests: CommandTestCase {
    /// What a terminal shows: the lines that ended, each as the redraws written on it.
    struct Screen {
        var raw: String
        /// Lines split at newlines; each line split at carriage returns into its redraws.
        var lines: [[String]] {
            raw.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.split(separator: "\r", omittingEmptySubsequences: true).map(String.init) }
        }

        /// A redraw as it shows: the clear-to-end sequence has no width.
        static func visible(_ text: String) -> String { text.replacingOccurrences(of: "\u{1B}[K", with: "") }
    }

    func fetchOnTerminal(columns: Int, output name: String, resizeAfter: (bytes: Int, columns: Int)? = nil,
                         path: String = "/slow/300000?rate=150000") throws -> (Int32, Screen) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("pty_run.py").path
        let out = dir + "/tty-\(columns).raw"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, out, String(columns)] + (resizeAfter.map { [String($0.bytes), String($0.columns)] } ?? [])
            + ["--", buoy.path, "fetch", base + path, "-o", dir + "/" + name, "--display", "none", "--socket", dir + "/no.sock"]
        try process.run()
        process.waitUntilExit()
        let raw = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data(), as: UTF8.self)
        return (process.terminationStatus, Screen(raw: raw))
    }

    func assertFits(_ screen: Screen, columns: Int, file: StaticString = #filePath, line: UInt = #line) {
        for text in screen.lines.joined() {
            let shown = Screen.visible(text)
            XCTAssertLessThan(shown.count, columns, "\(columns) columns: \(shown.debugDescription)", file: file, line: line)
        }
    }

    func checkWidth(_ columns: Int) throws {
        let name = "update-image-with-a-rather-long-name-\(columns).img"
        let (status, screen) = try fetchOnTerminal(columns: columns, output: name)
        XCTAssertEqual(status, 0, screen.raw)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)).count, 300_000)
        assertFits(screen, columns: columns)
        // One line ends (the summary) and nothing follows it: no line scrolled per update.
        let lines = screen.lines
        XCTAssertEqual(lines.count, 2, screen.raw.debugDescription)
        XCTAssertEqual(lines.last, [], screen.raw.debugDescription)
        let redraws = lines[0]
        XCTAssertGreaterThan(redraws.count, 3, "the bar was redrawn while the download ran: \(screen.raw.debugDescription)")
        // Every redraw clears what a longer earlier one left.
        XCTAssertTrue(redraws.allSatisfy { $0.hasSuffix("\u{1B}[K") }, screen.raw.debugDescription)
        let summary = Screen.visible(redraws.last!)
        XCTAssertTrue(summary.contains("done"), summary)
        // The name, cut with an ellipsis when it does not fit, then the outcome whole.
        let shownName = try XCTUnwrap(summary.components(separatedBy: ": done, ").first)
        XCTAssertTrue(shownName.count >= 8 && name.hasPrefix(shownName.hasSuffix("…") ? String(shownName.dropLast()) : shownName), summary)
        XCTAssertTrue(summary.contains("300.0 kB in 0:0"), summary)
        let progress = redraws.dropLast().map(Screen.visible)
        XCTAssertTrue(progress.contains { $0.contains("%") }, "\(progress)")
        if columns >= 80 {
            // Wide enough for the sizes, the rate, the time left and the elapsed time.
            XCTAssertTrue(progress.contains { $0.contains("/300.0 kB") && $0.contains("/s") && $0.contains("left ") }, "\(progress)")
        }
        if columns >= 200 {
            XCTAssertTrue(progress.contains { $0.hasPrefix(name) && $0.contains("[#") }, "\(progress)")
        }
    }

    func testFiftyColumns() throws { try checkWidth(50) }

    func testAWideCharacterNameStillFits() throws {
        // Each of these takes two columns on a terminal.
        let name = "更新イメージ・とても長いファイルの名前です.img"
        let (status, screen) = try fetchOnTerminal(columns: 50, output: name)
        XCTAssertEqual(status, 0, screen.raw)
        func columns(_ text: String) -> Int {
            text.unicodeScalars.reduce(0) { $0 + ((0x3000...0x9FFF).contains($1.value) || (0xFF00...0xFF60).contains($1.value) ? 2 : 1) }
        }
        for text in screen.lines.joined() {
            XCTAssertLessThan(columns(Screen.visible(text)), 50, Screen.visible(text))
        }
    }
    func testEightyColumns() throws { try checkWidth(80) }
    func testTwoHundredColumns() throws { try checkWidth(200) }

    func testANarrowerTerminalMidwayNarrowsTheBar() throws {
        // 120 columns, then 40 after the first redraws: the kernel signals SIGWINCH and the bar
        // follows at its next redraw (one already on its way may still be at the old width).
        let (status, screen) = try fetchOnTerminal(columns: 120, output: "resized.img", resizeAfter: (150, 40))
        XCTAssertEqual(status, 0, screen.raw)
        let offset = try XCTUnwrap(Int(String(contentsOfFile: dir + "/tty-120.raw.resize", encoding: .utf8)))
        let after = String(decoding: Data(screen.raw.utf8).dropFirst(offset), as: UTF8.self)
        let redraws = Screen(raw: after).lines.joined().dropFirst(1)
        XCTAssertGreaterThan(redraws.count, 2, after.debugDescription)
        XCTAssertTrue(redraws.allSatisfy { Screen.visible($0).count < 40 }, after.debugDescription)
        XCTAssertTrue(Screen(raw: String(screen.raw.prefix(150))).lines.joined().contains { Screen.visible($0).count >= 40 },
                      "the bar was wider before: \(screen.raw.prefix(150).debugDescription)")
    }

    func testAFailedDownloadEndsWithASummaryAndNoTimeLeft() throws {
        let (status, screen) = try fetchOnTerminal(columns: 80, output: "missing.img", path: "/status/404")
        XCTAssertEqual(status, 5, screen.raw)
        assertFits(screen, columns: 80)
        let shown = screen.lines.joined().map(Screen.visible)
        let summary = try XCTUnwrap(shown.first { $0.hasPrefix("missing.img: failed") }, "\(shown)")
        XCTAssertFalse(summary.contains("left"), summary)
    }

    func testFetchIntoADirectoryTakesTheURLsName() throws {
        let (status, log) = try run(["fetch", base + "/file/4000", "-o", dir + "/", "--display", "none", "--socket", dir + "/no.sock"])
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/4000")).count, 4000)
        // An existing directory without the slash is the same.
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        XCTAssertEqual(try run(["fetch", base + "/file/700", "-o", dir + "/sub", "--display", "none", "--socket", dir + "/no.sock"]).0, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/sub/700")).count, 700)
    }

    func testFetchIntoADirectoryFromAURLWithoutANameIsRefusedBeforeDownloading() throws {
        let (status, log) = try run(["fetch", base + "/", "-o", dir + "/", "--display", "none", "--socket", dir + "/no.sock"])
        XCTAssertEqual(status, 1, log)
        XCTAssertTrue(log.contains("names no file"), log)
        XCTAssertTrue(requests().filter { $0.hasPrefix("GET ") }.isEmpty, "\(requests())")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
        XCTAssertEqual(left, [], "nothing hidden left behind")
    }
}

/// A job that ends without its file reports no time left, though bytes were flowing.
final class EndedJobTests: CommandTestCase {
    func testACancelledFetchReportsNoTimeLeft() throws {
        let process = try start(["fetch", base + "/slow/400000?rate=100000", "-o", dir + "/x.img", "--json",
                                 "--display", "none", "--socket", dir + "/no.sock"], name: "fetch")
        // Cancel once the rate is known (a progress event with an ETA), mid-way.
        XCTAssertTrue(waitUntil(10) { self.output(of: "fetch").contains("\"eta\":") && self.output(of: "fetch").contains("\"rate\":") &&
            ((try? self.jsonLines(self.output(of: "fetch")))?.contains { $0["eta"] is NSNumber } ?? false) })
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, errors(of: "fetch"))
        let last = try XCTUnwrap(try jsonLines(output(of: "fetch")).last)
        XCTAssertEqual(last["event"] as? String, "failed")
        XCTAssertEqual(last["state"] as? String, "cancelled")
        XCTAssertGreaterThan(last["rate"] as? Int ?? 0, 0, "\(last)")
        XCTAssertTrue(last["eta"] is NSNull, "\(last)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/x.img"))
    }
}
