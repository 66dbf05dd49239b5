import Control
import Foundation
import XCTest

final class ControlTests: XCTestCase {
    func socketPath() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-ctl-\(getpid())-\(UUID().uuidString.prefix(6)).sock").path
        unlink(path)
        return path
    }

    func pollUntil(_ server: ControlServer, count: Int) -> [ControlServer.Request] {
        var got: [ControlServer.Request] = []
        for _ in 0..<200 where got.count < count {
            got += server.poll()
            usleep(5000)
        }
        return got
    }

    func testRequestsAndEventsAsJSONLines() throws {
        let path = socketPath()
        let server = try ControlServer(path: path)
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o660)
        let client = try ControlClient(path: path)
        try client.send(["cmd": "fetch", "url": "http://x/y", "output": "/tmp/y"])
        try client.send(["cmd": "status"])
        let requests = pollUntil(server, count: 2)
        XCTAssertEqual(requests.map(\.command), ["fetch", "status"])
        XCTAssertEqual(requests[0].fields["url"], "http://x/y")
        server.send(["event": "progress", "fraction": 0.5], to: requests[0].client)
        let event = try XCTUnwrap(client.next(timeout: 2))
        XCTAssertEqual(event["event"] as? String, "progress")
        XCTAssertEqual(event["fraction"] as? Double, 0.5)
    }

    func testMalformedLinesGetAnErrorAndTheConnectionLives() throws {
        let path = socketPath()
        let server = try ControlServer(path: path)
        let client = try ControlClient(path: path)
        _ = client.fd
        let raw = Array("not json\n".utf8)
        _ = raw.withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress, $0.count, 0) }
        XCTAssertTrue(pollUntil(server, count: 1).isEmpty)
        let error = try XCTUnwrap(client.next(timeout: 2))
        XCTAssertEqual(error["event"] as? String, "error")
        try client.send(["cmd": "quit"])
        XCTAssertEqual(pollUntil(server, count: 1).map(\.command), ["quit"])
    }

    func testASecondDaemonOnTheSameSocketIsRefusedAndAStaleSocketIsReplaced() throws {
        let path = socketPath()
        var first: ControlServer? = try ControlServer(path: path)
        XCTAssertThrowsError(try ControlServer(path: path)) { XCTAssertTrue("\($0)".contains("already listening")) }
        _ = first
        first = nil
        // A socket file nobody listens on (a crashed daemon's) is taken over.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(stale)
        XCTAssertNoThrow(try ControlServer(path: path))
    }

    func testNoDaemonIsAClearError() {
        XCTAssertThrowsError(try ControlClient(path: "/tmp/buoy-nobody-here.sock")) { XCTAssertTrue("\($0)".contains("no buoy daemon")) }
        XCTAssertFalse(ControlClient.isListening("/tmp/buoy-nobody-here.sock"))
    }
}
