#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutex that spins a little before it sleeps, for the caches that the bands of one frame
/// reach on several threads at once. Their critical sections last about a microsecond; a
/// plain mutex (`NSLock`) puts a thread that finds it taken to sleep at once, and the futex
/// wait and wake-up then cost tens of microseconds, several times per frame. glibc's
/// adaptive mutex spins first; where that type is unknown (musl) it is a plain mutex.
public final class AdaptiveLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// glibc's PTHREAD_MUTEX_ADAPTIVE_NP (a GNU extension Swift's Glibc module does not export).
    private static let adaptiveType: Int32 = 3

    public init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
        _ = pthread_mutexattr_settype(&attributes, Self.adaptiveType)
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }
}
