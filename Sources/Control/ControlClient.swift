import CKernel
import Glibc
import Posix

/// The operator's side: one connection, JSON lines both ways.
public final class ControlClient {
    public let fd: Int32
    private var pending: [UInt8] = []
    /// The daemon closed the connection (as opposed to a quiet one: `next` timed out).
    public private(set) var isClosed = false

    public init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ControlServer.ControlError(path: path, reason: "socket", errno: errno) }
        var address = try Self.address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw ControlServer.ControlError(path: path, reason: "no buoy daemon", errno: error)
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

    /// A non-blocking connection attempt to `path`: 0 when something accepts it, else the
    /// errno (ECONNREFUSED: a socket file nobody listens on; EAGAIN: a listener whose queue is
    /// full, so a live one).
    static func probe(_ path: String) -> Int32 {
        guard var address = try? address(path) else { return ENAMETOOLONG }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return connected == 0 ? 0 : errno
    }

    /// Whether a daemon answers on `path`.
    public static func isListening(_ path: String) -> Bool {
        (try? ControlClient(path: path)) != nil
    }

    public func send(_ request: [String: Any]) throws {
        guard let text = ControlJSON.line(request) else {
            throw ControlServer.ControlError(path: "control socket", reason: "the request is not JSON")
        }
        let data = Array((text + "\n").utf8)
        let ok = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) == $0.count }
        if !ok { throw ControlServer.ControlError(path: "control socket", reason: "the daemon went away") }
    }

    /// The next event line (blocking up to `timeout` seconds); nil at end or timeout.
    public func next(timeout: Double = 30) -> [String: Any]? {
        let deadline = Monotonic.now() + timeout
        while true {
            if let end = pending.firstIndex(of: 0x0A) {
                let line = pending[..<end]
                defer { pending.removeSubrange(...end) }
                return ControlJSON.object(line)
            }
            let left = deadline - Monotonic.now()
            guard left > 0 else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(left * 1000)) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = retryingInterrupts { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            if n <= 0 {
                if n == 0 || errno != EAGAIN { isClosed = true }
                return nil
            }
            pending += buffer[0..<n]
        }
    }
}
