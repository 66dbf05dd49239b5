#if canImport(Glibc)
import Glibc
#endif
import Posix

/// Reads a file by a path relative to a folder, so that it cannot lie outside that folder:
/// each component is opened with `openat` relative to the one before, without following a
/// symbolic link (O_NOFOLLOW), and `..`, `.` and absolute paths are refused outright.
enum BeneathFolder {
    struct Refusal: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    static func contents(of relativePath: String, in directory: String, maxBytes: Int) throws -> [UInt8] {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !relativePath.hasPrefix("/"), !components.isEmpty, !components.contains(".."), !components.contains(".") else {
            throw Refusal(path: relativePath, reason: "leaves the animation's folder")
        }
        var fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Refusal(path: directory, reason: "cannot open the folder: \(String(cString: strerror(errno)))") }
        for (i, name) in components.enumerated() {
            let last = i == components.count - 1
            let next = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY))
            let failure = errno
            close(fd)
            guard next >= 0 else {
                let reason = failure == ELOOP || failure == ENOTDIR ? "a symbolic link or not a folder on the way; refused"
                                                                    : String(cString: strerror(failure))
                throw Refusal(path: relativePath, reason: reason)
            }
            fd = next
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw Refusal(path: relativePath, reason: "not a regular file")
        }
        guard Int(status.st_size) <= maxBytes else { throw Refusal(path: relativePath, reason: "larger than \(maxBytes) bytes") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = retryingInterrupts { bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) } }
            guard n > 0 else { break }
            filled += n
        }
        return Array(bytes.prefix(filled))
    }
}
