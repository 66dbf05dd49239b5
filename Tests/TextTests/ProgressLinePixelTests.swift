import Kiosk
import Raster
import XCTest
@testable import Text

/// The download screen's progress line and prompts, drawn through the text engine and checked
/// on their pixels at the panel sizes Buoy meets.
final class ProgressLinePixelTests: XCTestCase {
    static let panels = [(240, 240), (480, 270), (270, 480), (1920, 1080), (3840, 2160), (1080, 1920), (2160, 3840)]
    let figures = TransferFigures(received: 1_250_000, expected: 3_000_000, rate: 1_000_000)

    private func isInk(_ p: UInt32) -> Bool { (p >> 16) & 0xff > 160 && (p >> 8) & 0xff > 160 && p & 0xff > 160 }

    /// Over a mid-grey picture (like sky or water), so the band's shading shows too.
    private func render(_ line: StatusLine, _ width: Int, _ height: Int) -> Surface {
        var surface = Surface(width: width, height: height, clearColor: Color(r: 0.5, g: 0.5, b: 0.5))
        line.draw(into: &surface)
        return surface
    }

    /// The columns and rows holding text.
    private func inkBox(_ surface: Surface) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        var x0 = Int.max, x1 = -1, y0 = Int.max, y1 = -1
        for y in 0..<surface.height {
            for x in 0..<surface.width where isInk(surface.pixels[y * surface.width + x]) {
                (x0, x1, y0, y1) = (min(x0, x), max(x1, x), min(y0, y), max(y1, y))
            }
        }
        return x1 < 0 ? nil : (x0...x1, y0...y1)
    }

    /// At every panel size the percentage is drawn, inside the panel and inside the band at
    /// the bottom; a narrow panel drops the rate and time left before the percentage.
    func testThePercentageIsDrawnInsideEveryPanel() throws {
        var shownParts: [Int] = []
        for (w, h) in Self.panels {
            let progress = ProgressLine.candidates(state: .downloading, fraction: 0.42, figures: figures, prompts: Prompts(language: .english))
            let line = StatusLine(text: "", progress: progress, fraction: 0.42, width: w, height: h)
            let shown = try XCTUnwrap(line.progress, "\(w)x\(h)")
            XCTAssertTrue(shown.hasPrefix("42%"), "\(w)x\(h): \(shown)")
            shownParts.append(shown.components(separatedBy: " · ").count)
            let band = try XCTUnwrap(line.band)
            XCTAssertEqual(band.upperBound, h)
            XCTAssertLessThan(band.count, h / 5, "\(w)x\(h): the band leaves the picture")
            let surface = render(line, w, h)
            let ink = try XCTUnwrap(inkBox(surface), "\(w)x\(h): nothing drawn")
            XCTAssertGreaterThan(ink.x.lowerBound, 0, "\(w)x\(h)")
            XCTAssertLessThan(ink.x.upperBound, w - 1, "\(w)x\(h)")
            XCTAssertGreaterThanOrEqual(ink.y.lowerBound, band.lowerBound, "\(w)x\(h): text above the band")
            // The text scales with the panel: its height is a few percent of the shorter side.
            XCTAssertGreaterThan(ink.y.count, min(w, h) / 40, "\(w)x\(h): text too small")
            // The bar on the band's edge covers 42 % of the width.
            let barRow = surface.pixels[(band.lowerBound * w)..<(band.lowerBound * w + w)]
            let bar = barRow.filter { ($0 & 0xff) > 0xe0 && (($0 >> 16) & 0xff) < 0xa0 }.count
            XCTAssertEqual(Double(bar) / Double(w), 0.42, accuracy: 0.02, "\(w)x\(h)")
        }
        XCTAssertLessThan(shownParts[0], shownParts[4], "the smallest panel shows fewer figures than 4K: \(shownParts)")
        XCTAssertEqual(shownParts[4], 4)
    }

    /// The band darkens what is under it, so white text reads over a white sail or sky.
    func testTheBandShadesALightPicture() throws {
        let line = StatusLine(text: "", progress: ["42%"], fraction: nil, width: 480, height: 270)
        var surface = Surface(width: 480, height: 270, clearColor: .white)
        line.draw(into: &surface)
        let band = try XCTUnwrap(line.band)
        let corner = Color(premultiplied: surface.pixels[(band.upperBound - 1) * 480 + 1])
        XCTAssertLessThan(corner.r + corner.g + corner.b, 1.2, "the band under the text is dark")
    }

    /// The message and the progress line together: two rows of text in one band, the
    /// failure's hint on its own line even after a long reason.
    func testAFailureKeepsItsHintAfterALongReason() throws {
        let reason = String(repeating: "http://updates.example.org/firmware/2.14/image.bin: connection refused; ", count: 6)
        let text = Prompts(language: .english).failure(reason, retry: .press)
        let line = StatusLine(text: text, progress: ["50%"], fraction: 0.5, width: 480, height: 270)
        let band = try XCTUnwrap(line.band)
        let single = try XCTUnwrap(StatusLine(text: "", progress: ["50%"], fraction: 0.5, width: 480, height: 270).band)
        XCTAssertGreaterThan(band.count, single.count * 2, "three rows: progress, reason, hint")
        // The layout the line is made of: the reason cut to one line, the hint whole.
        let shaper = TextShaper(stack: try FontLibrary().stack(for: FontRequest(family: "DejaVu Sans")))
        let paragraphs = text.split(separator: "\n").map(String.init)
        let options = LayoutOptions(width: 480 - 2 * 12.27, maxLines: 1, alignment: .center)
        XCTAssertTrue(shaper.layout(paragraphs[0], size: 12.27, options: options).truncated)
        XCTAssertFalse(shaper.layout(paragraphs[1], size: 12.27, options: options).truncated)
    }

    /// Chinese, Japanese and Arabic prompts: glyphs from the installed fonts (no .notdef box),
    /// Arabic shaped (joined forms, not the isolated ones) and set right to left.
    func testCJKAndArabicPromptsRender() throws {
        let library = try FontLibrary()
        let shaper = TextShaper(stack: try library.stack(for: FontRequest(family: "DejaVu Sans")))
        for language in [Language.chinese, .japanese, .arabic] {
            let prompt = Prompts(language: language).pressToStart
            let layout = shaper.layout(prompt, size: 20, options: LayoutOptions(width: 460, maxLines: 2, alignment: .center))
            let glyphs = layout.lines.flatMap(\.glyphs)
            XCTAssertFalse(glyphs.isEmpty, "\(language)")
            XCTAssertTrue(glyphs.allSatisfy { $0.glyph != 0 }, "\(language): a .notdef box in \(prompt)")
            let line = StatusLine(text: prompt, width: 480, height: 270, fonts: library)
            let surface = render(line, 480, 270)
            XCTAssertGreaterThan(surface.pixels.filter(isInk).count, 300, "\(language): too little ink")
            if let out = ProcessInfo.processInfo.environment["BUOY_TEXT_PNG"] { try? PNG.write(surface, to: out + "-\(language.rawValue).png") }
        }
        // The progress line in Arabic: its figures keep their left-to-right order ("3.0 MB", not "MB 3.0").
        let figures = TransferFigures(received: 3_000_000, expected: 3_000_000, rate: 0)
        let done = try XCTUnwrap(ProgressLine.candidates(state: .done, fraction: 1, figures: figures, prompts: Prompts(language: .arabic)).first)
        let set = shaper.layout(done, size: 20).lines[0]
        let scalars = Array(done.unicodeScalars)
        let digit = try XCTUnwrap(set.glyphs.first { scalars[$0.cluster] == "3" })
        let unit = try XCTUnwrap(set.glyphs.first { scalars[$0.cluster] == "M" })
        XCTAssertLessThan(digit.x, unit.x, "3.0 MB in its order: \(done)")
        XCTAssertTrue(set.glyphs.allSatisfy { $0.glyph != 0 }, "the isolates draw nothing")
        let arabic = shaper.layout("فشل التنزيل", size: 20)
        XCTAssertTrue(arabic.lines[0].rightToLeft)
        // Right to left: the first character's glyph (ف, initial form) is the rightmost one.
        let first = try XCTUnwrap(arabic.lines[0].glyphs.first { $0.cluster == 0 })
        XCTAssertEqual(first.x, arabic.lines[0].glyphs.map(\.x).max())
        // Joined: the word's glyphs are not the isolated forms its letters have alone.
        let joined = Set(shaper.layout("فشل", size: 20).lines[0].glyphs.map(\.glyph))
        let isolated = Set(["ف", "ش", "ل"].flatMap { shaper.layout($0, size: 20).lines[0].glyphs.map(\.glyph) })
        XCTAssertTrue(joined.isDisjoint(with: isolated), "joined \(joined), isolated \(isolated)")
    }
}
