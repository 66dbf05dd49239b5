import LottieModel
import LottieRender
import Raster
import XCTest

/// Small hand-written animations whose correct pixels are known exactly.
final class RenderBehaviourTests: XCTestCase {
    /// A 100x100 animation with the given layers (JSON text) and assets.
    func animation(layers: String, assets: String = "[]", width: Int = 100, height: Int = 100) throws -> AnimationRenderer {
        let json = """
        {"v":"5.7.0","fr":30,"ip":0,"op":60,"w":\(width),"h":\(height),"assets":\(assets),"layers":[\(layers)]}
        """
        return AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil))
    }

    static let identityTransform = #""ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}}"#

    /// A shape layer holding one rectangle (centre, size) filled with colour (0...1 RGB).
    static func rectLayer(index: Int = 1, name: String = "rect", center: (Double, Double), size: (Double, Double),
                          color: (Double, Double, Double), extra: String = "", transform: String = identityTransform,
                          items: String = "") -> String {
        """
        {"ty":4,"ind":\(index),"nm":"\(name)","ip":0,"op":60,"st":0,\(transform),\(extra)
         "shapes":[{"ty":"gr","nm":"g","it":[
            {"ty":"rc","nm":"r","p":{"a":0,"k":[\(center.0),\(center.1)]},"s":{"a":0,"k":[\(size.0),\(size.1)]},"r":{"a":0,"k":0}},
            \(items)
            {"ty":"fl","nm":"f","c":{"a":0,"k":[\(color.0),\(color.1),\(color.2),1]},"o":{"a":0,"k":100}},
            {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
        """
    }

    func pixel(_ s: Surface, _ x: Int, _ y: Int) -> UInt32 { s.pixels[y * s.width + x] }

    func testFilledRectangleCoversExactlyItsPixels() throws {
        let r = try animation(layers: Self.rectLayer(center: (50, 50), size: (40, 20), color: (1, 0, 0)))
        let s = r.render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(s, 50, 50), 0xFFFF_0000)
        XCTAssertEqual(pixel(s, 30, 40), 0xFFFF_0000)   // first pixel inside (30...70 × 40...60)
        XCTAssertEqual(pixel(s, 29, 50), 0)             // just left of it
        XCTAssertEqual(pixel(s, 50, 60), 0)             // just below it
        let covered = s.pixels.filter { $0 != 0 }.count
        XCTAssertEqual(covered, 40 * 20)
    }

    func testViewportFitScalesAndCentres() throws {
        let r = try animation(layers: Self.rectLayer(center: (50, 50), size: (100, 100), color: (0, 0, 1)))
        let s = r.render(frame: 0, viewport: Viewport(width: 200, height: 100, contentMode: .fit))
        XCTAssertEqual(pixel(s, 49, 50), 0, "letter-box band stays clear")
        XCTAssertEqual(pixel(s, 50, 50), 0xFF00_00FF)
        XCTAssertEqual(pixel(s, 149, 50), 0xFF00_00FF)
        XCTAssertEqual(pixel(s, 150, 50), 0)
        let filled = r.render(frame: 0, viewport: Viewport(width: 200, height: 100, contentMode: .fill))
        XCTAssertEqual(pixel(filled, 0, 0), 0xFF00_00FF, "fill covers the whole output")
    }

    func testEarlierLayersDrawOnTop() throws {
        let top = Self.rectLayer(index: 1, name: "top", center: (50, 50), size: (20, 20), color: (0, 1, 0))
        let bottom = Self.rectLayer(index: 2, name: "bottom", center: (50, 50), size: (60, 60), color: (1, 0, 0))
        let s = try animation(layers: top + "," + bottom).render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(s, 50, 50), 0xFF00_FF00)
        XCTAssertEqual(pixel(s, 25, 25), 0xFFFF_0000)
    }

    func testParentTransformMovesChild() throws {
        let parent = """
        {"ty":3,"ind":1,"nm":"parent","ip":0,"op":60,"st":0,"ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[30,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}}}
        """
        let child = Self.rectLayer(index: 2, name: "child", center: (20, 50), size: (10, 10), color: (1, 1, 1), extra: "\"parent\":1,")
        let s = try animation(layers: parent + "," + child).render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(s, 50, 50), 0xFFFF_FFFF, "child at 20 moved by the parent's 30")
        XCTAssertEqual(pixel(s, 20, 50), 0)
    }

    func testLayerIsVisibleFromInPointToOutPointInclusive() throws {
        let layer = Self.rectLayer(center: (50, 50), size: (10, 10), color: (1, 0, 0)).replacingOccurrences(of: "\"ip\":0,\"op\":60", with: "\"ip\":10,\"op\":20")
        let r = try animation(layers: layer)
        let vp = Viewport(width: 100, height: 100)
        XCTAssertEqual(pixel(r.render(frame: 9.9, viewport: vp), 50, 50), 0)
        XCTAssertEqual(pixel(r.render(frame: 10, viewport: vp), 50, 50), 0xFFFF_0000)
        XCTAssertEqual(pixel(r.render(frame: 20, viewport: vp), 50, 50), 0xFFFF_0000)
        XCTAssertEqual(pixel(r.render(frame: 20.1, viewport: vp), 50, 50), 0)
    }

    func testSubtractMaskCutsAHole() throws {
        let mask = #""hasMask":true,"masksProperties":[{"mode":"s","inv":false,"o":{"a":0,"k":100},"pt":{"a":0,"k":{"c":true,"v":[[40,40],[60,40],[60,60],[40,60]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}}}],"#
        let s = try animation(layers: Self.rectLayer(center: (50, 50), size: (80, 80), color: (1, 0, 0), extra: mask))
            .render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(s, 50, 50), 0, "inside the subtracted square")
        XCTAssertEqual(pixel(s, 20, 20), 0xFFFF_0000)
    }

    func testAlphaMatteShowsOnlyInsideTheMatte() throws {
        let matte = Self.rectLayer(index: 1, name: "matte", center: (25, 50), size: (50, 100), color: (1, 1, 1), extra: "\"td\":1,")
        let content = Self.rectLayer(index: 2, name: "content", center: (50, 50), size: (100, 100), color: (0, 0, 1), extra: "\"tt\":1,")
        let s = try animation(layers: matte + "," + content).render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(s, 10, 50), 0xFF00_00FF)
        XCTAssertEqual(pixel(s, 90, 50), 0, "outside the matte")
        let inverted = Self.rectLayer(index: 2, name: "content", center: (50, 50), size: (100, 100), color: (0, 0, 1), extra: "\"tt\":2,")
        let t = try animation(layers: matte + "," + inverted).render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(t, 10, 50), 0)
        XCTAssertEqual(pixel(t, 90, 50), 0xFF00_00FF)
    }

    func testTrimPathKeepsTheFirstHalfOfAStroke() throws {
        let layer = """
        {"ty":4,"ind":1,"nm":"line","ip":0,"op":60,"st":0,\(Self.identityTransform),
         "shapes":[{"ty":"gr","nm":"g","it":[
           {"ty":"sh","nm":"p","ks":{"a":0,"k":{"c":false,"v":[[10,50],[90,50]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]]}}},
           {"ty":"tm","nm":"t","s":{"a":0,"k":0},"e":{"a":0,"k":50},"o":{"a":0,"k":0},"m":1},
           {"ty":"st","nm":"s","c":{"a":0,"k":[0,1,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":10},"lc":1,"lj":1,"ml":4},
           {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
        """
        let s = try animation(layers: layer).render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(s, 20, 50), 0xFF00_FF00)
        XCTAssertEqual(pixel(s, 49, 50), 0xFF00_FF00)
        XCTAssertEqual(pixel(s, 51, 50), 0, "past the trim end at x = 50")
        XCTAssertEqual(pixel(s, 20, 56), 0, "outside the stroke's half width")
    }

    func testAnimatedPositionInterpolatesLinearly() throws {
        let moving = #""ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":1,"k":[{"t":0,"s":[0,0],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":10,"s":[40,0]}]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}}"#
        let r = try animation(layers: Self.rectLayer(center: (10, 50), size: (10, 10), color: (1, 0, 0), transform: moving))
        let s = r.render(frame: 5, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(s, 30, 50), 0xFFFF_0000, "halfway: moved by 20")
        XCTAssertEqual(pixel(s, 10, 50), 0)
    }

    func testPrecompTimeRemapPicksTheInnerFrame() throws {
        let inner = Self.rectLayer(index: 1, name: "late", center: (50, 50), size: (20, 20), color: (1, 0, 0))
            .replacingOccurrences(of: "\"ip\":0,\"op\":60", with: "\"ip\":30,\"op\":60")
        let assets = "[{\"id\":\"comp\",\"layers\":[\(inner)]}]"
        let precomp = """
        {"ty":0,"ind":1,"nm":"pre","refId":"comp","w":100,"h":100,"ip":0,"op":60,"st":0,\(Self.identityTransform),
         "tm":{"a":0,"k":1.5}}
        """
        // 1.5 s at 30 fps is inner frame 45, where the inner layer is visible whatever the outer frame.
        let s = try animation(layers: precomp, assets: assets).render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(s, 50, 50), 0xFFFF_0000)
    }

    func testLayerOpacityAppliesToTheGroupNotEachShape() throws {
        // Two overlapping opaque rectangles in one layer at 50 % opacity: the overlap is no darker.
        let transform = #""ks":{"o":{"a":0,"k":50},"r":{"a":0,"k":0},"p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}}"#
        let layer = """
        {"ty":4,"ind":1,"nm":"two","ip":0,"op":60,"st":0,\(transform),
         "shapes":[
           {"ty":"gr","nm":"a","it":[{"ty":"rc","nm":"r","p":{"a":0,"k":[40,50]},"s":{"a":0,"k":[40,40]},"r":{"a":0,"k":0}},
             {"ty":"fl","nm":"f","c":{"a":0,"k":[0,0,0,1]},"o":{"a":0,"k":100}},
             {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]},
           {"ty":"gr","nm":"b","it":[{"ty":"rc","nm":"r","p":{"a":0,"k":[60,50]},"s":{"a":0,"k":[40,40]},"r":{"a":0,"k":0}},
             {"ty":"fl","nm":"f","c":{"a":0,"k":[0,0,0,1]},"o":{"a":0,"k":100}},
             {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
        """
        let s = try animation(layers: layer).render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(s, 50, 50) >> 24, pixel(s, 30, 50) >> 24, "overlap has the same alpha as a single shape")
        XCTAssertEqual(Int(pixel(s, 30, 50) >> 24), 128, accuracy: 1)
    }
}
