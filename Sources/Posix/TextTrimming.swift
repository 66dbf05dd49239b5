extension StringProtocol {
    /// The text without the white space at either end, scalar by scalar as Foundation's
    /// `trimmingCharacters(in:)` takes it: spaces (category Zs) and tabs, and unless
    /// `lineEnds` is false also line ends (U+000A–U+000D, U+0085, U+2028, U+2029) —
    /// `.whitespacesAndNewlines` and `.whitespaces` without linking Foundation.
    public func trimmingWhitespace(lineEnds: Bool = true) -> String {
        func trimmed(_ scalar: Unicode.Scalar) -> Bool {
            guard scalar.properties.isWhitespace else { return false }
            return lineEnds || !Self.isLineEnd(scalar)
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }),
              let last = scalars.lastIndex(where: { !trimmed($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    private static func isLineEnd(_ scalar: Unicode.Scalar) -> Bool {
        (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
