import FoundationEssentials
import LottieRender

/// `/etc/buoy/buoy.toml` for `buoy run`: the same settings as the flags, which override it;
/// a `--url` on the command line replaces the file's downloads (see `withConfigFile`).
///
///     display = "drm"
///     [screen]             # any key may also sit under its section (ConfigSchema)
///     rotate = 90
///     [[download]]
///     url = "https://example.org/update.img"
///     output = "/var/lib/update.img"
///     sha256 = "…"         # 64 hex digits, url:URL of a .sha256 file, or none
///
/// Parsed by `TOMLReader`: the whole of TOML 1.0. Every value is checked against
/// `ConfigSchema` here, so a mistake is reported as `FILE:LINE: KEY: …`.
/// deploy/buoy.toml.example lists every key.
enum ConfigFile {
    static let defaultPath = "/etc/buoy/buoy.toml"
    /// A config file is a page of settings; anything far bigger is not one.
    static let maxBytes = 1 << 20

    /// What the file stands for as run flags: its settings, and one group per `[[download]]`
    /// table. Each group carries its own `--sha256` (`none` when the table has no checksum),
    /// because --url, --output and --sha256 pair by position: a download without a checksum must
    /// not hand the next one's to its own file.
    struct Arguments: Equatable {
        var settings: [String] = []
        var downloads: [[String]] = []
    }

    static func arguments(path: String) throws -> Arguments {
        let text = try read(path)
        let table: TOMLTable
        do {
            table = try TOMLReader.parse(text)
        } catch let error as TOMLParseError {
            throw CommandFailure.badArguments("\(path):\(error.line): \(error.reason)")
        }
        return try ConfigReader(path: path, lines: ConfigLines(text: text)).arguments(of: table)
    }

    static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure.badArguments("\(path): cannot read the config file")
        }
        guard data.count <= maxBytes else { throw CommandFailure.badArguments("\(path): larger than \(maxBytes) bytes; not a config file") }
        guard let text = String(data: data, encoding: .utf8) else { throw CommandFailure.badArguments("\(path): not UTF-8 text") }
        // A NUL is no character of a config file; refused with its line before parsing.
        if let nul = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(where: { $0.contains("\0") }) {
            throw CommandFailure.badArguments("\(path):\(nul + 1): a NUL character")
        }
        // Nor may an escaped one: paths and URLs go to C functions, which would cut them there.
        if let escaped = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(where: {
            $0.contains(#"\u0000"#) || $0.contains(#"\U00000000"#)
        }) {
            throw CommandFailure.badArguments("\(path):\(escaped + 1): a NUL character (\\u0000) in a string")
        }
        return text
    }
}

/// Turns a parsed config into run flags, checking each key and value on the way.
struct ConfigReader {
    var path: String
    var lines: ConfigLines

    func fail(_ line: Int?, _ message: String) -> CommandFailure {
        CommandFailure.badArguments(path + (line.map { ":\($0)" } ?? "") + ": " + message)
    }

    /// The table's keys in the order they appear in the file, so the first mistake is reported first.
    func ordered(_ table: TOMLTable, in header: String, occurrence: Int = 0) -> [(key: String, line: Int?)] {
        table.keys.map { ($0, lines.line(of: $0, under: header, occurrence: occurrence)) }
            .sorted { ($0.line ?? Int.max, $0.key) < ($1.line ?? Int.max, $1.key) }
    }

    func arguments(of root: TOMLTable) throws -> ConfigFile.Arguments {
        var result = ConfigFile.Arguments()
        var seen: [String: Int?] = [:]
        for (raw, line) in ordered(root, in: "") {
            let name = raw.replacing("_", with: "-")
            guard let value = root[raw] else { continue }
            if name == "download" {
                result.downloads = try downloads(value, line: line)
            } else if ConfigSchema.sections.contains(name), let section = value.table {
                for (inner, innerLine) in ordered(section, in: name) {
                    try setting(inner, section[inner], line: innerLine, section: name, seen: &seen, into: &result.settings)
                }
            } else {
                try setting(raw, value, line: line, section: nil, seen: &seen, into: &result.settings)
            }
        }
        return result
    }

    func setting(_ raw: String, _ value: TOMLValue?, line: Int?, section: String?,
                 seen: inout [String: Int?], into settings: inout [String]) throws {
        let name = raw.replacing("_", with: "-")
        guard let key = ConfigSchema.key(named: name), section == nil || key.section == section else {
            throw fail(line, unknownKeyMessage(raw, name: name, section: section))
        }
        if let first = seen[name] {
            throw fail(line, "\(raw): set twice (first\(first.flatMap { $0 }.map { " on line \($0)" } ?? ""))")
        }
        seen[name] = line
        guard let value else { return }
        settings += [key.flag, try ConfigValue.argument(value, for: key, raw: raw, fail: { fail(line, $0) })]
    }

    func unknownKeyMessage(_ raw: String, name: String, section: String?) -> String {
        if let key = ConfigSchema.key(named: name) {
            return "\(raw) belongs at the top" + (key.section.map { " or under [\($0)]" } ?? "") + ", not under [\(section ?? "")]"
        }
        let candidates = ConfigSchema.keys.map(\.name) + (section == nil ? ConfigSchema.sections + ["download"] : [])
        let hint = ConfigSchema.suggestion(for: name, among: candidates).map { " (did you mean \($0)?)" } ?? ""
        return "unknown key \(raw)\(section.map { " in [\($0)]" } ?? "")\(hint)"
    }

    func downloads(_ value: TOMLValue, line: Int?) throws -> [[String]] {
        guard let tables = value.array else { throw fail(line, "download: expected [[download]] tables") }
        return try tables.enumerated().map { index, element in
            let headerLine = lines.header("download", occurrence: index)
            guard let table = element.table else { throw fail(headerLine ?? line, "download: expected [[download]] tables") }
            return try download(table, index: index, headerLine: headerLine)
        }
    }

    func download(_ table: TOMLTable, index: Int, headerLine: Int?) throws -> [String] {
        var fields: [String: String] = [:]
        for (raw, line) in ordered(table, in: "download", occurrence: index) {
            guard ConfigSchema.downloadKeys.contains(raw) else {
                let hint = ConfigSchema.suggestion(for: raw, among: ConfigSchema.downloadKeys).map { " (did you mean \($0)?)" } ?? ""
                throw fail(line, "unknown key \(raw) in [[download]]\(hint)")
            }
            guard let text = table[raw]?.string else { throw fail(line, "\(raw): expected a string") }
            if raw == "sha256", !ConfigValue.isChecksum(text) {
                throw fail(line, "sha256: expected 64 hex digits, url:URL of a .sha256 file, or none")
            }
            fields[raw] = text
        }
        guard let url = fields["url"], let output = fields["output"], !url.isEmpty, !output.isEmpty else {
            throw fail(headerLine, "a [[download]] needs url and output")
        }
        let sum = fields["sha256"].flatMap { $0.isEmpty ? nil : $0 } ?? "none"
        return ["--url", url, "--output", output, "--sha256", sum]
    }
}

/// One TOML value as the text of its flag, or what is wrong with it.
enum ConfigValue {
    static func argument(_ value: TOMLValue, for key: ConfigKey, raw: String, fail: (String) -> CommandFailure) throws -> String {
        func wrong() -> CommandFailure { fail("\(raw): expected \(key.expected), found \(describe(value))") }
        func checked(_ number: Double, _ text: String) throws -> String {
            if let problem = key.check?(number) { throw fail("\(raw) = \(text): \(problem)") }
            return text
        }
        switch key.kind {
        case .string:
            guard let text = value.string else { throw wrong() }
            return text
        case .integer:
            guard let int = value.int else { throw wrong() }
            return try checked(Double(int), String(int))
        case .number:
            let number = value.double ?? value.int.map(Double.init)
            guard let number else { throw wrong() }
            return try checked(number, value.int.map(String.init) ?? String(number))
        case .choice(let values):
            guard let text = value.string else { throw wrong() }
            guard values.contains(text) else { throw fail("\(raw) = \"\(text)\": expected \(key.expected)") }
            return text
        case .size:
            guard let text = value.string else { throw wrong() }
            guard Size(argument: text) != nil else { throw fail("\(raw) = \"\(text)\": expected \(key.expected), each side 1 to \(RenderBudget.maxOutputSide)") }
            return text
        case .codes:
            return try codes(value, fail: wrong)
        }
    }

    static func codes(_ value: TOMLValue, fail: () -> CommandFailure) throws -> String {
        if let text = value.string { return text }
        guard let array = value.array, !array.isEmpty else { throw fail() }
        return try array.map { element -> String in
            guard let code = element.int, code >= 0 else { throw fail() }
            return String(code)
        }.joined(separator: ",")
    }

    static func isChecksum(_ text: String) -> Bool {
        text == "none" || text.hasPrefix("url:") || (text.count == 64 && text.allSatisfy(\.isHexDigit))
    }

    /// What a value is, in TOML's words, for an error message.
    static func describe(_ value: TOMLValue) -> String { value.kindDescription }
}
