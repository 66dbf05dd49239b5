/// Where lines may break: after spaces, and between ideographs (Chinese, Japanese), except
/// before closing punctuation. A word longer than the width is cut between characters.
enum LineBreaker {
    /// The lines of one paragraph as ranges of characters, for `advances` in the unit of `width`.
    static func lines(_ scalars: [Unicode.Scalar], advances: [Double], width: Double?) -> [Range<Int>] {
        guard let width, !scalars.isEmpty else { return [0..<scalars.count] }
        var lines: [Range<Int>] = []
        var start = 0
        while start < scalars.count {
            let end = lineEnd(scalars, advances: advances, from: start, width: width)
            lines.append(start..<end)
            start = end
            // Spaces at a break belong to the line before.
            while start < scalars.count && scalars[start].properties.isWhitespace { start += 1 }
        }
        return lines.isEmpty ? [0..<0] : lines
    }

    /// Where the line starting at `start` ends: the last break opportunity whose text (spaces
    /// at its end not counted) fits, or a cut before the character that does not fit.
    private static func lineEnd(_ scalars: [Unicode.Scalar], advances: [Double], from start: Int, width: Double) -> Int {
        var used = 0.0
        var lastBreak: Int?
        var i = start
        while i < scalars.count {
            if i > start && canBreak(scalars, before: i) { lastBreak = i }
            let isSpace = scalars[i].properties.isWhitespace
            if !isSpace && used + advances[i] > width && i > start {
                if let lastBreak { return lastBreak }
                // No opportunity: cut before this cluster (never inside one).
                var cut = i
                while cut > start + 1 && advances[cut] == 0 { cut -= 1 }
                return cut
            }
            used += advances[i]
            i += 1
        }
        return scalars.count
    }

    static func canBreak(_ s: [Unicode.Scalar], before i: Int) -> Bool {
        let previous = s[i - 1], next = s[i]
        if next.properties.isWhitespace { return false }
        if previous.properties.isWhitespace { return true }
        if isClosing(next) { return false }
        return isIdeographic(previous) || isIdeographic(next)
    }

    static func isIdeographic(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x2E80...0x2FFF, 0x3000...0x30FF, 0x3100...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF60, 0x20000...0x3FFFF: return true
        default: return false
        }
    }

    /// Punctuation a line must not begin with.
    static func isClosing(_ s: Unicode.Scalar) -> Bool {
        "、。，．：；！？）」』】〉》〕ー々ゝゞ・,.:;!?)]}".unicodeScalars.contains(s)
    }
}

/// Line breaking for callers that measure characters themselves (text drawn from glyph
/// shapes rather than a font): the same rules as `TextShaper.layout`.
public enum LineBreaking {
    /// The lines of one paragraph as ranges of `scalars`, `advances` (one per scalar) and
    /// `width` in the same unit; nil width: one line.
    public static func lines(_ scalars: [Unicode.Scalar], advances: [Double], width: Double?) -> [Range<Int>] {
        guard advances.count == scalars.count else { return [0..<scalars.count] }
        return LineBreaker.lines(scalars, advances: advances, width: width)
    }
}
