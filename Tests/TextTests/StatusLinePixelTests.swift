import Kiosk
import Raster
import XCTest
@testable import Text

/// The kiosk's status line drawn through the text engine, checked on its pixels.
final class StatusLinePixelTests: XCTestCase {
    private let black: UInt32 = 0xff00_0000

    /// Whether a pixel is (mostly) text: the band is dark blue, the text white.
    private func isInk(_ p: UInt32) -> Bool { (p >> 16) & 0xff > 160 && (p >> 8) & 0xff > 160 && p & 0xff > 160 }

    private func render(_ text: String, _ width: Int, _ height: Int) -> (Surface, StatusLine) {
        var surface = Surface(width: width, height: height, clearColor: .black)
        let line = StatusLine(text: text, width: width, height: height)
        line.draw(into: &surface)
        return (surface, line)
    }

    func testCJKDrawsGlyphsNotBoxes() throws {
        let (surface, line) = render("正在下载更新", 320, 180)
        if let out = ProcessInfo.processInfo.environment["BUOY_TEXT_PNG"] { try? PNG.write(surface, to: out + "-cjk.png") }
        let ink = surface.pixels.filter(isInk).count
        XCTAssertGreaterThan(ink, 100, "CJK text draws ink")
        XCTAssertNotNil(line.band)
        // The same places drawn with DejaVu's .notdef box (what a face without CJK shows).
        let shaper = TextShaper(stack: try FontLibrary().stack(for: FontRequest(family: "DejaVu Sans")))
        let layout = shaper.layout("正在下载更新", size: 12, options: LayoutOptions())
        XCTAssertTrue(layout.lines[0].glyphs.allSatisfy { $0.glyph != 0 })
        var glyphs = Surface(width: 200, height: 40, clearColor: .black)
        var boxes = glyphs
        let notdef = shaper.stack.primary.outline(glyph: 0)
        XCTAssertFalse(notdef.isEmpty)
        for g in layout.lines[0].glyphs {
            let at = Transform(a: 12, b: 0, c: 0, d: 12, tx: g.x + 4, ty: 20)
            glyphs.fill(g.face.outline(glyph: g.glyph), transform: at, paint: .solid(.white))
            boxes.fill(notdef, transform: at, paint: .solid(.white))
        }
        let differing = zip(glyphs.pixels, boxes.pixels).filter { isInk($0) != isInk($1) }.count
        let boxInk = boxes.pixels.filter(isInk).count
        XCTAssertGreaterThan(differing, boxInk / 2, "glyph pixels \(glyphs.pixels.filter(isInk).count), box pixels \(boxInk), differing \(differing)")
    }

    func testArabicLineDrawsInk() {
        let (surface, _) = render("جاري تنزيل التحديث", 320, 180)
        if let out = ProcessInfo.processInfo.environment["BUOY_TEXT_PNG"] { try? PNG.write(surface, to: out + "-arabic.png") }
        XCTAssertGreaterThan(surface.pixels.filter(isInk).count, 100)
    }

    func testLongMessageStaysInsideThePanel() {
        let message = String(repeating: "Downloading firmware update package 2.14 from the mirror, please wait. ", count: 12)
        for (width, height) in [(240, 240), (3840, 2160)] {
            let (surface, line) = render(message, width, height)
            guard let band = line.band else { return XCTFail("no band at \(width)x\(height)") }
            var columns = Set<Int>()
            for y in 0..<height {
                for x in 0..<width where isInk(surface.pixels[y * width + x]) {
                    columns.insert(x)
                    XCTAssertTrue(band.contains(y), "ink at row \(y) outside the band \(band)")
                }
            }
            guard let left = columns.min(), let right = columns.max() else { return XCTFail("no text at \(width)x\(height)") }
            XCTAssertGreaterThan(left, 0, "\(width)x\(height): text starts at column \(left)")
            XCTAssertLessThan(right, width - 1, "\(width)x\(height): text ends at column \(right)")
            // Centred: the margins on both sides within a few percent of the width.
            XCTAssertEqual(Double(left), Double(width - 1 - right), accuracy: Double(width) * 0.06)
            XCTAssertTrue(surface.pixels[0..<(band.lowerBound * width)].allSatisfy { $0 == black }, "nothing above the band")
            XCTAssertLessThan(band.count, height / 4)
        }
    }

    func testShortMessageKeepsOneLineBand() {
        let (_, one) = render("Touch here", 320, 180)
        let (_, two) = render(String(repeating: "Touch here to answer. ", count: 8), 320, 180)
        XCTAssertLessThan(one.band?.count ?? 0, two.band?.count ?? 0, "a wrapped message takes a taller band")
    }
}
