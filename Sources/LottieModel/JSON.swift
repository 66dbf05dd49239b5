import FoundationEssentials
import Glibc

/// A parsed JSON document. Buoy reads Lottie files with its own small JSON reader so that
/// hostile input has hard limits (nesting depth, size) and errors carry a location; it is
/// also faster than decoding through Foundation for this shape of data (see `buoy parse-bench`).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in file order. Lottie objects are small, so a linear search beats hashing;
    /// with a repeated key the first one wins.
    case object([JSONMember])

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }
}

public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var value: JSONValue
}

/// A syntax error in JSON text, with the byte offset and line where it was found.
public struct JSONSyntaxError: Error, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var reason: String
    public var description: String { "invalid JSON at line \(line) (byte \(offset)): \(reason)" }

    /// The error at byte `offset` of `text`: its line is counted only now, when it is reported.
    init(at offset: Int, in text: UnsafeBufferPointer<UInt8>, reason: String) {
        var line = 1
        for i in 0..<min(offset, text.count) where text[i] == 0x0A { line += 1 }
        self.offset = offset
        self.line = line
        self.reason = reason
    }
}

/// What the two readers of JSON text (`JSONReader`, the reference tree, and `JSONTapeReader`,
/// the document's entries) share: the text, the place in it, and the scans that read the
/// same in both. Their grammar and errors must not drift apart, so these pieces are one.
protocol JSONTextScanner {
    var bytes: UnsafeBufferPointer<UInt8> { get }
    var index: Int { get set }
}

extension JSONTextScanner {
    func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(at: index, in: bytes, reason: reason) }

    /// `true`, `false` or `null` at `index` (whose first byte the caller has matched).
    @inline(__always)
    mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard index + n <= bytes.count else { throw error("unexpected end of data (truncated file?)") }
        let p = word.utf8Start
        for k in 0..<n where bytes[index + k] != p[k] { throw error("invalid literal") }
        index += n
    }

    /// The number spelled by `bytes[start..<index]`, through strtod: for the numbers the
    /// readers' exact integer-and-power-of-ten path does not cover (an exponent, more than
    /// 15 significant digits).
    func numberThroughStrtod(from start: Int) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: index - start + 1) { text in
            for k in start..<index { text[k - start] = CChar(bitPattern: bytes[k]) }
            text[index - start] = 0
            return strtod(text.baseAddress!, nil)
        }
    }
}

public struct JSONReader {
    /// Deeper nesting than this is refused rather than followed (no stack overflow).
    public static let maxDepth = 200

    /// 10^n for n in 0...16, each an exact double (every product up to 10^22 is exact). A
    /// loop, not a table: a global table costs a lazy-initialization check on every number.
    @inline(__always)
    static func powerOfTen(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

    /// Decodes the escaped string text `bytes[start..<end]` (between its quotes), appending
    /// the UTF-8 to `out`; `error` makes the error for a malformed escape.
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into out: inout [UInt8],
                         error: (String) -> JSONSyntaxError) throws {
        var k = start
        while k < end {
            let c = bytes[k]
            if c != UInt8(ascii: "\\") { out.append(c); k += 1; continue }
            k += 1
            guard k < end else { break }
            switch bytes[k] {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard k + 4 < end + 1, let code = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[(k + 1)..<min(k + 5, end)]), as: UTF8.self), radix: 16) else {
                    throw error("invalid \\u escape")
                }
                k += 4
                var scalarValue = code
                // A surrogate pair spells one scalar.
                if code >= 0xD800 && code < 0xDC00, k + 6 < end + 1, bytes[k + 1] == UInt8(ascii: "\\"), bytes[k + 2] == UInt8(ascii: "u"),
                   let low = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[(k + 3)..<min(k + 7, end)]), as: UTF8.self), radix: 16),
                   low >= 0xDC00 && low < 0xE000 {
                    scalarValue = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    k += 6
                }
                let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: out.append(bytes[k])
            }
            k += 1
        }
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        var reader = Cursor(bytes: bytes.bindMemory(to: UInt8.self))
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.error("unexpected data after the end of the document") }
        return value
    }

    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { try parse($0) }
    }

    private struct Cursor: JSONTextScanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipWhitespace() {
            while index < bytes.count {
                let c = bytes[index]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 } else { break }
            }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < JSONReader.maxDepth else { throw error("nesting deeper than \(JSONReader.maxDepth) levels") }
            guard index < bytes.count else { throw error("unexpected end of data (truncated file?)") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
            }
        }

        mutating func object(depth: Int) throws -> JSONValue {
            index += 1
            var result: [JSONMember] = []
            result.reserveCapacity(8)  // one allocation for a typical Lottie object
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(result) }
            while true {
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of data inside an object (truncated file?)") }
                guard bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key string") }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                index += 1
                skipWhitespace()
                result.append(JSONMember(key: key, value: try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of data inside an object (truncated file?)") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(result) }
                throw error("expected ',' or '}' in an object")
            }
        }

        mutating func array(depth: Int) throws -> JSONValue {
            index += 1
            var result: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(result) }
            // Most Lottie arrays are 2 to 4 numbers: one allocation instead of growing 1, 2, 4.
            result.reserveCapacity(4)
            while true {
                skipWhitespace()
                result.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of data inside an array (truncated file?)") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(result) }
                throw error("expected ',' or ']' in an array")
            }
        }

        mutating func number() throws -> Double {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1; digits += 1 }
            guard digits > 0 else { throw error("invalid number") }
            var hasExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                var fraction = 0
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1; fraction += 1 }
                guard fraction > 0 else { throw error("invalid number") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                hasExponent = true
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                var exponent = 0
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1; exponent += 1 }
                guard exponent > 0 else { throw error("invalid number") }
            }
            // Most numbers have at most 15 significant digits and no exponent: their digits
            // as an integer divided by a power of ten is exact to the last bit (both operands
            // are exact doubles), so strtod is only needed for the rest.
            if !hasExponent && index - start <= 16 {
                var v = 0
                var k = start
                var fractionDigits = 0
                var inFraction = false
                let negative = bytes[k] == UInt8(ascii: "-")
                if negative { k += 1 }
                while k < index {
                    let c = bytes[k]
                    if c == UInt8(ascii: ".") { inFraction = true } else {
                        v = v * 10 + Int(c - 0x30)
                        if inFraction { fractionDigits += 1 }
                    }
                    k += 1
                }
                let magnitude = fractionDigits == 0 ? Double(v) : Double(v) / JSONReader.powerOfTen(fractionDigits)
                return negative ? -magnitude : magnitude
            }
            return numberThroughStrtod(from: start)
        }

        mutating func string() throws -> String {
            index += 1
            let start = index
            var plain = true
            while index < bytes.count {
                let c = bytes[index]
                if c == UInt8(ascii: "\"") {
                    if plain {
                        let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                        index += 1
                        return s
                    }
                    break
                }
                if c == UInt8(ascii: "\\") { plain = false; index += 2; continue }
                if c < 0x20 { throw error("control character inside a string") }
                index += 1
            }
            guard index < bytes.count else { throw error("unterminated string (truncated file?)") }
            // Slow path with escapes.
            var out: [UInt8] = []
            try JSONReader.unescape(bytes, from: start, to: index, into: &out) { error($0) }
            index += 1
            return String(decoding: out, as: UTF8.self)
        }
    }
}
