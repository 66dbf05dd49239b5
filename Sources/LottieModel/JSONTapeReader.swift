/// Reads JSON text into a `JSONDocument`'s entries. Same grammar, limits and error messages
/// as `JSONReader` (the reference): where that one builds a tree, this appends entries.
struct JSONTapeReader: JSONTextScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    // The scanning loops below work on a local copy of `index` (kept in a register) and
    // store it back once.
    @inline(__always)
    mutating func skipWhitespace() {
        var i = index
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
        }
        index = i
    }

    mutating func value(parent: Int, ordinal: Int, depth: Int, into entries: inout JSONEntryStorage, unescaped: inout [UInt8]) throws {
        guard depth < JSONReader.maxDepth else { throw error("nesting deeper than \(JSONReader.maxDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of data (truncated file?)") }
        func scalar(_ kind: JSONEntry.Kind, _ payload: UInt64 = 0) -> JSONEntry {
            JSONEntry(kind: kind, parent: parent, ordinal: ordinal, payload: payload)
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object(parent: parent, ordinal: ordinal, depth: depth, into: &entries, unescaped: &unescaped)
        case UInt8(ascii: "["): try array(parent: parent, ordinal: ordinal, depth: depth, into: &entries, unescaped: &unescaped)
        case UInt8(ascii: "\""): entries.append(try string(parent: parent, ordinal: ordinal, unescaped: &unescaped))
        case UInt8(ascii: "t"): try literal("true"); entries.append(scalar(.true))
        case UInt8(ascii: "f"): try literal("false"); entries.append(scalar(.false))
        case UInt8(ascii: "n"): try literal("null"); entries.append(scalar(.null))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): entries.append(scalar(.number, try number().bitPattern))
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    mutating func object(parent: Int, ordinal: Int, depth: Int, into entries: inout JSONEntryStorage, unescaped: inout [UInt8]) throws {
        index += 1
        let me = entries.count
        entries.append(JSONEntry(kind: .object, parent: parent, ordinal: ordinal, payload: 0))
        var count = 0
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            entries.close(me, end: entries.count, count: 0)
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of data inside an object (truncated file?)") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key string") }
            entries.append(try string(parent: me, ordinal: count, unescaped: &unescaped))
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            index += 1
            skipWhitespace()
            try value(parent: me, ordinal: count, depth: depth + 1, into: &entries, unescaped: &unescaped)
            count += 1
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of data inside an object (truncated file?)") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                entries.close(me, end: entries.count, count: count)
                return
            }
            throw error("expected ',' or '}' in an object")
        }
    }

    mutating func array(parent: Int, ordinal: Int, depth: Int, into entries: inout JSONEntryStorage, unescaped: inout [UInt8]) throws {
        index += 1
        let me = entries.count
        entries.append(JSONEntry(kind: .array, parent: parent, ordinal: ordinal, payload: 0))
        var count = 0
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            entries.close(me, end: entries.count, count: 0)
            return
        }
        while true {
            skipWhitespace()
            try value(parent: me, ordinal: count, depth: depth + 1, into: &entries, unescaped: &unescaped)
            count += 1
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of data inside an array (truncated file?)") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                entries.close(me, end: entries.count, count: count)
                return
            }
            throw error("expected ',' or ']' in an array")
        }
    }

    /// The number at `index`, exactly as `JSONReader` reads it.
    mutating func number() throws -> Double {
        let start = index
        var i = index
        let n = bytes.count
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        var v = 0
        while i < n, bytes[i] &- 0x30 < 10 { v = v &* 10 &+ Int(bytes[i] &- 0x30); i += 1 }
        index = i
        guard i > integerStart else { throw error("invalid number") }
        var fractionDigits = 0
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, bytes[i] &- 0x30 < 10 { v = v &* 10 &+ Int(bytes[i] &- 0x30); i += 1; fractionDigits += 1 }
            index = i
            guard fractionDigits > 0 else { throw error("invalid number") }
        }
        var hasExponent = false
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            hasExponent = true
            i += 1
            if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            let exponentStart = i
            while i < n, bytes[i] &- 0x30 < 10 { i += 1 }
            index = i
            guard i > exponentStart else { throw error("invalid number") }
        }
        index = i
        // At most 16 characters and no exponent: at most 15 significant digits, so the digits
        // as an integer and the power of ten are exact doubles and one division rounds right
        // (the reference's rule); the rest goes through strtod.
        if !hasExponent && index - start <= 16 {
            let magnitude = fractionDigits == 0 ? Double(v) : Double(v) / JSONReader.powerOfTen(fractionDigits)
            return bytes[start] == UInt8(ascii: "-") ? -magnitude : magnitude
        }
        return numberThroughStrtod(from: start)
    }

    /// A string or key: its place in the text, or when it has escapes, its decoded bytes
    /// appended to `unescaped`.
    mutating func string(parent: Int, ordinal: Int, unescaped: inout [UInt8]) throws -> JSONEntry {
        let start = index + 1
        var i = start
        var plain = true
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                if plain {
                    index = i + 1
                    return JSONEntry(kind: .string, parent: parent, ordinal: ordinal, payload: JSONEntry.pair(start, i - start))
                }
                break
            }
            if c == UInt8(ascii: "\\") { plain = false; i += 2; continue }
            if c < 0x20 {
                index = i
                throw error("control character inside a string")
            }
            i += 1
        }
        index = i
        guard index < bytes.count else { throw error("unterminated string (truncated file?)") }
        let decodedStart = unescaped.count
        try JSONReader.unescape(bytes, from: start, to: index, into: &unescaped) { self.error($0) }
        index += 1
        // The document puts the decoded strings after the text.
        return JSONEntry(kind: .escapedString, parent: parent, ordinal: ordinal,
                         payload: JSONEntry.pair(bytes.count + decodedStart, unescaped.count - decodedStart))
    }
}
