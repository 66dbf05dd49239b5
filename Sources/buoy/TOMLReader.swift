/// Reads a TOML 1.0 document into tables (`TOMLValue`), with the line of the first mistake.
/// The input is an operator's file but is treated as hostile: every failure is a
/// `TOMLParseError`, nesting is bounded (`maxDepth`), nothing can trap. Dates and times are
/// recognised but kept as text (no setting takes one). Key/value lines, `[table]` and
/// `[[array]]` headers and the table rules are here; single values are in `TOMLReader+Values`.
struct TOMLReader {
    static let maxDepth = 64

    let bytes: [UInt8]
    var index = 0
    var line = 1
    var root = TOMLTable(origin: .header)
    /// The table the following keys go into.
    var current: [String] = []
    /// Paths of arrays made by `[[…]]` headers, which later headers may append to.
    var headerArrays: Set<[String]> = []

    static func parse(_ text: String) throws -> TOMLTable {
        var reader = TOMLReader(bytes: Array(text.utf8))
        try reader.document()
        return reader.root
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    func fail(_ reason: String) -> TOMLParseError { TOMLParseError(line: line, reason: reason) }

    mutating func document() throws {
        while true {
            skipBlanks()
            guard let byte = peek else { return }
            switch byte {
            case UInt8(ascii: "#"), 0x0A, 0x0D: try endOfLine()
            case UInt8(ascii: "["): try header()
            default:
                let headerLine = line
                let (key, value) = try keyValue(depth: 0)
                try insert(value, at: current, key: key, line: headerLine)
                try endOfLine()
            }
        }
    }

    mutating func skipBlanks() {
        while let byte = peek, byte == 0x20 || byte == 0x09 { index += 1 }
    }

    /// A comment if any, then a line end or the end of the file.
    mutating func endOfLine() throws {
        skipBlanks()
        if peek == UInt8(ascii: "#") {
            index += 1
            while let byte = peek, byte != 0x0A, byte != 0x0D {
                guard byte == 0x09 || (byte >= 0x20 && byte != 0x7F) else { throw fail("a control character in a comment") }
                index += 1
            }
        }
        guard let byte = peek else { return }
        try newline(byte)
    }

    mutating func newline(_ byte: UInt8) throws {
        if byte == 0x0D {
            guard index + 1 < bytes.count, bytes[index + 1] == 0x0A else { throw fail("a carriage return without a line feed") }
            index += 1
        } else if byte != 0x0A {
            throw fail("expected the end of the line, found \(Self.describe(byte))")
        }
        index += 1
        line += 1
    }

    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(cFormat: "byte 0x%02X", byte)
    }

    /// `[a.b]` or `[[a.b]]`.
    mutating func header() throws {
        index += 1
        let isArray = peek == UInt8(ascii: "[")
        if isArray { index += 1 }
        skipBlanks()
        let path = try dottedKey()
        skipBlanks()
        let close = isArray ? [UInt8(ascii: "]"), UInt8(ascii: "]")] : [UInt8(ascii: "]")]
        guard bytes.count - index >= close.count, Array(bytes[index..<index + close.count]) == close else {
            throw fail("expected \(isArray ? "]]" : "]") after the table name")
        }
        index += close.count
        current = path
        try (isArray ? appendTable(at: path) : defineTable(at: path))
        try endOfLine()
    }

    /// `key = value`, the key maybe dotted.
    mutating func keyValue(depth: Int) throws -> (key: [String], value: TOMLValue) {
        let key = try dottedKey()
        skipBlanks()
        guard peek == UInt8(ascii: "=") else { throw fail("expected = after the key \(key.joined(separator: "."))") }
        index += 1
        skipBlanks()
        return (key, try value(depth: depth))
    }

    mutating func dottedKey() throws -> [String] {
        var parts = [try simpleKey()]
        while true {
            skipBlanks()
            guard peek == UInt8(ascii: ".") else { return parts }
            index += 1
            skipBlanks()
            parts.append(try simpleKey())
        }
    }

    mutating func simpleKey() throws -> String {
        switch peek {
        case UInt8(ascii: "\""): return try basicString()
        case UInt8(ascii: "'"): return try literalString()
        default:
            let start = index
            while let byte = peek, Self.isBareKeyByte(byte) { index += 1 }
            guard index > start else { throw fail(atEnd ? "expected a key, found the end of the file" : "expected a key, found \(Self.describe(bytes[index]))") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }

    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
