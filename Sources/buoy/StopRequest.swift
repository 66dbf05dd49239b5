import Glibc
import Posix
import Synchronization

/// The first SIGINT or SIGTERM received (0: none). A plain handler stores it: it runs on
/// whichever thread the kernel picks and only does an atomic store and a write(2) to an
/// eventfd, both async-signal-safe. (A DispatchSource lost signals on Linux: libdispatch reads
/// them from a signalfd on its own thread after re-raising them on the thread they hit, and a
/// SIGTERM that hit the main thread of `buoy run` with download threads around was never
/// seen, so the daemon ran on.)
private let receivedStopSignal = Atomic<Int32>(0)
/// The eventfd the handler writes to, so an event loop asleep in epoll_wait wakes at once
/// (-1: none yet). Process-wide like the handler itself.
private let stopWakeDescriptor = Atomic<Int32>(-1)
/// The eventfd itself: made once and never closed, so the handler never writes to a number
/// that was closed and reused.
private let stopSignalWaker: Waker? = try? Waker()

/// SIGINT and SIGTERM end the frame loop cleanly (the display is restored on the way out).
/// Loops poll `requested`, or watch `wakeDescriptor`; blocking waits (poll on the DRM device)
/// return early with EINTR.
final class StopRequest: Sendable {
    private var waker: Waker? { stopSignalWaker }

    init() {
        _ = receivedStopSignal.load(ordering: .relaxed)  // initialized before any handler can run
        if let waker { stopWakeDescriptor.store(waker.fd, ordering: .relaxed) }
        for sig in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                _ = receivedStopSignal.compareExchange(expected: 0, desired: sig, ordering: .relaxed)
                var one: UInt64 = 1
                let fd = stopWakeDescriptor.load(ordering: .relaxed)
                if fd >= 0 { _ = write(fd, &one, 8) }
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
    }

    var requested: Bool { signal != nil }

    var signal: Int32? {
        let sig = receivedStopSignal.load(ordering: .relaxed)
        return sig == 0 ? nil : sig
    }

    /// Readable once a stop signal arrived (-1 if no eventfd could be made: loops then wake
    /// on EINTR alone).
    var wakeDescriptor: Int32 { waker?.fd ?? -1 }

    func drainWake() { waker?.drain() }
}
