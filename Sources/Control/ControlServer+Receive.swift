import CKernel
import Glibc
import Posix

/// The input side of the control server: accepting connections within the cap, reading
/// bounded amounts, splitting lines into requests.
extension ControlServer {
    /// Accepts what is queued (up to 1,024 per call): a peer that may not use the socket, or
    /// one beyond the cap, gets one error line and is closed at once.
    func acceptPending() {
        var overCap = 0
        var refusedUIDs: [uid_t] = []
        for _ in 0..<1024 {
            let fd = acceptNonBlocking()
            if fd < 0 {
                if (errno == EMFILE || errno == ENFILE) && shedOneConnection() { continue }
                break
            }
            guard let peer = Self.peerCredentials(fd), Self.permits(peer, ownUID: getuid(), allowedGroup: allowedGroup) else {
                refusedUIDs.append(Self.peerCredentials(fd)?.uid ?? uid_t.max)
                reject(fd, "permission denied")
                continue
            }
            guard clients.count < limits.maxClients else {
                overCap += 1
                reject(fd, "too many connections: the daemon serves at most \(limits.maxClients) at once; try again later")
                continue
            }
            clients[fd] = Client(uid: peer.uid)
        }
        if overCap > 0 { note("refused \(overCap) connection(s): \(limits.maxClients) clients already connected") }
        if let first = refusedUIDs.first {
            note("refused \(refusedUIDs.count) connection(s) from uid \(first)\(refusedUIDs.count > 1 ? " and others" : ""): not root, the daemon's user or in the socket's group")
        }
    }

    /// Out of descriptors: gives up the reserve to accept one pending connection and close it
    /// with an error line, then takes the reserve back. False when there is no reserve.
    private func shedOneConnection() -> Bool {
        guard reserve >= 0 else { return false }
        close(reserve)
        let fd = acceptNonBlocking()
        if fd >= 0 { reject(fd, "the daemon is out of file descriptors; try again later") }
        note("out of file descriptors: closed a new connection")
        reserve = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return fd >= 0
    }

    /// accept, then non-blocking and close-on-exec (Glibc's accept4 is not visible to Swift).
    private func acceptNonBlocking() -> Int32 {
        let fd = retryingInterrupts { accept(listener.fd, nil, nil) }
        guard fd >= 0 else { return fd }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    private func reject(_ fd: Int32, _ message: String) {
        if let text = ControlJSON.line(["event": "error", "message": message]) {
            let line = Array((text + "\n").utf8)
            _ = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        close(fd)
    }

    /// Reads what `fd` has sent (while less than a line's limit is buffered) and returns up to
    /// `maxRequestsPerPoll` requests. A line over the limit gets an error and the client is let
    /// go; so is a client that closed its end (after its last requests are answered).
    func receive(_ fd: Int32) -> [Request] {
        var ended = false
        var chunk = [UInt8](repeating: 0, count: 16384)
        while (clients[fd]?.input.count ?? 0) < limits.maxLineBytes {
            let n = retryingInterrupts { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            if n > 0 { clients[fd]!.input += chunk[0..<n]; continue }
            ended = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
            break
        }
        var requests: [Request] = []
        while requests.count < limits.maxRequestsPerPoll, let line = takeLine(fd) {
            if line.count > limits.maxLineBytes { return overlong(fd, requests) }
            if let request = Self.request(from: line, client: fd) {
                requests.append(request)
            } else {
                send(["event": "error", "message": "expected a JSON object with \"cmd\""], to: fd)
            }
        }
        if (clients[fd]?.input.count ?? 0) >= limits.maxLineBytes && clients[fd]?.input.contains(0x0A) == false { return overlong(fd, requests) }
        if ended { letGo(fd) }
        return requests
    }

    /// The next line (without its newline) taken out of `fd`'s buffer, if one is complete.
    private func takeLine(_ fd: Int32) -> ArraySlice<UInt8>? {
        guard let end = clients[fd]?.input.firstIndex(of: 0x0A) else { return nil }
        let line = clients[fd]!.input[..<end]
        clients[fd]!.input.removeSubrange(...end)
        return line
    }

    private func overlong(_ fd: Int32, _ requests: [Request]) -> [Request] {
        send(["event": "error", "message": "request line longer than \(limits.maxLineBytes) bytes"], to: fd)
        note("dropped a client that sent a line over \(limits.maxLineBytes) bytes")
        letGo(fd)
        return requests
    }

    /// One line as a request: a JSON object with a string `cmd`; other values become their
    /// text. Anything that does not start like an object is not handed to the JSON parser.
    static func request(from line: ArraySlice<UInt8>, client: Int32) -> Request? {
        guard line.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{"),
              let object = ControlJSON.object(line),
              let command = object["cmd"] as? String else { return nil }
        var fields: [String: String] = [:]
        for (key, value) in object where key != "cmd" {
            switch value {
            case let text as String: fields[key] = text
            case let number as Int: fields[key] = String(number)
            case let number as Double: fields[key] = number.description  // as NSNumber gave it: "2.0", "1.5"
            case let flag as Bool: fields[key] = flag ? "1" : "0"
            default: continue  // arrays, objects, null: no command takes them
            }
        }
        return Request(client: client, command: command, fields: fields)
    }
}
