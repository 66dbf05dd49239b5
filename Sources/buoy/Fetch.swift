import ArgumentParser
import Control
import Download
import Foundation

/// `buoy fetch`: a download from the shell, with the same guarantees as the screen's (a
/// `.part` file, resume, retries, checksum, atomic placement) and progress on the terminal.
struct Fetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Download a file from an ssh session: progress on the terminal, atomic placement, exit status.",
        discussion: """
        Progress is a bar on stderr when it is a terminal; with --json, one JSON object per line on
        stdout ({"received":…,"expected":…|null,"fraction":…|null,"rate":bytes/s,"state":…}).
        Exit status: 0 done, 1 bad arguments, 5 the download failed (the destination is unchanged).
        """
    )

    @Argument(help: "http://, https:// or file:// URL.")
    var url: String

    @Option(name: .shortAndLong, help: "Where the file goes.")
    var output: String

    @Option(help: "Expected SHA-256 (64 hex digits).")
    var sha256: String?

    @Flag(help: "Report progress as JSON lines on stdout.")
    var json = false

    @Option(help: "Attempts before giving up.")
    var retries: Int = 5

    @Option(help: "The running daemon's control socket; when one answers there the download goes through it (and shows on its display).")
    var socket: String = "/run/buoy.sock"

    @Option(help: "Without a daemon, show the download screen here too: auto (DRM, then fbdev, else the terminal only), none, or any --display of buoy run.")
    var display: String = "auto"

    func validate() throws {
        if let sha256, sha256.count != 64 || sha256.contains(where: { !$0.isHexDigit }) {
            throw ValidationError("--sha256 must be 64 hex digits")
        }
        guard retries >= 1 else { throw ValidationError("--retries must be at least 1") }
    }

    func run() throws {
        if ControlClient.isListening(socket) { return try runThroughDaemon() }
        if !json && display != "none" {
            // Take the display ourselves; no display is not an error for a shell download.
            var arguments = ["--url", url, "--output", output, "--display", display, "--on-complete", "exit"]
            if let sha256 { arguments += ["--sha256", sha256] }
            do {
                let screen = try Run.parse(arguments)
                return try screen.run()
            } catch let failure as CommandFailure where failure.exitCode == 4 {
                // fall through to the terminal-only download
            }
        }
        var policy = DownloadPolicy()
        policy.maxAttempts = retries
        let session = DownloadSession(requests: [DownloadRequest(url: url, destination: output, sha256: sha256)], policy: policy)
        let stop = StopRequest()
        let tty = isatty(STDERR_FILENO) != 0
        let start = Self.now()
        var lastReport = 0.0
        func report(_ s: DownloadStatus, final: Bool) {
            let now = Self.now()
            guard final || now - lastReport >= 0.2 else { return }
            lastReport = now
            let rate = Double(s.received) / max(now - start, 1e-3)
            if json {
                let expected = s.expected.map(String.init) ?? "null"
                let fraction = s.fraction.map { String(format: "%.4f", $0) } ?? "null"
                print(#"{"received":\#(s.received),"expected":\#(expected),"fraction":\#(fraction),"rate":\#(Int(rate)),"state":"\#(Self.state(s))"}"#)
                fflush(stdout)
            } else if tty {
                FileHandleWriter.stderr("\r" + Self.bar(s, rate: rate))
                if final { FileHandleWriter.stderr("\n") }
            }
        }
        while session.step(timeout: 0.1) {
            if stop.requested { session.cancel(); break }
            report(session.status, final: false)
        }
        report(session.status, final: true)
        if let error = session.status.errors.first {
            throw CommandFailure(message: "\(error)", exitCode: stop.requested ? 128 + (stop.signal ?? 2) : 5)
        }
        if !json { printStatus("\(output): \(session.status.received) bytes" + (session.status.files[0].cached ? " (already present)" : "")) }
    }

    /// Hands the download to the daemon and follows its progress events.
    func runThroughDaemon() throws {
        let client = try ControlClient(path: socket)
        let destination = output.hasPrefix("/") ? output : FileManager.default.currentDirectoryPath + "/" + output
        var request: [String: Any] = ["cmd": "fetch", "url": url, "output": destination]
        if let sha256 { request["sha256"] = sha256 }
        try client.send(request)
        let tty = isatty(STDERR_FILENO) != 0
        while let event = client.next(timeout: 120) {
            let name = event["event"] as? String ?? ""
            if json, let data = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]) {
                print(String(decoding: data, as: UTF8.self))
                fflush(stdout)
            } else if tty, let received = event["received"] as? Int {
                let fraction = event["fraction"] as? Double
                FileHandleWriter.stderr(String(format: "\rbuoy (daemon): %@ %d bytes   ", fraction.map { String(format: "%5.1f%%", $0 * 100) } ?? "  ?  ", received))
            }
            switch name {
            case "done":
                if tty { FileHandleWriter.stderr("\n") }
                return
            case "failed", "error":
                if tty { FileHandleWriter.stderr("\n") }
                throw CommandFailure(message: (event["message"] as? String) ?? "the daemon reported a failure", exitCode: 5)
            default:
                continue
            }
        }
        throw CommandFailure(message: "\(socket): the daemon stopped answering", exitCode: 5)
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func state(_ s: DownloadStatus) -> String {
        switch s.files[0].state {
        case .queued, .connecting: return "connecting"
        case .receiving: return "downloading"
        case .verifying: return "verifying"
        case .retrying: return "retrying"
        case .done: return "done"
        case .failed: return "failed"
        }
    }

    /// `[#########-----------]  45.0%  12.3 MB  1.2 MB/s  ETA 0:08`
    static func bar(_ s: DownloadStatus, rate: Double) -> String {
        func size(_ b: Double) -> String {
            b >= 1e9 ? String(format: "%.1f GB", b / 1e9) : b >= 1e6 ? String(format: "%.1f MB", b / 1e6) : String(format: "%.0f kB", b / 1e3)
        }
        let width = 24
        guard let f = s.fraction else {
            return "[" + String(repeating: "~", count: width) + "]  " + size(Double(s.received)) + "  " + size(rate) + "/s  " + state(s) + "   "
        }
        let filled = Int(f * Double(width))
        var eta = ""
        if let e = s.expected, rate > 0, f < 1 {
            let left = Int(Double(e - s.received) / rate)
            eta = String(format: "  ETA %d:%02d", left / 60, left % 60)
        }
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
            + String(format: " %5.1f%%  ", f * 100) + size(Double(s.received)) + "  " + size(rate) + "/s" + eta + "   "
    }
}
