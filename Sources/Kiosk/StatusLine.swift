import Glibc
import Posix
import Raster
import Text

/// The screen's text at the bottom, over a dark band that reads on any animation (sky, water,
/// a white success disc): the progress line (percentage, size, rate, time left; a thin bar on
/// the band's top edge shows the fraction) and the message (psplash's `MSG`, a prompt, a
/// failure and how to retry). Set by the text engine: any script (fontconfig fallbacks for CJK,
/// Arabic…), shaped, bidi-ordered, centred. A message of one paragraph wraps to two lines and
/// then ends with an ellipsis; one of two paragraphs (a failure's reason and its retry hint)
/// gives each a line, so the hint is never pushed out by a long reason.
public struct StatusLine: Sendable {
    public let text: String
    /// The progress line shown (the longest candidate that fits), nil when none.
    public let progress: String?
    /// The rows the band covers, nil when there is nothing to show.
    public let band: Range<Int>?
    /// The fraction the bar on the band's edge shows.
    public let fraction: Double?
    /// The glyph outlines, placed on the screen: a value, so the line can be drawn on any
    /// thread while the fonts it was set with stay with the one that set it.
    private let glyphs: Path

    /// `fonts` is the library to find faces in (the system's when nil: pass one to share it
    /// between successive messages).
    public init(text: String, progress: [String] = [], fraction: Double? = nil, width: Int, height: Int, fonts: FontLibrary? = nil) {
        self.init(text: text, progress: progress, fraction: fraction, width: width, height: height, fonts: StatusFonts(library: fonts))
    }

    /// `progress`: the progress line's candidates, longest first (`ProgressLine.candidates`).
    public init(text: String, progress: [String], fraction: Double?, width: Int, height: Int, fonts: StatusFonts) {
        self.text = text
        let message = String(text.unicodeScalars.prefix(1000))
        let candidates = progress.filter { !$0.isEmpty }
        self.fraction = fraction.flatMap { $0.isFinite ? min(max($0, 0), 1) : nil }
        guard !message.isEmpty || !candidates.isEmpty, width > 0, height > 0 else {
            (band, glyphs, self.progress) = (nil, Path(), nil)
            return
        }
        let metrics = StatusMetrics(width: width, height: height)
        guard let regular = fonts.regular, let bold = fonts.bold else {
            // No font at all (a bare initramfs): the band still shows and still takes a touch on
            // the start prompt; only the words are missing.
            let rows = (candidates.isEmpty ? 0 : 1) + (message.isEmpty ? 0 : 1)
            band = metrics.band(rowHeights: Array(repeating: metrics.lineBox, count: rows))
            (glyphs, self.progress) = (Path(), nil)
            return
        }
        var blocks: [TextLayout] = []
        var shown: String?
        if !candidates.isEmpty {
            let line = metrics.progressLayout(candidates, shaper: TextShaper(stack: bold))
            blocks.append(line.layout)
            shown = line.text
        }
        blocks += metrics.messageLayouts(message, shaper: TextShaper(stack: regular))
        let boxes = blocks.map { Double(max($0.lines.count, 1)) * metrics.lineHeight * $0.size }
        let band = metrics.band(rowHeights: boxes)
        var path = Path()
        var top = Double(band.lowerBound) + metrics.padding
        for (layout, box) in zip(blocks, boxes) {
            // Each block's first line centred in its line box.
            let lineBox = metrics.lineHeight * layout.size
            let baseline = top + (lineBox - layout.ascent - layout.descent) / 2 + layout.ascent
            path.append(layout.path().transformed(by: Transform(a: 1, b: 0, c: 0, d: 1, tx: metrics.margin, ty: baseline)))
            top += box
        }
        (self.band, self.glyphs, self.progress) = (band, path, shown)
    }

    /// Whether the point (in pixels of the screen) lies on the band: a touch there answers
    /// the prompt it shows.
    public func contains(x: Double, y: Double) -> Bool {
        guard let band, x.isFinite, y.isFinite else { return false }
        return y >= Double(band.lowerBound) && y < Double(band.upperBound)
    }

    static let bandColor = Color(r: 0x0b / 255, g: 0x1f / 255, b: 0x33 / 255)
    static let barColor = Color(r: 0x7f / 255, g: 0xd3 / 255, b: 1)

    /// Draws the band, the bar and the text over what the surface holds.
    public func draw(into surface: inout Surface) {
        guard let band else { return }
        let (w, top, bottom) = (Double(surface.width), Double(band.lowerBound), Double(band.upperBound))
        surface.fill(Self.rectangle(x0: 0, y0: top, x1: w, y1: bottom), paint: .solid(Self.bandColor), opacity: 0.72)
        if let fraction, fraction > 0 {
            let thickness = max(2, (bottom - top) / 16).rounded()
            surface.fill(Self.rectangle(x0: 0, y0: top, x1: w * fraction, y1: min(bottom, top + thickness)), paint: .solid(Self.barColor))
        }
        // Glyphs are clipped to the band so a tall fallback face never spills onto the animation.
        let clip = Clip(rect: PixelRect(x0: 0, y0: band.lowerBound, x1: surface.width, y1: band.upperBound))
        surface.fill(glyphs, paint: .solid(.white), clip: clip)
    }

    static func rectangle(x0: Double, y0: Double, x1: Double, y1: Double) -> Path {
        var path = Path()
        path.move(to: Point(x0, y0))
        path.line(to: Point(x1, y0))
        path.line(to: Point(x1, y1))
        path.line(to: Point(x0, y1))
        path.close()
        return path
    }
}

/// The faces the status line is set in (DejaVu Sans and its bold, with fontconfig's fallbacks),
/// looked up once and kept: the progress line changes many times a second. Not thread-safe:
/// one per thread, like the library it holds.
public final class StatusFonts {
    private var library: FontLibrary??
    private var stacks: [String: FontStack?] = [:]

    /// `library`: the one to use (nil: the system's, opened on first use).
    public init(library: FontLibrary? = nil) {
        if let library { self.library = .some(library) }
    }

    var regular: FontStack? { stack(style: "Book") }
    var bold: FontStack? { stack(style: "Bold") }

    private func stack(style: String) -> FontStack? {
        if let known = stacks[style] { return known }
        let opened: FontLibrary?
        if let tried = library {
            opened = tried
        } else {
            opened = try? FontLibrary()
            library = .some(opened)
        }
        let found = opened.flatMap { try? $0.stack(for: FontRequest(family: "DejaVu Sans", style: style)) }
        stacks[style] = .some(found)
        return found
    }
}

/// Sizes scaled to the panel: the text's size is 1/22 of the shorter side (12 px at least),
/// the progress line a fifth larger, a margin of one size on both sides.
struct StatusMetrics {
    let width: Int
    let height: Int
    let size: Double
    let margin: Double
    let lineHeight = 1.2

    init(width: Int, height: Int) {
        (self.width, self.height) = (width, height)
        size = max(12, Double(min(width, height)) / 22)
        margin = Double(width) > size * 4 ? size : 0
    }

    var progressSize: Double { size * 1.2 }
    var padding: Double { size * 0.4 }
    var lineBox: Double { size * lineHeight }
    var available: Double { Double(width) - 2 * margin }

    /// The band from the bottom up, tall enough for the rows and its padding (at most the panel).
    func band(rowHeights: [Double]) -> Range<Int> {
        let total = min(Double(height), rowHeights.reduce(0, +) + 2 * padding)
        return max(0, height - Int(total.rounded()))..<height
    }

    /// The longest candidate that fits on one line; the shortest, ended with an ellipsis, when none does.
    func progressLayout(_ candidates: [String], shaper: TextShaper) -> (text: String, layout: TextLayout) {
        let options = LayoutOptions(width: available, maxLines: 1, alignment: .center, lineHeight: lineHeight)
        for candidate in candidates {
            let layout = shaper.layout(candidate, size: progressSize, options: options)
            if !layout.truncated, layout.lines.count == 1, layout.lines[0].width <= available { return (candidate, layout) }
        }
        let last = candidates[candidates.count - 1]
        return (last, shaper.layout(last, size: progressSize, options: options))
    }

    /// One paragraph: up to two lines, then an ellipsis. Two or more: the first two, a line each.
    func messageLayouts(_ message: String, shaper: TextShaper) -> [TextLayout] {
        let paragraphs = message.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map(String.init).filter { !$0.trimmingWhitespace(lineEnds: false).isEmpty }
        guard !paragraphs.isEmpty else { return [] }
        let lines = paragraphs.count == 1 ? 2 : 1
        let options = LayoutOptions(width: available, maxLines: lines, alignment: .center, lineHeight: lineHeight)
        return paragraphs.prefix(2).map { shaper.layout($0, size: size, options: options) }
    }
}
