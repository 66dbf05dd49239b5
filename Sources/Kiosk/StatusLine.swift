import Foundation
import Raster
import Text

/// A message along the bottom of the screen (psplash's `MSG`, a failure's cause) over a dark
/// band, set by the text engine: any script (fontconfig fallbacks for CJK, Arabic…), shaped,
/// bidi-ordered, centred, wrapped to two lines and ended with an ellipsis when longer.
public struct StatusLine: Sendable {
    public let text: String
    /// The rows the band covers, nil when there is no text.
    public let band: Range<Int>?
    /// The glyph outlines, placed on the screen: a value, so the line can be drawn on any
    /// thread while the fonts it was set with stay with the one that set it.
    private let glyphs: Path

    /// The message is limited to 2 lines; `fonts` is the library to find faces in (the system's
    /// when nil: pass one to share it between successive messages).
    public init(text: String, width: Int, height: Int, fonts: FontLibrary? = nil) {
        self.text = text
        let message = String(text.unicodeScalars.prefix(1000))
        guard !message.isEmpty, width > 0, height > 0 else {
            (band, glyphs) = (nil, Path())
            return
        }
        let size = max(12, Double(min(width, height)) / 22)
        guard let library = fonts ?? (try? FontLibrary()),
              let stack = try? library.stack(for: FontRequest(family: "DejaVu Sans", style: "Book")) else {
            // No font at all (a bare initramfs): the band still shows and still takes a touch on
            // the start prompt; only the words are missing.
            band = max(0, height - Int((size * 2).rounded()))..<height
            glyphs = Path()
            return
        }
        let margin = Double(width) > size * 4 ? size : 0
        let lineHeight = 1.2
        let options = LayoutOptions(width: Double(width) - 2 * margin, maxLines: 2, alignment: .center, lineHeight: lineHeight)
        let layout = TextShaper(stack: stack).layout(message, size: size, options: options)
        let extraLines = Double(max(0, layout.lines.count - 1))
        let bandHeight = min(Double(height), size * 2 + extraLines * lineHeight * size)
        let top = max(0, height - Int(bandHeight.rounded()))
        // The block of lines (ascent of the first to descent of the last) centred in the band.
        let block = layout.height
        let firstBaseline = Double(top) + (Double(height - top) - block) / 2 + layout.ascent
        self.band = top..<height
        self.glyphs = layout.path().transformed(by: Transform(a: 1, b: 0, c: 0, d: 1, tx: margin, ty: firstBaseline))
    }

    /// Whether the point (in pixels of the screen) lies on the band: a touch there answers
    /// the prompt it shows.
    public func contains(x: Double, y: Double) -> Bool {
        guard let band, x.isFinite, y.isFinite else { return false }
        return y >= Double(band.lowerBound) && y < Double(band.upperBound)
    }

    /// Draws the band and the message over what the surface holds.
    public func draw(into surface: inout Surface) {
        guard let band else { return }
        var backing = Path()
        let (w, top, bottom) = (Double(surface.width), Double(band.lowerBound), Double(band.upperBound))
        backing.move(to: Point(0, top))
        backing.line(to: Point(w, top))
        backing.line(to: Point(w, bottom))
        backing.line(to: Point(0, bottom))
        backing.close()
        surface.fill(backing, paint: .solid(Color(r: 0x0b / 255, g: 0x1f / 255, b: 0x33 / 255)), opacity: 0.72)
        // Glyphs are clipped to the band so a tall fallback face never spills onto the animation.
        let clip = Clip(rect: PixelRect(x0: 0, y0: band.lowerBound, x1: surface.width, y1: band.upperBound))
        surface.fill(glyphs, paint: .solid(.white), clip: clip)
    }
}
