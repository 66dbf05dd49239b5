import Foundation

/// psplash's control protocol on a FIFO, so scripts, systemd units and SWUpdate's progress
/// client that already drive psplash drive Buoy unchanged: NUL- or newline-terminated
/// commands `PROGRESS n` (0…100), `MSG text` and `QUIT`.
public final class PsplashFIFO {
    public enum Command: Equatable, Sendable {
        case progress(Double)
        case message(String)
        case quit
    }

    public struct FIFOError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public let path: String
    /// Readable when a writer sent something: an event loop watches it and calls `poll()`.
    public let fd: Int32
    /// Kept open for writing too, so the FIFO never reports end-of-file between writers.
    private let keepAlive: Int32
    private var pending: [UInt8] = []

    /// Creates the FIFO (mode 0660) unless it exists, and opens it without blocking.
    public init(path: String) throws {
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFIFO else { throw FIFOError(path: path, reason: "exists and is not a FIFO") }
        } else if mkfifo(path, 0o660) != 0 {
            throw FIFOError(path: path, reason: "cannot create the FIFO: \(String(cString: strerror(errno)))")
        }
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FIFOError(path: path, reason: String(cString: strerror(errno))) }
        keepAlive = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        self.path = path
    }

    deinit {
        close(fd)
        if keepAlive >= 0 { close(keepAlive) }
    }

    /// Commands received since the last call; never blocks.
    public func poll() -> [Command] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            pending += buffer[0..<n]
            if pending.count > 65536 { pending.removeFirst(pending.count - 65536) }  // a runaway writer
        }
        var commands: [Command] = []
        while let end = pending.firstIndex(where: { $0 == 0 || $0 == 0x0A }) {
            let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            pending.removeSubrange(...end)
            if let command = Self.parse(line) { commands.append(command) }
        }
        return commands
    }

    static func parse(_ line: String) -> Command? {
        if line == "QUIT" { return .quit }
        if line.hasPrefix("PROGRESS ") {
            guard let v = Double(line.dropFirst(9).trimmingCharacters(in: .whitespaces)), v.isFinite else { return nil }
            return .progress(min(max(v, 0), 100) / 100)
        }
        if line.hasPrefix("MSG ") { return .message(String(line.dropFirst(4))) }
        return nil
    }
}
