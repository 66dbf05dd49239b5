/// Text a client sent (a `message`, a URL, a path), made safe for a log line or a terminal:
/// control characters cannot forge a second log line, move the cursor or change the
/// terminal's state. C0 controls and DEL become `\n`, `\r`, `\t` or `\xHH`; C1 controls, the
/// Unicode line and paragraph separators and the bidirectional overrides become `\u{HHHH}`;
/// a backslash is doubled so an escape in the output always came from this function.
public enum LogText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F: out += "\\x" + hex(scalar.value, digits: 2)
            case 0x80..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `text` holds anything `escaped` would change other than a backslash.
    public static func containsControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { s in
            s.value < 0x20 || (0x7F..<0xA0).contains(s.value) || [0x2028, 0x2029].contains(s.value)
                || (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
