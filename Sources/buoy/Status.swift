import ArgumentParser
import Control
import Glibc

/// `buoy status` and `buoy cancel`: one request to the running daemon; `buoy status --watch`
/// follows its progress events.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the running buoy daemon is doing (JSON).",
        discussion: """
        One JSON line in the schema of `buoy fetch --json` (state idle, waiting, downloading, \
        finishing, success, done or failed; bytes, rate, ETA and one entry per file). With --watch, \
        one line per progress event, from any client's download, until the daemon stops or \
        SIGINT. Exit status: 0 answered, 4 no daemon on the socket or no answer.
        """
    )

    @Option(help: "The daemon's control socket.")
    var socket: String = "/run/buoy.sock"

    @Flag(help: "Keep printing the daemon's progress events (every download, whoever started it).")
    var watch = false

    func run() throws {
        guard watch else { return try ask(socket, ["cmd": "status"]) }
        let client = try connect(socket)
        try client.send(["cmd": "watch"])
        let stop = StopRequest()
        var answered = false
        while !stop.requested {
            guard let event = client.next(timeout: 0.5) else {
                // A timeout is a quiet daemon; a closed connection is a daemon that went away.
                if client.isClosed { break }
                continue
            }
            answered = true
            ProgressReport.printJSON(event)
        }
        if !answered && !stop.requested { throw CommandFailure(message: "\(socket): no answer", exitCode: 4) }
    }
}

struct Cancel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel the running daemon's download (its .part stays for a resume).",
        discussion: "Exit status: 0 the daemon took the request, 4 no daemon on the socket or no answer."
    )

    @Option(help: "The daemon's control socket.")
    var socket: String = "/run/buoy.sock"

    func run() throws { try ask(socket, ["cmd": "cancel"]) }
}

/// `buoy message TEXT`: the socket's `message` request from a shell.
struct Message: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "message",
        abstract: "Show TEXT on the running daemon's status line (\"\" clears it).",
        discussion: """
        The daemon shows the text on the panel's status line and logs it (control characters \
        escaped); it stays until the next message or download. Exit status: 0 the daemon took \
        the request, 1 bad arguments (a text longer than \(Message.maxBytes) bytes), 4 no \
        daemon on the socket, no answer, or the daemon refused it.
        """
    )

    /// Well under the socket's 64 KiB request line, and more than a status line can show.
    static let maxBytes = 4096

    @Argument(help: "The text (an empty one clears the status line).")
    var text: String

    @Option(help: "The daemon's control socket.")
    var socket: String = "/run/buoy.sock"

    func validate() throws {
        guard text.utf8.count <= Self.maxBytes else { throw ValidationError("the text is \(text.utf8.count) bytes; at most \(Self.maxBytes)") }
    }

    func run() throws { try ask(socket, ["cmd": "message", "text": text]) }
}

/// A connection to the daemon; no daemon is exit status 4, as documented for status and cancel.
func connect(_ socket: String) throws -> ControlClient {
    do { return try ControlClient(path: socket) } catch { throw CommandFailure(message: "\(error)", exitCode: 4) }
}

func ask(_ socket: String, _ request: [String: Any]) throws {
    let client = try connect(socket)
    // A daemon that refuses this client answers with an error line and closes at once, maybe
    // before the request is written: the send then fails, and the refusal is read below.
    do { try client.send(request) } catch {}
    guard let reply = client.next(timeout: 10) else {
        throw CommandFailure(message: "\(socket): no answer", exitCode: 4)
    }
    // A refusal (permission denied, too many connections) is not an answer.
    if reply["event"] as? String == "error" {
        throw CommandFailure(message: "\(socket): \(reply["message"] as? String ?? "error")", exitCode: 4)
    }
    ProgressReport.printJSON(reply)
}
