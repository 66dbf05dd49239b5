import ArgumentParser
import Control
import Download
import FoundationEssentials
import Glibc
import Posix

/// `buoy fetch`: a download from the shell, with the same guarantees as the screen's (a
/// `.part` file, resume, retries, checksum, atomic placement) and progress on the terminal.
struct Fetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download a file from an ssh session: progress on the terminal, atomic placement, exit status.",
        discussion: """
        Progress is one line on stderr when it is a terminal (name, percentage, size, rate, time
        left, elapsed; fitted to the width), ending with a summary line, through a daemon or not; with --json, one JSON object per line on stdout, the same on every path:
        {"event":"progress"|"done"|"failed"|"accepted","state":…,"received":N,"expected":N|null,
        "fraction":F|null,"rate":bytes/s,"eta":seconds|null,"files":[{"url","output","state",
        "received","expected","error"?}],"message"?}. Exit status: 0 done, 1 bad arguments,
        5 the download failed (the destination is unchanged), 130/143 stopped by SIGINT/SIGTERM.
        """
    )

    @Argument(help: "http://, https:// or file:// URL.")
    var url: String

    @Option(name: .shortAndLong, help: "Where the file goes; DIR/ (or an existing directory) means DIR/ and the URL's file name. Through a daemon: a name inside its --download-dir (default /var/lib/buoy/downloads), or an absolute path inside it.")
    var output: String

    @Option(help: "Expected SHA-256 (64 hex digits).")
    var sha256: String?

    @Flag(help: "Report progress as JSON lines on stdout.")
    var json = false

    @Option(name: .customLong("ca-file"), help: ArgumentHelp("PEM certificate authorities trusted for https (default: $SSL_CERT_FILE, then $CURL_CA_BUNDLE, then the system's).", valueName: "file"))
    var caFile: String?

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
        try checkCAFile(caFile)
    }

    mutating func run() throws {
        let daemon = ControlClient.isListening(socket)
        output = try Self.resolveOutput(output, url: url, localDirectory: !daemon)
        if daemon { return try runThroughDaemon() }
        if !json && display != "none" {
            // Take the display ourselves; no display is not an error for a shell download.
            var arguments = ["--url", url, "--output", output, "--display", display, "--on-complete", "exit"]
            if let sha256 { arguments += ["--sha256", sha256] }
            if let caFile { arguments += ["--ca-file", caFile] }
            do {
                let screen = try Run.parse(arguments)
                return try screen.run()
            } catch let failure as CommandFailure where failure.exitCode == 4 {
                // fall through to the terminal-only download
            }
        }
        var policy = downloadPolicy(caFile: caFile)
        policy.maxAttempts = retries
        let session = DownloadSession(requests: [DownloadRequest(url: url, destination: output, sha256: sha256, allowsFileScheme: true)], policy: policy)
        let stop = StopRequest()
        let tty = isatty(STDERR_FILENO) != 0
        let bar = TerminalBar(name: PathName.last(output), started: Monotonic.now())
        var meter = RateMeter()
        var lastReport = -Double.infinity
        func report(_ s: DownloadStatus, final: Bool) {
            let now = Monotonic.now()
            guard final || now - lastReport >= 0.2 else { return }
            lastReport = now
            meter.add(bytes: s.received, at: now)
            let state = final ? (s.succeeded ? "done" : stop.requested ? "cancelled" : "failed") : "downloading"
            // A cancelled job ends with a "failed" event (the schema's end events), state "cancelled".
            let event = ProgressReport.event(final ? (s.succeeded ? "done" : "failed") : "progress", state: state, status: s, rate: meter.rate,
                                             message: s.errors.first.map { "\($0)" })
            if json {
                ProgressReport.printJSON(event)
            } else if tty {
                let width = TerminalBar.width(of: STDERR_FILENO)
                FileHandleWriter.stderr(final ? bar.summary(event, now: now, width: width) : bar.redraw(event, now: now, width: width))
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
        // On a terminal the summary line said it.
        if !json && !tty { printStatus("\(output): \(session.status.received) bytes" + (session.status.files[0].cached ? " (already present)" : "")) }
    }

    /// `-o DIR/` (and, without a daemon, `-o DIR` naming an existing directory) means
    /// DIR/<the URL's last path segment>, decided before anything is downloaded; a URL without
    /// a usable name there is refused up front.
    static func resolveOutput(_ output: String, url: String, localDirectory: Bool) throws -> String {
        var status = stat()
        let existingDirectory = localDirectory && stat(output, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
        guard output.hasSuffix("/") || existingDirectory else { return output }
        let name = URLComponents(string: url)?.path.split(separator: "/").last.flatMap { percentDecoded(String($0)) } ?? ""
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.hasPrefix("."),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw CommandFailure.badArguments("-o \(output) is a directory and \(url) names no file to put in it; give -o \(output)\(output.hasSuffix("/") ? "" : "/")NAME")
        }
        return (output.hasSuffix("/") ? output : output + "/") + name
    }

    /// `%XX` escapes decoded, as Foundation's `removingPercentEncoding` decodes them: nil for a
    /// `%` without two hex digits after it, or bytes that are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var rest = text.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Hands the download to the daemon and follows its progress events.
    func runThroughDaemon() throws {
        let client = try ControlClient(path: socket)
        // The daemon takes a relative DEST inside its download directory (an absolute one must
        // lie inside it), so it is sent as typed.
        var request: [String: Any] = ["cmd": "fetch", "url": url, "output": output]
        if let sha256 { request["sha256"] = sha256 }
        // A daemon that refuses this client (its credentials) answers with an error line and
        // closes at once, maybe before the request is written: the send then fails, and the
        // refusal is read below like any other answer.
        do { try client.send(request) } catch {}
        let tty = isatty(STDERR_FILENO) != 0
        let bar = TerminalBar(name: PathName.last(output), started: Monotonic.now())
        while let event = client.next(timeout: 120) {
            let name = event["event"] as? String ?? ""
            let final = name == "done" || name == "failed"
            if json {
                ProgressReport.printJSON(event)
            } else if tty, name != "error" {
                let width = TerminalBar.width(of: STDERR_FILENO)
                FileHandleWriter.stderr(final ? bar.summary(event, now: Monotonic.now(), width: width) : bar.redraw(event, now: Monotonic.now(), width: width))
            }
            switch name {
            case "done":
                return
            case "failed", "error":
                throw CommandFailure(message: (event["message"] as? String) ?? "the daemon reported a failure", exitCode: 5)
            default:
                continue
            }
        }
        throw CommandFailure(message: "\(socket): the daemon stopped answering", exitCode: 5)
    }
}

/// The download policy of the command line: https trusts `--ca-file`, else $SSL_CERT_FILE, else
/// $CURL_CA_BUNDLE (the variables curl's own tool reads), else the system's authorities.
func downloadPolicy(caFile: String?) -> DownloadPolicy {
    var policy = DownloadPolicy()
    let environment = ProcessInfo.processInfo.environment
    policy.caFile = [caFile, environment["SSL_CERT_FILE"], environment["CURL_CA_BUNDLE"]].compactMap { $0 }.first { !$0.isEmpty }
    return policy
}

/// A `--ca-file` that cannot be read is a usage error now, not a TLS failure later.
func checkCAFile(_ caFile: String?) throws {
    if let caFile, access(caFile, R_OK) != 0 { throw ValidationError("--ca-file \(caFile): \(String(cString: strerror(errno)))") }
}

/// Progress in one schema for every path — the daemon's events to its clients, `buoy fetch
/// --json` through a daemon or not, `buoy status` — and one terminal line drawn from it (TerminalBar), so an
/// operator sees the same figures (bytes, rate, ETA) however the download runs.
enum ProgressReport {
    /// `state` is the download screen's (idle, waiting, downloading, finishing, success, done,
    /// failed); each file has its own (queued, connecting, downloading, verifying, retrying,
    /// done, failed).
    static func event(_ name: String, state: String, status: DownloadStatus?, rate: Double, message: String?) -> [String: Any] {
        var e: [String: Any] = ["event": name, "state": state, "rate": Int(rate.rounded())]
        let received = status?.received ?? 0
        let expected = status?.expected
        e["received"] = Int(received)
        e["expected"] = expected.map { Int($0) as Any } ?? ControlJSON.null
        e["fraction"] = status?.fraction.map { ($0 * 10000).rounded() / 10000 as Any } ?? ControlJSON.null
        // A failed or cancelled job will not finish: no time left to show.
        if let expected, rate > 0, received < expected, !["failed", "cancelled", "error"].contains(state) {
            e["eta"] = (Double(expected - received) / rate).rounded()
        } else {
            e["eta"] = ControlJSON.null
        }
        e["files"] = (status?.files ?? []).map { file -> [String: Any] in
            var f: [String: Any] = ["url": file.request.url, "output": file.request.shownDestination, "state": fileState(file),
                                    "received": Int(file.received), "expected": file.expected.map { Int($0) as Any } ?? ControlJSON.null]
            if case .failed(let error) = file.state { f["error"] = "\(error)" }
            if file.cached { f["cached"] = true }
            return f
        }
        if let message { e["message"] = message }
        return e
    }

    static func fileState(_ file: FileStatus) -> String {
        switch file.state {
        case .queued: return "queued"
        case .connecting: return "connecting"
        case .receiving: return "downloading"
        case .verifying: return "verifying"
        case .retrying: return "retrying"
        case .done: return "done"
        case .failed: return "failed"
        }
    }

    static func printJSON(_ event: [String: Any]) {
        guard let line = ControlJSON.line(event) else { return }
        print(line)
        fflush(nil)  // every stream: naming `stdout` (a C global) is not concurrency-safe
    }

    /// A JSON number as decoded or as built here (Int, Double); nil for null.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let v as Int: return Double(v)
        case let v as Double: return v
        default: return nil
        }
    }
}

/// Bytes per second over the last few seconds, so the rate and the ETA follow the transfer as
/// it goes now (a stall shows at once, and a resumed .part's bytes are not counted as speed).
struct RateMeter {
    private var samples: [(time: Double, bytes: Int64)] = []
    private let window = 3.0

    mutating func add(bytes: Int64, at time: Double) {
        // Fewer bytes than before: a new job started.
        if let last = samples.last, bytes < last.bytes { samples = [] }
        samples.append((time, bytes))
        while samples.count > 2, time - samples[1].time >= window { samples.removeFirst() }
    }

    mutating func reset() { samples = [] }

    var rate: Double {
        guard let first = samples.first, let last = samples.last, last.time - first.time > 0.05 else { return 0 }
        return Double(last.bytes - first.bytes) / (last.time - first.time)
    }
}
