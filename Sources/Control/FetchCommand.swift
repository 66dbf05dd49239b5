import Download

/// A socket client's `{"cmd":"fetch","url":…,"output":…,"sha256":…}` checked and turned into a
/// download the daemon may run for it: an http or https URL only (never file://, which would
/// copy a file the daemon can read and the client cannot, nor another scheme libcurl speaks),
/// a destination inside the download directory, a checksum that is 64 hex digits. The
/// operator's own command line (`buoy run --url`, `buoy fetch` without a daemon) does not come
/// through here.
public enum FetchCommand {
    public static let allowedSchemes: Set<String> = ["http", "https"]
    public static let maxURLBytes = 8192

    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var field: String
        public var reason: String
        public var description: String { "\(field): \(reason)" }
    }

    public static func parse(fields: [String: String], downloadDirectory: DownloadDirectory) throws -> DownloadRequest {
        guard let url = fields["url"], let output = fields["output"] else {
            throw Refusal(field: "fetch", reason: "fetch needs url and output")
        }
        try checkURL(url)
        let name: String
        do { name = try downloadDirectory.relativeName(of: output) } catch let refusal as DownloadDirectory.Refusal {
            throw Refusal(field: "output", reason: refusal.description)
        }
        let sha256 = fields["sha256"].flatMap { $0.isEmpty ? nil : $0 }
        if let sha256, sha256.utf8.count != 64 || !sha256.utf8.allSatisfy(isHexDigit) {
            throw Refusal(field: "sha256", reason: "expected 64 hex digits")
        }
        // Resolved beneath the directory by the download itself (no symlink on the way), and
        // never file://, not even through a redirect.
        return DownloadRequest(url: url, destination: name, sha256: sha256, directory: downloadDirectory.path, allowsFileScheme: false)
    }

    /// http:// or https:// (any case), no control characters or spaces, at most 8 KiB.
    public static func checkURL(_ url: String) throws {
        guard url.utf8.count <= maxURLBytes else { throw Refusal(field: "url", reason: "longer than \(maxURLBytes) bytes") }
        guard !LogText.containsControlCharacters(url), !url.contains(" ") else {
            throw Refusal(field: "url", reason: "control characters or spaces in \(LogText.escaped(url))")
        }
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://"),
              allowedSchemes.contains(url[..<colon].lowercased()) else {
            throw Refusal(field: "url", reason: "only http:// and https:// URLs may be fetched through the socket: \(LogText.escaped(url))")
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
