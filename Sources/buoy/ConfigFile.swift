import Foundation

/// `/etc/buoy/buoy.toml` for `buoy run`: the same settings as the flags, which override it.
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
/// `[[download]]` tables. Unknown keys are errors naming the line.
enum ConfigFile {
    static let defaultPath = "/etc/buoy/buoy.toml"
    static let keys: Set<String> = ["animation", "display", "size", "fps", "every", "rotate", "content-mode", "keypath",
                                    "on-complete", "trace", "trigger", "socket", "psplash-fifo", "input-dir", "mode", "pixel-format", "lift", "loop-segment", "success-segment", "keys", "socket-group", "retry-after", "max-retries", "touch"]

    /// The run flags the file stands for, to be placed before the command line's own.
    static func arguments(path: String) throws -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CommandFailure.badArguments("\(path): cannot read the config file")
        }
        var args: [String] = []
        var inDownload = false
        var download: [String: String] = [:]
        func flushDownload(_ line: Int) throws {
            guard inDownload else { return }
            guard let url = download["url"], let output = download["output"] else {
                throw CommandFailure.badArguments("\(path):\(line): a [[download]] needs url and output")
            }
            args += ["--url", url, "--output", output]
            if let sum = download["sha256"] { args += ["--sha256", sum] }
            download = [:]
        }
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line == "[[download]]" {
                try flushDownload(number + 1)
                inDownload = true
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw CommandFailure.badArguments("\(path):\(number + 1): expected key = value")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = try parseValue(line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces), path, number + 1)
            if inDownload {
                guard ["url", "output", "sha256"].contains(key) else {
                    throw CommandFailure.badArguments("\(path):\(number + 1): unknown download key \(key)")
                }
                download[key] = value
            } else {
                guard keys.contains(key) else { throw CommandFailure.badArguments("\(path):\(number + 1): unknown key \(key)") }
                args += ["--\(key)", value]
            }
        }
        try flushDownload(text.split(separator: "\n").count)
        return args
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
