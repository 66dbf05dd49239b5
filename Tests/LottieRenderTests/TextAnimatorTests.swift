import LottieModel
import LottieRender
import Raster
import XCTest

/// Text animators on a text drawn from the file's own glyphs: "I" is a bar 10 wide and 70 tall
/// standing on the baseline 5 units into an advance of 20 (at 100 points), so every glyph's
/// pixels are known exactly. The layer's origin (the first baseline) is at (20, 90): the first
/// "I" covers x 25...35, the second 45...55, both y 20...90.
final class TextAnimatorTests: XCTestCase {
    static let glyphFile = """
    "fonts":{"list":[{"fName":"Bars-Regular","fFamily":"Bars","fStyle":"Regular","ascent":70}]},
    "chars":[{"ch":"I","size":100,"style":"Regular","w":20,"fFamily":"Bars","data":{"shapes":[{"ty":"gr","it":[
        {"ty":"sh","ks":{"a":0,"k":{"c":true,"v":[[5,-70],[15,-70],[15,0],[5,0]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}}},
        {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}}],
    """

    /// Renders `text` with one animator: `selector` members and `properties` (JSON).
    func render(_ text: String = "II", selector: String = #""r":2,"b":1,"sh":1,"s":{"a":0,"k":1},"e":{"a":0,"k":2}"#,
                properties: String, document: String = "", size: Int = 120) throws -> Surface {
        let json = """
        {"v":"5.7.0","fr":30,"ip":0,"op":60,"w":\(size),"h":\(size),\(Self.glyphFile)
         "layers":[{"ty":5,"ind":1,"ip":0,"op":60,"st":0,"ks":{"p":{"a":0,"k":[20,90]}},
          "t":{"d":{"k":[{"t":0,"s":{"t":"\(text)","f":"Bars-Regular","s":100,"j":0,"fc":[1,0,0]\(document)}}]},"p":{},
               "m":{"g":1,"a":{"a":0,"k":[0,0]}},"a":[{"nm":"A","s":{"t":0,\(selector)},"a":{\(properties)}}]}}]}
        """
        let animation = try Animation.parse(Array(json.utf8), name: "text.json", baseDirectory: nil)
        XCTAssertTrue(animation.warnings.isEmpty, "\(animation.warnings)")
        return AnimationRenderer(animation: animation).render(frame: 0, viewport: Viewport(width: size, height: size))
    }

    func pixel(_ s: Surface, _ x: Int, _ y: Int) -> UInt32 { s.pixels[y * s.width + x] }
    let red: UInt32 = 0xFFFF_0000

    func testOpacityHidesOnlyTheSelectedCharacter() throws {
        let s = try render(properties: #""o":{"a":0,"k":0}"#)
        XCTAssertEqual(pixel(s, 30, 50), red)
        XCTAssertEqual(pixel(s, 50, 50), 0)
    }

    func testAmountScalesTheEffect() throws {
        let s = try render(selector: #""r":2,"b":1,"sh":1,"s":{"a":0,"k":1},"e":{"a":0,"k":2},"a":{"a":0,"k":50}"#,
                           properties: #""o":{"a":0,"k":0}"#)
        XCTAssertEqual(Int(pixel(s, 50, 50) >> 24), 128, accuracy: 2, "half the opacity taken away")
        XCTAssertEqual(pixel(s, 30, 50), red)
    }

    func testPositionMovesTheSelectedCharacter() throws {
        let s = try render(properties: #""p":{"a":0,"k":[0,-15,0]}"#)
        XCTAssertEqual(pixel(s, 50, 10), red)    // glyph 2 now covers y 5...75
        XCTAssertEqual(pixel(s, 50, 80), 0)
        XCTAssertEqual(pixel(s, 30, 85), red)    // glyph 1 stays
    }

    func testScaleGrowsAroundTheBaselineCentre() throws {
        let s = try render(properties: #""s":{"a":0,"k":[200,200,100]}"#)
        // Glyph 2 doubled about (50, 90): x 40...60, y -50...90.
        XCTAssertEqual(pixel(s, 42, 50), red)
        XCTAssertEqual(pixel(s, 58, 5), red)
        XCTAssertEqual(pixel(s, 38, 50), 0)
        XCTAssertEqual(pixel(s, 37, 50), 0)
    }

    func testRotationTurnsAboutTheBaselineCentre() throws {
        let s = try render(properties: #""r":{"a":0,"k":90}"#)
        // A quarter turn clockwise about (50, 90): the bar lies along y 85...95 from x 50 to 120.
        XCTAssertEqual(pixel(s, 90, 90), red)
        XCTAssertEqual(pixel(s, 50, 50), 0)
        XCTAssertEqual(pixel(s, 30, 50), red)
    }

    func testSkewLeansTheSelectedCharacter() throws {
        let s = try render(properties: #""sk":{"a":0,"k":30},"sa":{"a":0,"k":0}"#)
        // tan 30° ≈ 0.577: 60 units above the baseline the bar has moved ~35 sideways.
        let top = (0..<120).filter { pixel(s, $0, 30) == red }
        XCTAssertEqual(top.first, 25)            // glyph 1 upright
        XCTAssertTrue(top.contains(50 + 35) || top.contains(50 - 35), "\(top)")
        XCTAssertEqual(pixel(s, 50, 89), red)    // the foot stays on the baseline
    }

    func testFillColourBlendsTowardsItsValue() throws {
        let s = try render(properties: #""fc":{"a":0,"k":[0,0,1,1]}"#)
        XCTAssertEqual(pixel(s, 50, 50), 0xFF00_00FF)
        XCTAssertEqual(pixel(s, 30, 50), red)
    }

    func testStrokeWidthIsAddedToTheDocuments() throws {
        let s = try render(properties: #""sw":{"a":0,"k":6}"#, document: #","sc":[0,1,0],"sw":0"#)
        XCTAssertEqual(pixel(s, 43, 50), 0xFF00_FF00, "glyph 2 outlined 3 px on each side")
        XCTAssertEqual(pixel(s, 23, 50), 0, "glyph 1 keeps the document's zero width")
        XCTAssertEqual(pixel(s, 50, 50), red)
    }

    func testStrokeColourBlendsTowardsItsValue() throws {
        let s = try render(properties: #""sc":{"a":0,"k":[0,0,1,1]}"#, document: #","sc":[0,1,0],"sw":6"#)
        XCTAssertEqual(pixel(s, 43, 50), 0xFF00_00FF)
        XCTAssertEqual(pixel(s, 23, 50), 0xFF00_FF00)
    }

    func testTrackingPushesTheFollowingCharacters() throws {
        // Half an em after the first character: the second moves 50 to the right.
        let s = try render(selector: #""r":2,"b":1,"sh":1,"s":{"a":0,"k":0},"e":{"a":0,"k":1}"#, properties: #""t":{"a":0,"k":500}"#)
        XCTAssertEqual(pixel(s, 100, 50), red)
        XCTAssertEqual(pixel(s, 50, 50), 0)
        XCTAssertEqual(pixel(s, 30, 50), red)
    }

    func testAnimatorTrackingAddsToTheDocumentsTracking() throws {
        // After Effects (and lottie-web) add an animator's tracking to the paragraph's: 0.2 em
        // from the document and 0.3 em from the animator put the second "I" at pen 70, its bar
        // at x 95...105. (lottie-ios lets the animator's value replace the document's: 75...85.)
        let s = try render(selector: #""r":2,"b":1,"sh":1,"s":{"a":0,"k":0},"e":{"a":0,"k":1}"#, properties: #""t":{"a":0,"k":300}"#,
                           document: #","tr":200"#)
        XCTAssertEqual(pixel(s, 100, 50), red)
        XCTAssertEqual(pixel(s, 80, 50), 0)
        XCTAssertEqual(pixel(s, 30, 50), red)
    }

    func testWordsBasisSelectsWholeWords() throws {
        // "I II": the space has no glyph (half an em); the second word starts at pen 70.
        let s = try render("I II", selector: #""r":2,"b":3,"sh":1,"s":{"a":0,"k":1},"e":{"a":0,"k":2}"#, properties: #""o":{"a":0,"k":0}"#)
        XCTAssertEqual(pixel(s, 30, 50), red)
        XCTAssertEqual(pixel(s, 100, 50), 0)
        XCTAssertEqual(pixel(s, 115, 50), 0)
    }

    func testCharactersExcludingSpacesSkipsTheSpace() throws {
        let s = try render("I I", selector: #""r":2,"b":2,"sh":1,"s":{"a":0,"k":1},"e":{"a":0,"k":2}"#, properties: #""o":{"a":0,"k":0}"#)
        XCTAssertEqual(pixel(s, 30, 50), red)
        XCTAssertEqual(pixel(s, 100, 50), 0, "non-space character 1 is the second I")
    }

    func testLinesBasisSelectsALine() throws {
        let s = try render("I\\rI", selector: #""r":2,"b":4,"sh":1,"s":{"a":0,"k":0},"e":{"a":0,"k":1}"#,
                           properties: #""o":{"a":0,"k":0}"#, document: #","lh":30"#)
        XCTAssertEqual(pixel(s, 30, 20), 0, "line 1 (y 20...90) hidden")
        XCTAssertEqual(pixel(s, 30, 100), red, "line 2 (y 50...120) drawn")
    }

    func testPercentUnitsCountTheWholeText() throws {
        // 50 %...100 % of "IIII" is characters 2 and 3.
        let s = try render("IIII", selector: #""r":1,"b":1,"sh":1,"s":{"a":0,"k":50},"e":{"a":0,"k":100}"#,
                           properties: #""o":{"a":0,"k":0}"#, size: 120)
        XCTAssertEqual(pixel(s, 50, 50), red)
        XCTAssertEqual(pixel(s, 70, 50), 0)
        XCTAssertEqual(pixel(s, 90, 50), 0)
    }

    func testHostileAnimatorValuesDrawNothingWrongAndDoNotTrap() throws {
        let hostile = #"{"nm":"H","s":{"t":0,"r":1,"b":3,"sh":5,"s":{"a":0,"k":-1e308},"e":{"a":0,"k":1e308},"o":{"a":0,"k":1e308},"#
            + #""xe":{"a":0,"k":1e300},"ne":{"a":0,"k":-1e300},"a":{"a":0,"k":1e300},"sm":{"a":0,"k":-5}},"#
            + #""a":{"t":{"a":0,"k":1e300},"s":{"a":0,"k":[0,1e308]},"p":{"a":0,"k":[1e308,-1e308]},"r":{"a":0,"k":1e308},"#
            + #""sk":{"a":0,"k":1e308},"o":{"a":0,"k":-1e308},"sw":{"a":0,"k":1e308},"fc":{"a":0,"k":[1e9,-1e9,0]}}}"#
        let plain = #"{"s":{"t":0,"s":{"a":0,"k":0},"e":{"a":0,"k":50}},"a":{"o":{"a":0,"k":50}}}"#
        let animators = ([hostile] + Array(repeating: plain, count: 149)).joined(separator: ",")
        let json = """
        {"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,\(Self.glyphFile)
         "layers":[{"ty":5,"ind":1,"ip":0,"op":60,"st":0,"ks":{"p":{"a":0,"k":[20,90]}},
          "t":{"d":{"k":[{"t":0,"s":{"t":"\(String(repeating: "I I\\r", count: 300))","f":"Bars-Regular","s":100,"fc":[1,0,0],"sc":[0,1,0],"sw":1}}]},
               "a":[\(animators)]}}]}
        """
        let animation = try Animation.parse(Array(json.utf8), name: "hostile.json", baseDirectory: nil)
        XCTAssertTrue(animation.warnings.contains { $0.message.contains("text animators") })
        guard case .text(let data) = animation.layers[0].kind else { return XCTFail("not a text layer") }
        XCTAssertEqual(data.animators.count, ParseLimits().maxTextAnimators)
        let surface = AnimationRenderer(animation: animation).render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(surface.pixels.count, 100 * 100)
    }
}

extension TextAnimatorTests {
    func testLineGroupingTurnsCharactersAboutTheirLinesCentre() throws {
        // Both glyphs turned a quarter about the middle of the line "II" (x 20 on the layer,
        // 40 on the canvas, on the baseline y 20): the first bar lies along y 5...15 and the
        // second along y 25...35, both from x 40 to 110. Turned each about its own middle
        // (characters grouping) they would lie along y 15...25.
        let json = """
        {"v":"5.7.0","fr":30,"ip":0,"op":60,"w":120,"h":120,\(Self.glyphFile)
         "layers":[{"ty":5,"ind":1,"ip":0,"op":60,"st":0,"ks":{"p":{"a":0,"k":[20,20]}},
          "t":{"d":{"k":[{"t":0,"s":{"t":"II","f":"Bars-Regular","s":100,"j":0,"fc":[1,0,0]}}]},"p":{},
               "m":{"g":3,"a":{"a":0,"k":[0,0]}},"a":[{"nm":"A","s":{"t":0,"r":1,"b":1,"sh":1},"a":{"r":{"a":0,"k":90}}}]}}]}
        """
        let animation = try Animation.parse(Array(json.utf8), name: "text.json", baseDirectory: nil)
        let s = AnimationRenderer(animation: animation).render(frame: 0, viewport: Viewport(width: 120, height: 120))
        XCTAssertEqual(pixel(s, 100, 10), red)
        XCTAssertEqual(pixel(s, 100, 30), red)
        XCTAssertEqual(pixel(s, 60, 20), 0)
    }
}
