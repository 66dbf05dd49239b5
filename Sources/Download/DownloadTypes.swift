/// One file to fetch.
public struct DownloadRequest: Equatable, Sendable {
    public var url: String
    public var destination: String
    /// Lower-case hex SHA-256 the finished file must have.
    public var sha256: String?

    public init(url: String, destination: String, sha256: String? = nil, checksumURL: String? = nil) {
        self.url = url
        self.destination = destination
        self.sha256 = sha256?.lowercased()
        self.checksumURL = checksumURL
    }

    /// A URL whose text holds the expected SHA-256 (`sha256sum` output or the bare digest),
    /// fetched before the file when `sha256` is not given.
    public var checksumURL: String?

    /// Where the file grows until it is complete and verified.
    public var partPath: String { destination + ".part" }
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

    public init() {}
}

public enum DownloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered with an HTTP error status.
    case http(url: String, status: Int)
    /// The connection failed, dropped or timed out (after the retries).
    case transfer(url: String, reason: String)
    case checksum(path: String, expected: String, actual: String)
    /// Writing failed (a full disk, no permission); the destination is untouched.
    case disk(path: String, reason: String)
    case incomplete(url: String, received: Int64, expected: Int64)
    case cancelled(url: String)

    public var description: String {
        switch self {
        case .http(let url, let status): return "\(url): HTTP status \(status)"
        case .transfer(let url, let reason): return "\(url): \(reason)"
        case .checksum(let path, let expected, let actual): return "\(path): SHA-256 is \(actual), expected \(expected); the file was not installed"
        case .disk(let path, let reason): return "\(path): \(reason)"
        case .incomplete(let url, let received, let expected): return "\(url): connection ended after \(received) of \(expected) bytes"
        case .cancelled(let url): return "\(url): cancelled"
        }
    }

    /// Whether trying again may help.
    var isTransient: Bool {
        switch self {
        case .transfer, .incomplete: return true
        case .http(_, let status): return status >= 500 || status == 408 || status == 429
        case .checksum, .disk, .cancelled: return false
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
