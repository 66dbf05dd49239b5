import Foundation
import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// Layers that paint once, drawn through their masks' coverage as a clip, against the
/// offscreen pass (the reference): within 1/255 per channel.
final class MaskClipTests: XCTestCase {
    /// The largest difference of any channel between two pictures, and how many pixels differ.
    static func difference(_ a: [UInt32], _ b: [UInt32]) -> (largest: UInt32, pixels: Int) {
        var largest: UInt32 = 0, pixels = 0
        for (p, q) in zip(a, b) where p != q {
            pixels += 1
            for shift in stride(from: 0, to: 32, by: 8) {
                let x = (p >> UInt32(shift)) & 0xff, y = (q >> UInt32(shift)) & 0xff
                largest = max(largest, x > y ? x - y : y - x)
            }
        }
        return (largest, pixels)
    }

    /// Renders `animation` both ways at `frames`; returns how many frames differed at all.
    @discardableResult
    static func assertDirectMatchesOffscreen(_ animation: Animation, frames: [Double], viewport: Viewport, _ name: String) -> Int {
        let direct = AnimationRenderer(animation: animation)
        var reference = AnimationRenderer(animation: animation)
        reference.masksClipDirectly = false
        var differing = 0
        for frame in frames {
            let a = direct.render(frame: frame, viewport: viewport).pixels
            let b = reference.render(frame: frame, viewport: viewport).pixels
            let d = Self.difference(a, b)
            XCTAssertLessThanOrEqual(d.largest, 1, "\(name) frame \(frame): \(d.pixels) pixels differ")
            if d.pixels > 0 { differing += 1 }
        }
        return differing
    }

    func testEveryKindOfMaskOnAFillAStrokeAndASolid() throws {
        let masks = [BoundedMaskTests.mask("a", 10, 12, 60, 50), BoundedMaskTests.mask("a", opacity: 55, 20, 10, 80, 70),
                     BoundedMaskTests.mask("i", 5, 5, 70, 80), BoundedMaskTests.mask("a", expansion: 4, 30, 30, 90, 85),
                     BoundedMaskTests.mask("a", expansion: -3, 10, 10, 85, 85)]
        let inverted = [BoundedMaskTests.mask("a", inverted: true, 25, 20, 70, 60), BoundedMaskTests.mask("s", inverted: true, 10, 30, 80, 75),
                        BoundedMaskTests.mask("s", 30, 20, 45, 70)]
        let runs = (masks + inverted).map { [$0] } + [[masks[0], masks[2]], [masks[1], masks[4], masks[2]], [masks[0], inverted[2]],
                                                      [inverted[0], masks[1]], [inverted[2], inverted[1]]]
        let stroke = #"{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":80},"w":{"a":0,"k":9},"lc":2,"lj":2}"#
        for (i, run) in runs.enumerated() {
            let extra = "\"hasMask\":true,\"masksProperties\":[\(run.joined(separator: ","))],"
            let fill = RenderBehaviourTests.rectLayer(center: (50, 50), size: (90, 90), color: (1, 0.5, 0), extra: extra,
                                                      transform: BoundedMaskTests.skewed)
            // The stroke sits above the fill in the group: the layer still paints twice and keeps its pass.
            let stroked = RenderBehaviourTests.rectLayer(index: 2, center: (40, 45), size: (50, 40), color: (0, 1, 0), extra: extra,
                                                         items: stroke + ",")
            let solid = """
            {"ty":1,"ind":3,"ip":0,"op":60,"st":0,"sc":"#3366cc","sw":100,"sh":100,\(extra)\(RenderBehaviourTests.identityTransform)}
            """
            // One stroke: mitred corners that reach past the outline, square caps on an open path.
            let strokeOnly = """
            {"ty":4,"ind":4,"ip":0,"op":60,"st":0,\(RenderBehaviourTests.identityTransform),\(extra)"shapes":[{"ty":"gr","it":[
             {"ty":"sh","ks":{"a":0,"k":{"c":false,"v":[[8,90],[50,5],[92,88],[30,60]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}}},
             {"ty":"st","c":{"a":0,"k":[0.9,0.1,0.4,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":12},"lc":3,"lj":1,"ml":6},
             {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
            """
            for (kind, layer) in [("fill", fill), ("two paints", stroked), ("solid", solid), ("stroke", strokeOnly)] {
                let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + layer + "]}"
                let animation = try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil)
                Self.assertDirectMatchesOffscreen(animation, frames: [0], viewport: Viewport(width: 130, height: 90, contentMode: .fill),
                                             "run \(i) \(kind)")
            }
        }
    }

    func testTheCorpusMaskedFiles() throws {
        try Self.assertCorpusFilesDirectMatchOffscreen(["Issues/pr_1604_1.json", "LottieLogo1_masked.json", "Issues/issue_1628.json", "TypeFace/A.json"])
    }

    /// `assertDirectMatchesOffscreen` at four frames of each of these corpus files (those present).
    static func assertCorpusFilesDirectMatchOffscreen(_ names: [String]) throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var compared = 0
        for name in names {
            let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let animation = try Animation.load(path: url.path)
            let frames = [0.1, 0.35, 0.6, 0.9].map { animation.inPoint + (animation.outPoint - animation.inPoint) * $0 }
            assertDirectMatchesOffscreen(animation, frames: frames, viewport: Viewport(width: 200, height: 160, contentMode: .fill), name)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 0)
    }

    func testALayerThatPaintsOnceIsDrawnWithoutAnOffscreenSurface() throws {
        let layer = RenderBehaviourTests.rectLayer(center: (50, 50), size: (90, 90), color: (1, 0.5, 0),
                                                   extra: "\"hasMask\":true,\"masksProperties\":[\(BoundedMaskTests.mask("a", 10, 12, 60, 50))],")
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + layer + "]}"
        let animation = try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil)
        let renderer = AnimationRenderer(animation: animation)
        _ = renderer.render(frame: 0, viewport: Viewport(width: 100, height: 100, contentMode: .fit))
        // Only the mask's coverage came from the pool: no pixel buffer for the layer.
        XCTAssertEqual(renderer.pool.allocations, 1)
        // With the mask told as runs (`MaskRuns`, here at any size), nothing from the pool.
        var runs = AnimationRenderer(animation: animation)
        runs.maskRunsArea = 0
        _ = runs.render(frame: 0, viewport: Viewport(width: 100, height: 100, contentMode: .fit))
        XCTAssertEqual(runs.pool.allocations, 0)
        var reference = AnimationRenderer(animation: animation)
        reference.masksClipDirectly = false
        _ = reference.render(frame: 0, viewport: Viewport(width: 100, height: 100, contentMode: .fit))
        XCTAssertGreaterThan(reference.pool.allocations, 1)
    }

    /// A style in a group with no shape paints nothing: a layer with one such group beside its
    /// one real stroke still paints once, so it is clipped by its masks directly, as the pass would draw it.
    func testAStyleWithNoShapeDoesNotCountAsAPaint() throws {
        let mask = BoundedMaskTests.mask("a", 10, 12, 80, 70)
        let tr = #"{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}"#
        let stroke = #"{"ty":"st","c":{"a":0,"k":[0.9,0.1,0.4,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":10},"lc":2,"lj":2}"#
        let layer = """
        {"ty":4,"ind":1,"ip":0,"op":60,"st":0,\(RenderBehaviourTests.identityTransform),"hasMask":true,"masksProperties":[\(mask)],
         "shapes":[{"ty":"gr","it":[\(stroke),\(tr)]},{"ty":"gr","it":[
          {"ty":"sh","ks":{"a":0,"k":{"c":true,"v":[[8,90],[50,5],[92,88]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}}},
          \(stroke),\(tr)]}]}
        """
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + layer + "]}"
        let animation = try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil)
        let viewport = Viewport(width: 130, height: 90, contentMode: .fill)
        let renderer = AnimationRenderer(animation: animation)
        XCTAssertEqual(renderer.render(frame: 0, viewport: viewport).pixels.filter { $0 != 0 }.isEmpty, false)
        XCTAssertEqual(renderer.pool.allocations, 1, "only the masks' coverage: no offscreen surface")
        Self.assertDirectMatchesOffscreen(animation, frames: [0], viewport: viewport, "empty style beside a stroke")
    }

    /// One mask around everything a layer paints (curved sides included) cuts nothing: the
    /// layer is drawn without it, with no mask and no offscreen surface, even with two paints,
    /// and gives the pass's pixels. A mask that cuts the paints keeps them.
    func testAMaskAroundAllThePaintsIsLeftOut() throws {
        let stroke = #"{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":80},"w":{"a":0,"k":9},"lc":2,"lj":2}"#
        let viewport = Viewport(width: 130, height: 90, contentMode: .fill)
        for (mask, cuts) in [(BoundedMaskTests.mask("a", -40, -30, 130, 120), false), (BoundedMaskTests.mask("a", 30, 30, 98, 90), true)] {
            let layer = RenderBehaviourTests.rectLayer(center: (40, 45), size: (50, 40), color: (0, 1, 0),
                                                       extra: "\"hasMask\":true,\"masksProperties\":[\(mask)],", items: stroke + ",")
            let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + layer + "]}"
            let animation = try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil)
            let renderer = AnimationRenderer(animation: animation)
            _ = renderer.render(frame: 0, viewport: viewport)
            XCTAssertEqual(renderer.pool.allocations == 0, !cuts, "cuts: \(cuts)")
            Self.assertDirectMatchesOffscreen(animation, frames: [0], viewport: viewport, "mask cuts: \(cuts)")
        }
    }

    func testTheCoverTestOfAMaskOutline() {
        var square = RasterPath()
        square.addRect(Rect(x: 10, y: 10, width: 80, height: 60))
        XCTAssertTrue(MaskCover.contains(square, PixelRect(x0: 10, y0: 10, x1: 90, y1: 70)), "sides along the rectangle's")
        XCTAssertTrue(MaskCover.contains(square, PixelRect(x0: 30, y0: 20, x1: 60, y1: 50)))
        XCTAssertFalse(MaskCover.contains(square, PixelRect(x0: 30, y0: 20, x1: 91, y1: 50)), "one column outside")
        XCTAssertFalse(MaskCover.contains(square, PixelRect(x0: 100, y0: 20, x1: 120, y1: 50)), "wholly outside")
        var ring = square
        ring.addRect(Rect(x: 40, y: 30, width: 10, height: 10))
        XCTAssertFalse(MaskCover.contains(ring, PixelRect(x0: 20, y0: 20, x1: 70, y1: 60)), "an outline inside it")
        // A hole wound the same way adds to the winding: filled non-zero, it covers.
        XCTAssertTrue(MaskCover.contains(ring, PixelRect(x0: 41, y0: 31, x1: 49, y1: 39)))
        var bulge = RasterPath()
        bulge.move(to: Point(0, 0))
        bulge.line(to: Point(100, 0))
        bulge.cubic(to: Point(100, 100), control1: Point(60, 30), control2: Point(60, 70))
        bulge.line(to: Point(0, 100))
        bulge.close()
        XCTAssertTrue(MaskCover.contains(bulge, PixelRect(x0: 10, y0: 10, x1: 50, y1: 90)))
        XCTAssertFalse(MaskCover.contains(bulge, PixelRect(x0: 10, y0: 10, x1: 65, y1: 90)), "the curve dips into it")
    }
}
