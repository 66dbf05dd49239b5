import CKernel
import Foundation

/// The daemon side of Buoy's local control socket: line-based JSON requests from operators
/// (`buoy fetch`, `buoy status`, `buoy cancel` over ssh), JSON event lines back. Non-blocking:
/// the frame loop calls `poll()` once per frame. Peers are checked by their credentials:
/// root, the daemon's own user, or members of the socket's group (primary or supplementary).
/// Clients that subscribe receive progress events: a fetch's client until its job ends, a
/// watcher until it disconnects.
public final class ControlServer {
    public struct Request: Sendable {
        public var client: Int32
        public var command: String
        public var fields: [String: String]
    }

    public struct ControlError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public let path: String
    private let listener: Int32
    private let allowedGroup: gid_t?
    private var clients: [Int32: [UInt8]] = [:]
    /// Subscribed clients; true for watchers (kept after a job ends). Removed on disconnect,
    /// so a later client that gets the same descriptor number is not mistaken for one.
    private var subscribers: [Int32: Bool] = [:]

    /// Who is on the other end of a connection.
    public struct PeerCredentials: Equatable, Sendable {
        public var uid: uid_t
        public var gid: gid_t
        /// Every group the peer is in, supplementary ones included.
        public var groups: [gid_t]

        public init(uid: uid_t, gid: gid_t, groups: [gid_t]) {
            self.uid = uid
            self.gid = gid
            self.groups = groups
        }
    }

    /// Listens on `path` (mode 0660, group `group` when given). A stale socket file left by a
    /// crashed daemon is replaced; a live one is an error.
    public init(path: String, group: gid_t? = nil) throws {
        self.path = path
        if ControlClient.isListening(path) { throw ControlError(path: path, reason: "another buoy is already listening here") }
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ControlError(path: path, reason: String(cString: strerror(errno))) }
        var address = try ControlClient.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ControlError(path: path, reason: "cannot listen: \(reason)")
        }
        chmod(path, 0o660)
        if let group { chown(path, getuid(), group) }
        allowedGroup = group
        listener = fd
    }

    deinit {
        for fd in clients.keys { close(fd) }
        close(listener)
        unlink(path)
    }

    /// Accepts clients and returns the complete requests received since the last call.
    public func poll() -> [Request] {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 { break }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if permitted(fd) {
                clients[fd] = []
            } else {
                send(["event": "error", "message": "permission denied"], to: fd)
                close(fd)
            }
        }
        var requests: [Request] = []
        for fd in Array(clients.keys) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var closed = false
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { clients[fd]! += buffer[0..<n]; continue }
                if n == 0 || (errno != EAGAIN && errno != EINTR) { closed = true }
                break
            }
            while let end = clients[fd]?.firstIndex(of: 0x0A) {
                let line = Data(clients[fd]![..<end])
                clients[fd]!.removeSubrange(...end)
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                      let command = object["cmd"] as? String else {
                    send(["event": "error", "message": "expected a JSON object with \"cmd\""], to: fd)
                    continue
                }
                var fields: [String: String] = [:]
                for (k, v) in object where k != "cmd" { fields[k] = "\(v)" }
                requests.append(Request(client: fd, command: command, fields: fields))
            }
            if (clients[fd]?.count ?? 0) > 65536 { closed = true }
            if closed { disconnect(fd) }
        }
        return requests
    }

    public var connectedClients: [Int32] { Array(clients.keys) }

    /// The listening socket and every client's: an event loop watches them for reading and
    /// calls `poll()` when one is ready.
    public var descriptors: [Int32] { [listener] + clients.keys }

    /// Sends one JSON line; a client that went away is dropped.
    public func send(_ event: [String: Any], to fd: Int32) {
        guard let data = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]) else { return }
        let line = data + Data([0x0A])
        let ok = line.withUnsafeBytes { raw -> Bool in
            var sent = 0
            while sent < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                sent += n
            }
            return true
        }
        if !ok { disconnect(fd) }
    }

    public func disconnect(_ fd: Int32) {
        guard clients.removeValue(forKey: fd) != nil else { return }
        subscribers.removeValue(forKey: fd)
        close(fd)
    }

    /// Sends `client` the progress events from now on: until the current job ends
    /// (`watching` false, the client that asked for a fetch) or until it disconnects.
    public func subscribe(_ client: Int32, watching: Bool) {
        guard clients[client] != nil else { return }
        subscribers[client] = watching || (subscribers[client] ?? false)
    }

    public var subscriberCount: Int { subscribers.count }

    /// Sends `event` to every subscriber. With `jobEnded`, the clients that only followed the
    /// job are disconnected after it; watchers stay.
    public func publish(_ event: [String: Any], jobEnded: Bool) {
        for (client, watching) in subscribers {
            send(event, to: client)
            if jobEnded && !watching { disconnect(client) }
        }
    }

    /// SO_PEERCRED for the peer's user and primary group, and its supplementary groups.
    private func permitted(_ fd: Int32) -> Bool {
        guard let peer = Self.peerCredentials(fd) else { return false }
        return Self.permits(peer, ownUID: getuid(), allowedGroup: allowedGroup)
    }

    /// The access rule: root, the daemon's own user, or anyone in the socket's group, as
    /// primary or supplementary group (an operator added to the group keeps their own primary).
    public static func permits(_ peer: PeerCredentials, ownUID: uid_t, allowedGroup: gid_t?) -> Bool {
        if peer.uid == 0 || peer.uid == ownUID { return true }
        guard let allowedGroup else { return false }
        return peer.gid == allowedGroup || peer.groups.contains(allowedGroup)
    }

    /// The credentials of the process on the other end of `fd`: SO_PEERCRED, and the groups
    /// from SO_PEERGROUPS (the peer's own at connect time; Linux 4.13+) or, on older kernels,
    /// the group database's list for the peer's user.
    public static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
        var uid: uid_t = 0, gid: gid_t = 0
        guard buoy_peer_credentials(fd, &uid, &gid) == 0 else { return nil }
        let groups = peerGroups(fd) ?? groupList(uid: uid, gid: gid)
        return PeerCredentials(uid: uid, gid: gid, groups: groups)
    }

    /// SO_PEERGROUPS; nil where the kernel does not have it.
    static func peerGroups(_ fd: Int32) -> [gid_t]? {
        let soPeerGroups: Int32 = 59  // <asm-generic/socket.h>
        var groups = [gid_t](repeating: 0, count: 64)
        while true {
            var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            let result = groups.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, soPeerGroups, $0.baseAddress, &length) }
            if result == 0 { return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.size)) }
            // ERANGE: the kernel said how much room the list needs.
            guard errno == ERANGE, Int(length) > groups.count * MemoryLayout<gid_t>.size else { return nil }
            groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.size)
        }
    }

    /// getgrouplist for the user with `uid`; just `gid` when the user is unknown.
    static func groupList(uid: uid_t, gid: gid_t) -> [gid_t] {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil else { return [gid] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(entry.pw_name, gid, &groups, &count) < 0 {
            // Too small: count now holds the number needed.
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(entry.pw_name, gid, &groups, &count) >= 0 else { return [gid] }
        }
        return Array(groups.prefix(Int(count)))
    }
}

/// The operator's side: one connection, JSON lines both ways.
public final class ControlClient {
    public let fd: Int32
    private var pending: [UInt8] = []
    /// The daemon closed the connection (as opposed to a quiet one: `next` timed out).
    public private(set) var isClosed = false

    public init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ControlServer.ControlError(path: path, reason: String(cString: strerror(errno))) }
        var address = try Self.address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ControlServer.ControlError(path: path, reason: "no buoy daemon: \(reason)")
        }
    }

    deinit { close(fd) }

    static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ControlServer.ControlError(path: path, reason: "socket path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return address
    }

    /// Whether a daemon answers on `path`.
    public static func isListening(_ path: String) -> Bool {
        (try? ControlClient(path: path)) != nil
    }

    public func send(_ request: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: request) + Data([0x0A])
        let ok = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) == $0.count }
        if !ok { throw ControlServer.ControlError(path: "control socket", reason: "the daemon went away") }
    }

    /// The next event line (blocking up to `timeout` seconds); nil at end or timeout.
    public func next(timeout: Double = 30) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = pending.firstIndex(of: 0x0A) {
                let line = Data(pending[..<end])
                pending.removeSubrange(...end)
                return (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(left * 1000)) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 {
                if n == 0 || (errno != EINTR && errno != EAGAIN) { isClosed = true }
                return nil
            }
            pending += buffer[0..<n]
        }
    }
}
