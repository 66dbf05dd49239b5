import Foundation
import XCTest
import LottieModel
import LottieRender
import Raster

/// Image assets stay inside the animation's folder (issue 10): `../`, absolute paths and
/// symbolic links out of it are refused with a warning and the rest still draws; images are
/// decoded when first drawn, within a byte budget.
final class ImageAssetTests: XCTestCase {
    var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "buoy-assets-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/anim/images", withIntermediateDirectories: true)
        try PNG.write(Surface(width: 8, height: 8, clearColor: .white), to: root + "/anim/images/ok.png")
        try PNG.write(Surface(width: 8, height: 8, clearColor: .black), to: root + "/outside.png")
        try fm.createSymbolicLink(atPath: root + "/anim/images/link.png", withDestinationPath: root + "/outside.png")
        try fm.createSymbolicLink(atPath: root + "/anim/up", withDestinationPath: "..")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    static func asset(_ id: String, _ u: String, _ p: String) -> String {
        #"{"id":"\#(id)","w":100,"h":100,"u":"\#(u)","p":"\#(p)","e":0}"#
    }

    static func imageLayer(_ refId: String, index: Int) -> String {
        #"{"ty":2,"ind":\#(index),"refId":"\#(refId)","ip":0,"op":30,"ks":{}}"#
    }

    func animation(assets: [String], drawn: [String]) throws -> Animation {
        let layers = drawn.enumerated().map { Self.imageLayer($1, index: $0 + 1) }.joined(separator: ",")
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"assets":[\#(assets.joined(separator: ","))],"layers":[\#(layers)]}"#
        return try Animation.parse(Array(json.utf8), name: "images", baseDirectory: root + "/anim")
    }

    func testPathsOutOfTheFolderAreRefusedAndTheRestDraws() throws {
        let hostile = [Self.asset("parent", "../", "outside.png"), Self.asset("absolute", "", "/etc/shadow"),
                       Self.asset("absoluteDir", "/etc/", "shadow"), Self.asset("link", "images/", "link.png"),
                       Self.asset("dirLink", "up/", "outside.png")]
        // The good image is drawn last (bottom-most layer first in the list is the top): all
        // hostile ones are listed above it, so any of them that drew would cover it in black.
        let animation = try animation(assets: hostile + [Self.asset("ok", "images/", "ok.png")],
                                      drawn: ["parent", "absolute", "absoluteDir", "link", "dirLink", "ok"])
        for id in ["parent", "absolute", "absoluteDir"] {
            XCTAssertTrue(animation.warnings.contains { $0.message.contains("\"\(id)\"") && $0.message.contains("leaves the animation's folder") },
                          "\(id): \(animation.warnings)")
        }
        let renderer = AnimationRenderer(animation: animation)
        let surface = renderer.render(frame: 0, viewport: Viewport(width: 20, height: 20))
        XCTAssertEqual(surface.pixels[10 * 20 + 10], Color.white.premultiplied, "the good image is drawn and nothing from outside covers it")
        for id in ["link", "dirLink"] {
            XCTAssertTrue(renderer.warnings.contains { $0.contains("image asset \(id)") && $0.contains("symbolic link") }, "\(id): \(renderer.warnings)")
        }
    }

    func testImagesAreDecodedOnlyWhenDrawn() throws {
        let animation = try animation(assets: [Self.asset("unused", "images/", "missing.png"), Self.asset("ok", "images/", "ok.png")],
                                      drawn: ["ok"])
        let renderer = AnimationRenderer(animation: animation)
        _ = renderer.render(frame: 0, viewport: Viewport(width: 10, height: 10))
        XCTAssertEqual(renderer.warnings, [], "an asset no layer draws is never opened")
        let both = AnimationRenderer(animation: try self.animation(assets: [Self.asset("gone", "images/", "missing.png")], drawn: ["gone"]))
        XCTAssertEqual(both.warnings, [], "nothing decoded before the first frame")
        _ = both.render(frame: 0, viewport: Viewport(width: 10, height: 10))
        XCTAssertEqual(both.warnings.count, 1, "\(both.warnings)")
    }

    func testImagesPastTheByteBudgetAreNotDrawn() throws {
        var budget = RenderBudget()
        budget.maxImageBytes = 8 * 8 * 4 - 1
        let renderer = AnimationRenderer(animation: try animation(assets: [Self.asset("ok", "images/", "ok.png")], drawn: ["ok"]), budget: budget)
        let surface = renderer.render(frame: 0, viewport: Viewport(width: 10, height: 10))
        XCTAssertEqual(surface.pixels[55], 0)
        XCTAssertTrue(renderer.warnings.contains { $0.contains("image asset ok") && $0.contains("out of range") }, "\(renderer.warnings)")
    }
}
