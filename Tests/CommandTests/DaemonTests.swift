import Foundation
import XCTest

/// The daemon (`buoy run --socket`) with real clients, all the built `buoy`: an idle state
/// before any job, a watcher that sees another client's download, per-file entries, and one
/// progress schema for `buoy fetch --json` through the daemon or on its own.
final class DaemonTests: CommandTestCase {
    /// Every progress line carries these, on every path.
    static let progressKeys: Set<String> = ["event", "state", "received", "expected", "fraction", "rate", "eta", "files"]

    var socket: String { dir + "/buoy.sock" }

    func startDaemon(_ extra: [String] = []) throws -> Process {
        let daemon = try start(["run", "--socket", socket, "--display", "headless:\(dir)/frames", "--size", "64x36", "--every", "1000",
                                "--on-complete", "hold", "--trace", dir + "/trace.jsonl", "--download-dir", dir] + extra, name: "daemon")
        XCTAssertTrue(waitUntil(20) { FileManager.default.fileExists(atPath: self.socket) }, errors(of: "daemon"))
        return daemon
    }

    func stop(_ daemon: Process) {
        daemon.terminate()
        daemon.waitUntilExit()
    }

    func traceStates() throws -> [String] {
        try jsonLines(String(contentsOfFile: dir + "/trace.jsonl", encoding: .utf8)).compactMap { $0["state"] as? String }
    }

    func testAnIdleDaemonSaysIdleAndRunsNoneOfTheConfigDownloads() throws {
        let config = dir + "/buoy.toml"
        try "[[download]]\nurl = \"\(base)/file/1000\"\noutput = \"\(dir)/boot.out\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try startDaemon(["--config", config, "--no-config-downloads"])
        defer { stop(daemon) }
        usleep(300_000)
        let (status, out, err) = try runCapturing(["status", "--socket", socket])
        XCTAssertEqual(status, 0, err)
        let reply = try XCTUnwrap(jsonLines(out).first)
        XCTAssertEqual(reply["state"] as? String, "idle")
        XCTAssertEqual(Set(reply.keys).intersection(Self.progressKeys), Self.progressKeys)
        XCTAssertEqual((reply["files"] as? [Any])?.count, 0)
        XCTAssertTrue(requests().isEmpty, "the daemon ran the boot job's downloads: \(requests())")
        let states = Set(try traceStates())
        XCTAssertEqual(states, ["idle"])
    }

    func testAWatcherSeesAnotherClientsDownloadWithItsFilesAndStaysAfterIt() throws {
        let daemon = try startDaemon()
        defer { stop(daemon) }
        let watcher = try start(["status", "--watch", "--socket", socket], name: "watcher")
        XCTAssertTrue(waitUntil(10) { self.output(of: "watcher").contains("\"idle\"") }, output(of: "watcher") + errors(of: "watcher"))

        let dest = dir + "/firmware.bin"
        let (status, out, err) = try runCapturing(["fetch", "\(base)/slow/150000?rate=100000", "-o", dest, "--json", "--socket", socket])
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dest)).count, 150000)

        // The fetch client's own lines: the common schema, a rate while it ran, done at the end.
        let fetched = try jsonLines(out)
        XCTAssertEqual(fetched.last?["event"] as? String, "done")
        for line in fetched { XCTAssertEqual(Set(line.keys).intersection(Self.progressKeys), Self.progressKeys, "\(line)") }
        XCTAssertTrue(fetched.contains { ($0["rate"] as? Int ?? 0) > 10_000 && $0["state"] as? String == "downloading" }, out)

        // The watcher saw the same download: downloading with the file's entry, then done, and
        // it is still connected.
        XCTAssertTrue(waitUntil(5) { self.output(of: "watcher").contains("\"done\"") }, output(of: "watcher"))
        let watched = try jsonLines(output(of: "watcher"))
        let progress = try XCTUnwrap(watched.first { $0["state"] as? String == "downloading" && ($0["received"] as? Int ?? 0) > 0 }, "\(watched)")
        let file = try XCTUnwrap((progress["files"] as? [[String: Any]])?.first)
        XCTAssertEqual(file["output"] as? String, dest)
        XCTAssertEqual(file["expected"] as? Int, 150000)
        XCTAssertEqual(file["state"] as? String, "downloading")
        XCTAssertTrue(watcher.isRunning, "the watcher was let go with the job")

        // A second fetch, still watched; then status shows the last job's file as done.
        let (status2, _, err2) = try runCapturing(["fetch", "\(base)/file/4000", "-o", dir + "/second.bin", "--json", "--socket", socket])
        XCTAssertEqual(status2, 0, err2)
        XCTAssertTrue(waitUntil(5) { self.output(of: "watcher").contains("second.bin") }, output(of: "watcher"))
        let (_, statusOut, _) = try runCapturing(["status", "--socket", socket])
        let files = try XCTUnwrap(try jsonLines(statusOut).first?["files"] as? [[String: Any]])
        XCTAssertEqual(files.first?["state"] as? String, "done")
        XCTAssertEqual(files.first?["received"] as? Int, 4000)

        // The daemon stops: the watcher ends by itself, exit 0.
        stop(daemon)
        XCTAssertTrue(waitUntil(5) { !watcher.isRunning })
        if watcher.isRunning { watcher.terminate() }
        watcher.waitUntilExit()
        XCTAssertEqual(watcher.terminationStatus, 0, errors(of: "watcher"))
        let states = try traceStates()
        XCTAssertEqual(states.first, "idle")
        XCTAssertTrue(states.contains("downloading") && states.contains("done"))
        XCTAssertFalse(states.contains("waiting"), "nothing waited for input")
    }

    func testFetchWithoutADaemonPrintsTheSameSchema() throws {
        let dest = dir + "/alone.bin"
        let (status, out, err) = try runCapturing(["fetch", "\(base)/slow/60000?rate=60000", "-o", dest, "--json",
                                                   "--socket", dir + "/nobody.sock", "--display", "none"])
        XCTAssertEqual(status, 0, err)
        let lines = try jsonLines(out)
        XCTAssertEqual(lines.last?["event"] as? String, "done")
        for line in lines { XCTAssertEqual(Set(line.keys).intersection(Self.progressKeys), Self.progressKeys, "\(line)") }
        XCTAssertEqual((lines.last?["files"] as? [[String: Any]])?.first?["output"] as? String, dest)
        XCTAssertTrue(lines.contains { ($0["rate"] as? Int ?? 0) > 0 }, out)
    }

    /// The bar on a terminal (through `script`, which gives buoy a pty): bytes, rate and time left,
    /// through the daemon and without one.
    func testTheTerminalBarShowsBytesRateAndETAOnEveryPath() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no script(1) for a pty") }
        func barOutput(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            let command = ([buoy.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-qec", command, "/dev/null"]
            let out = Pipe()
            process.standardOutput = out
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, text)
            return text
        }
        let alone = try barOutput(["fetch", "\(base)/slow/200000?rate=100000", "-o", dir + "/a.bin", "--socket", dir + "/nobody.sock", "--display", "none"])
        let daemon = try startDaemon()
        defer { stop(daemon) }
        let through = try barOutput(["fetch", "\(base)/slow/200000?rate=100000", "-o", dir + "/b.bin", "--socket", socket])
        for text in [alone, through] {
            XCTAssertTrue(text.contains("kB/s"), text)
            XCTAssertTrue(text.contains("left 0:0"), text)  // the time left (TerminalBar)
            XCTAssertTrue(text.contains("%  "), text)
        }
    }
}
