import LottieModel
import LottieRender
import Raster
import Text
import XCTest

/// Lottie text layers drawn from the fonts a Debian install provides (DejaVu Sans, WenQuanYi
/// Zen Hei): Latin, CJK and Arabic lines set by the text engine, box text's first baseline,
/// wrapping, alignment and line height.
final class LottieTextLayoutTests: XCTestCase {
    static let font = #""fonts":{"list":[{"fName":"DejaVuSans","fFamily":"DejaVu Sans","fStyle":"Book","ascent":76}]},"#

    func render(_ document: String, width: Int = 300, height: Int = 100, position: (Double, Double) = (10, 50)) throws -> Surface {
        let json = """
        {"v":"5.7.0","fr":30,"ip":0,"op":1,"w":\(width),"h":\(height),\(Self.font)
         "layers":[{"ty":5,"ind":1,"ip":0,"op":1,"st":0,"ks":{"p":{"a":0,"k":[\(position.0),\(position.1)]}},
          "t":{"d":{"k":[{"t":0,"s":{"f":"DejaVuSans","fc":[1,1,1],\(document)}}]},"p":{},"m":{"g":1,"a":{"a":0,"k":[0,0]}},"a":[]}}]}
        """
        let animation = try Animation.parse(Array(json.utf8), name: "text.json", baseDirectory: nil)
        return AnimationRenderer(animation: animation).render(frame: 0, viewport: Viewport(width: width, height: height))
    }

    /// The same text laid out by the text engine directly and filled at the same place.
    func engine(_ text: String, size: Double, width: Int = 300, height: Int = 100, at origin: (Double, Double) = (10, 50),
                kerning: Bool = false) throws -> Surface {
        let library = try FontLibrary(extraDirectories: ["/usr/local/share/fonts", "/usr/share/fonts"])
        let stack = try library.stack(for: FontRequest(family: "DejaVu Sans", style: "Book", postScriptName: "DejaVuSans"))
        // As Lottie players set text: no pair kerning, no optional ligatures.
        let layout = TextShaper(stack: stack, kerning: kerning, ligatures: false).layout(text, size: size)
        var surface = Surface(width: width, height: height)
        surface.fill(layout.path(), transform: .translation(origin.0, origin.1), paint: .solid(Color(r: 1, g: 1, b: 1, a: 1)))
        return surface
    }

    func alpha(_ s: Surface, _ x: Int, _ y: Int) -> Int { Int(s.pixels[y * s.width + x] >> 24) }

    /// Rows and columns holding ink (alpha over half).
    func inkBounds(_ s: Surface) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var b: (Int, Int, Int, Int)?
        for y in 0..<s.height {
            for x in 0..<s.width where alpha(s, x, y) > 128 {
                b = b.map { (min($0.0, x), max($0.1, x), min($0.2, y), max($0.3, y)) } ?? (x, x, y, y)
            }
        }
        return b.map { (minX: $0.0, maxX: $0.1, minY: $0.2, maxY: $0.3) }
    }

    /// The largest difference of any channel between two surfaces, and how many pixels differ.
    func difference(_ a: Surface, _ b: Surface) -> (max: Int, count: Int) {
        var most = 0, count = 0
        for (p, q) in zip(a.pixels, b.pixels) where p != q {
            count += 1
            for shift in stride(from: 0, through: 24, by: 8) {
                most = max(most, abs(Int((p >> UInt32(shift)) & 0xff) - Int((q >> UInt32(shift)) & 0xff)))
            }
        }
        return (most, count)
    }

    func assertDrawnByTheEngine(_ text: String, minimumInk: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let lottie = try render(#""t":"\#(text)","s":30,"j":0"#)
        let reference = try engine(text, size: 30)
        let d = difference(lottie, reference)
        XCTAssertLessThanOrEqual(d.max, 2, "\(d.count) pixels differ", file: file, line: line)
        let ink = lottie.pixels.filter { $0 >> 24 > 128 }.count
        XCTAssertGreaterThan(ink, minimumInk, file: file, line: line)
    }

    func testLatinLineIsSetCharacterByCharacterWithoutPairKerning() throws {
        // DejaVu Sans kerns "AV", but a Lottie text sets each letter by its own advance (as
        // lottie-ios and lottie-web do, and as the glyph advances After Effects exports are).
        try assertDrawnByTheEngine("AVATAR Wave", minimumInk: 800)
        let lottie = try render(#""t":"AVATAR Wave","s":30,"j":0"#)
        XCTAssertGreaterThan(difference(lottie, try engine("AVATAR Wave", size: 30, kerning: true)).count, 50,
                             "the kerned line is drawn elsewhere")
    }

    func testCJKLineFallsBackToAFaceThatHasIt() throws {
        try assertDrawnByTheEngine("正在下载", minimumInk: 600)
        let library = try FontLibrary()
        let stack = try library.stack(for: FontRequest(family: "DejaVu Sans", postScriptName: "DejaVuSans"))
        XCTAssertTrue(stack.face(for: "载").covers("载"), "a face with the ideograph is installed (fonts-wqy-zenhei)")
    }

    func testArabicLineIsJoinedRightToLeft() throws {
        try assertDrawnByTheEngine("مرحبا بالعالم", minimumInk: 300)
        let library = try FontLibrary()
        let shaper = TextShaper(stack: try library.stack(for: FontRequest(family: "DejaVu Sans", postScriptName: "DejaVuSans")))
        let word = shaper.shape(Array("مرحبا".unicodeScalars))
        XCTAssertTrue(word.rightToLeft)
        let joined = word.runs.flatMap { $0.glyphs.map(\.glyph) }
        let isolated = "مرحبا".unicodeScalars.compactMap { shaper.shape([$0]).runs.first?.glyphs.first?.glyph }
        XCTAssertNotEqual(Set(joined), Set(isolated), "letters take their joining forms")
    }

    func testBoxTextHangsItsFirstBaselineACapHeightBelowTheTop() throws {
        // DejaVu Sans is 1.164 em high: a 46 px line height at 40 px leaves it no leading.
        let s = try render(#""t":"HH","s":40,"j":0,"ps":[20,30],"sz":[200,60],"lh":46"#, position: (0, 0))
        let ink = try XCTUnwrap(inkBounds(s))
        XCTAssertEqual(ink.minY, 30, "the tops of the capitals touch the box's top")
        let library = try FontLibrary()
        let face = try library.stack(for: FontRequest(family: "DejaVu Sans", postScriptName: "DejaVuSans")).primary
        XCTAssertLessThan((face.ascent + face.descent + face.lineGap) * 40, 46.6)
        XCTAssertEqual(Double(ink.maxY + 1), 30 + face.capHeight * 40, accuracy: 1, "the baseline is a cap height below")
    }

    func testBoxTextWrapsAndAlignsWithinTheBox() throws {
        // "HH HH" at 40 px is ~150 wide: a 100-wide box sets it in two lines of "HH" (~60 wide).
        let left = try render(#""t":"HH HH","s":40,"j":0,"ps":[20,10],"sz":[100,120],"lh":50"#, height: 140, position: (0, 0))
        let l = try XCTUnwrap(inkBounds(left))
        XCTAssertLessThan(l.maxX, 20 + 100, "both lines within the box")
        XCTAssertEqual(l.maxY - l.minY + 1, 50 + Int((0.729 * 40).rounded()), accuracy: 2, "two lines 50 apart")
        let centred = try render(#""t":"HH HH","s":40,"j":2,"ps":[20,10],"sz":[100,120],"lh":50"#, height: 140, position: (0, 0))
        let c = try XCTUnwrap(inkBounds(centred))
        XCTAssertEqual(Double(c.minX + c.maxX) / 2, 70, accuracy: 2, "centred on the box's middle")
    }

    func testBoxTextDropsLinesBelowTheBox() throws {
        let s = try render(#""t":"HH HH HH","s":40,"j":0,"ps":[20,10],"sz":[100,60],"lh":50"#, height: 200, position: (0, 0))
        let ink = try XCTUnwrap(inkBounds(s))
        XCTAssertLessThan(ink.maxY, 10 + 60 + 10, "only the lines whose baseline lies in the box are drawn")
    }

    func testPointTextLinesAreLineHeightApartAndAlignedOnTheOrigin() throws {
        let s = try render(#""t":"H\rHHH","s":30,"j":1,"lh":40"#, width: 200, height: 140, position: (150, 40))
        let ink = try XCTUnwrap(inkBounds(s))
        XCTAssertLessThanOrEqual(ink.maxX, 150, "right-justified lines end at the origin")
        XCTAssertEqual(ink.maxY - ink.minY + 1, 40 + Int((0.729 * 30).rounded()), accuracy: 2)
    }
}

extension LottieTextLayoutTests {
    func testJustifiedBoxTextStretchesAllButTheLastLine() throws {
        // "HH HH HH" in a 160-wide box: "HH HH" (~133) then "HH". Justified (j 4, "last line
        // right" in After Effects): the first line reaches both edges; lottie-ios sets every
        // justified code as Core Text's justified paragraph, whose last line starts at the left.
        let s = try render(#""t":"HH HH HH","s":40,"j":4,"ps":[20,10],"sz":[160,120],"lh":50"#, width: 220, height: 140, position: (0, 0))
        func inkRange(rows: Range<Int>) -> (Int, Int)? {
            let xs = rows.flatMap { y in (0..<s.width).filter { alpha(s, $0, y) > 128 } }
            return xs.min().map { ($0, xs.max()!) }
        }
        let first = try XCTUnwrap(inkRange(rows: 10..<40)), last = try XCTUnwrap(inkRange(rows: 60..<90))
        XCTAssertEqual(first.0, 20 + 3, accuracy: 2, "starts at the box's left (plus the H's side bearing)")
        XCTAssertEqual(first.1, 180 - 3, accuracy: 2, "ends at the box's right")
        XCTAssertEqual(last.0, 20 + 3, accuracy: 2, "the last line starts at the left, as Core Text sets a justified paragraph's")
        XCTAssertLessThan(last.1, 100, "and is not stretched")
    }
}

extension LottieTextLayoutTests {
    func testLinesAreTheLineHeightApartEvenCloserThanTheFontsHeight() throws {
        // After Effects' leading is kept as given, even below the font's ascent + descent + gap
        // (the lines overlap); a document without a line height uses the font's own height.
        let library = try FontLibrary()
        let face = try library.stack(for: FontRequest(family: "DejaVu Sans", postScriptName: "DejaVuSans")).primary
        let natural = (face.ascent + face.descent + face.lineGap) * 30
        XCTAssertGreaterThan(natural, 30, "DejaVu Sans is taller than its size")
        for (document, distance) in [(#""t":"H\rH","s":30,"j":0,"lh":24"#, 24.0), (#""t":"H\rH","s":30,"j":0"#, natural)] {
            let s = try render(document, width: 100, height: 120, position: (10, 40))
            let ink = try XCTUnwrap(inkBounds(s))
            XCTAssertEqual(Double(ink.maxY - ink.minY + 1), distance + face.capHeight * 30, accuracy: 2, document)
        }
    }
}

extension LottieTextLayoutTests {
    func testAFontFileNamedLikeTheFontIsUsed() throws {
        // A font folder holding WenQuanYi Zen Hei under the name the animation gives its font
        // (whose PostScript name says otherwise): its Latin letters are drawn, not Helvetica's.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-fontfile-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
                                         toPath: folder.appendingPathComponent("HouseFont-Bold.ttc").path)
        func render(fontName: String, directories: [String]) throws -> Surface {
            let json = """
            {"v":"5.7.0","fr":30,"ip":0,"op":1,"w":160,"h":60,
             "fonts":{"list":[{"fName":"\(fontName)","fFamily":"House Font","fStyle":"Bold","ascent":76}]},
             "layers":[{"ty":5,"ind":1,"ip":0,"op":1,"st":0,"ks":{"p":{"a":0,"k":[10,45]}},
              "t":{"d":{"k":[{"t":0,"s":{"t":"Agile","f":"\(fontName)","s":36,"j":0,"fc":[1,1,1]}}]},"a":[]}}]}
            """
            let animation = try Animation.parse(Array(json.utf8), name: "f.json", baseDirectory: nil)
            return AnimationRenderer(animation: animation, fontDirectories: directories).render(frame: 0, viewport: Viewport(width: 160, height: 60))
        }
        let byFile = try render(fontName: "HouseFont-Bold", directories: [folder.path])
        let without = try render(fontName: "HouseFont-Bold", directories: [])
        let library = try FontLibrary()
        let wqy = try library.stack(for: FontRequest(family: "WenQuanYi Zen Hei"))
        var reference = Surface(width: 160, height: 60)
        reference.fill(TextShaper(stack: wqy).layout("Agile", size: 36).path(), transform: .translation(10, 45),
                       paint: .solid(Color(r: 1, g: 1, b: 1, a: 1)))
        XCTAssertLessThanOrEqual(difference(byFile, reference).max, 2)
        XCTAssertGreaterThan(difference(without, reference).count, 100, "without the folder another face is drawn")
    }
}

extension LottieTextLayoutTests {
    /// A file whose glyph list has "H" (a 40 × 60 block) but not "A": with the named font
    /// installed (DejaVu Sans) the whole line is set from the font, so one line never mixes the
    /// file's shapes and advances with the font's; with the font missing the file's block is
    /// still drawn (and "A" comes from the stand-in).
    func renderPartialGlyphList(fontName: String, family: String) throws -> Surface {
        let json = """
        {"v":"5.7.0","fr":30,"ip":0,"op":1,"w":300,"h":100,
         "fonts":{"list":[{"fName":"\(fontName)","fFamily":"\(family)","fStyle":"Book","ascent":76}]},
         "chars":[{"ch":"H","size":100,"style":"Book","w":50,"fFamily":"\(family)","data":{"shapes":[{"ty":"gr","it":[
           {"ty":"sh","ks":{"a":0,"k":{"c":true,"v":[[0,-60],[40,-60],[40,0],[0,0]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}}},
           {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}}],
         "layers":[{"ty":5,"ind":1,"ip":0,"op":1,"st":0,"ks":{"p":{"a":0,"k":[10,50]}},
          "t":{"d":{"k":[{"t":0,"s":{"t":"HA","f":"\(fontName)","s":30,"j":0,"fc":[1,1,1]}}]},"a":[]}}]}
        """
        let animation = try Animation.parse(Array(json.utf8), name: "partial.json", baseDirectory: nil)
        return AnimationRenderer(animation: animation).render(frame: 0, viewport: Viewport(width: 300, height: 100))
    }

    func testAGlyphListMissingCharactersGivesWayToTheInstalledFont() throws {
        let installed = try renderPartialGlyphList(fontName: "DejaVuSans", family: "DejaVu Sans")
        let d = difference(installed, try engine("HA", size: 30))
        XCTAssertLessThanOrEqual(d.max, 2, "\(d.count) pixels differ from DejaVu Sans's HA")
        let missing = try renderPartialGlyphList(fontName: "NoSuchFont-Book", family: "No Such Font")
        // The block covers x 10...22, y 32...50 at 30 px: its middle is solid.
        XCTAssertEqual(alpha(missing, 16, 41), 255, "the file's H block is drawn")
        XCTAssertLessThan(alpha(installed, 16, 41), 128, "DejaVu's H has no ink between its stems")
    }
}

extension LottieTextLayoutTests {
    /// Text in a font that is not installed, set in Helvetica's stand-in.
    func renderStandIn(_ document: String, position: (Double, Double)) throws -> Surface {
        let json = """
        {"v":"5.7.0","fr":30,"ip":0,"op":1,"w":200,"h":120,
         "fonts":{"list":[{"fName":"NoSuchFont-Book","fFamily":"No Such Font","fStyle":"Book","ascent":72}]},
         "layers":[{"ty":5,"ind":1,"ip":0,"op":1,"st":0,"ks":{"p":{"a":0,"k":[\(position.0),\(position.1)]}},
          "t":{"d":{"k":[{"t":0,"s":{"f":"NoSuchFont-Book","fc":[1,1,1],\(document)}}]},"a":[]}}]}
        """
        let animation = try Animation.parse(Array(json.utf8), name: "standin.json", baseDirectory: nil)
        return AnimationRenderer(animation: animation).render(frame: 0, viewport: Viewport(width: 200, height: 120))
    }

    func testBoxTextHangsHalfItsLeadingAboveTheFirstLine() throws {
        // Helvetica (Core Text's face for an unknown font) is 1.0 em high: a line height of
        // 60 at 40 px leaves 20 of leading, half of it above the line; 40 and 30 leave none.
        func baseline(_ lineHeight: Int, box: Bool = true) throws -> Int {
            let placement = box ? #""ps":[20,10],"sz":[160,100],"# : ""
            let s = try renderStandIn(#""t":"H","s":40,"j":0,\#(placement)"lh":\#(lineHeight)"#, position: box ? (0, 0) : (20, 60))
            return try XCTUnwrap(inkBounds(s)).maxY
        }
        let tight = try baseline(40)
        XCTAssertEqual(tight + 1, 10 + Int((0.72 * 40).rounded()), accuracy: 1, "a cap height below the top")
        XCTAssertEqual(try baseline(60) - tight, 10, accuracy: 1, "half of 20 of leading")
        XCTAssertEqual(try baseline(48) - tight, 4, accuracy: 1, "half of 8 of leading")
        XCTAssertEqual(try baseline(30), tight, "no leading below the face's height")
        XCTAssertEqual(try baseline(60, box: false), try baseline(40, box: false), "point text hangs on its origin")
    }

    func testJustifiedCodesSetTheLastLineFromTheLeft() throws {
        // "HH" in a 160-wide box: one line, which ends its paragraph. Codes 3 to 6 ("last line
        // left / right / centred / justified" in After Effects) all set it from the box's left,
        // as lottie-ios (Core Text's justified alignment) and lottie-web do; 1 and 2 do not.
        func left(_ j: Int) throws -> Int {
            let s = try render(#""t":"HH","s":40,"j":\#(j),"ps":[20,10],"sz":[160,60],"lh":48"#, width: 220, height: 80, position: (0, 0))
            return try XCTUnwrap(inkBounds(s)).minX
        }
        let start = try left(0)
        for j in 3...6 { XCTAssertEqual(try left(j), start, "j \(j)") }
        XCTAssertGreaterThan(try left(1), start + 60, "right")
        XCTAssertGreaterThan(try left(2), start + 30, "centred")
    }
}

extension LottieTextLayoutTests {
    /// "H" from a file whose glyph list has it (a 40 × 60 block) in the font `fontName`.
    func renderBlockGlyph(fontName: String, family: String) throws -> Surface {
        let json = """
        {"v":"5.7.0","fr":30,"ip":0,"op":1,"w":100,"h":80,
         "fonts":{"list":[{"fName":"\(fontName)","fFamily":"\(family)","fStyle":"Medium","ascent":72}]},
         "chars":[{"ch":"H","size":100,"style":"Medium","w":50,"fFamily":"\(family)","data":{"shapes":[{"ty":"gr","it":[
           {"ty":"sh","ks":{"a":0,"k":{"c":true,"v":[[0,-60],[40,-60],[40,0],[0,0]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}}},
           {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}}],
         "layers":[{"ty":5,"ind":1,"ip":0,"op":1,"st":0,"ks":{"p":{"a":0,"k":[10,60]}},
          "t":{"d":{"k":[{"t":0,"s":{"t":"H","f":"\(fontName)","s":40,"j":0,"fc":[1,1,1]}}]},"a":[]}}]}
        """
        let animation = try Animation.parse(Array(json.utf8), name: "block.json", baseDirectory: nil)
        return AnimationRenderer(animation: animation).render(frame: 0, viewport: Viewport(width: 100, height: 80))
    }

    func testSanFranciscoIsDrawnInHelveticasStandInNotTheFilesGlyphs() throws {
        // Core Text does not find Apple's San Francisco faces by their exported names, so
        // lottie-ios draws them in Helvetica; other missing fonts keep the file's glyphs.
        // The block spans x 10...26, y 36...60 at 40 px: between an H's stems it is solid.
        let other = try renderBlockGlyph(fontName: "HouseSans-Medium", family: "House Sans")
        XCTAssertEqual(alpha(other, 18, 50), 255, "the file's block")
        for (name, family) in [("SFProDisplay-Medium", "SF Pro Display"), ("SFCompactText-Medium", "SF Compact Text"),
                               ("SFUIDisplay-Medium", "SF UI Display")] {
            let sf = try renderBlockGlyph(fontName: name, family: family)
            XCTAssertLessThan(alpha(sf, 18, 50), 128, "\(name): an H, not the block")
            XCTAssertGreaterThan(sf.pixels.filter { $0 >> 24 > 128 }.count, 100, "\(name): drawn")
        }
    }
}
