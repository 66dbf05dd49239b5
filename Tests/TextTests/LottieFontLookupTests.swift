import LottieModel
import LottieRender
import Raster
import Text
import XCTest

/// Lottie text layers find a font named by family (or PostScript name) through fontconfig
/// when no file is named like it: WenQuanYi Zen Hei lives in wqy-zenhei.ttc.
final class LottieFontLookupTests: XCTestCase {
    private func render(family: String, name: String) throws -> Surface {
        let json = """
        {"v":"5.7.0","fr":30,"ip":0,"op":1,"w":120,"h":60,
         "fonts":{"list":[{"fName":"\(name)","fFamily":"\(family)","fStyle":"Regular","ascent":80}]},
         "layers":[{"ty":5,"ind":1,"ip":0,"op":1,"st":0,"ks":{"p":{"a":0,"k":[10,45]}},
          "t":{"d":{"k":[{"t":0,"s":{"t":"Ag下载","f":"\(name)","s":40,"j":0,"fc":[1,1,1]}}]}}}]}
        """
        let animation = try Animation.parse(Array(json.utf8), name: "font", baseDirectory: nil)
        var surface = Surface(width: 120, height: 60, clearColor: .black)
        AnimationRenderer(animation: animation).draw(frame: 0, into: &surface, matrix: .identity)
        return surface
    }

    private func isInk(_ p: UInt32) -> Bool { (p >> 8) & 0xff > 128 }

    func testFamilyNameFindsTheFaceThroughFontconfig() throws {
        let found = try render(family: "WenQuanYi Zen Hei", name: "WenQuanYiZenHeiPS")
        let missing = try render(family: "No Such Family", name: "NoSuchFontPS")
        let inkFound = found.pixels.map(isInk), inkMissing = missing.pixels.map(isInk)
        XCTAssertGreaterThan(inkFound.filter { $0 }.count, 100)
        XCTAssertGreaterThan(inkMissing.filter { $0 }.count, 100, "a missing font's characters come from a fallback face")
        // The face found by family is the one drawn: the same text set by the engine with it.
        let library = try FontLibrary()
        let stack = try library.stack(for: FontRequest(family: "WenQuanYi Zen Hei"))
        XCTAssertEqual(stack.primary.family, "WenQuanYi Zen Hei")
        let layout = TextShaper(stack: stack).layout("Ag下载", size: 40)
        var reference = Surface(width: 120, height: 60, clearColor: .black)
        reference.fill(layout.path(), transform: .translation(10, 45), paint: .solid(Color(r: 1, g: 1, b: 1, a: 1)))
        let differing = zip(found.pixels, reference.pixels).filter { a, b in a != b }.count
        XCTAssertLessThan(differing, 20, "drawn with the face its family names")
        XCTAssertNotEqual(found.pixels, missing.pixels, "the Latin letters of another face differ")
    }
}
