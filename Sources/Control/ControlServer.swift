import CKernel
import Glibc
import Posix

/// The daemon side of Buoy's local control socket: line-based JSON requests from operators
/// (`buoy fetch`, `buoy status`, `buoy cancel` over ssh), JSON event lines back. Non-blocking:
/// the frame loop calls `poll()` once per frame (or when `pollDescriptors` say so). Peers are
/// checked by their credentials: root, the daemon's own user, or members of the socket's group
/// (primary or supplementary). Clients that subscribe receive progress events: a fetch's
/// client until its job ends, a watcher until it disconnects.
///
/// No client can stall the loop or exhaust the daemon: at most `Limits.maxClients` at once
/// (more are accepted and closed with an error line), a request line of at most
/// `maxLineBytes`, a bounded read and a bounded number of requests per client per poll, and
/// output that is buffered (flushed when the socket takes it, never cut mid-line) up to
/// `maxPendingOutput`, past which a client that does not read is dropped.
public final class ControlServer {
    public struct Request: Sendable {
        public var client: Int32
        public var command: String
        public var fields: [String: String]
    }

    public struct ControlError: Error, CustomStringConvertible {
        public var path: String
        /// What failed, in words (the errno's text is added by `description`).
        public var reason: String
        /// The errno of the system call that failed, when one did.
        public var errno: Int32?

        public init(path: String, reason: String, errno: Int32? = nil) {
            self.path = path
            self.reason = reason
            self.errno = errno
        }

        public var description: String {
            guard let errno else { return "\(path): \(reason)" }
            return "\(path): \(reason): \(String(cString: strerror(errno)))"
        }
    }

    public struct Limits: Equatable, Sendable {
        public var maxClients = 64
        public var maxLineBytes = 64 * 1024
        public var maxPendingOutput = 256 * 1024
        /// Requests taken from one client per `poll()`; the rest wait for the next.
        public var maxRequestsPerPoll = 32
        /// How long a client being let go may take to read its last lines.
        public var closingGrace = 5.0
        public init() {}
    }

    struct Client {
        var uid: uid_t
        var input: [UInt8] = []
        var output: [UInt8] = []
        /// When set, the client is let go once `output` is flushed, or at this time at the latest.
        var closeBy: Double?
    }

    public let limits: Limits
    let listener: ListeningSocket
    let allowedGroup: gid_t?
    var clients: [Int32: Client] = [:]
    /// Subscribed clients; true for watchers (kept after a job ends). Removed on disconnect,
    /// so a later client that gets the same descriptor number is not mistaken for one.
    var subscribers: [Int32: Bool] = [:]
    /// A descriptor held back so that, with every other one in use, a pending connection can
    /// still be accepted and closed instead of waiting in the queue forever.
    var reserve: Int32
    private var messages: [String] = []

    public var path: String { listener.path }

    /// Listens on `path` (mode 0660, group `group` when given). A stale socket file left by a
    /// crashed daemon is replaced; a live socket or any other file there is an error.
    public init(path: String, group: gid_t? = nil, limits: Limits = Limits()) throws {
        listener = try ListeningSocket.open(path: path, group: group)
        allowedGroup = group
        self.limits = limits
        reserve = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    deinit {
        for fd in clients.keys { close(fd) }
        if reserve >= 0 { close(reserve) }
        listener.close()
    }

    /// Accepts clients, writes what is pending, and returns the complete requests received
    /// since the last call.
    public func poll() -> [Request] {
        acceptPending()
        var requests: [Request] = []
        for fd in Array(clients.keys) {
            flush(fd)
            // A client let go in an earlier poll is closed here, after its replies were sent.
            if let client = clients[fd], let closeBy = client.closeBy {
                if client.output.isEmpty || Monotonic.now() >= closeBy { disconnect(fd) }
                continue
            }
            if clients[fd] != nil { requests += receive(fd) }
        }
        return requests
    }

    /// What to wait on: the listener for connections, each client for input, and for output
    /// where some is pending.
    public var pollDescriptors: [pollfd] {
        [pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)] + clients.map { fd, client in
            pollfd(fd: fd, events: Int16(POLLIN) | (client.output.isEmpty ? 0 : Int16(POLLOUT)), revents: 0)
        }
    }

    public var connectedClients: [Int32] { Array(clients.keys) }

    /// What happened that the daemon's log should show (refused and dropped clients), since
    /// the last call; client-supplied text in them is escaped.
    public func takeMessages() -> [String] {
        defer { messages.removeAll() }
        return messages
    }

    /// Queues one JSON line and writes as much as the socket takes; a client that lets more
    /// than `maxPendingOutput` pile up, or went away, is dropped.
    public func send(_ event: [String: Any], to fd: Int32) {
        // A NaN or a value JSON cannot carry gives no line (and no trap).
        guard clients[fd] != nil, let line = ControlJSON.line(event) else { return }
        clients[fd]!.output += Array(line.utf8)
        clients[fd]!.output.append(0x0A)
        if clients[fd]!.output.count > limits.maxPendingOutput {
            note("dropped a client (uid \(clients[fd]!.uid)) that does not read: over \(limits.maxPendingOutput) bytes waiting for it")
            disconnect(fd)
            return
        }
        flush(fd)
    }

    /// Answers `request` with an error event and notes the refusal, with the asker's uid,
    /// for the daemon's log (escaped: the reason may quote what the client sent).
    public func refuse(_ request: Request, _ reason: String) {
        let uid = clients[request.client].map { "\($0.uid)" } ?? "?"
        note("refused \(LogText.escaped(request.command)) from uid \(uid): \(LogText.escaped(reason))")
        send(["event": "error", "message": reason], to: request.client)
    }

    public func disconnect(_ fd: Int32) {
        guard clients.removeValue(forKey: fd) != nil else { return }
        subscribers.removeValue(forKey: fd)
        close(fd)
    }

    /// Sends `client` the progress events from now on: until the current job ends
    /// (`watching` false, the client that asked for a fetch) or until it disconnects.
    public func subscribe(_ client: Int32, watching: Bool) {
        guard let c = clients[client], c.closeBy == nil else { return }
        subscribers[client] = watching || (subscribers[client] ?? false)
    }

    public var subscriberCount: Int { subscribers.count }

    /// Sends `event` to every subscriber. With `jobEnded`, the clients that only followed the
    /// job are let go after it (once the event is written); watchers stay.
    public func publish(_ event: [String: Any], jobEnded: Bool) {
        for (client, watching) in subscribers {
            send(event, to: client)
            if jobEnded && !watching { letGo(client) }
        }
    }

    /// Stops reading from `fd`; the next `poll()` closes it once its pending output is written
    /// (so replies to the requests it just sent still reach it).
    func letGo(_ fd: Int32) {
        subscribers.removeValue(forKey: fd)
        guard clients[fd] != nil, clients[fd]!.closeBy == nil else { return }
        clients[fd]!.closeBy = Monotonic.now() + limits.closingGrace
    }

    /// Writes pending output until the socket would block; a broken connection is dropped.
    private func flush(_ fd: Int32) {
        while let output = clients[fd]?.output, !output.isEmpty {
            let n = retryingInterrupts { output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } }
            if n > 0 {
                clients[fd]!.output.removeFirst(n)
            } else {
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
                disconnect(fd)
                return
            }
        }
    }

    func note(_ message: String) {
        if messages.count < 100 { messages.append("control: " + message) }
    }
}
