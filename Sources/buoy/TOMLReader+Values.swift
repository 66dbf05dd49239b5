/// One TOML value: strings (basic, literal, multi-line), numbers, booleans, dates and times
/// (kept as text), arrays and inline tables.
extension TOMLReader {
    mutating func value(depth: Int) throws -> TOMLValue {
        guard depth < Self.maxDepth else { throw fail("values nested more than \(Self.maxDepth) deep") }
        guard let byte = peek else { throw fail("expected a value, found the end of the file") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try startsWith("\"\"\"") ? multiLineBasicString() : basicString())
        case UInt8(ascii: "'"): return .string(try startsWith("'''") ? multiLineLiteralString() : literalString())
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "{"): return try inlineTable(depth: depth)
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            if startsWith("true") { index += 4; return .boolean(true) }
            if startsWith("false") { index += 5; return .boolean(false) }
            throw fail("expected a value (a string in quotes?)")
        default: return try numberOrDate()
        }
    }

    func startsWith(_ text: String) -> Bool {
        let expected = Array(text.utf8)
        return bytes.count - index >= expected.count && Array(bytes[index..<index + expected.count]) == expected
    }

    /// `[a, b, …]`, across lines, comments allowed between the values, a comma after the last.
    mutating func array(depth: Int) throws -> TOMLValue {
        index += 1
        var values: [TOMLValue] = []
        while true {
            try skipBlanksCommentsAndNewlines()
            if peek == UInt8(ascii: "]") { index += 1; return .array(values) }
            values.append(try value(depth: depth + 1))
            try skipBlanksCommentsAndNewlines()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(values)
            default: throw fail("expected , or ] in the array")
            }
        }
    }

    mutating func skipBlanksCommentsAndNewlines() throws {
        while true {
            skipBlanks()
            guard let byte = peek, byte == UInt8(ascii: "#") || byte == 0x0A || byte == 0x0D else { return }
            try endOfLine()
        }
    }

    /// `{ a = 1, b.c = "x" }` on one line, complete as written.
    mutating func inlineTable(depth: Int) throws -> TOMLValue {
        index += 1
        var table = TOMLTable(origin: .inline)
        skipBlanks()
        if peek == UInt8(ascii: "}") { index += 1; return .table(table) }
        while true {
            skipBlanks()
            let (key, value) = try keyValue(depth: depth + 1)
            try Self.set(value, key: key[...], in: &table, line: line)
            skipBlanks()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .table(table)
            default: throw fail("expected , or } in the inline table")
            }
        }
    }

    /// An integer (decimal, 0x, 0o, 0b; `_` between digits), a float (fraction, exponent,
    /// inf, nan), or a date or time (digits with `-` or `:`).
    mutating func numberOrDate() throws -> TOMLValue {
        let start = index
        while let byte = peek, Self.isNumberByte(byte) { index += 1 }
        // A date and a time may be apart by one space ("1979-05-27 07:32:00").
        if index > start, bytes[start..<index].contains(UInt8(ascii: "-")), peek == 0x20, index + 1 < bytes.count,
           (0x30...0x39).contains(bytes[index + 1]), bytes[start..<index].count == 10 {
            index += 1
            while let byte = peek, Self.isNumberByte(byte) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard !text.isEmpty else { throw fail(atEnd ? "expected a value" : "expected a value, found \(Self.describe(bytes[start]))") }
        if let number = Self.integer(text) { return .integer(number) }
        if let number = Self.float(text) { return .float(number) }
        if Self.isDateTime(text) { return .dateTime(text) }
        throw fail("\(text) is not a number, a boolean, a date or a string in quotes")
    }

    static func isNumberByte(_ byte: UInt8) -> Bool {
        isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    /// TOML's integer forms; nil for anything else, or one past Int's range.
    static func integer(_ text: String) -> Int? {
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where text.hasPrefix(prefix) {
            let digits = text.dropFirst(2)
            guard digitsWithUnderscores(digits, radix: radix) else { return nil }
            return Int(digits.replacing("_", with: ""), radix: radix)
        }
        let sign = text.first == "+" || text.first == "-" ? 1 : 0
        let digits = text.dropFirst(sign)
        guard digitsWithUnderscores(digits, radix: 10), digits.first != "0" || digits.count == 1 else { return nil }
        return Int(text.replacing("_", with: ""))
    }

    /// Digits of `radix`, with each `_` between two digits.
    static func digitsWithUnderscores(_ text: Substring, radix: Int) -> Bool {
        guard let first = text.first, let last = text.last, first != "_", last != "_", !text.contains("__") else { return false }
        return text.allSatisfy { $0 == "_" || ($0.isASCII && $0.hexDigitValue.map { $0 < radix } == true) }
    }

    /// TOML's float forms: `[+-]int(.digits)?([eE][+-]?digits)?` with a fraction or an
    /// exponent, and `[+-]inf`, `[+-]nan`.
    static func float(_ text: String) -> Double? {
        let unsigned = text.first == "+" || text.first == "-" ? text.dropFirst() : Substring(text)
        if unsigned == "inf" { return text.first == "-" ? -.infinity : .infinity }
        if unsigned == "nan" { return .nan }
        let exponentAt = unsigned.firstIndex { $0 == "e" || $0 == "E" }
        let mantissa = unsigned[..<(exponentAt ?? unsigned.endIndex)]
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, exponentAt != nil || parts.count == 2, digitsWithUnderscores(parts[0], radix: 10),
              parts[0].first != "0" || parts[0].count == 1 else { return nil }
        if parts.count == 2, !digitsWithUnderscores(parts[1], radix: 10) { return nil }
        if let exponentAt {
            var exponent = unsigned[unsigned.index(after: exponentAt)...]
            if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
            guard digitsWithUnderscores(exponent, radix: 10) else { return nil }
        }
        return Double(text.replacing("_", with: ""))
    }

    /// A date (`1979-05-27`), a time (`07:32:00.5`) or both, maybe with an offset: the shape
    /// only, as no setting takes one and the value is refused with its type.
    static func isDateTime(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isNumber else { return false }
        return (text.contains("-") || text.contains(":"))
            && text.allSatisfy { $0.isASCII && ($0.isNumber || "-:.+TtZz ".contains($0)) }
    }
}
