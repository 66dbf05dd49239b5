import Foundation
import Posix

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
    private let reader: Descriptor
    /// Kept open for writing too, so the FIFO never reports end-of-file between writers.
    private let keepAlive: Descriptor?
    private var pending: [UInt8] = []

    /// Readable when a writer sent something: an event loop watches it and calls `poll()`.
    public var fd: Int32 { reader.rawValue }

    /// Creates the FIFO (mode 0660) unless it exists, and opens it without blocking.
    public init(path: String) throws {
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFIFO else { throw FIFOError(path: path, reason: "exists and is not a FIFO") }
        } else {
            try checked("mkfifo", path: path) { mkfifo(path, 0o660) }
        }
        reader = try Descriptor.open(path, flags: O_RDONLY | O_NONBLOCK)
        keepAlive = try? Descriptor.open(path, flags: O_WRONLY | O_NONBLOCK)
        self.path = path
    }

    /// Commands received since the last call; never blocks.
    public func poll() -> [Command] {
        // A read error is treated as nothing to read: the FIFO stays open, the next write wakes it.
        while let chunk = try? reader.readAvailable(limit: 65536), !chunk.bytes.isEmpty {
            pending += chunk.bytes
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
