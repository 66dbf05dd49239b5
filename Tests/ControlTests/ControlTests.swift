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
        XCTAssertThrowsError(try ControlClient(path: "/tmp/buoy-nobody-here.sock")) {
            XCTAssertEqual("\($0)", "/tmp/buoy-nobody-here.sock: no buoy daemon: No such file or directory")
            XCTAssertEqual(($0 as? ControlServer.ControlError)?.errno, ENOENT)
        }
        XCTAssertFalse(ControlClient.isListening("/tmp/buoy-nobody-here.sock"))
    }

    func testTheSocketGroupCountsAsPrimaryOrSupplementaryGroup() {
        typealias Peer = ControlServer.PeerCredentials
        let group: gid_t = 990
        // An operator added to the group keeps their own primary group.
        XCTAssertTrue(ControlServer.permits(Peer(uid: 1000, gid: 1000, groups: [24, 990, 1000]), ownUID: 0, allowedGroup: group))
        XCTAssertTrue(ControlServer.permits(Peer(uid: 1000, gid: 990, groups: []), ownUID: 0, allowedGroup: group))
        XCTAssertFalse(ControlServer.permits(Peer(uid: 1000, gid: 1000, groups: [24, 1000]), ownUID: 0, allowedGroup: group))
        XCTAssertFalse(ControlServer.permits(Peer(uid: 1000, gid: 1000, groups: [990]), ownUID: 0, allowedGroup: nil))
        // Root and the daemon's own user always.
        XCTAssertTrue(ControlServer.permits(Peer(uid: 0, gid: 0, groups: []), ownUID: 500, allowedGroup: group))
        XCTAssertTrue(ControlServer.permits(Peer(uid: 500, gid: 500, groups: []), ownUID: 500, allowedGroup: nil))
    }

    func testPeerCredentialsOfARealConnectionCarryTheSupplementaryGroups() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let peer = try XCTUnwrap(ControlServer.peerCredentials(fds[0]))
        XCTAssertEqual(peer.uid, getuid())
        XCTAssertEqual(peer.gid, getgid())
        var own = [gid_t](repeating: 0, count: Int(getgroups(0, nil)))
        XCTAssertEqual(Int(getgroups(Int32(own.count), &own)), own.count)
        XCTAssertTrue(Set(own).isSubset(of: Set(peer.groups)), "peer groups \(peer.groups), ours \(own)")
    }

    func testWatchersKeepGettingEventsAfterTheJobAFetchClientFollowedEnds() throws {
        let path = socketPath()
        let server = try ControlServer(path: path)
        let fetcher = try ControlClient(path: path)
        var watcher: ControlClient! = try ControlClient(path: path)
        try fetcher.send(["cmd": "fetch", "url": "http://x/y", "output": "/tmp/y"])
        try watcher.send(["cmd": "watch"])
        let requests = pollUntil(server, count: 2)
        XCTAssertEqual(Set(requests.map(\.command)), ["fetch", "watch"])
        for r in requests { server.subscribe(r.client, watching: r.command == "watch") }
        XCTAssertEqual(server.subscriberCount, 2)

        server.publish(["event": "progress", "fraction": 0.25], jobEnded: false)
        XCTAssertEqual(fetcher.next(timeout: 2)?["fraction"] as? Double, 0.25)
        XCTAssertEqual(watcher.next(timeout: 2)?["fraction"] as? Double, 0.25)
        server.publish(["event": "done"], jobEnded: true)
        XCTAssertEqual(fetcher.next(timeout: 2)?["event"] as? String, "done")
        XCTAssertEqual(watcher.next(timeout: 2)?["event"] as? String, "done")
        // The fetch client is let go with its job (closed by the next poll, its last line
        // written); the watcher stays for the next one.
        _ = server.poll()
        XCTAssertNil(fetcher.next(timeout: 2))
        XCTAssertTrue(fetcher.isClosed)
        XCTAssertEqual(server.subscriberCount, 1)
        server.publish(["event": "progress", "fraction": 0.5], jobEnded: false)
        XCTAssertEqual(watcher.next(timeout: 2)?["fraction"] as? Double, 0.5)
        XCTAssertFalse(watcher.isClosed)

        // A client that leaves is no longer a subscriber, so its descriptor number, reused by a
        // later client, does not inherit the subscription.
        watcher = nil
        _ = pollUntil(server, count: 1)
        XCTAssertEqual(server.subscriberCount, 0)
        let later = try ControlClient(path: path)
        _ = pollUntil(server, count: 1)
        server.publish(["event": "progress"], jobEnded: false)
        XCTAssertNil(later.next(timeout: 0.3))
    }
}
