import ArgumentParser
import Control
import Foundation

/// `buoy status` and `buoy cancel`: one request to the running daemon.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show what the running buoy daemon is doing (JSON).")

    @Option(help: "The daemon's control socket.")
    var socket: String = "/run/buoy.sock"

    func run() throws { try ask(socket, ["cmd": "status"]) }
}

struct Cancel: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Cancel the running daemon's download (its .part stays for a resume).")

    @Option(help: "The daemon's control socket.")
    var socket: String = "/run/buoy.sock"

    func run() throws { try ask(socket, ["cmd": "cancel"]) }
}

func ask(_ socket: String, _ request: [String: Any]) throws {
    let client: ControlClient
    do { client = try ControlClient(path: socket) } catch { throw CommandFailure(message: "\(error)", exitCode: 4) }
    try client.send(request)
    guard let reply = client.next(timeout: 10), let data = try? JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys]) else {
        throw CommandFailure(message: "\(socket): no answer", exitCode: 4)
    }
    print(String(decoding: data, as: UTF8.self))
}
