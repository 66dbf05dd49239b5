import CCurl
import Glibc
import Posix

/// What one socket should be watched for, as libcurl asks (CURLMOPT_SOCKETFUNCTION).
public enum SocketInterest: Equatable, Sendable {
    case read, write, readWrite
    /// Stop watching it (curl is done with it; it may be closed right after).
    case remove
}

/// The socket-action mode: a caller's event loop (epoll) watches curl's sockets and one timer,
/// instead of calling `step` on a schedule. Both modes share one completion path
/// (`prepare`, then curl, then `complete`) and the same bounded hashing per call.
extension DownloadSession {
    final class EventLoop {
        let onSocket: (Int32, SocketInterest) -> Void
        let onTimer: (Int?) -> Void
        /// When curl wants `timerFired` (monotonic seconds); nil: curl has no timer.
        var curlDeadline: Double?

        init(onSocket: @escaping (Int32, SocketInterest) -> Void, onTimer: @escaping (Int?) -> Void) {
            self.onSocket = onSocket
            self.onTimer = onTimer
        }

        /// Tells the caller when to call `timerFired` next: curl's timer, a retry that is due,
        /// or at once while bytes on disk wait to be hashed; nil once everything is finished.
        func reschedule(_ session: DownloadSession) {
            if session.isFinished { return onTimer(nil) }
            let now = Monotonic.now()
            var due = [curlDeadline, session.nextRetry].compactMap { $0 }
            if session.hasWorkOnDisk { due.append(now) }
            guard let first = due.min() else { return onTimer(nil) }
            // Clamped: a policy may allow waits longer than a timer's range.
            onTimer(Int(min(Double(Int32.max), max(0, ((first - now) * 1000).rounded(.up)))))
        }
    }

    /// Switches the session to the caller's event loop. `onSocket(fd, interest)` asks to watch
    /// (or stop watching) a socket, readable and/or writable; `onTimer(ms)` asks for one call to
    /// `timerFired` after `ms` milliseconds (replacing the previous request; nil: none). The
    /// callbacks run inside the session's calls and must not call back into it. `onTimer(0)` is
    /// asked at once to start the transfers. Call it before any `step`, and do not use `step`
    /// afterwards.
    public func useEventLoop(onSocket: @escaping (_ fd: Int32, _ interest: SocketInterest) -> Void,
                             onTimer: @escaping (_ milliseconds: Int?) -> Void) {
        let loop = EventLoop(onSocket: onSocket, onTimer: onTimer)
        eventLoop = loop
        let me = Unmanaged.passUnretained(self).toOpaque()
        buoy_curl_multi_set_ptr(multi, CURLMOPT_SOCKETDATA, me)
        buoy_curl_multi_set_ptr(multi, CURLMOPT_TIMERDATA, me)
        buoy_curl_multi_set_socketfn(multi) { _, socket, what, user, _ in
            guard let user else { return 0 }
            let session = Unmanaged<DownloadSession>.fromOpaque(user).takeUnretainedValue()
            let interest: SocketInterest
            switch what {
            case Int32(CURL_POLL_IN): interest = .read
            case Int32(CURL_POLL_OUT): interest = .write
            case Int32(CURL_POLL_INOUT): interest = .readWrite
            default: interest = .remove
            }
            session.eventLoop?.onSocket(socket, interest)
            return 0
        }
        buoy_curl_multi_set_timerfn(multi) { _, milliseconds, user in
            guard let user else { return 0 }
            let session = Unmanaged<DownloadSession>.fromOpaque(user).takeUnretainedValue()
            session.eventLoop?.curlDeadline = milliseconds < 0 ? nil : Monotonic.now() + Double(milliseconds) / 1000
            return 0
        }
        onTimer(0)
    }

    /// A watched socket is ready.
    public func socketAction(fd: Int32, readable: Bool, writable: Bool) {
        drive(socket: fd, mask: (readable ? Int32(CURL_CSELECT_IN) : 0) | (writable ? Int32(CURL_CSELECT_OUT) : 0))
    }

    /// The time asked with `onTimer` has come.
    public func timerFired() {
        // curl announces its timer only when it changes: forget it only once it has come.
        if let due = eventLoop?.curlDeadline, due <= Monotonic.now() { eventLoop?.curlDeadline = nil }
        drive(socket: -1 /* CURL_SOCKET_TIMEOUT */, mask: 0)
    }

    private func drive(socket: Int32, mask: Int32) {
        let deadline = prepare()
        var running: Int32 = 0
        buoy_curl_multi_socket_action(multi, socket, mask, &running)
        complete(hashingUntil: deadline)
    }
}
