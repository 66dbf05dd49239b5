/// TOML's four kinds of string. Control characters other than tab are refused (in a
/// multi-line string, line ends too); escapes are TOML's, `\u`/`\U` a Unicode scalar value.
extension TOMLReader {
    /// `"…"` with escapes, on one line.
    mutating func basicString() throws -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\""):
                scalars.append(contentsOf: text(run, index).unicodeScalars)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(contentsOf: text(run, index).unicodeScalars)
                scalars.append(try escape())
                run = index
            case 0x0A, 0x0D: throw fail("a string in \" quotes must end on its line (use \"\"\" for several lines)")
            default:
                try checkCharacter(byte)
                index += 1
            }
        }
        throw fail("a string without its closing \"")
    }

    /// `'…'` as written, on one line.
    mutating func literalString() throws -> String {
        index += 1
        let start = index
        while let byte = peek {
            if byte == UInt8(ascii: "'") {
                index += 1
                return text(start, index - 1)
            }
            if byte == 0x0A || byte == 0x0D { throw fail("a string in ' quotes must end on its line (use ''' for several lines)") }
            try checkCharacter(byte)
            index += 1
        }
        throw fail("a string without its closing '")
    }

    /// `"""…"""`: escapes, line ends kept (the one right after the opening dropped), a
    /// backslash at a line's end joining it to the next non-blank.
    mutating func multiLineBasicString() throws -> String {
        index += 3
        try skipFirstNewline()
        var scalars = String.UnicodeScalarView()
        var run = index
        while let byte = peek {
            if byte == UInt8(ascii: "\""), startsWith("\"\"\"") {
                let quotes = closingQuotes(UInt8(ascii: "\""))
                scalars.append(contentsOf: text(run, index + quotes - 3).unicodeScalars)
                index += quotes
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                scalars.append(contentsOf: text(run, index).unicodeScalars)
                if try !skipLineEndingBackslash() { scalars.append(try escape()) }
                run = index
            } else {
                try multiLineCharacter(byte)
            }
        }
        throw fail("a string without its closing \"\"\"")
    }

    /// `'''…'''` as written (the line end right after the opening dropped).
    mutating func multiLineLiteralString() throws -> String {
        index += 3
        try skipFirstNewline()
        let start = index
        while let byte = peek {
            if byte == UInt8(ascii: "'"), startsWith("'''") {
                let quotes = closingQuotes(UInt8(ascii: "'"))
                let content = text(start, index + quotes - 3)
                index += quotes
                return content
            }
            try multiLineCharacter(byte)
        }
        throw fail("a string without its closing '''")
    }

    /// 3 to 5 quotes close a multi-line string; those past 3 belong to it.
    func closingQuotes(_ quote: UInt8) -> Int {
        var count = 0
        while index + count < bytes.count, bytes[index + count] == quote, count < 5 { count += 1 }
        return count
    }

    mutating func skipFirstNewline() throws {
        if peek == 0x0A || peek == 0x0D { try newline(peek!) }
    }

    /// One character of a multi-line string: a line end (counted) or any but a control character.
    mutating func multiLineCharacter(_ byte: UInt8) throws {
        if byte == 0x0A || byte == 0x0D { return try newline(byte) }
        try checkCharacter(byte)
        index += 1
    }

    /// A backslash with only blanks after it on its line: it, the line end and the white
    /// space after it are dropped. False (nothing consumed) for any other backslash.
    mutating func skipLineEndingBackslash() throws -> Bool {
        var probe = index + 1
        while probe < bytes.count, bytes[probe] == 0x20 || bytes[probe] == 0x09 { probe += 1 }
        guard probe < bytes.count, bytes[probe] == 0x0A || bytes[probe] == 0x0D else { return false }
        index = probe
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            if byte == 0x20 || byte == 0x09 { index += 1 } else { try newline(byte) }
        }
        return true
    }

    func checkCharacter(_ byte: UInt8) throws {
        guard byte == 0x09 || (byte >= 0x20 && byte != 0x7F) else {
            throw fail("a control character (\(Self.describe(byte))) in a string: write it as an escape")
        }
    }

    /// The text of `bytes[from..<to]` (the file was checked to be UTF-8 when it was read).
    func text(_ from: Int, _ to: Int) -> String { String(decoding: bytes[from..<max(from, to)], as: UTF8.self) }

    /// The escape at `index` (its backslash), consumed.
    mutating func escape() throws -> Unicode.Scalar {
        index += 1
        guard let letter = peek else { throw fail("a string without its closing quote") }
        index += 1
        switch letter {
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = letter == UInt8(ascii: "u") ? 4 : 8
            guard bytes.count - index >= count, let value = UInt32(text(index, index + count), radix: 16),
                  bytes[index..<index + count].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                  let scalar = Unicode.Scalar(value) else {
                throw fail("\\\(Character(Unicode.Scalar(letter))) needs \(count) hex digits of a Unicode scalar value")
            }
            index += count
            return scalar
        default: throw fail("a backslash before \(Self.describe(letter)) is not an escape TOML knows")
        }
    }
}
