import Glibc
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
    /// The FIFO this process made (device and inode), the only one `remove()` takes away.
    private var created: (dev: UInt64, ino: UInt64)?
    /// What the writers got wrong (out-of-range PROGRESS, unknown commands), for the log.
    private var messages: [String] = []
    private var lastMessage: String?

    /// Readable when a writer sent something: an event loop watches it and calls `poll()`.
    public var fd: Int32 { reader.rawValue }

    /// Creates the FIFO (mode 0660) unless one exists, and opens it without blocking. A
    /// symbolic link or anything but a FIFO at `path` is refused, never followed or replaced.
    public init(path: String) throws {
        var st = stat()
        var made = false
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) != S_IFLNK else { throw FIFOError(path: path, reason: "is a symbolic link (give the FIFO's own path)") }
            guard (st.st_mode & S_IFMT) == S_IFIFO else { throw FIFOError(path: path, reason: "exists and is not a FIFO") }
        } else {
            try checked("mkfifo", path: path) { mkfifo(path, 0o660) }
            made = true
        }
        // O_NOFOLLOW: a link swapped in after the check is refused too.
        reader = try Descriptor.open(path, flags: O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
        guard fstat(reader.rawValue, &st) == 0, (st.st_mode & S_IFMT) == S_IFIFO else {
            throw FIFOError(path: path, reason: "is not a FIFO")
        }
        if made {
            created = (UInt64(st.st_dev), UInt64(st.st_ino))
            // mkfifo's mode passes through the umask (the units' is 0027): the group writes too.
            _ = fchmod(reader.rawValue, 0o660)
        }
        keepAlive = try? Descriptor.open(path, flags: O_WRONLY | O_NONBLOCK | O_NOFOLLOW)
        self.path = path
    }

    /// Whether this process made the FIFO (and `remove()` will take it away).
    public var madeHere: Bool { created != nil }

    /// Removes the FIFO if this process made it and it is still that FIFO (same device and
    /// inode, not a link): writers then fail at once instead of blocking on a FIFO nobody reads.
    /// Returns whether it was removed.
    @discardableResult
    public func remove() -> Bool {
        guard let created else { return false }
        self.created = nil
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFIFO,
              UInt64(st.st_dev) == created.dev, UInt64(st.st_ino) == created.ino else { return false }
        return unlink(path) == 0
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
            let line = String(decoding: pending[..<end], as: UTF8.self).trimmingWhitespace(lineEnds: false)
            pending.removeSubrange(...end)
            let parsed = Self.parse(line)
            if let report = parsed.report { note(report) }
            if let command = parsed.command { commands.append(command) }
        }
        return commands
    }

    /// What the writers got wrong since the last call, each report once in a row (a writer
    /// repeating the same mistake does not fill the log).
    public func takeMessages() -> [String] {
        defer { messages.removeAll() }
        return messages
    }

    private func note(_ report: String) {
        guard report != lastMessage else { return }
        lastMessage = report
        if messages.count < 100 { messages.append("psplash: " + report) }
    }

    /// A line as a command, and what is wrong with it: a PROGRESS outside 0…100 is shown
    /// at the nearest end and reported; one that is not a number, or an unknown command, is
    /// reported and ignored. An empty line (a NUL after a newline) is nothing.
    static func parse(_ line: String) -> (command: Command?, report: String?) {
        if line.isEmpty { return (nil, nil) }
        if line == "QUIT" { return (.quit, nil) }
        if line.hasPrefix("PROGRESS ") {
            let text = line.dropFirst(9).trimmingWhitespace(lineEnds: false)
            guard let v = Double(text), !v.isNaN else {
                return (nil, "PROGRESS \(escaped(text)) is not a number; ignored")
            }
            guard v >= 0, v <= 100 else {
                let shown = v < 0 ? 0 : 100
                return (.progress(Double(shown) / 100), "PROGRESS \(text) is outside 0…100; shown as \(shown)")
            }
            return (.progress(v / 100), nil)
        }
        if line.hasPrefix("MSG ") { return (.message(String(line.dropFirst(4))), nil) }
        return (nil, "unknown command \(escaped(line)); ignored")
    }

    /// A writer's text for the log: control characters escaped, at most 80 characters.
    private static func escaped(_ text: String) -> String {
        let cut = text.count > 80 ? String(text.prefix(80)) + "…" : text
        return cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\x" + String(cFormat: "%02X", $0.value) : String($0) }.joined()
    }
}
