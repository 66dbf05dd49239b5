import Control
import Foundation
import XCTest

/// The server under hostile clients: the connection cap, an overlong line, a client that does
/// not read, a slow reader that gets every line intact, and what is at the socket's path.
final class ControlLimitsTests: XCTestCase {
    var path = ""

    override func setUp() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-lim-\(getpid())-\(UUID().uuidString.prefix(6)).sock").path
        unlink(path)
    }

    override func tearDown() { unlink(path) }

    func pollUntil(_ server: ControlServer, seconds: Double = 2, _ done: () -> Bool) -> [ControlServer.Request] {
        var got: [ControlServer.Request] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && !done() {
            got += server.poll()
            usleep(2000)
        }
        got += server.poll()
        return got
    }

    func testConnectionsBeyondTheCapAreToldAndClosedAndTheServerGoesOn() throws {
        var limits = ControlServer.Limits()
        limits.maxClients = 4
        let server = try ControlServer(path: path, limits: limits)
        let clients = try (0..<12).map { _ in try ControlClient(path: path) }
        _ = pollUntil(server) { server.connectedClients.count == 4 }
        XCTAssertEqual(server.connectedClients.count, 4)
        // The first four are served; the other eight get one error line and end.
        var refused = 0
        for client in clients[4...] {
            let line = client.next(timeout: 2)
            XCTAssertTrue((line?["message"] as? String)?.contains("too many connections") == true, "\(String(describing: line))")
            XCTAssertNil(client.next(timeout: 2))
            if client.isClosed { refused += 1 }
        }
        XCTAssertEqual(refused, 8)
        XCTAssertTrue(server.takeMessages().contains { $0.contains("refused 8 connection") })
        try clients[0].send(["cmd": "status"])
        XCTAssertEqual(pollUntil(server) { false }.map(\.command), ["status"])
    }

    func testALineOverTheLimitGetsAnErrorAndTheClientIsDropped() throws {
        var limits = ControlServer.Limits()
        limits.maxLineBytes = 4096
        let server = try ControlServer(path: path, limits: limits)
        let client = try ControlClient(path: path)
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 10000)
        _ = pollUntil(server) { server.connectedClients.count == 1 }
        XCTAssertEqual(long.withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress, $0.count, 0) }, 10000)
        XCTAssertTrue(pollUntil(server) { server.connectedClients.isEmpty }.isEmpty)
        XCTAssertTrue(server.connectedClients.isEmpty)
        XCTAssertTrue((client.next(timeout: 2)?["message"] as? String)?.contains("longer than 4096") == true)
        XCTAssertNil(client.next(timeout: 2))
        XCTAssertTrue(client.isClosed)
    }

    func testAClientThatDoesNotReadIsDroppedWithoutStallingTheServer() throws {
        let server = try ControlServer(path: path)
        let sleeper = try ControlClient(path: path)
        _ = pollUntil(server) { server.connectedClients.count == 1 }
        let id = try XCTUnwrap(server.connectedClients.first)
        let other = try ControlClient(path: path)
        _ = pollUntil(server) { server.connectedClients.count == 2 }
        _ = sleeper.fd
        let payload = String(repeating: "x", count: 1000)
        let start = Date()
        for i in 0..<1000 { server.send(["event": "progress", "i": i, "pad": payload], to: id) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "sending to a client that does not read blocked")
        XCTAssertFalse(server.connectedClients.contains(id), "a client with over 256 KiB waiting was kept")
        XCTAssertTrue(server.takeMessages().contains { $0.contains("does not read") })
        try other.send(["cmd": "status"])
        XCTAssertEqual(pollUntil(server) { false }.map(\.command), ["status"])
    }

    /// More than the kernel's socket buffer, to a client that reads slowly: buffered and
    /// flushed as the socket takes it, every line whole and in order.
    func testASlowReaderGetsEveryLineWholeAndInOrder() throws {
        let server = try ControlServer(path: path)
        let client = try ControlClient(path: path)
        _ = pollUntil(server) { server.connectedClients.count == 1 }
        let id = try XCTUnwrap(server.connectedClients.first)
        let payload = String(repeating: "y", count: 200)
        for i in 0..<1000 { server.send(["event": "progress", "i": i, "pad": payload], to: id) }
        XCTAssertTrue(server.connectedClients.contains(id))
        var seen: [Int] = []
        let deadline = Date().addingTimeInterval(20)
        while seen.count < 1000 && Date() < deadline {
            _ = server.poll()
            if let line = client.next(timeout: 0.01) {
                XCTAssertEqual((line["pad"] as? String)?.count, 200)
                seen.append(line["i"] as? Int ?? -1)
            }
        }
        XCTAssertEqual(seen, Array(0..<1000))
    }

    func testAClientThatClosesItsEndStillGetsItsReply() throws {
        let server = try ControlServer(path: path)
        let client = try ControlClient(path: path)
        try client.send(["cmd": "status"])
        shutdown(client.fd, Int32(SHUT_WR))
        // The request and the end of input arrive together; the reply, sent before the next
        // poll as the daemon's loop does, still goes out.
        var requests: [ControlServer.Request] = []
        for _ in 0..<500 where requests.isEmpty {
            requests = server.poll()
            usleep(2000)
        }
        XCTAssertEqual(requests.map(\.command), ["status"])
        server.send(["event": "status"], to: requests[0].client)
        XCTAssertEqual(client.next(timeout: 2)?["event"] as? String, "status")
        _ = pollUntil(server) { server.connectedClients.isEmpty }
        XCTAssertTrue(server.connectedClients.isEmpty)
    }

    /// An event that is not JSON (a NaN rate) is not sent, and nothing traps.
    func testAnEventThatIsNotJSONIsSkipped() throws {
        let server = try ControlServer(path: path)
        let client = try ControlClient(path: path)
        _ = pollUntil(server) { server.connectedClients.count == 1 }
        let id = try XCTUnwrap(server.connectedClients.first)
        server.send(["event": "progress", "rate": Double.nan], to: id)
        server.send(["event": "progress", "rate": Double.infinity], to: id)
        server.send(["event": "status"], to: id)
        XCTAssertEqual(client.next(timeout: 2)?["event"] as? String, "status")
        XCTAssertEqual(server.connectedClients, [id])
    }

    func testOnlyAStaleSocketIsRemovedFromTheSocketPath() throws {
        // A regular file is left alone, and so is a directory.
        try "keep me".write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try ControlServer(path: path)) { XCTAssertTrue("\($0)".contains("regular file"), "\($0)") }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "keep me")
        unlink(path)
        XCTAssertEqual(mkdir(path, 0o700), 0)
        XCTAssertThrowsError(try ControlServer(path: path)) { XCTAssertTrue("\($0)".contains("directory"), "\($0)") }
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        rmdir(path)
        // A symlink to a file is not followed or removed.
        let target = path + ".target"
        try "target".write(toFile: target, atomically: false, encoding: .utf8)
        defer { unlink(target) }
        XCTAssertEqual(symlink(target, path), 0)
        XCTAssertThrowsError(try ControlServer(path: path))
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "target")
        unlink(path)
        // A live socket is an error; once its daemon is gone, the stale file is replaced.
        var live: ControlServer? = try ControlServer(path: path)
        XCTAssertThrowsError(try ControlServer(path: path)) { XCTAssertTrue("\($0)".contains("already listening"), "\($0)") }
        _ = live
        live = nil
        XCTAssertNoThrow(try ControlServer(path: path))
    }

    /// A server that goes away removes its socket file, but not a file put there since.
    func testTheSocketFileIsRemovedOnlyWhileItIsStillOurs() throws {
        var server: ControlServer? = try ControlServer(path: path)
        _ = server
        unlink(path)
        try "someone else's".write(toFile: path, atomically: false, encoding: .utf8)
        server = nil
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "someone else's")
    }
}
