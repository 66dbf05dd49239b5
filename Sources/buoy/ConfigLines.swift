import Posix

/// Where a key sits in a config file's text. The parser keeps no positions for values, so the
/// line is found by a light scan of the lines: headers (`[x]`, `[[x]]`) and `key =` starts.
/// A key it cannot place (a dotted key, an inline table) is reported without a line.
struct ConfigLines {
    /// Each line's header (`""` before any, `"download"` for `[[download]]`), how many of that
    /// header came before it, and its text without leading blanks.
    private var entries: [(header: String, occurrence: Int, text: Substring)] = []
    private var headers: [(name: String, occurrence: Int, line: Int)] = []

    init(text: String) {
        var header = "", counts: [String: Int] = [:]
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("["), let name = Self.headerName(line) {
                header = name
                counts[name, default: -1] += 1
                headers.append((name, counts[name]!, entries.count + 1))
            }
            entries.append((header, counts[header] ?? 0, line))
        }
    }

    static func headerName(_ line: Substring) -> String? {
        let inner = line.drop { $0 == "[" }
        guard let close = inner.firstIndex(of: "]") else { return nil }
        let name = inner[..<close].trimmingWhitespace(lineEnds: false)
        return name.replacing("\"", with: "").replacing("'", with: "").replacing("_", with: "-")
    }

    /// The 1-based line of `key = …` under the header (its `occurrence`-th instance for `[[x]]`).
    func line(of key: String, under header: String, occurrence: Int = 0) -> Int? {
        let forms = [key, "\"\(key)\"", "'\(key)'"]
        for (index, entry) in entries.enumerated() where entry.header == header && entry.occurrence == occurrence {
            for form in forms where entry.text.hasPrefix(form) {
                let rest = entry.text.dropFirst(form.count).drop { $0 == " " || $0 == "\t" }
                if rest.hasPrefix("=") { return index + 1 }
            }
        }
        // A top-level key written as a section header (`[screen]`).
        if header.isEmpty { return headers.first { $0.name == key.replacing("_", with: "-") }?.line }
        return nil
    }

    func header(_ name: String, occurrence: Int) -> Int? {
        headers.first { $0.name == name && $0.occurrence == occurrence }?.line
    }
}
