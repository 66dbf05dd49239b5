import Glibc
import Posix

/// Where playback gets the time, in seconds. The display loop reads presentation times from
/// it; tests drive a virtual one.
public protocol PlaybackClock: AnyObject {
    var now: Double { get }
}

/// The system's monotonic clock (never jumps with wall-clock changes).
public final class MonotonicClock: PlaybackClock {
    public init() {}

    public var now: Double { Monotonic.now() }
}

/// A clock that moves only when told: tests step it frame by frame, and a display sets it to
/// each frame's predicted presentation (vsync) time.
public final class VirtualClock: PlaybackClock {
    public var now: Double

    public init(now: Double = 0) { self.now = now }

    public func advance(by seconds: Double) { now += seconds }
}
