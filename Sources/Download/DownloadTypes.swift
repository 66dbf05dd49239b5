import Glibc
/// One file to fetch.
public struct DownloadRequest: Equatable, Sendable {
    public var url: String
    public var destination: String
    /// Lower-case hex SHA-256 the finished file must have.
    public var sha256: String?

    /// When set, `destination` is a relative path resolved beneath this directory: no `..`,
    /// no absolute path, no empty component, no symbolic link anywhere on the way (openat2
    /// RESOLVE_BENEATH, or O_NOFOLLOW at each step); missing intermediate directories are
    /// created (0755). Anything else fails with `DownloadError.refused` and is never followed.
    /// The directory itself is the operator's and is opened as given.
    public var directory: String?

    /// Whether `file://` URLs are accepted (as `url` or `checksumURL`): only for URLs the
    /// operator typed on the command line, never for one a client sent. A redirect never
    /// leads to `file:` whatever this says.
    public var allowsFileScheme: Bool

    public init(url: String, destination: String, sha256: String? = nil, checksumURL: String? = nil,
                directory: String? = nil, allowsFileScheme: Bool = false) {
        self.url = url
        self.destination = destination
        self.sha256 = sha256?.lowercased()
        self.checksumURL = checksumURL
        self.directory = directory
        self.allowsFileScheme = allowsFileScheme
    }

    /// A URL whose text holds the expected SHA-256 (`sha256sum` output or the bare digest),
    /// fetched before the file when `sha256` is not given.
    public var checksumURL: String?

    /// Where the file grows until it is complete and verified (for messages; with `directory`
    /// it is relative to it).
    public var partPath: String { destination + ".part" }

    /// DEST as a path for messages: beneath `directory` when one is set.
    public var shownDestination: String {
        guard let directory else { return destination }
        return directory.hasSuffix("/") ? directory + destination : directory + "/" + destination
    }
}

/// Timeouts and retries.
public struct DownloadPolicy: Equatable, Sendable {
    public var maxAttempts = 5
    /// First delay before a retry; doubled each time up to `maxRetryDelay`.
    public var retryDelay = 1.0
    public var maxRetryDelay = 30.0
    public var connectTimeout = 15.0
    /// A transfer slower than `lowSpeedLimit` bytes/s for `lowSpeedTime` seconds is dropped
    /// (and retried, resuming).
    public var lowSpeedLimit = 1
    public var lowSpeedTime = 30.0
    public var maxRedirects = 5
    /// The longest wait a server's Retry-After (on 429 or 503) may impose before a retry.
    public var maxRetryAfter = 300.0
    /// PEM file of the certificate authorities trusted for https (CURLOPT_CAINFO); nil: the
    /// system's.
    public var caFile: String?

    public init() {}
}

public enum DownloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered with an HTTP error status.
    case http(url: String, status: Int)
    /// The connection failed, dropped or timed out (after the retries).
    case transfer(url: String, reason: String)
    case checksum(path: String, expected: String, actual: String)
    /// Writing failed (a full disk, no permission); the destination is untouched. `errno`:
    /// the failed system call's, when one did (its text ends the description).
    case disk(path: String, reason: String, errno: Int32? = nil)
    case incomplete(url: String, received: Int64, expected: Int64)
    case cancelled(url: String)
    /// Refused before anything was written or fetched: a path that leaves the download
    /// directory or goes through a symbolic link, a `.part` that is not a regular file of ours,
    /// a URL scheme other than http/https (or a redirect to one).
    case refused(path: String, reason: String)
    /// Another session or process holds the `.part`'s lock: it is fetching the same DEST.
    case busy(path: String)

    public var description: String {
        switch self {
        case .http(let url, let status): return "\(url): HTTP status \(status)"
        case .transfer(let url, let reason): return "\(url): \(reason)"
        case .checksum(let path, let expected, let actual): return "\(path): SHA-256 is \(actual), expected \(expected); the file was not installed"
        case .disk(let path, let reason, let errno?): return "\(path): \(reason): \(String(cString: strerror(errno)))"
        case .disk(let path, let reason, nil): return "\(path): \(reason)"
        case .incomplete(let url, let received, let expected): return "\(url): connection ended after \(received) of \(expected) bytes"
        case .cancelled(let url): return "\(url): cancelled"
        case .refused(let path, let reason): return "\(path): refused: \(reason)"
        case .busy(let path): return "\(path) is being downloaded by another process"
        }
    }

    /// Whether trying again may help.
    var isTransient: Bool {
        switch self {
        case .transfer, .incomplete: return true
        case .http(_, let status): return status >= 500 || status == 408 || status == 429
        case .checksum, .disk, .cancelled, .refused, .busy: return false
        }
    }
}

/// Where one file stands.
public struct FileStatus: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        case queued, connecting, receiving, verifying, retrying(attempt: Int), done, failed(DownloadError)
    }

    public var request: DownloadRequest
    public var state: State
    public var received: Int64
    /// From Content-Length (plus the resumed part); nil while unknown.
    public var expected: Int64?
    /// Already present with the right checksum: nothing was fetched.
    public var cached: Bool
    /// While `.retrying`: how long the wait before the next attempt is, in seconds (the
    /// back-off, or the server's Retry-After within `DownloadPolicy.maxRetryAfter`).
    public var retryDelay: Double? = nil
}

/// All files together: the water level follows `fraction`.
public struct DownloadStatus: Equatable, Sendable {
    public var files: [FileStatus]

    public var received: Int64 { files.reduce(0) { $0 + $1.received } }
    /// Sum of the expected sizes, once every file's is known.
    public var expected: Int64? {
        var total: Int64 = 0
        for f in files { guard let e = f.expected else { return nil }; total += e }
        return total
    }

    /// Received over expected, 0...1; nil while a size is unknown (indeterminate).
    public var fraction: Double? {
        guard let expected else { return nil }
        if expected == 0 { return isFinished ? 1 : 0 }
        return min(1, Double(received) / Double(expected))
    }

    public var isFinished: Bool { files.allSatisfy { if case .done = $0.state { return true }; if case .failed = $0.state { return true }; return false } }
    public var succeeded: Bool { files.allSatisfy { $0.state == .done } }
    public var errors: [DownloadError] { files.compactMap { if case .failed(let e) = $0.state { return e }; return nil } }
}
