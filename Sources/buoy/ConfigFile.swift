import Foundation

/// `/etc/buoy/buoy.toml` for `buoy run`: the same settings as the flags, which override it;
/// a `--url` on the command line replaces the file's downloads (see `withConfigFile`).
///
///     display = "drm"
///     rotate = 90
///     on-complete = "exit"
///     [[download]]
///     url = "https://example.org/update.img"
///     output = "/var/lib/update.img"
///     sha256 = "…"
///
/// A small TOML subset: `key = value` (strings, numbers, booleans), comments, and
/// `[[download]]` tables (url, output, and optionally sha256: 64 hex digits or url:URL of a
/// .sha256 file). Unknown keys are errors naming the line.
enum ConfigFile {
    static let defaultPath = "/etc/buoy/buoy.toml"
    static let keys: Set<String> = ["animation", "display", "size", "fps", "every", "rotate", "content-mode", "keypath",
                                    "on-complete", "trace", "trigger", "socket", "psplash-fifo", "input-dir", "mode", "pixel-format", "lift", "loop-segment", "success-segment", "keys", "socket-group", "retry-after", "max-retries", "touch", "download-dir", "ca-file"]

    /// What the file stands for as run flags: its settings, and one group per `[[download]]`
    /// table. Each group carries its own `--sha256` (`none` when the table has no checksum),
    /// because --url, --output and --sha256 pair by position: a download without a checksum must
    /// not hand the next one's to its own file.
    struct Arguments: Equatable {
        var settings: [String] = []
        var downloads: [[String]] = []
    }

    static func arguments(path: String) throws -> Arguments {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CommandFailure.badArguments("\(path): cannot read the config file")
        }
        var result = Arguments()
        var inDownload = false
        var download: [String: String] = [:]
        var downloadLine = 0
        func flushDownload() throws {
            guard inDownload else { return }
            guard let url = download["url"], let output = download["output"] else {
                throw CommandFailure.badArguments("\(path):\(downloadLine): a [[download]] needs url and output")
            }
            let sum = download["sha256"].flatMap { $0.isEmpty ? nil : $0 } ?? "none"
            result.downloads.append(["--url", url, "--output", output, "--sha256", sum])
            download = [:]
        }
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line == "[[download]]" {
                try flushDownload()
                inDownload = true
                downloadLine = number + 1
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw CommandFailure.badArguments("\(path):\(number + 1): expected key = value")
            }
            // `ca_file` and `ca-file`, `download_dir` and `download-dir` are one key (TOML habit
            // and the flag's spelling).
            let key = line[..<eq].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
            let value = try parseValue(line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces), path, number + 1)
            if inDownload {
                guard ["url", "output", "sha256"].contains(key) else {
                    throw CommandFailure.badArguments("\(path):\(number + 1): unknown download key \(key)")
                }
                download[key] = value
            } else {
                guard keys.contains(key) else { throw CommandFailure.badArguments("\(path):\(number + 1): unknown key \(key)") }
                result.settings += ["--\(key)", value]
            }
        }
        try flushDownload()
        return result
    }

    static func stripComment(_ line: String) -> String {
        var inString = false
        for (i, ch) in line.enumerated() {
            if ch == "\"" { inString.toggle() }
            if ch == "#" && !inString { return String(line.prefix(i)) }
        }
        return line
    }

    static func parseValue(_ text: String, _ path: String, _ line: Int) throws -> String {
        if text.hasPrefix("\"") {
            guard text.count >= 2, text.hasSuffix("\"") else { throw CommandFailure.badArguments("\(path):\(line): unterminated string") }
            return String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
        }
        if text == "true" || text == "false" || Double(text) != nil { return text }
        throw CommandFailure.badArguments("\(path):\(line): expected a string, number or boolean")
    }
}
