import Glibc

/// A thread of its own (pthread), for the few long-lived threads outside the band workers:
/// buoy's frame thread, the demo's payload server. Foundation's `Thread` did this, but it
/// needs full Foundation; this is what of it is used: start with a name, and join.
public final class PosixThread: @unchecked Sendable {
    private var handle: pthread_t
    private var joined = false

    /// Starts `body` on a new thread named `name` (at most 15 bytes show in /proc and `top -H`).
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws {
        let context = Unmanaged.passRetained(ThreadBody(name: name, body)).toOpaque()
        var thread = pthread_t()
        let error = pthread_create(&thread, nil, { context in
            let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
            body.nameThisThread()
            body.run()
            return nil
        }, context)
        guard error == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw SystemError("pthread_create", path: name, errno: error)
        }
        handle = thread
    }

    /// Returns when the thread's body has returned (at once the second time).
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(handle, nil)
    }

    deinit {
        if !joined { pthread_detach(handle) }
    }
}

private final class ThreadBody {
    let name: String
    let run: @Sendable () -> Void
    init(name: String, _ run: @escaping @Sendable () -> Void) { self.name = name; self.run = run }

    /// What pthread_setname_np does (a GNU extension Swift's Glibc module does not export):
    /// the name in the thread's `comm`, at most 15 bytes. A failure leaves the process's name.
    func nameThisThread() {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}

/// A mutex with a condition variable (Foundation's `NSCondition`): `wait()` releases the lock
/// while it sleeps and holds it again when woken.
public final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Call with the lock held; may wake without a signal, so wait in a loop on the state.
    public func wait() { pthread_cond_wait(condition, mutex) }
    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }
}
