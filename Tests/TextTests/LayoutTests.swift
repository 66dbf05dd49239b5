import Raster
import XCTest
@testable import Text

final class LayoutTests: XCTestCase {
    private func shaper() throws -> TextShaper {
        TextShaper(stack: try FontLibrary().stack(for: FontRequest(family: "DejaVu Sans")))
    }

    func testWrapsAtSpacesToTwoLinesWithAnEllipsis() throws {
        let s = try shaper()
        let text = "The update is being downloaded from the server and will be installed after the check"
        let layout = s.layout(text, size: 20, options: LayoutOptions(width: 300, maxLines: 2, alignment: .center))
        XCTAssertEqual(layout.lines.count, 2)
        XCTAssertTrue(layout.truncated)
        for line in layout.lines {
            XCTAssertLessThanOrEqual(line.width, 300.001)
            XCTAssertGreaterThanOrEqual(line.x, -0.001)
        }
        XCTAssertEqual(layout.lines[1].baseline, 24, accuracy: 1e-9)
        let ellipsis = s.stack.primary.glyph(for: "\u{2026}")
        XCTAssertEqual(layout.lines[1].glyphs.last?.glyph, ellipsis)
        XCTAssertNotEqual(layout.lines[0].glyphs.last?.glyph, ellipsis)
        let untruncated = s.layout("Short", size: 20, options: LayoutOptions(width: 300, maxLines: 2))
        XCTAssertEqual(untruncated.lines.count, 1)
        XCTAssertFalse(untruncated.truncated)
    }

    func testRightToLeftTextEndsWithTheEllipsisOnTheLeft() throws {
        let s = try shaper()
        let text = String(repeating: "جاري تنزيل التحديث ", count: 10)
        let layout = s.layout(text, size: 16, options: LayoutOptions(width: 200, maxLines: 2))
        XCTAssertEqual(layout.lines.count, 2)
        XCTAssertTrue(layout.lines.allSatisfy(\.rightToLeft))
        let ellipsis = s.stack.primary.glyph(for: "\u{2026}")
        XCTAssertEqual(layout.lines[1].glyphs.first?.glyph, ellipsis, "the logical end of a right-to-left line is on its left")
        XCTAssertFalse(layout.lines.flatMap(\.glyphs).contains { $0.glyph == 0 })
    }

    func testNamedFaceIsNilForAnUnknownFamily() throws {
        let library = try FontLibrary()
        XCTAssertNil(library.namedFace(for: FontRequest(family: "No Such Family Anywhere")))
        XCTAssertEqual(library.namedFace(for: FontRequest(family: "DejaVu Serif"))?.postScriptName, "DejaVuSerif")
        XCTAssertEqual(library.namedFace(for: FontRequest(family: "x", postScriptName: "DejaVuSans-Bold"))?.style, "Bold")
    }

    func testCJKWrapsBetweenIdeographs() throws {
        let s = try shaper()
        let text = String(repeating: "正在下载更新文件", count: 4)
        let layout = s.layout(text, size: 20, options: LayoutOptions(width: 200))
        XCTAssertGreaterThan(layout.lines.count, 2)
        XCTAssertTrue(layout.lines.allSatisfy { $0.width <= 200.001 })
        XCTAssertTrue(layout.lines.dropLast().allSatisfy { $0.width > 180 }, "full lines: \(layout.lines.map(\.width))")
    }

    func testAlignment() throws {
        let s = try shaper()
        let right = s.layout("Hi", size: 10, options: LayoutOptions(width: 100, alignment: .right))
        XCTAssertEqual(right.lines[0].x + right.lines[0].width, 100, accuracy: 1e-9)
        let centre = s.layout("Hi", size: 10, options: LayoutOptions(width: 100, alignment: .center))
        XCTAssertEqual(centre.lines[0].x * 2 + centre.lines[0].width, 100, accuracy: 1e-9)
    }

    func testHostileInputsDoNotTrap() throws {
        let s = try shaper()
        for text in ["", "\n\n", "\u{0}\u{1}a", String(repeating: "W", count: 500), "\u{202E}abc\u{202C}", "\u{0301}"] {
            for width in [nil, 0, 1, -5, .nan, .infinity] as [Double?] {
                _ = s.layout(text, size: 12, options: LayoutOptions(width: width, maxLines: 2)).path()
            }
        }
        XCTAssertThrowsError(try FontFace(file: "/nonexistent.ttf"))
        XCTAssertThrowsError(try FontFace(file: "/etc/passwd"))
    }
}
