import Foundation
import XCTest
import LottieModel
import LottieRender
import Raster

/// Issue 10: the bytes of offscreen surfaces and masks alive at once in a frame stay within
/// `RenderBudget.maxSurfaceBytes`, however deeply layers with masks and mattes nest.
final class SurfaceBudgetTests: XCTestCase {
    static let square = #"{"ty":"rc","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[80,80]},"r":{"a":0,"k":0}}"#
    static let redFill = #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#
    /// A mask that covers the whole 100x100 composition: it bounds nothing.
    static let fullMask = #"[{"mode":"a","inv":false,"o":{"a":0,"k":100},"x":{"a":0,"k":0},"pt":{"a":0,"k":"#
        + #"{"c":true,"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]],"v":[[0,0],[100,0],[100,100],[0,100]]}}}]"#

    /// 32 nested precomps; each level draws the next with a full-size mask under an alpha
    /// matte that also covers everything, so every level asks for frame-sized buffers.
    static func nestedMaskedPrecomps(depth: Int) -> String {
        var assets: [String] = []
        for level in 0..<depth {
            let layers: String
            if level == depth - 1 {
                layers = #"[{"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{},"shapes":[\#(square),\#(redFill)]}]"#
            } else {
                let matte = #"{"ty":4,"ind":1,"td":1,"ip":0,"op":30,"st":0,"ks":{},"shapes":[\#(square),\#(redFill)]}"#
                let child = #"{"ty":0,"ind":2,"tt":1,"refId":"p\#(level + 1)","ip":0,"op":30,"w":100,"h":100,"ks":{},"#
                    + #""hasMask":true,"masksProperties":\#(fullMask)}"#
                layers = "[\(matte),\(child)]"
            }
            assets.append(#"{"id":"p\#(level)","layers":\#(layers)}"#)
        }
        let top = #"{"ty":0,"ind":1,"refId":"p0","ip":0,"op":30,"w":100,"h":100,"ks":{},"hasMask":true,"masksProperties":\#(fullMask)}"#
        return #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"assets":[\#(assets.joined(separator: ","))],"layers":[\#(top)]}"#
    }

    func testNestedMasksAndMattesAtTheLargestSizeStayWithinTheSurfaceBudget() throws {
        let animation = try Animation.parse(Array(Self.nestedMaskedPrecomps(depth: 32).utf8), name: "nested-masks", baseDirectory: nil)
        let renderer = AnimationRenderer(animation: animation)
        let side = RenderBudget.maxOutputSide
        let start = Date()
        _ = renderer.render(frame: 0, viewport: Viewport(width: side, height: side))
        XCTAssertLessThan(Date().timeIntervalSince(start), 60)
        let budget = renderer.budget.maxSurfaceBytes
        print("32 nested masked precomps at \(side)x\(side): peak offscreen bytes \(renderer.peakSurfaceBytes) of \(budget)")
        XCTAssertGreaterThan(renderer.peakSurfaceBytes, 0)
        XCTAssertLessThanOrEqual(renderer.peakSurfaceBytes, budget)
        XCTAssertTrue(renderer.warnings.contains { $0.contains("offscreen surfaces would pass") }, "\(renderer.warnings)")
        XCTAssertEqual(renderer.warnings.filter { $0.contains("offscreen surfaces") }.count, 1)
    }

    /// The bands of a threaded frame share the budget by their heights: four bands together
    /// hold no more than one thread would, and draw the same pixels.
    func testBandsShareTheSurfaceBudget() throws {
        let animation = try Animation.parse(Array(Self.nestedMaskedPrecomps(depth: 32).utf8), name: "nested-masks", baseDirectory: nil)
        let side = 2048
        let single = AnimationRenderer(animation: animation)
        var banded = AnimationRenderer(animation: animation)
        banded.threads = 4
        let one = single.render(frame: 0, viewport: Viewport(width: side, height: side))
        let four = banded.render(frame: 0, viewport: Viewport(width: side, height: side))
        XCTAssertGreaterThan(banded.peakSurfaceBytes, 0)
        XCTAssertLessThanOrEqual(banded.peakSurfaceBytes, banded.budget.maxSurfaceBytes / 4)
        XCTAssertTrue(one.pixels == four.pixels, "bands draw what one thread draws")
    }

    /// A precomp at half opacity asks for a pass only for its group opacity: past the budget it
    /// is drawn straight (its parts do not overlap here, so the pixels are the same).
    func testGroupOpacityAloneIsDrawnWithoutItsPassPastTheBudget() throws {
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"assets":[{"id":"p","layers":["#
            + #"{"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{},"shapes":[\#(Self.square),\#(Self.redFill)]}]}],"#
            + #""layers":[{"ty":0,"ind":1,"refId":"p","ip":0,"op":30,"w":100,"h":100,"ks":{"o":{"a":0,"k":50}}}]}"#
        let animation = try Animation.parse(Array(json.utf8), name: "group-opacity", baseDirectory: nil)
        let reference = AnimationRenderer(animation: animation).render(frame: 0, viewport: Viewport(width: 100, height: 100))
        var none = RenderBudget()
        none.maxSurfaceBytes = 0
        let straight = AnimationRenderer(animation: animation, budget: none)
        let image = straight.render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(straight.peakSurfaceBytes, 0)
        XCTAssertNotEqual(image.pixels[50 * 100 + 50], 0)
        XCTAssertTrue(image.pixels == reference.pixels)
        XCTAssertTrue(straight.warnings.contains { $0.contains("drawn without one") }, "\(straight.warnings)")
    }

    func testASmallBudgetCutsTheNestingButASmallFileFitsTheDefault() throws {
        let animation = try Animation.parse(Array(Self.nestedMaskedPrecomps(depth: 4).utf8), name: "nested-4", baseDirectory: nil)
        let fits = AnimationRenderer(animation: animation)
        let reference = fits.render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertTrue(fits.warnings.isEmpty, "\(fits.warnings)")
        XCTAssertEqual(reference.pixels[50 * 100 + 50], 0xFFFF_0000)
        var small = RenderBudget()
        small.maxSurfaceBytes = 100 * 100 * 11 * 2   // two levels of content + matte + masks
        let cut = AnimationRenderer(animation: animation, budget: small)
        let image = cut.render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertLessThanOrEqual(cut.peakSurfaceBytes, small.maxSurfaceBytes)
        XCTAssertGreaterThan(cut.peakSurfaceBytes, 100 * 100 * 11)
        XCTAssertEqual(cut.warnings.filter { $0.contains("offscreen surfaces") }.count, 1, "\(cut.warnings)")
        // The innermost red square was past the budget: nothing drawn.
        XCTAssertNotEqual(image.pixels[50 * 100 + 50], 0xFFFF_0000)
    }
}
