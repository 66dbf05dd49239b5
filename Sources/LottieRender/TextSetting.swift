import Glibc
import LottieModel
import Raster
import Text

/// One glyph of a set text, in the text layer's space.
struct SetGlyph {
    /// Outline in ems, origin on the baseline at the pen position, y down.
    var outline: RasterPath
    /// Pen position (left of the advance) and baseline.
    var x: Double
    var y: Double
    var advance: Double
    /// Index of the first character (Unicode scalar, line ends counted) the glyph stands for.
    var character: Int
    var line: Int
}

/// A text document set in lines: glyphs placed as the document says (point or box text,
/// justification, line height, tracking), before any animator.
struct SetText {
    var glyphs: [SetGlyph] = []
    var lineCount = 0
    /// 0 for left, 0.5 centre, 1 right: how a line moves when animators make it longer.
    var alignment = 0.0
    var size = 0.0
    /// The text's characters, for range selectors' words and spaces.
    var scalars: [Unicode.Scalar] = []
    /// Something the layer asks for could not be drawn (said once per layer).
    var warning: String?
}

/// The horizontal alignment of a line, 0 left to 1 right, for Lottie's justification codes.
/// 3...6 justify the lines of box text; the line that ends a paragraph is set as Core Text sets
/// a justified paragraph's last line (lottie-ios maps all four to `.justified`): from the left,
/// as lottie-web sets them too, whatever side the code names for After Effects.
func justificationFactor(_ j: Int) -> Double {
    switch j {
    case 1: return 1
    case 2: return 0.5
    default: return 0
    }
}

/// A face's vertical metrics in ems, as the layout engine of the reference player (Core Text)
/// reports them: they decide where box text's first baseline falls.
struct LineMetrics: Equatable {
    var ascent: Double
    var descent: Double
    var lineGap: Double

    /// Helvetica's, which Core Text draws a font it does not know in. Its stand-in here
    /// (fontconfig's metric twin, e.g. Nimbus Sans) has Helvetica's advances and near enough
    /// its outlines, but another ascent, descent and gap (0.729, 0.271, 0.2): its own would
    /// misplace the lines Core Text sets.
    static let helvetica = LineMetrics(ascent: 0.77, descent: 0.23, lineGap: 0)

    /// How much lower than the face's ascent Core Text hangs a box's first line: the leading a
    /// line height above the face's own height gives (never less than the face's line gap) is
    /// shared half above and half below the line, so a line height of 1.2 em in Helvetica
    /// (1.0 em high) lowers the first baseline by 0.1 em, as lottie-ios's snapshots of box text
    /// show it. In points, for a document `size` and `lineHeight`.
    func halfLeading(size: Double, lineHeight: Double) -> Double {
        let natural = (ascent + descent) * size
        let leading = max(lineGap * size, lineHeight - natural)
        guard leading.isFinite, leading > 0 else { return 0 }
        return leading / 2
    }
}

/// Where a text's lines start: point text hangs its first baseline on the layer's origin and
/// aligns each line on it; box text aligns lines within the box width and puts the first
/// baseline one cap height below the box's top (After Effects' first baseline, which
/// lottie-ios follows), lowered by the half-leading Core Text puts above the line when the
/// face's line metrics are known. (lottie-ios anchors a box at its font's ascent less the cap
/// height and lets Core Text set the first line in it; point text gets no half-leading: its
/// frame is fitted to the text and lottie-ios moves the last line back onto the descent.)
struct LinePlacement {
    let doc: TextDocument
    let alignment: Double
    /// Of the first baseline, in layer units.
    let firstBaseline: Double

    /// The distance between baselines.
    let lineHeight: Double

    /// - Parameters:
    ///   - capHeight: of the font at the document's size.
    ///   - naturalLineHeight: the font's ascent, descent and line gap at the size, when known:
    ///     the distance a document without a line height sets its lines at. A given line height
    ///     is kept even below it (After Effects' leading; lines may overlap), as lottie-web does
    ///     and as lottie-ios means to (its line spacing is the line height less the font's height).
    ///   - metrics: the face's line metrics as Core Text has them, when known.
    init(doc: TextDocument, capHeight: Double, naturalLineHeight: Double? = nil, metrics: LineMetrics? = nil) {
        self.doc = doc
        alignment = justificationFactor(doc.justification)
        if doc.lineHeight.isFinite && doc.lineHeight > 0 {
            lineHeight = doc.lineHeight
        } else if let natural = naturalLineHeight, natural.isFinite, natural > 0 {
            lineHeight = natural
        } else {
            lineHeight = doc.size * 1.2
        }
        // A baseline shift (`ls`) raises the text.
        if let box = doc.boxPosition {
            let halfLeading = metrics?.halfLeading(size: doc.size, lineHeight: lineHeight) ?? 0
            firstBaseline = box.y + capHeight + halfLeading - doc.baselineShift
        } else {
            firstBaseline = -doc.baselineShift
        }
    }

    /// The x of a line's pen start for a line `width` wide.
    func lineStart(width: Double) -> Double {
        if let box = doc.boxPosition {
            let boxWidth = doc.boxSize?.x ?? 0
            return box.x + alignment * (boxWidth - width)
        }
        return -alignment * width
    }

    /// Box text justified (`j` 3...6): lines a paragraph goes on after are stretched to the
    /// box's width at their spaces; the last line is not (Core Text's justified paragraphs,
    /// which lottie-ios sets all four codes as) and starts at the left.
    var justifies: Bool { doc.boxPosition != nil && wrapWidth != nil && (3...6).contains(doc.justification) }

    /// The pen start of a line `width` wide holding `spaces` spaces, and what each space gains.
    func lineStart(width: Double, endsParagraph: Bool, spaces: Int) -> (x: Double, stretch: Double) {
        if justifies, spaces > 0, !endsParagraph, let box = doc.boxPosition, let boxWidth = wrapWidth {
            return (box.x, max(0, boxWidth - width) / Double(spaces))
        }
        return (lineStart(width: width), 0)
    }

    /// Whether a baseline still lies within a box text's box (lines below it are not drawn).
    func fits(baseline: Double) -> Bool {
        guard let box = doc.boxPosition, let size = doc.boxSize, size.y > 0 else { return true }
        return baseline <= box.y + size.y + 0.5
    }


    /// The width lines wrap at: a box text's width.
    var wrapWidth: Double? {
        guard doc.boxPosition != nil, let w = doc.boxSize?.x, w > 0, w.isFinite else { return nil }
        return w
    }
}
