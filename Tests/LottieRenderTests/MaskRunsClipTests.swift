import Foundation
import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// A layer clipped by one mask gets it as runs (`MaskRuns`): the same values as the buffer
/// `buildMasks` makes for it, and the same pixels as painting through that buffer
/// (`maskRunsArea = Int.max`, the reference), bit for bit, runs taken at any size here.
final class MaskRunsClipTests: XCTestCase {
    static let masks = [BoundedMaskTests.mask("a", 10, 12, 60, 50), BoundedMaskTests.mask("a", opacity: 55, 20, 10, 80, 70),
                        BoundedMaskTests.mask("i", 5, 5, 70, 80), BoundedMaskTests.mask("a", inverted: true, 25, 20, 70, 60),
                        BoundedMaskTests.mask("s", inverted: true, 10, 30, 80, 75), BoundedMaskTests.mask("s", 30, 20, 45, 70),
                        BoundedMaskTests.mask("s", inverted: true, opacity: 45, 10, 30, 80, 75), BoundedMaskTests.mask("l", opacity: 60, 5, 60, 40, 95),
                        BoundedMaskTests.mask("d", 0, 0, 95, 90), BoundedMaskTests.mask("f", 40, 5, 80, 45),
                        BoundedMaskTests.mask("i", inverted: true, opacity: 35, 5, 5, 50, 50)]

    func testTheRunsHoldTheValuesOfTheBufferMask() throws {
        for (i, mask) in Self.masks.enumerated() {
            let layer = RenderBehaviourTests.rectLayer(center: (50, 50), size: (90, 90), color: (1, 0, 0),
                                                       extra: "\"hasMask\":true,\"masksProperties\":[\(mask)],", transform: BoundedMaskTests.skewed)
            let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + layer + "]}"
            let renderer = AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil))
            let viewport = Viewport(width: 130, height: 90, contentMode: .fill)
            let matrix = viewport.transform(animationWidth: 100, animationHeight: 100)
            let compositor = LayerCompositor(renderer: renderer)
            let layerModel = renderer.root.layers[0]
            let masks = layerModel.masks.filter { $0.mode != .none }
            let world = compositor.layerMatrix(layerModel, in: renderer.root, frame: 0).concatenating(matrix)
            for area in [PixelRect(x0: 0, y0: 0, x1: 130, y1: 90), PixelRect(x0: 17, y0: 9, x1: 101, y1: 66)] {
                let runs = try XCTUnwrap(LayerCompositor.maskRuns(masks, frame: 0, world: world, area: area, pool: nil, minimumArea: 0), "mask \(i)")
                XCTAssertEqual(runs.mask(), compositor.buildMasks(masks, frame: 0, world: world, area: area), "mask \(i) over \(area)")
            }
        }
        // Two masks, or one with an expansion, keep the buffer.
        let two = RenderBehaviourTests.rectLayer(center: (50, 50), size: (90, 90), color: (1, 0, 0),
                                                 extra: "\"hasMask\":true,\"masksProperties\":[\(Self.masks[0]),\(Self.masks[1])],")
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + two + "]}"
        let renderer = AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil))
        let masks = renderer.root.layers[0].masks
        let area = PixelRect(x0: 0, y0: 0, x1: 100, y1: 100)
        XCTAssertNil(LayerCompositor.maskRuns(masks, frame: 0, world: .identity, area: area, pool: nil, minimumArea: 0))
        let grownLayer = RenderBehaviourTests.rectLayer(center: (50, 50), size: (90, 90), color: (1, 0, 0),
                                                        extra: "\"hasMask\":true,\"masksProperties\":[\(BoundedMaskTests.mask("a", expansion: 3, 5, 5, 60, 60))],")
        let grown = try Animation.parse(Array((#"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + grownLayer + "]}").utf8),
                                        name: "test.json", baseDirectory: nil)
        XCTAssertEqual(grown.layers[0].masks.count, 1)
        XCTAssertNil(LayerCompositor.maskRuns(grown.layers[0].masks, frame: 0, world: .identity, area: area, pool: nil, minimumArea: 0))
        // By default a small area keeps the buffer, a large one takes runs.
        let one = [masks[0]]
        XCTAssertNil(LayerCompositor.maskRuns(one, frame: 0, world: .identity, area: area, pool: nil))
        XCTAssertNotNil(LayerCompositor.maskRuns(one, frame: 0, world: .identity, area: PixelRect(x0: 0, y0: 0, x1: 1024, y1: 256), pool: nil))
    }

    /// Renders `animation` with masks as runs and as buffers at `frames`: the same bytes.
    static func assertRunsMatchBuffers(_ animation: Animation, frames: [Double], viewport: Viewport, threads: Int = 1, _ name: String) {
        var runs = AnimationRenderer(animation: animation)
        var reference = AnimationRenderer(animation: animation)
        reference.maskRunsArea = .max
        runs.maskRunsArea = 0
        runs.threads = threads
        reference.threads = threads
        for frame in frames {
            let a = runs.render(frame: frame, viewport: viewport).pixels
            let b = reference.render(frame: frame, viewport: viewport).pixels
            XCTAssertEqual(a, b, "\(name) frame \(frame): \(MaskClipTests.difference(a, b).pixels) pixels differ")
        }
    }

    func testEveryKindOfMaskOnAFillAGradientAStrokeAndASolid() throws {
        let stroke = #"{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":80},"w":{"a":0,"k":9},"lc":2,"lj":2}"#
        let gradient = #"{"ty":"gf","o":{"a":0,"k":90},"r":1,"t":1,"s":{"a":0,"k":[0,0]},"e":{"a":0,"k":[100,60]},"g":{"p":2,"k":{"a":0,"k":[0,1,0,0,1,0,0.5,1]}}}"#
        for (i, mask) in Self.masks.enumerated() {
            let extra = "\"hasMask\":true,\"masksProperties\":[\(mask)],"
            let fill = RenderBehaviourTests.rectLayer(center: (50, 50), size: (90, 90), color: (1, 0.5, 0), extra: extra,
                                                      transform: BoundedMaskTests.skewed)
            let shaded = Self.onePaintLayer(index: 2, extra: extra, paint: gradient)
            let stroked = Self.onePaintLayer(index: 3, extra: extra, paint: stroke)
            let solid = """
            {"ty":1,"ind":4,"ip":0,"op":60,"st":0,"sc":"#3366cc","sw":100,"sh":100,\(extra)\(RenderBehaviourTests.identityTransform)}
            """
            for (kind, layer) in [("fill", fill), ("gradient", shaded), ("stroke", stroked), ("solid", solid)] {
                let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + layer + "]}"
                let animation = try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil)
                Self.assertRunsMatchBuffers(animation, frames: [0], viewport: Viewport(width: 130, height: 90, contentMode: .fill),
                                            "mask \(i) \(kind)")
            }
        }
    }

    /// A shape layer with one rectangle and one paint.
    static func onePaintLayer(index: Int, extra: String, paint: String) -> String {
        """
        {"ty":4,"ind":\(index),"ip":0,"op":60,"st":0,\(RenderBehaviourTests.identityTransform),\(extra)"shapes":[{"ty":"gr","it":[
         {"ty":"rc","p":{"a":0,"k":[45,50]},"s":{"a":0,"k":[80,70]},"r":{"a":0,"k":6}},\(paint),
         {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
        """
    }

    func testTheCorpusMaskedFilesOnOneThreadAndInBands() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var compared = 0
        for name in ["Issues/pr_1604_1.json", "Issues/pr_1604_2.json", "LottieLogo1_masked.json", "LottieFiles/cactus.json",
                     "Issues/issue_1628.json", "TypeFace/A.json"] {
            let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let animation = try Animation.load(path: url.path)
            let frames = [0.1, 0.35, 0.6, 0.9].map { animation.inPoint + (animation.outPoint - animation.inPoint) * $0 }
            for threads in [1, 3] {
                Self.assertRunsMatchBuffers(animation, frames: frames, viewport: Viewport(width: 200, height: 160, contentMode: .fill),
                                            threads: threads, "\(name), \(threads) threads")
            }
            compared += 1
        }
        XCTAssertGreaterThan(compared, 0)
    }
}
