import ArgumentParser
import Control
import Foundation

/// `buoy status` and `buoy cancel`: one request to the running daemon; `buoy status --watch`
/// follows its progress events.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the running buoy daemon is doing (JSON).",
        discussion: """
        One JSON line in the schema of `buoy fetch --json` (state idle, waiting, downloading,
        finishing, success, done or failed; bytes, rate, ETA and one entry per file). With --watch,
        one line per progress event, from any client's download, until the daemon stops or
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
        abstract: "Cancel the running daemon's download (its .part stays for a resume).",
        discussion: "Exit status: 0 the daemon took the request, 4 no daemon on the socket or no answer."
    )

    @Option(help: "The daemon's control socket.")
    var socket: String = "/run/buoy.sock"

    func run() throws { try ask(socket, ["cmd": "cancel"]) }
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
