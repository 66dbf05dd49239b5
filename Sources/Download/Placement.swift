import CCurl
import Glibc

/// Where one file lands: the directory that holds DEST, opened once, and DEST's name in it.
/// Everything after — the `.part`, hashing DEST, the rename — is relative to that descriptor
/// (openat, renameat), so a component swapped for a symbolic link after the check is never
/// followed.
///
/// Without a download directory the path is the operator's: its directories are followed as
/// the system resolves them. With one (`DownloadRequest.directory`), DEST must be a plain
/// relative path and is resolved beneath it with no symbolic link anywhere.
final class Placement {
    /// The directory holding DEST and its `.part`.
    let directoryFD: Int32
    /// DEST's last component.
    let name: String
    /// DEST as shown in messages.
    let shown: String
    let confined: Bool

    var partName: String { name + ".part" }
    var shownPart: String { shown + ".part" }

    private init(directoryFD: Int32, name: String, shown: String, confined: Bool) {
        self.directoryFD = directoryFD
        self.name = name
        self.shown = shown
        self.confined = confined
    }

    deinit { Glibc.close(directoryFD) }

    static func open(_ request: DownloadRequest) throws -> Placement {
        if let root = request.directory { return try openConfined(root: root, relative: request.destination, shown: request.shownDestination) }
        let path = request.destination
        if path.isEmpty || path.hasSuffix("/") || path.contains("\0") {
            throw DownloadError.refused(path: path, reason: "not a file name")
        }
        let slash = path.lastIndex(of: "/")
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let parent = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if name == "." || name == ".." { throw DownloadError.refused(path: path, reason: "not a file name") }
        let fd = Glibc.open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let error = errno
            if error == ENOENT { throw DownloadError.disk(path: parent, reason: "the directory does not exist") }
            throw DownloadError.disk(path: parent, reason: "cannot open the directory", errno: error)
        }
        return Placement(directoryFD: fd, name: name, shown: path, confined: false)
    }

    /// `relative` beneath `root`: the components checked, the directories opened (created when
    /// missing) without following a link, and DEST refused when it is anything but a regular
    /// file or absent.
    private static func openConfined(root: String, relative: String, shown: String) throws -> Placement {
        let components = try checkedComponents(relative, shown: shown)
        let rootFD = Glibc.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootFD >= 0 else { throw DownloadError.disk(path: root, reason: "cannot open the download directory", errno: errno) }
        defer { Glibc.close(rootFD) }
        let parentFD = try descend(from: rootFD, through: Array(components.dropLast()), shown: shown)
        let placement = Placement(directoryFD: parentFD, name: components.last!, shown: shown, confined: true)
        var st = stat()
        if fstatat(parentFD, placement.name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            if (st.st_mode & S_IFMT) == S_IFLNK { throw DownloadError.refused(path: shown, reason: "it is a symbolic link; not followed") }
            if (st.st_mode & S_IFMT) != S_IFREG { throw DownloadError.refused(path: shown, reason: "it exists and is not a regular file") }
        }
        return placement
    }

    /// The components of a path that must stay beneath its directory.
    static func checkedComponents(_ relative: String, shown: String) throws -> [String] {
        func refuse(_ reason: String) -> DownloadError { .refused(path: relative.isEmpty ? shown : relative, reason: reason) }
        if relative.isEmpty { throw refuse("an empty path") }
        if relative.hasPrefix("/") { throw refuse("an absolute path; it must be relative to the download directory") }
        if relative.contains("\0") { throw refuse("a NUL byte in the path") }
        let components = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for c in components {
            if c.isEmpty { throw refuse("an empty path component") }
            if c == ".." { throw refuse("`..` leaves the download directory") }
            if c == "." { throw refuse("a `.` component") }
        }
        return components
    }

    /// Opens the directory `components` name beneath `rootFD`: with openat2 in one call when
    /// it exists, else (a missing directory to create, or a kernel without openat2) one
    /// component at a time, each opened O_NOFOLLOW | O_DIRECTORY.
    /// (`useOpenat2: false` is the component walk alone, as on a kernel without openat2.)
    static func descend(from rootFD: Int32, through components: [String], shown: String, useOpenat2: Bool = true) throws -> Int32 {
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
        if components.isEmpty {
            let fd = Glibc.openat(rootFD, ".", flags)
            guard fd >= 0 else { throw DownloadError.disk(path: shown, reason: "cannot open the directory", errno: errno) }
            return fd
        }
        let whole = useOpenat2 ? buoy_openat2_beneath(rootFD, components.joined(separator: "/"), flags) : -1
        if whole >= 0 { return whole }
        let failure = useOpenat2 ? errno : ENOSYS
        if failure != ENOENT && failure != ENOSYS { throw refusal(failure, shown) }
        var current = Glibc.openat(rootFD, ".", flags)
        guard current >= 0 else { throw DownloadError.disk(path: shown, reason: "cannot open the download directory", errno: errno) }
        for c in components {
            var next = Glibc.openat(current, c, flags | O_NOFOLLOW)
            if next < 0 && errno == ENOENT {
                if mkdirat(current, c, 0o755) != 0 && errno != EEXIST {
                    let error = errno
                    Glibc.close(current)
                    throw DownloadError.disk(path: shown, reason: "cannot create the directory \(c)", errno: error)
                }
                next = Glibc.openat(current, c, flags | O_NOFOLLOW)
            }
            let error = errno
            Glibc.close(current)
            guard next >= 0 else { throw refusal(error, shown) }
            current = next
        }
        return current
    }

    /// What an open that must not follow a link or leave the directory failed with.
    static func refusal(_ error: Int32, _ shown: String) -> DownloadError {
        switch error {
        case ELOOP, EXDEV: return .refused(path: shown, reason: "a symbolic link or `..` on the way; not followed")
        case ENOTDIR: return .refused(path: shown, reason: "a component on the way is not a directory")
        default: return .disk(path: shown, reason: "cannot open", errno: error)
        }
    }

    /// Renames the `.part` over DEST in this directory and makes the entry durable.
    func installPart() throws {
        guard renameat(directoryFD, partName, directoryFD, name) == 0 else {
            throw DownloadError.disk(path: shown, reason: "cannot rename into place", errno: errno)
        }
        fsync(directoryFD)
    }

    /// Removes the `.part` entry (called only while holding its lock, so it is ours).
    func unlinkPart() { unlinkat(directoryFD, partName, 0) }

    /// DEST opened for reading, never through a symbolic link when confined.
    func openDestination() -> Int32 {
        Glibc.openat(directoryFD, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (confined ? O_NOFOLLOW : 0))
    }

    /// Opens (creating) the `.part` to append and read back, and takes its exclusive lock for
    /// the whole transfer. Never through a symbolic link; only a regular file owned by our
    /// effective user with one link (not a hard link to someone's file) is used. A lock held
    /// elsewhere is `.busy` at once: two fetches never write one `.part`.
    func openPart() throws -> Int32 {
        // The holder may rename or unlink the `.part` while we wait for nothing: the entry is
        // checked to still be the locked file, and opened again when it is not.
        for _ in 0..<8 {
            // O_NONBLOCK: a FIFO or device planted there must not hold the open up before it
            // is refused (it does nothing to a regular file).
            let fd = Glibc.openat(directoryFD, partName, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
            guard fd >= 0 else {
                let error = errno
                if error == ELOOP { throw DownloadError.refused(path: shownPart, reason: "it is a symbolic link; not followed") }
                throw DownloadError.disk(path: shownPart, reason: "cannot open", errno: error)
            }
            var st = stat()
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid(), st.st_nlink == 1 else {
                Glibc.close(fd)
                throw DownloadError.refused(path: shownPart, reason: "not a regular file of ours (type, owner or a second link); left as it is")
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let error = errno
                Glibc.close(fd)
                if error == EWOULDBLOCK || error == EAGAIN { throw DownloadError.busy(path: shown) }
                throw DownloadError.disk(path: shownPart, reason: "cannot lock it", errno: error)
            }
            var entry = stat()
            if fstatat(directoryFD, partName, &entry, AT_SYMLINK_NOFOLLOW) == 0, entry.st_dev == st.st_dev, entry.st_ino == st.st_ino {
                return fd
            }
            Glibc.close(fd)
        }
        throw DownloadError.busy(path: shown)
    }
}
