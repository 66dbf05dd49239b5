import Glibc

/// An open file descriptor with one owner: it is closed exactly once, by `close()` or when the
/// owner lets go of it. Reads and writes go through `retryingInterrupts`; a write is finished
/// (partial writes continued, EAGAIN waited on up to a deadline); errors carry the name.
///
/// Why not swift-system's `FileDescriptor`: it is a copyable value that closes nothing by
/// itself (any copy may close it, or none), so an owner would be needed around it anyway;
/// and what the loop needs most (epoll, eventfd, inotify, sockets' peer credentials, DRM
/// events) is outside it. One small owning class here, built on Glibc, is that owner.
public final class Descriptor {
    /// The kernel's number; valid until `close()`.
    public let rawValue: Int32
    /// The path or device, for error messages.
    public let name: String
    public private(set) var isClosed = false

    /// Takes ownership of `rawValue` (closed with this object).
    public init(taking rawValue: Int32, name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    deinit { close() }

    /// open(2), close-on-exec.
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0) throws -> Descriptor {
        let fd = try checked("open", path: path) { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return Descriptor(taking: fd, name: path)
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        // Not retried on EINTR: Linux releases the descriptor whatever close returns.
        _ = Glibc.close(rawValue)
    }

    public func setNonBlocking() throws {
        let flags = try checked("fcntl", path: name) { fcntl(rawValue, F_GETFL) }
        try checked("fcntl", path: name) { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    public enum ReadResult: Equatable {
        /// Bytes read (possibly fewer than asked).
        case bytes([UInt8])
        /// Nothing now (non-blocking descriptor).
        case wouldBlock
        /// The other end closed.
        case endOfFile
    }

    /// One read(2) of up to `maximum` bytes.
    public func read(maximum: Int = 4096) throws -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let n = retryingInterrupts { buffer.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, $0.count) } }
        if n > 0 { return .bytes(Array(buffer[0..<n])) }
        if n == 0 { return .endOfFile }
        let error = SystemError("read", path: name)
        if error.wouldBlock { return .wouldBlock }
        throw error
    }

    /// Everything readable now, up to `limit` bytes; `ended` when the other end closed.
    public func readAvailable(limit: Int = 1 << 20) throws -> (bytes: [UInt8], ended: Bool) {
        var all: [UInt8] = []
        while all.count < limit {
            switch try read(maximum: min(65536, limit - all.count)) {
            case .bytes(let b): all += b
            case .wouldBlock: return (all, false)
            case .endOfFile: return (all, true)
            }
        }
        return (all, false)
    }

    /// Writes all of `bytes`: partial writes are continued; when the descriptor is not ready
    /// (EAGAIN on a non-blocking socket or pipe) it waits for it with poll, up to `timeout`
    /// seconds in all, then throws ETIMEDOUT. Sockets are written with MSG_NOSIGNAL (a peer
    /// that left is EPIPE, not SIGPIPE).
    public func writeAll(_ bytes: [UInt8], timeout: Double = 5) throws {
        let deadline = Monotonic.now() + timeout
        var sent = 0
        let isSocket = self.isSocket
        while sent < bytes.count {
            let n = retryingInterrupts {
                bytes.withUnsafeBytes { raw in
                    isSocket ? Glibc.send(rawValue, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                        : Glibc.write(rawValue, raw.baseAddress! + sent, raw.count - sent)
                }
            }
            if n > 0 { sent += n; continue }
            let error = SystemError(isSocket ? "send" : "write", path: name)
            guard n < 0, error.wouldBlock else { throw n == 0 ? SystemError("write", path: name, errno: EIO) : error }
            let left = deadline - Monotonic.now()
            guard left > 0, try wait(for: Int16(POLLOUT), timeout: left) else { throw SystemError("write", path: name, errno: ETIMEDOUT) }
        }
    }

    /// Waits until the descriptor is ready for `events` (POLLIN, POLLOUT); false on timeout.
    public func wait(for events: Int16, timeout: Double) throws -> Bool {
        try Self.wait(rawValue, for: events, timeout: timeout, name: name)
    }

    /// Waits until `fd` (owned elsewhere, e.g. by libdrm's user) is readable; false on timeout.
    public static func waitReadable(_ fd: Int32, timeout: Double, name: String = "descriptor") throws -> Bool {
        try wait(fd, for: Int16(POLLIN), timeout: timeout, name: name)
    }

    /// poll(2) on one descriptor, a signal not cutting the wait short.
    static func wait(_ fd: Int32, for events: Int16, timeout: Double, name: String) throws -> Bool {
        let deadline = Monotonic.now() + timeout
        while true {
            var pfd = pollfd(fd: fd, events: events, revents: 0)
            let left = max(0, deadline - Monotonic.now())
            let r = Glibc.poll(&pfd, 1, Int32(min(left * 1000, 86_400_000).rounded(.up)))
            if r > 0 { return true }
            if r == 0 { return false }
            if errno != EINTR { throw SystemError("poll", path: name) }
        }
    }

    private lazy var isSocket: Bool = {
        var st = stat()
        return fstat(rawValue, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK
    }()
}

extension Descriptor {
    /// A pipe, both ends non-blocking and close-on-exec.
    public static func pipe() throws -> (read: Descriptor, write: Descriptor) {
        var fds: [Int32] = [-1, -1]
        try checked("pipe", path: "pipe") { Glibc.pipe(&fds) }
        let ends = (read: Descriptor(taking: fds[0], name: "pipe"), write: Descriptor(taking: fds[1], name: "pipe"))
        for end in [ends.read, ends.write] {
            try end.setNonBlocking()
            try checked("fcntl", path: "pipe") { fcntl(end.rawValue, F_SETFD, FD_CLOEXEC) }
        }
        return ends
    }
}
