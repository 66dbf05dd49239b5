import Glibc

/// The one clock of the project: CLOCK_MONOTONIC in seconds. Frame times, DRM flip
/// timestamps, input events (set to this clock) and timers all count on it, so they compare.
public enum Monotonic {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Sleeps (never spins) until `time`; a signal does not cut the sleep short.
    public static func sleep(until time: Double) {
        guard time.isFinite, time > 0 else { return }
        let seconds = time.rounded(.down)
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((time - seconds) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
