import CPosix
import Glibc

/// One epoll instance: descriptors are watched for reading and/or writing, and `wait` sleeps
/// until one is ready or a deadline passes. Nothing is polled on a schedule: a process whose
/// descriptors are quiet and whose next deadline is far away uses no CPU.
public final class EventLoop {
    public struct Ready: Equatable, Sendable {
        public var fd: Int32
        public var readable: Bool
        public var writable: Bool
        /// Error or hang-up: the descriptor should be read (to see EOF or the error) and dropped.
        public var hangup: Bool
    }

    private let epoll: Descriptor
    private var watched: [Int32: (readable: Bool, writable: Bool)] = [:]

    public init() throws {
        let fd = try checked("epoll_create1", path: "epoll") { buoy_epoll_create() }
        epoll = Descriptor(taking: fd, name: "epoll")
    }

    /// Watches `fd` (adds it, or changes what it is watched for).
    public func watch(_ fd: Int32, readable: Bool = true, writable: Bool = false, name: String = "descriptor") throws {
        let events = (readable ? buoy_epoll_in | buoy_epoll_rdhup : 0) | (writable ? buoy_epoll_out : 0)
        if let current = watched[fd], current == (readable, writable) { return }
        // A descriptor closed without `unwatch` left epoll by itself, and a new one may have its
        // number: modify what is there, else add (and the other way round).
        let first = watched[fd] == nil ? buoy_epoll_add : buoy_epoll_modify
        if buoy_epoll_control(epoll.rawValue, first, fd, events) != 0 {
            guard errno == ENOENT || errno == EEXIST else { throw SystemError("epoll_ctl", path: name) }
            let second = first == buoy_epoll_add ? buoy_epoll_modify : buoy_epoll_add
            try checked("epoll_ctl", path: name) { buoy_epoll_control(epoll.rawValue, second, fd, events) }
        }
        watched[fd] = (readable, writable)
    }

    /// Stops watching `fd` (before it is closed: a closed descriptor leaves epoll by itself,
    /// but a number reused by a new descriptor must not inherit the old registration).
    public func unwatch(_ fd: Int32) {
        guard watched.removeValue(forKey: fd) != nil else { return }
        _ = buoy_epoll_control(epoll.rawValue, buoy_epoll_delete, fd, 0)
    }

    public func isWatching(_ fd: Int32) -> Bool { watched[fd] != nil }

    /// Waits until a descriptor is ready or `deadline` (monotonic seconds; nil: no deadline)
    /// passes; a signal ends the wait early with nothing ready (so a stop request is seen).
    public func wait(until deadline: Double?) throws -> [Ready] {
        var timeout: Int32 = -1
        if let deadline {
            let left = deadline - Monotonic.now()
            // Rounded up: waking a little late costs nothing, waking early means a second wait.
            timeout = left <= 0 ? 0 : Int32(min(left * 1000, 3_600_000).rounded(.up))
        }
        var fds = [Int32](repeating: -1, count: 64)
        var events = [UInt32](repeating: 0, count: 64)
        let n = buoy_epoll_wait(epoll.rawValue, &fds, &events, 64, timeout)
        if n < 0 {
            if errno == EINTR { return [] }
            throw SystemError("epoll_wait", path: "epoll")
        }
        return (0..<Int(n)).map { i in
            let e = events[i]
            return Ready(fd: fds[i], readable: e & (buoy_epoll_in | buoy_epoll_rdhup) != 0, writable: e & buoy_epoll_out != 0,
                         hangup: e & (buoy_epoll_hup | buoy_epoll_err) != 0)
        }
    }
}

/// An eventfd another thread writes to wake the loop (a frame finished rendering). `wake` is
/// safe from any thread; the loop watches `fd` and calls `drain` when it is readable.
public final class Waker: @unchecked Sendable {
    private let descriptor: Descriptor
    public var fd: Int32 { descriptor.rawValue }

    public init() throws {
        let fd = try checked("eventfd", path: "eventfd") { buoy_eventfd() }
        descriptor = Descriptor(taking: fd, name: "eventfd")
    }

    public func wake() {
        var one: UInt64 = 1
        _ = retryingInterrupts { Glibc.write(descriptor.rawValue, &one, 8) }
    }

    public func drain() {
        var count: UInt64 = 0
        _ = retryingInterrupts { Glibc.read(descriptor.rawValue, &count, 8) }
    }
}

/// Named deadlines on the monotonic clock: the loop sleeps until the earliest one.
public struct Timers<Key: Hashable> {
    private var deadlines: [Key: Double] = [:]

    public init() {}

    public mutating func set(_ key: Key, at time: Double) { deadlines[key] = time }
    public mutating func cancel(_ key: Key) { deadlines[key] = nil }
    public func deadline(of key: Key) -> Double? { deadlines[key] }

    /// The earliest deadline, if any.
    public var next: Double? { deadlines.values.min() }

    /// Removes and returns the timers due at `now`, earliest first.
    public mutating func takeDue(at now: Double) -> [Key] {
        let due = deadlines.filter { $0.value <= now }.sorted { $0.value < $1.value }.map(\.key)
        for key in due { deadlines[key] = nil }
        return due
    }
}
