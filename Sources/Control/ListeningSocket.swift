import CKernel
import Glibc

/// The control socket's listening descriptor and the file it is bound to. What is at the path
/// already is left alone unless it is a socket nobody listens on (a crashed daemon's): a
/// regular file, a directory, a symlink or a live socket there is an error, never deleted.
/// On close the file is removed only while it is still the socket this daemon bound.
struct ListeningSocket {
    let fd: Int32
    let path: String
    private let device: UInt64
    private let inode: UInt64

    /// Pending connections the kernel holds before `accept`; more wait in `connect`.
    static let backlog: Int32 = 128

    static func open(path: String, group: gid_t?) throws -> ListeningSocket {
        var address = try ControlClient.address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ControlServer.ControlError(path: path, reason: "socket", errno: errno) }
        func bindAddress() -> Int32 {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        do {
            if bindAddress() != 0 {
                guard errno == EADDRINUSE else { throw failure(path, "cannot bind") }
                try removeStale(path)
                guard bindAddress() == 0 else { throw failure(path, "cannot bind") }
            }
            guard listen(fd, backlog) == 0 else { throw failure(path, "cannot listen") }
            guard chmod(path, 0o660) == 0 else { throw failure(path, "cannot set mode 0660") }
            var info = stat()
            guard lstat(path, &info) == 0 else { throw failure(path, "cannot stat the socket") }
            // Only when the group differs: a daemon whose own group is the socket's (the
            // shipped unit's) needs no chown, which its system call filter refuses.
            if let group, info.st_gid != group {
                guard chown(path, getuid(), group) == 0 else { throw failure(path, "cannot give the socket group \(group)") }
            }
            return ListeningSocket(fd: fd, path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// Unlinks `path` only if it is a socket that refuses connections.
    static func removeStale(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw failure(path, "cannot stat")
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ControlServer.ControlError(path: path, reason: "exists and is \(kind(info.st_mode)), not a stale socket; not removing it")
        }
        switch ControlClient.probe(path) {
        case 0: throw ControlServer.ControlError(path: path, reason: "another buoy is already listening here")
        case ECONNREFUSED:
            guard unlink(path) == 0 || errno == ENOENT else { throw failure(path, "cannot remove the stale socket") }
        case let error:
            throw ControlServer.ControlError(path: path, reason: "a socket that may be in use; not removing it (connecting to it)", errno: error)
        }
    }

    /// Removes the socket file if it is still ours (not replaced since), then closes.
    func close() {
        var info = stat()
        if lstat(path, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode { unlink(path) }
        Glibc.close(fd)
    }

    private static func failure(_ path: String, _ what: String) -> ControlServer.ControlError {
        ControlServer.ControlError(path: path, reason: what, errno: errno)
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        default: return "a special file"
        }
    }
}
