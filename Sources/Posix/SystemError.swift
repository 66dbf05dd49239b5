import Glibc

/// A failed system call: which call, on what (a path, a device, "control socket"), and the
/// errno it left, kept as a number so callers can tell EACCES from ENOENT without parsing text.
public struct SystemError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What was being done: "open", "read", "epoll_ctl", …
    public var operation: String
    /// The path or device concerned.
    public var path: String
    public var errno: Int32

    public init(_ operation: String, path: String, errno: Int32 = Glibc.errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    public var reason: String { String(cString: strerror(errno)) }
    public var description: String { "\(path): \(operation) failed: \(reason)" }

    /// The caller may try again later (the descriptor is non-blocking and not ready).
    public var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
}

/// Runs a system call until it is not interrupted by a signal: the one place EINTR is retried.
/// Returns the call's result; on failure errno is left as the call set it.
@inlinable
public func retryingInterrupts<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

/// Like `retryingInterrupts`, but a negative result becomes a `SystemError`.
@inlinable
@discardableResult
public func checked<T: BinaryInteger>(_ operation: String, path: String, _ call: () -> T) throws -> T {
    let result = retryingInterrupts(call)
    if result < 0 { throw SystemError(operation, path: path) }
    return result
}
