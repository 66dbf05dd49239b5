import Raster
import XCTest
@testable import Text

/// Shaping with the fonts a Debian install provides (deploy/install-build-deps.sh): DejaVu
/// Sans (Latin, Arabic) and WenQuanYi Zen Hei (CJK, found as a fallback).
final class ShapingTests: XCTestCase {
    private func shaper(_ family: String = "DejaVu Sans") throws -> TextShaper {
        TextShaper(stack: try FontLibrary().stack(for: FontRequest(family: family, style: "Book")))
    }

    private func glyphs(_ text: String, _ shaper: TextShaper) -> [ShapedGlyph] {
        shaper.shape(Array(text.unicodeScalars)).runs.flatMap(\.glyphs)
    }

    func testFamilyAndPostScriptNameFindDejaVu() throws {
        let library = try FontLibrary()
        XCTAssertEqual(try library.stack(for: FontRequest(family: "DejaVu Sans", style: "Bold")).primary.postScriptName, "DejaVuSans-Bold")
        let byName = try library.stack(for: FontRequest(family: "No Such Family", postScriptName: "DejaVuSansMono-Bold")).primary
        XCTAssertEqual(byName.family, "DejaVu Sans Mono")
        XCTAssertEqual(byName.style, "Bold")
    }

    func testKerningMakesAVNarrowerThanAPlusV() throws {
        let s = try shaper()
        let pair = glyphs("AV", s).reduce(0) { $0 + $1.xAdvance }
        let apart = glyphs("A", s)[0].xAdvance + glyphs("V", s)[0].xAdvance
        XCTAssertLessThan(pair, apart - 0.02, "AV \(pair) em, A + V \(apart) em")
    }

    func testLigatureFiIsOneGlyph() throws {
        let s = try shaper("DejaVu Serif")
        let fi = glyphs("fi", s)
        XCTAssertEqual(fi.count, 1, "f and i form one ligature glyph")
        XCTAssertNotEqual(fi.first?.glyph, glyphs("f", s).first?.glyph)
    }

    func testKerningAndLigaturesCanBeTurnedOffButArabicStillJoins() throws {
        // Lottie text: each character by its own advance (no pair kerning, no optional
        // ligatures), while the forms a script needs are still made.
        var plain = try shaper()
        plain.kerning = false
        plain.ligatures = false
        let pair = glyphs("AV", plain).reduce(0) { $0 + $1.xAdvance }
        let apart = glyphs("A", plain)[0].xAdvance + glyphs("V", plain)[0].xAdvance
        XCTAssertEqual(pair, apart, accuracy: 1e-9, "AV is A then V")
        let serif = TextShaper(stack: try shaper("DejaVu Serif").stack, kerning: false, ligatures: false)
        XCTAssertEqual(glyphs("fi", serif).map(\.glyph), [glyphs("f", serif)[0].glyph, glyphs("i", serif)[0].glyph])
        let word = "سمك"
        let joined = plain.shape(Array(word.unicodeScalars)).runs.flatMap(\.glyphs)
        let isolated = word.unicodeScalars.map { plain.stack.primary.glyph(for: $0) }
        XCTAssertEqual(zip(joined.reversed(), isolated).filter { $0.glyph != $1 }.count, 3, "joining forms are kept")
    }

    func testCJKFallsBackToAFaceThatHasIt() throws {
        let s = try shaper()
        let text = "下载中 ダウンロード"
        let gs = glyphs(text, s)
        XCTAssertFalse(gs.contains { $0.glyph == 0 }, "no .notdef")
        XCTAssertTrue(gs.contains { $0.face.family.contains("WenQuanYi") || $0.face.family.contains("Noto") })
        XCTAssertFalse(s.stack.primary.covers("下"))
    }

    func testArabicIsJoinedAndRightToLeft() throws {
        let s = try shaper()
        let word = "سمك"  // seen, mim, kaf: initial, medial, final
        let (runs, rtl) = s.shape(Array(word.unicodeScalars))
        XCTAssertTrue(rtl)
        let joined = runs.flatMap(\.glyphs)
        XCTAssertFalse(joined.contains { $0.glyph == 0 })
        let isolated = word.unicodeScalars.map { s.stack.primary.glyph(for: $0) }
        // Visual order: the last letter (logically) comes first, in its final form.
        XCTAssertEqual(joined.map(\.cluster), [2, 1, 0])
        let differing = zip(joined.reversed(), isolated).filter { $0.glyph != $1 }.count
        XCTAssertEqual(differing, 3, "initial, medial and final forms, not the isolated ones")
    }

    func testMixedLineIsInVisualOrder() throws {
        let s = try shaper()
        // "abc ", an Arabic word, " def": the Arabic runs right to left between them.
        let text = Array("abc سمك def".unicodeScalars)
        let (runs, rtl) = s.shape(text)
        XCTAssertFalse(rtl)
        let clusters = runs.flatMap(\.glyphs).map(\.cluster)
        XCTAssertEqual(clusters, [0, 1, 2, 3, 6, 5, 4, 7, 8, 9, 10])
        let hebrewFirst = s.shape(Array("שלום abc".unicodeScalars))
        XCTAssertTrue(hebrewFirst.rightToLeft)
        XCTAssertEqual(hebrewFirst.runs.flatMap(\.glyphs).map(\.cluster), [5, 6, 7, 4, 3, 2, 1, 0])
    }
}
