import FoundationEssentials
import Glibc
import Posix

/// The one directory a socket client's download may land in (`--download-dir`). A client names
/// its file relative to it; an absolute name is accepted only when it lies lexically inside it.
/// This is the lexical half of the confinement: the download itself opens the name beneath the
/// directory without following symlinks (`DownloadRequest.directory`).
public struct DownloadDirectory: Equatable, Sendable {
    public static let defaultPath = "/var/lib/buoy/downloads"
    /// Longest name accepted, in bytes (PATH_MAX less room for `.part` and the directory).
    public static let maxNameBytes = 1024

    /// Absolute, without `.` components, repeated or trailing slashes.
    public let path: String

    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var name: String
        public var reason: String
        public var description: String { "\(LogText.escaped(name)): \(reason)" }
    }

    /// `path` must be absolute and hold no `..` (the operator's setting; checked at start).
    public init(_ path: String) throws {
        guard path.hasPrefix("/") else { throw Refusal(name: path, reason: "the download directory must be an absolute path") }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !parts.contains("..") else { throw Refusal(name: path, reason: "the download directory must not contain ..") }
        guard !LogText.containsControlCharacters(path) else { throw Refusal(name: path, reason: "control characters in the download directory") }
        self.path = "/" + parts.joined(separator: "/")
    }

    /// The client's `output` as a name relative to the directory: one or more components, none
    /// empty, `.` or `..`, no control characters; an absolute name must start with the
    /// directory's path and is made relative to it.
    public func relativeName(of output: String) throws -> String {
        var name = Substring(output)
        if output.hasPrefix("/") {
            let prefix = path == "/" ? "/" : path + "/"
            guard output.hasPrefix(prefix) else {
                throw Refusal(name: output, reason: "outside the download directory \(path); give a name inside it")
            }
            name = output.dropFirst(prefix.count)
        }
        guard !name.isEmpty else { throw Refusal(name: output, reason: "no file name") }
        guard name.utf8.count <= Self.maxNameBytes else { throw Refusal(name: String(output.prefix(64)) + "…", reason: "name longer than \(Self.maxNameBytes) bytes") }
        guard !LogText.containsControlCharacters(String(name)) else { throw Refusal(name: output, reason: "control characters in the name") }
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case "": throw Refusal(name: output, reason: "an empty component (// or a trailing /)")
            case ".", "..": throw Refusal(name: output, reason: "\(part) is not allowed in a download name")
            default: guard part.utf8.count <= 255 else { throw Refusal(name: output, reason: "a component longer than 255 bytes") }
            }
        }
        return String(name)
    }

    /// Creates the directory (and its parents) when missing, mode 0755; an existing one must
    /// be a directory.
    public func prepare() throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw Refusal(name: path, reason: "the download directory is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        } catch {
            throw Refusal(name: path, reason: "cannot create the download directory: \(SystemError.reason(of: error))")
        }
    }
}
