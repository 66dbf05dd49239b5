import LottieModel
import LottieRender
import Raster
import XCTest

/// Offscreen layers (masks, mattes, shadows) work over their bounds only, in buffers kept
/// from frame to frame.
final class BoundedLayerTests: XCTestCase {
    func animation(layers: String) throws -> AnimationRenderer {
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + layers + "]}"
        return AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil))
    }

    func pixel(_ s: Surface, _ x: Int, _ y: Int) -> UInt32 { s.pixels[y * s.width + x] }

    static func squareMask(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, mode: String = "a") -> String {
        """
        "hasMask":true,"masksProperties":[{"mode":"\(mode)","inv":false,"o":{"a":0,"k":100},"pt":{"a":0,"k":{"c":true,\
        "v":[[\(x0),\(y0)],[\(x1),\(y0)],[\(x1),\(y1)],[\(x0),\(y1)]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}}}],
        """
    }

    /// A transform whose position moves from (0, 0) to (30, 20) over 20 frames.
    static let moving = #""ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":1,"k":[{"t":0,"s":[0,0],"e":[30,20],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":20,"s":[30,20]}]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}}"#

    func movingAnimation() throws -> AnimationRenderer {
        let masked = RenderBehaviourTests.rectLayer(index: 1, name: "masked", center: (40, 40), size: (50, 50), color: (1, 0, 0),
                                                    extra: Self.squareMask(20, 20, 50, 45), transform: Self.moving)
        let matte = RenderBehaviourTests.rectLayer(index: 2, name: "matte", center: (30, 60), size: (30, 30), color: (1, 1, 1),
                                                   extra: "\"td\":1,", transform: Self.moving)
        let matted = RenderBehaviourTests.rectLayer(index: 3, name: "matted", center: (50, 50), size: (80, 80), color: (0, 0, 1),
                                                    extra: "\"tt\":1,")
        return try animation(layers: [masked, matte, matted].joined(separator: ","))
    }

    func testOffscreenBuffersAreReusedFromFrameToFrame() throws {
        let renderer = try movingAnimation()
        var surface = Surface(width: 100, height: 100)
        let viewport = Viewport(width: 100, height: 100)
        for frame in 0..<20 { renderer.render(frame: Double(frame), viewport: viewport, into: &surface) }
        let afterFirstPass = renderer.bufferAllocations
        XCTAssertGreaterThan(afterFirstPass, 0, "masks and mattes draw into pooled buffers")
        for frame in 0..<20 { renderer.render(frame: Double(frame), viewport: viewport, into: &surface) }
        XCTAssertEqual(renderer.bufferAllocations, afterFirstPass, "no buffer is made again in the steady state")
    }

    func testMaskedAndMattedLayersStillDrawTheirPixels() throws {
        let s = try movingAnimation().render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(pixel(s, 30, 30), 0xFFFF_0000, "inside the mask")
        XCTAssertEqual(pixel(s, 55, 30), 0, "inside the rectangle, outside its mask")
        XCTAssertEqual(pixel(s, 30, 60), 0xFF00_00FF, "inside the matte")
        XCTAssertEqual(pixel(s, 80, 80), 0, "outside the matte")
    }

    func testALayerWhoseMaskIsOffScreenIsSkippedWithoutABuffer() throws {
        let layer = RenderBehaviourTests.rectLayer(center: (50, 50), size: (80, 80), color: (1, 0, 0),
                                                   extra: Self.squareMask(200, 200, 240, 240))
        let renderer = try animation(layers: layer)
        let s = renderer.render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertTrue(s.pixels.allSatisfy { $0 == 0 })
        XCTAssertEqual(renderer.bufferAllocations, 0, "empty bounds: nothing drawn, nothing allocated")
    }
}
