import Foundation
import XCTest
import LottieModel
import LottieRender
import Raster

/// A small image kept as a reduced copy holds its full decode too, so that growing on screen
/// makes the new copy from it instead of decoding the file again (issue 9: particles that
/// scale up from nothing decoded their PNG again at every doubling).
final class ImageSourceHoldTests: XCTestCase {
    /// A 256x256 image of 1-pixel stripes in a file beside the animation, scaled from 10% at
    /// frame 0 to 100% at frame 10.
    static func growingFromFile(in folder: URL) throws -> Animation {
        var stripes = Surface(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 { stripes.pixels[y * 256 + x] = x % 2 == 0 ? 0xFF00_00FF : 0x80FF_FFFF } }
        try PNG.write(stripes, to: folder.appendingPathComponent("stripes.png").path)
        let scale = #"{"a":1,"k":[{"t":0,"s":[10,10],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":10,"s":[100,100]}]}"#
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":256,"h":256,"#
            + #""assets":[{"id":"img","w":256,"h":256,"e":0,"u":"","p":"stripes.png"}],"#
            + #""layers":[{"ty":2,"ind":1,"refId":"img","ip":0,"op":30,"st":0,"ks":{"s":\#(scale)}}]}"#
        return try Animation.parse(Array(json.utf8), name: "growing-file-image", baseDirectory: folder.path)
    }

    func testAGrowingImageIsNotDecodedAgainAndDrawsTheSamePixels() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-hold-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let animation = try Self.growingFromFile(in: folder)
        let viewport = Viewport(width: 256, height: 256)
        let grownAlone = AnimationRenderer(animation: animation).render(frame: 5, viewport: viewport)
        let renderer = AnimationRenderer(animation: animation)
        _ = renderer.render(frame: 0, viewport: viewport)
        // The file is gone: the grown copy can only come from the held decode.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("stripes.png"))
        let grown = renderer.render(frame: 5, viewport: viewport)
        XCTAssertEqual(grown.pixels, grownAlone.pixels)
        XCTAssertTrue(renderer.warnings.isEmpty, "\(renderer.warnings)")
        XCTAssertEqual(AnimationRenderer(animation: animation).render(frame: 5, viewport: viewport).pixels.allSatisfy { $0 == 0 }, true,
                       "without the file and the held decode nothing is drawn (the test can fail)")
    }

    /// Held full decodes give way to images that must be drawn: a budget that holds the
    /// second image only without the first's held decode still draws both.
    func testHeldDecodesGiveWayToImagesThatMustBeDrawn() throws {
        var solid = Surface(width: 256, height: 256)
        for i in solid.pixels.indices { solid.pixels[i] = 0xFF20_40C0 }
        let png = Data(try PNG.encode(solid)).base64EncodedString()
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":512,"h":256,"assets":["#
            + #"{"id":"a","w":256,"h":256,"e":1,"u":"","p":"data:image/png;base64,\#(png)"},"#
            + #"{"id":"b","w":256,"h":256,"e":1,"u":"","p":"data:image/png;base64,\#(png)"}],"layers":["#
            + #"{"ty":2,"ind":1,"refId":"a","ip":0,"op":30,"st":0,"ks":{"s":{"a":0,"k":[10,10]}}},"#
            + #"{"ty":2,"ind":2,"refId":"b","ip":5,"op":30,"st":0,"ks":{"p":{"a":0,"k":[256,0]}}}]}"#
        let animation = try Animation.parse(Array(json.utf8), name: "held-image", baseDirectory: nil)
        var budget = RenderBudget()
        budget.maxImageBytes = 256 * 256 * 4 + 128 * 128 * 4
        let renderer = AnimationRenderer(animation: animation, budget: budget)
        let viewport = Viewport(width: 512, height: 256)
        _ = renderer.render(frame: 0, viewport: viewport)
        XCTAssertGreaterThan(renderer.decodedImageBytes, 256 * 256 * 4, "a's full decode is held beside its copy")
        let both = renderer.render(frame: 5, viewport: viewport)
        XCTAssertEqual(both.pixels[128 * 512 + 384], 0xFF20_40C0, "b is drawn")
        XCTAssertEqual(both.pixels[10 * 512 + 10] >> 24, 0xFF, "a is drawn")
        XCTAssertLessThanOrEqual(renderer.decodedImageBytes, budget.maxImageBytes)
        XCTAssertFalse(renderer.warnings.contains { $0.contains("image asset") }, "\(renderer.warnings)")
    }
}
