import Glibc
import Raster

public enum TextAlignment: Sendable { case left, center, right }

/// How a text is set: the width lines wrap at (nil: no wrapping), at most `maxLines` lines
/// (0: no limit; the last one ends in `ellipsis` when text is left out), alignment within
/// the width, and the distance between baselines as a multiple of the size.
public struct LayoutOptions: Sendable {
    public var width: Double?
    public var maxLines: Int
    public var alignment: TextAlignment
    public var lineHeight: Double
    public var ellipsis: String
    /// Extra space after every character, in ems (a font's tracking; negative tightens).
    public var tracking: Double = 0

    public init(width: Double? = nil, maxLines: Int = 0, alignment: TextAlignment = .left,
                lineHeight: Double = 1.2, ellipsis: String = "\u{2026}") {
        self.width = width
        self.maxLines = maxLines
        self.alignment = alignment
        self.lineHeight = lineHeight
        self.ellipsis = ellipsis
    }
}

/// A glyph placed in pixels: its origin on the baseline, y pointing down.
public struct PositionedGlyph {
    public let face: FontFace
    public let glyph: UInt32
    public let cluster: Int
    public let x: Double
    public let y: Double
}

/// One set line: glyphs left to right on the screen.
public struct TextLine {
    public let glyphs: [PositionedGlyph]
    /// From the left of the layout's width to the line's start, and the line's advance.
    public let x: Double
    public let width: Double
    /// Of the baseline, the first line's being 0.
    public let baseline: Double
    public let rightToLeft: Bool
    /// The characters (Unicode scalars of the whole text, each line end counted as one) the
    /// line sets; a glyph's `cluster` counts from its lower bound.
    public var textRange: Range<Int> = 0..<0
}

/// A text set in lines at a size. Draw it with `path()`, whose origin is the left of the
/// layout width on the first baseline.
public struct TextLayout {
    public let lines: [TextLine]
    public let size: Double
    /// Whether text was left out (the last line ends in the ellipsis).
    public let truncated: Bool
    /// The primary face's ascent and descent, in pixels.
    public let ascent: Double
    public let descent: Double

    /// Every glyph's outline, placed.
    public func path() -> Path {
        var out = Path()
        for line in lines {
            for g in line.glyphs {
                let outline = g.face.outline(glyph: g.glyph)
                guard !outline.isEmpty else { continue }
                out.append(outline.transformed(by: Transform(a: size, b: 0, c: 0, d: size, tx: g.x, ty: g.y)))
            }
        }
        return out
    }

    /// From the first line's top (ascent above its baseline) to the last one's descent.
    public var height: Double {
        guard let last = lines.last else { return 0 }
        return ascent + last.baseline + descent
    }
}

extension TextShaper {
    /// Sets `text` at `size` pixels per em in lines. Newlines end paragraphs; other control
    /// characters are drawn as spaces.
    public func layout(_ text: String, size: Double, options: LayoutOptions = LayoutOptions()) -> TextLayout {
        let size = size.isFinite && size > 0 ? size : 0
        let width = options.width.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        var pieces: [(scalars: [Unicode.Scalar], rtl: Bool, start: Int)] = []
        var paragraphStart = 0
        for paragraph in Self.paragraphs(text) {
            let rtl = shape(paragraph).rightToLeft
            let advances = advancesPerScalar(paragraph, rightToLeft: rtl, tracking: options.tracking)
            for range in LineBreaker.lines(paragraph, advances: advances, width: width.map { $0 / max(size, 1e-9) }) {
                pieces.append((Array(paragraph[range]), rtl, paragraphStart + range.lowerBound))
            }
            paragraphStart += paragraph.count + 1
        }
        var truncated = false
        if options.maxLines > 0 && pieces.count > options.maxLines {
            truncated = true
            let last = pieces[options.maxLines - 1]
            var joined: [Unicode.Scalar] = last.scalars
            for piece in pieces[options.maxLines...] { joined.append(" "); joined += piece.scalars }
            let emWidth = width.map { $0 / max(size, 1e-9) }
            pieces = Array(pieces[..<(options.maxLines - 1)])
            pieces.append((ellipsized(joined, rtl: last.rtl, width: emWidth, ellipsis: options.ellipsis), last.rtl, last.start))
        }
        let lines = pieces.enumerated().map { i, piece in
            var line = setLine(piece.scalars, rtl: piece.rtl, size: size, baseline: Double(i) * options.lineHeight * size,
                               tracking: options.tracking)
            line.textRange = piece.start..<(piece.start + piece.scalars.count)
            return line
        }
        let boxWidth = width ?? lines.map(\.width).max() ?? 0
        let aligned = lines.map { line -> TextLine in
            let x: Double
            switch options.alignment {
            case .left: x = 0
            case .center: x = (boxWidth - line.width) / 2
            case .right: x = boxWidth - line.width
            }
            let glyphs = line.glyphs.map { PositionedGlyph(face: $0.face, glyph: $0.glyph, cluster: $0.cluster, x: $0.x + x, y: $0.y) }
            return TextLine(glyphs: glyphs, x: x, width: line.width, baseline: line.baseline, rightToLeft: line.rightToLeft,
                            textRange: line.textRange)
        }
        return TextLayout(lines: aligned, size: size, truncated: truncated,
                          ascent: stack.primary.ascent * size, descent: stack.primary.descent * size)
    }

    /// The paragraphs of a text, control characters other than line ends made spaces.
    static func paragraphs(_ text: String) -> [[Unicode.Scalar]] {
        var out: [[Unicode.Scalar]] = [[]]
        for s in text.unicodeScalars {
            if s == "\n" || s == "\r" || s == "\u{2029}" {
                out.append([])
            } else {
                out[out.count - 1].append(s.value < 0x20 || s.value == 0x7f ? " " : s)
            }
        }
        return out
    }

    /// Each character's advance in ems (a cluster's whole advance on its first character).
    func advancesPerScalar(_ scalars: [Unicode.Scalar], rightToLeft: Bool, tracking: Double = 0) -> [Double] {
        var advances = [Double](repeating: 0, count: scalars.count)
        for run in shape(scalars, rightToLeft: rightToLeft).runs {
            for g in run.glyphs where g.cluster >= 0 && g.cluster < advances.count {
                advances[g.cluster] += g.xAdvance + (g.xAdvance != 0 ? tracking : 0)
            }
        }
        return advances
    }

    /// The longest start of `scalars` that fits `width` ems with `ellipsis` after it.
    func ellipsized(_ scalars: [Unicode.Scalar], rtl: Bool, width: Double?, ellipsis: String) -> [Unicode.Scalar] {
        let mark = Array(ellipsis.unicodeScalars)
        guard let width else { return scalars + mark }
        let markWidth = advancesPerScalar(mark, rightToLeft: rtl).reduce(0, +)
        let advances = advancesPerScalar(scalars, rightToLeft: rtl)
        var used = 0.0, end = 0
        for i in 0..<scalars.count {
            // Cut only before a cluster's first character, so a ligature or a base and its marks stay whole.
            if advances[i] != 0 || i == 0 {
                if used + advances[i] + markWidth > width { break }
            }
            used += advances[i]
            end = i + 1
        }
        while end > 0 && scalars[end - 1].properties.isWhitespace { end -= 1 }
        return Array(scalars[..<end]) + mark
    }

    /// Shapes one line and places its glyphs left to right, trailing spaces left out.
    func setLine(_ scalars: [Unicode.Scalar], rtl: Bool, size: Double, baseline: Double, tracking: Double = 0) -> TextLine {
        var end = scalars.count
        while end > 0 && scalars[end - 1].properties.isWhitespace { end -= 1 }
        var pen = 0.0
        var glyphs: [PositionedGlyph] = []
        for run in shape(Array(scalars[..<end]), rightToLeft: rtl).runs {
            for g in run.glyphs {
                glyphs.append(PositionedGlyph(face: g.face, glyph: g.glyph, cluster: g.cluster,
                                              x: (pen + g.xOffset) * size, y: baseline - g.yOffset * size))
                // Tracking follows every glyph that advances (not a mark set on the one before).
                pen += g.xAdvance + (g.xAdvance != 0 ? tracking : 0)
            }
        }
        return TextLine(glyphs: glyphs, x: 0, width: pen * size, baseline: baseline, rightToLeft: rtl)
    }
}
