import Foundation
import XCTest
import LottieModel
import LottieRender
import Raster

/// An image first drawn small keeps a reduced copy (issue 10); when it later grows on screen
/// past that copy it is decoded again, so a frame's pixels do not depend on the frames drawn
/// before it (issue 11: issue_2269's ice image, tiny at frame 0, was blurred at frame 6.25 in
/// a batch and sharp alone).
final class ImageGrowthTests: XCTestCase {
    /// A 256x256 image of 1-pixel stripes, scaled from 10% at frame 0 to 100% at frame 10.
    static func growing() throws -> Animation {
        var stripes = Surface(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 { stripes.pixels[y * 256 + x] = x % 2 == 0 ? 0xFF00_00FF : 0xFFFF_FFFF } }
        let png = try PNG.encode(stripes)
        let scale = #"{"a":1,"k":[{"t":0,"s":[10,10],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":10,"s":[100,100]}]}"#
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":256,"h":256,"#
            + #""assets":[{"id":"img","w":256,"h":256,"e":1,"u":"","p":"data:image/png;base64,\#(Data(png).base64EncodedString())"}],"#
            + #""layers":[{"ty":2,"ind":1,"refId":"img","ip":0,"op":30,"st":0,"ks":{"s":\#(scale)}}]}"#
        return try Animation.parse(Array(json.utf8), name: "growing-image", baseDirectory: nil)
    }

    func testAFrameIsTheSameWhetherOrNotASmallerDrawCameFirst() throws {
        let animation = try Self.growing()
        let viewport = Viewport(width: 256, height: 256)
        let alone = AnimationRenderer(animation: animation).render(frame: 10, viewport: viewport)
        let renderer = AnimationRenderer(animation: animation)
        _ = renderer.render(frame: 0, viewport: viewport)
        let smallFirst = renderer.decodedImageBytes
        let after = renderer.render(frame: 10, viewport: viewport)
        // Drawn at 10% first, a reduced copy is kept, and the small full decode beside it.
        XCTAssertGreaterThan(smallFirst, 256 * 256 * 4)
        XCTAssertLessThan(smallFirst, 256 * 256 * 4 * 2)
        XCTAssertEqual(renderer.decodedImageBytes, 256 * 256 * 4, "drawn at full size, the full image replaces it")
        XCTAssertEqual(after.pixels, alone.pixels)
    }

    func testShrinkingAndGrowingAgainDrawsTheSamePixels() throws {
        let animation = try Self.growing()
        let viewport = Viewport(width: 256, height: 256)
        let renderer = AnimationRenderer(animation: animation)
        let first = renderer.render(frame: 10, viewport: viewport)
        let small = renderer.render(frame: 0, viewport: viewport)
        XCTAssertEqual(small.pixels, AnimationRenderer(animation: animation).render(frame: 0, viewport: viewport).pixels,
                       "drawn small from the full image, as when drawn small first")
        XCTAssertEqual(renderer.render(frame: 10, viewport: viewport).pixels, first.pixels)
    }

    /// A growing image whose full decode no longer fits the budget (another image took it
    /// meanwhile) is still drawn, from its reduced copy, and nothing is reported missing.
    func testAnImageThatOutgrowsItsCopyBeyondTheBudgetKeepsTheCopy() throws {
        var solid = Surface(width: 256, height: 256)
        for i in solid.pixels.indices { solid.pixels[i] = 0xFF20_40C0 }
        let png = Data(try PNG.encode(solid)).base64EncodedString()
        // a is held at 10% until b has been decoded in full, then grows to its full size.
        let scale = #"{"a":1,"k":[{"t":0,"s":[10,10],"h":1},{"t":8,"s":[100,100]}]}"#
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":512,"h":256,"assets":["#
            + #"{"id":"a","w":256,"h":256,"e":1,"u":"","p":"data:image/png;base64,\#(png)"},"#
            + #"{"id":"b","w":256,"h":256,"e":1,"u":"","p":"data:image/png;base64,\#(png)"}],"layers":["#
            + #"{"ty":2,"ind":1,"refId":"a","ip":0,"op":30,"st":0,"ks":{"s":\#(scale)}},"#
            + #"{"ty":2,"ind":2,"refId":"b","ip":5,"op":30,"st":0,"ks":{"p":{"a":0,"k":[256,0]}}}]}"#
        let animation = try Animation.parse(Array(json.utf8), name: "outgrown-image", baseDirectory: nil)
        var budget = RenderBudget()
        budget.maxImageBytes = 256 * 256 * 4 + 128 * 128 * 4  // b in full and a's copy, not both in full
        let renderer = AnimationRenderer(animation: animation, budget: budget)
        let viewport = Viewport(width: 512, height: 256)
        _ = renderer.render(frame: 0, viewport: viewport)
        _ = renderer.render(frame: 5, viewport: viewport)
        let grown = renderer.render(frame: 10, viewport: viewport)
        XCTAssertEqual(grown.pixels[128 * 512 + 128] >> 24, 0xFF, "a is drawn over its whole size")
        XCTAssertEqual(grown.pixels[128 * 512 + 384] >> 24, 0xFF, "b is drawn")
        XCTAssertFalse(renderer.warnings.contains { $0.contains("image asset") }, "\(renderer.warnings)")
    }
}
