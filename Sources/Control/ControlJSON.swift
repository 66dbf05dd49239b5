/// The control socket's JSON lines as `[String: Any]`, written and read without Foundation's
/// JSONSerialization (which would link full Foundation and ICU into every buoy process).
/// Writing gives the bytes JSONSerialization gave with `.sortedKeys`, so `buoy status` and
/// `buoy fetch --json` print what they printed: keys in order, `/` escaped as `\/`, control
/// characters as `\n`, `\t`… or `\u00XX`, a whole `Double` without its `.0`.
/// Values: `String`, `Bool`, `Int`, `Int64`, `Double` (finite), `ControlJSON.null`, arrays of
/// values and `[String: Any]`. Reading gives the same kinds (a number with a fraction or an
/// exponent as `Double`, others as `Int` when they fit), from a line of at most a few KB
/// (`ControlServer.Limits.maxLineBytes`), nested at most `maxDepth` deep.
public enum ControlJSON {
    /// JSON's `null` as a value of an event (Foundation's NSNull).
    public struct Null: Sendable, Equatable {}
    public static let null = Null()
    public static let maxDepth = 32

    /// One line of JSON; nil for a value JSON cannot carry (a NaN, a type not listed above).
    public static func line(_ object: [String: Any]) -> String? {
        var out = ""
        return write(object, into: &out) ? out : nil
    }

    static func write(_ value: Any, into out: inout String) -> Bool {
        switch value {
        case let text as String: writeString(text, into: &out)
        case let flag as Bool: out += flag ? "true" : "false"
        case let number as Int: out += String(number)
        case let number as Int64: out += String(number)
        case let number as Double:
            guard let text = text(of: number) else { return false }
            out += text
        case is Null: out += "null"
        case let array as [Any]:
            out += "["
            for (i, element) in array.enumerated() {
                if i > 0 { out += "," }
                guard write(element, into: &out) else { return false }
            }
            out += "]"
        case let object as [String: Any]:
            out += "{"
            for (i, key) in object.keys.sorted(by: keyOrder).enumerated() {
                if i > 0 { out += "," }
                writeString(key, into: &out)
                out += ":"
                guard write(object[key]!, into: &out) else { return false }
            }
            out += "}"
        default: return false
        }
        return true
    }

    /// A finite number as JSONSerialization wrote it: Swift's shortest form, "3" for 3.0.
    static func text(of number: Double) -> String? {
        guard number.isFinite else { return nil }
        let text = number.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// JSONSerialization's `.sortedKeys` order for the keys events have (ASCII names): case
    /// ignored, then as written.
    static func keyOrder(_ a: String, _ b: String) -> Bool {
        let (la, lb) = (a.lowercased(), b.lowercased())
        return la != lb ? la < lb : a < b
    }

    static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += "\\/"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// The object a line holds; nil when it is not one JSON object (and nothing after it but
    /// white space), or nests deeper than `maxDepth`.
    public static func object<Bytes: Collection>(_ bytes: Bytes) -> [String: Any]? where Bytes.Element == UInt8 {
        var reader = Reader(bytes: Array(bytes))
        guard let value = reader.value(depth: 0), let object = value as? [String: Any] else { return nil }
        reader.skipSpace()
        return reader.index == reader.bytes.count ? object : nil
    }
}
