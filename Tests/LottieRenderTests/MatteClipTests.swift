import Foundation
import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// Layers that paint once, drawn through their matte's coverage as a clip (`MatteClip`),
/// against the offscreen pass (the reference): within 1/255 per channel, every matte mode.
final class MatteClipTests: XCTestCase {
    /// A matte source: a turned rectangle at 70 % opacity, in a colour whose luma is not its alpha.
    static let source = RenderBehaviourTests.rectLayer(
        index: 1, name: "matte", center: (45, 55), size: (60, 45), color: (0.8, 0.3, 0.5), extra: "\"td\":1,",
        transform: #""ks":{"o":{"a":0,"k":70},"r":{"a":0,"k":25},"p":{"a":0,"k":[50,50]},"a":{"a":0,"k":[50,50]},"s":{"a":0,"k":[100,100]}}"#)

    func matted(_ mode: Int, kind: String, masked: Bool) -> String {
        let tt = "\"tt\":\(mode),"
        let mask = masked ? "\"hasMask\":true,\"masksProperties\":[\(BoundedMaskTests.mask("a", 15, 10, 85, 70))]," : ""
        let half = #""ks":{"o":{"a":0,"k":60},"r":{"a":0,"k":0},"p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}}"#
        switch kind {
        case "fill":
            return RenderBehaviourTests.rectLayer(index: 2, center: (50, 50), size: (80, 70), color: (0.1, 0.6, 1), extra: tt + mask,
                                                  transform: BoundedMaskTests.skewed)
        case "translucent fill":
            return RenderBehaviourTests.rectLayer(index: 2, center: (55, 45), size: (70, 60), color: (1, 0.6, 0), extra: tt + mask,
                                                  transform: half)
        case "solid":
            return """
            {"ty":1,"ind":2,"ip":0,"op":60,"st":0,"sc":"#3366cc","sw":100,"sh":100,\(tt)\(mask)\(RenderBehaviourTests.identityTransform)}
            """
        case "stroke":
            return """
            {"ty":4,"ind":2,"ip":0,"op":60,"st":0,\(RenderBehaviourTests.identityTransform),\(tt)\(mask)"shapes":[{"ty":"gr","it":[
             {"ty":"sh","ks":{"a":0,"k":{"c":false,"v":[[8,90],[50,5],[92,88],[30,60]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}}},
             {"ty":"st","c":{"a":0,"k":[0.9,0.1,0.4,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":12},"lc":2,"lj":1,"ml":6},
             {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
            """
        default:
            // Two paints keep the offscreen pass.
            let stroke = #"{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":80},"w":{"a":0,"k":9},"lc":2,"lj":2},"#
            return RenderBehaviourTests.rectLayer(index: 2, center: (40, 45), size: (50, 40), color: (0, 1, 0), extra: tt + mask, items: stroke)
        }
    }

    func testEveryMatteModeOnEveryLayerThatPaintsOnce() throws {
        var differing = 0, compared = 0
        for mode in 1...4 {
            for kind in ["fill", "translucent fill", "solid", "stroke", "two paints"] {
                for masked in [false, true] {
                    let layers = [Self.source, matted(mode, kind: kind, masked: masked)].joined(separator: ",")
                    let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + layers + "]}"
                    let animation = try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil)
                    let label = "mode \(mode) \(kind)\(masked ? " masked" : "")"
                    differing += MaskClipTests.assertDirectMatchesOffscreen(
                        animation, frames: [0], viewport: Viewport(width: 130, height: 90, contentMode: .fill), label)
                    let image = AnimationRenderer(animation: animation).render(frame: 0, viewport: Viewport(width: 130, height: 90)).pixels
                    XCTAssertTrue(image.contains { $0 != 0 }, "\(label) draws something")
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 40)
        // Rounding differs somewhere (coverage and matte multiply before the colour is scaled).
        XCTAssertGreaterThan(differing, 0)
    }

    func testTheCorpusMattedFiles() throws {
        try MaskClipTests.assertCorpusFilesDirectMatchOffscreen(["Issues/pr_1763.json", "Issues/issue_1800.json", "LottieLogo1_masked.json", "Switch_States.json"])
    }

    func testAMattedLayerThatPaintsOnceHasNoContentBuffer() throws {
        let layers = [Self.source, matted(1, kind: "fill", masked: false)].joined(separator: ",")
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + layers + "]}"
        let animation = try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil)
        let direct = AnimationRenderer(animation: animation)
        _ = direct.render(frame: 0, viewport: Viewport(width: 100, height: 100))
        var reference = AnimationRenderer(animation: animation)
        reference.masksClipDirectly = false
        _ = reference.render(frame: 0, viewport: Viewport(width: 100, height: 100))
        // The matte's pixels and its coverage; the reference also takes the layer's own buffer.
        XCTAssertEqual(direct.pool.allocations, 2)
        XCTAssertGreaterThan(reference.pool.allocations, direct.pool.allocations)
    }
}
