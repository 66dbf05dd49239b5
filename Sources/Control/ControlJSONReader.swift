extension ControlJSON {
    /// A strict reader of one JSON text (RFC 8259) into `[String: Any]`, `[Any]`, `String`,
    /// `Int`, `Double`, `Bool` and `Null`. Every failure is nil, never a trap: the input comes
    /// from any local client of the socket.
    struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> Any? {
            guard depth <= ControlJSON.maxDepth else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true", true)
            case UInt8(ascii: "f"): return literal("false", false)
            case UInt8(ascii: "n"): return literal("null", ControlJSON.null)
            default: return number()
            }
        }

        mutating func literal(_ word: String, _ value: Any) -> Any? {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else { return nil }
            index += expected.count
            return value
        }

        mutating func object(depth: Int) -> [String: Any]? {
            index += 1
            var result: [String: Any] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return result }
            while true {
                skipSpace()
                // A comma before the brace is taken, as JSONSerialization takes it.
                if !result.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return result }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let element = value(depth: depth + 1) else { return nil }
                result[key] = element
                skipSpace()
                guard index < bytes.count else { return nil }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "}") { return result }
                guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
            }
        }

        mutating func array(depth: Int) -> [Any]? {
            index += 1
            var result: [Any] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return result }
            while true {
                skipSpace()
                if !result.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return result }
                guard let element = value(depth: depth + 1) else { return nil }
                result.append(element)
                skipSpace()
                guard index < bytes.count else { return nil }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "]") { return result }
                guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
            }
        }

        /// A number as JSON writes it; `Int` when it has no fraction or exponent and fits.
        mutating func number() -> Any? {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > digits, bytes[digits] != 0x30 || index == digits + 1 else { return nil }
            var integral = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                integral = false
                index += 1
                guard skipDigits() else { return nil }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                integral = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() else { return nil }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let whole = Int(text) { return whole }
            return Double(text)
        }

        mutating func skipDigits() -> Bool {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index > start
        }

        /// A string from its opening quote; nil for a bad escape, a raw control character,
        /// a lone surrogate or bytes that are not UTF-8.
        mutating func string() -> String? {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ end: Int) -> Bool {
                guard run < end else { return true }
                let piece = bytes[run..<end]
                guard let text = String(validating: piece, as: UTF8.self) else { return false }
                scalars.append(contentsOf: text.unicodeScalars)
                return true
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    guard flush(index) else { return nil }
                    index += 1
                    return String(scalars)
                }
                guard byte >= 0x20 else { return nil }
                if byte == UInt8(ascii: "\\") {
                    guard flush(index), let scalar = escape() else { return nil }
                    scalars.append(scalar)
                    run = index
                } else {
                    index += 1
                }
            }
            return nil
        }

        /// The escape at `index` (its backslash), consumed.
        mutating func escape() -> Unicode.Scalar? {
            index += 1
            guard index < bytes.count else { return nil }
            let letter = bytes[index]
            index += 1
            switch letter {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{8}"
            case UInt8(ascii: "f"): return "\u{C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                guard let high = hex4() else { return nil }
                guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            default: return nil
            }
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            let text = String(decoding: bytes[index..<index + 4], as: UTF8.self)
            guard text.allSatisfy(\.isHexDigit), let value = UInt32(text, radix: 16) else { return nil }
            index += 4
            return value
        }
    }
}
