import LottieModel
import LottieRender
import Raster
import XCTest

/// Small fidelity rules of issue 11, each checked on pixels: a colour's 4th component is
/// ignored, a zero-length dash draws a cap dot, an all-zero dash pattern stays solid, and a
/// matte source is recognised by its position when `td` is missing.
final class FidelityRuleTests: XCTestCase {
    func render(_ layers: String) throws -> Surface {
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":[\#(layers)]}"#
        let renderer = AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "rules", baseDirectory: nil))
        return renderer.render(frame: 0, viewport: Viewport(width: 100, height: 100))
    }

    func pixel(_ s: Surface, _ x: Int, _ y: Int) -> UInt32 { s.pixels[y * s.width + x] }

    /// A shape layer stroking the line (10,50)→(90,50), 10 wide, red, with cap `lc` and dashes.
    func dashedLine(cap: Int, dash: Double, gap: Double) -> String {
        #"""
        {"ty":4,"ind":1,"ip":0,"op":60,"st":0,\#(RenderBehaviourTests.identityTransform),"shapes":[
          {"ty":"sh","ks":{"a":0,"k":{"i":[[0,0],[0,0]],"o":[[0,0],[0,0]],"v":[[10,50],[90,50]],"c":false}}},
          {"ty":"st","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":10},"lc":\#(cap),"lj":1,"ml":4,
           "d":[{"n":"d","nm":"dash","v":{"a":0,"k":\#(dash)}},{"n":"g","nm":"gap","v":{"a":0,"k":\#(gap)}}]}]}
        """#
    }

    func testAColoursFourthComponentIsIgnored() throws {
        let layer = RenderBehaviourTests.rectLayer(center: (50, 50), size: (40, 40), color: (1, 0, 0))
            .replacingOccurrences(of: "[1.0,0.0,0.0,1]", with: "[1.0,0.0,0.0,0]")
        XCTAssertTrue(layer.contains("[1.0,0.0,0.0,0]"))
        XCTAssertEqual(pixel(try render(layer), 50, 50), 0xFFFF_0000, "alpha 0 in the colour: still drawn opaque")
    }

    func testZeroLengthDashesDrawCapDots() throws {
        let round = try render(dashedLine(cap: 2, dash: 0, gap: 30))
        for x in [10, 40, 70] {
            XCTAssertEqual(pixel(round, x, 50) >> 24, 255, "a round dot at x=\(x)")
        }
        XCTAssertEqual(pixel(round, 25, 50), 0, "between the dots")
        XCTAssertEqual(pixel(round, 40, 56), 0, "a dot is only the cap's radius high")
        let square = try render(dashedLine(cap: 3, dash: 0, gap: 30))
        XCTAssertEqual(pixel(square, 44, 54) >> 24, 255, "a square dot fills its corner")
        XCTAssertEqual(pixel(round, 44, 54), 0, "a round dot does not")
        let butt = try render(dashedLine(cap: 1, dash: 0, gap: 30))
        XCTAssertTrue(butt.pixels.allSatisfy { $0 >> 24 < 8 }, "butt caps: nothing to see")
    }

    func testAnAllZeroDashPatternStaysSolid() throws {
        let solid = try render(dashedLine(cap: 1, dash: 0, gap: 0))
        for x in [15, 25, 50, 85] { XCTAssertEqual(pixel(solid, x, 50), 0xFFFF_0000, "x=\(x)") }
    }

    func testAMatteSourceIsRecognisedByPositionWithoutTd() throws {
        let matte = RenderBehaviourTests.rectLayer(index: 1, name: "matte", center: (25, 50), size: (50, 100), color: (1, 0, 0))
        let content = RenderBehaviourTests.rectLayer(index: 2, name: "content", center: (50, 50), size: (100, 100),
                                                     color: (0, 0, 1), extra: #""tt":1,"#)
        let s = try render(matte + "," + content)
        XCTAssertEqual(pixel(s, 25, 50), 0xFF00_00FF, "the matte shows the content; it is not drawn itself")
        XCTAssertEqual(pixel(s, 75, 50), 0, "outside the matte")
        let animation = try Animation.parse(Array(#"{"v":"5","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":[\#(matte),\#(content)]}"#.utf8),
                                            name: "m", baseDirectory: nil)
        XCTAssertEqual(animation.layers.map(\.isMatteSource), [true, false])
    }
}
