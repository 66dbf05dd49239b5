import Foundation
import LottieModel
import LottieRender
import Raster
import XCTest

/// The Gaussian blur's "Repeat Edge Pixels" against the Gaussian-blurred rectangle: with it the
/// layer's edge pixels continue outward under the blur and the result stays inside the layer's
/// rectangle; without it the blur reads transparency past the edges and spreads beyond them.
final class RepeatEdgeBlurTests: XCTestCase {
    static func animation(_ layers: String, width: Int = 100, height: Int = 100) throws -> AnimationRenderer {
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":\#(width),"h":\#(height),"assets":[],"layers":[\#(layers)]}"#
        return AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "repeat.json", baseDirectory: nil))
    }

    /// The largest difference between the alpha of a pixel of `s` and `expected` (0...1), and where.
    static func worstAlphaError(_ s: Surface, expected: (Int, Int) -> Double) -> (error: Double, at: (Int, Int)) {
        var worst = (error: 0.0, at: (0, 0))
        for y in 0..<s.height {
            for x in 0..<s.width {
                let error = abs(Double(s.pixels[y * s.width + x] >> 24) / 255 - expected(x, y))
                if error > worst.error { worst = (error, (x, y)) }
            }
        }
        return worst
    }

    /// A shape layer (drawn at the composition's size) whose black rectangle covers the left
    /// half of the frame: with repeated edges only its inner edge at x 50 is blurred, the frame's
    /// edges stay solid; without, every edge fades. Each blur dimension, at 1x and 2x.
    func testAFullFrameShapeLayerKeepsItsEdgesSolid() throws {
        let far = 1e9
        for (dimensions, across, down) in [(1, true, true), (2, true, false), (3, false, true)] {
            for repeats in [false, true] {
                let layer = RenderBehaviourTests.rectLayer(center: (25, 50), size: (50, 100), color: (0, 0, 0),
                                                           extra: EffectGoldenTests.gaussianBlur(10, dimensions: dimensions, repeatEdges: repeats))
                let renderer = try Self.animation(layer)
                for scale in [1, 2] {
                    let s = renderer.render(frame: 0, viewport: Viewport(width: 100 * scale, height: 100 * scale))
                    let k = Double(scale), sigma = 3 * k
                    let rect = repeats ? (x0: -far, y0: -far, x1: 50 * k, y1: far) : (x0: 0, y0: 0, x1: 50 * k, y1: 100 * k)
                    let worst = Self.worstAlphaError(s) { x, y in
                        EffectGoldenTests.blurredRect(x: x, y: y, rect, sx: across ? sigma : 0, sy: down ? sigma : 0)
                    }
                    XCTAssertLessThanOrEqual(worst.error, 0.03, "dimensions \(dimensions), repeat \(repeats), \(scale)x: at \(worst.at)")
                    let corner = s.pixels[0] >> 24
                    if repeats { XCTAssertEqual(corner, 255, "the corner stays solid (dimensions \(dimensions), \(scale)x)") }
                    else { XCTAssertLessThan(corner, 200, "the corner fades (dimensions \(dimensions), \(scale)x)") }
                }
            }
        }
    }

    /// A solid layer's rectangle is its own size: a uniform solid with repeated edges is the
    /// solid unblurred, nothing beyond its rectangle; without, the blur spreads past it.
    func testASolidLayerStaysInsideItsRectangle() throws {
        for repeats in [false, true] {
            for (dimensions, across, down) in [(1, true, true), (2, true, false), (3, false, true)] {
                let blur = EffectGoldenTests.gaussianBlur(10, dimensions: dimensions, repeatEdges: repeats)
                let ks = #""ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[30,20]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}}"#
                let solid = ##"{"ty":1,"ind":1,"nm":"solid","sw":40,"sh":60,"sc":"#ff0000","ip":0,"op":60,"st":0,\##(ks),\##(blur)"bm":0}"##
                let renderer = try Self.animation(solid)
                for scale in [1, 2] {
                    let s = renderer.render(frame: 0, viewport: Viewport(width: 100 * scale, height: 100 * scale))
                    let inside = PixelRect(x0: 30 * scale, y0: 20 * scale, x1: 70 * scale, y1: 80 * scale)
                    var outsidePainted = 0, insideChanged = 0
                    for y in 0..<s.height {
                        for x in 0..<s.width {
                            let p = s.pixels[y * s.width + x]
                            if inside.contains(x: x, y: y) { if p != 0xFFFF_0000 { insideChanged += 1 } } else if p != 0 { outsidePainted += 1 }
                        }
                    }
                    let name = "dimensions \(dimensions), repeat \(repeats), \(scale)x"
                    if repeats {
                        XCTAssertEqual(insideChanged, 0, "\(name): the solid is unchanged inside its rectangle")
                        XCTAssertEqual(outsidePainted, 0, "\(name): nothing beyond it")
                    } else {
                        XCTAssertGreaterThan(insideChanged, 0, "\(name): the edges fade")
                        XCTAssertGreaterThan(outsidePainted, 0, "\(name): the blur spreads beyond the rectangle")
                        // Only along the blurred axes.
                        let left = s.pixels[(50 * scale) * s.width + inside.x0 - 2] >> 24
                        let above = s.pixels[(inside.y0 - 2) * s.width + 50 * scale] >> 24
                        XCTAssertEqual(left > 0, across, "\(name): spread left")
                        XCTAssertEqual(above > 0, down, "\(name): spread up")
                    }
                }
            }
        }
    }

    /// The edges are continued from the layer's own pixels: a two-colour layer with a vertical
    /// boundary keeps each colour up to its edge, and the boundary is blurred.
    func testRepeatedEdgesMatchEachSidesColour() throws {
        let blur = EffectGoldenTests.gaussianBlur(10, dimensions: 1, repeatEdges: true)
        let red = RenderBehaviourTests.rectLayer(index: 1, center: (25, 50), size: (50, 100), color: (1, 0, 0))
        let blue = RenderBehaviourTests.rectLayer(index: 2, center: (75, 50), size: (50, 100), color: (0, 0, 1))
        let precomp = #"{"ty":0,"ind":1,"refId":"p","w":100,"h":100,"ip":0,"op":60,"st":0,\#(RenderBehaviourTests.identityTransform),\#(blur)"#
            + #""nm":"both"}"#
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[{"id":"p","layers":[\#(red),\#(blue)]}],"#
            + #""layers":[\#(precomp)]}"#
        let renderer = AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "two.json", baseDirectory: nil))
        let s = renderer.render(frame: 0, viewport: Viewport(width: 100, height: 100))
        for y in [0, 50, 99] {
            XCTAssertEqual(s.pixels[y * 100], 0xFFFF_0000, "red at the left edge, row \(y)")
            XCTAssertEqual(s.pixels[y * 100 + 99], 0xFF00_00FF, "blue at the right edge, row \(y)")
            let middle = s.pixels[y * 100 + 50]
            XCTAssertEqual(middle >> 24, 255, "opaque across the boundary, row \(y)")
            XCTAssertEqual(Double((middle >> 16) & 0xff), 255 * EffectGoldenTests.phi((50 - 50.5) / 3), accuracy: 6, "blurred boundary, row \(y)")
        }
    }

    /// Drawn in bands on several threads, a blur that repeats edges gives the same pixels as on
    /// one: a band's edge is not the layer's edge (only the layer's rectangle is continued).
    func testBandsDrawTheSamePixels() throws {
        let layers = RenderBehaviourTests.rectLayer(center: (25, 50), size: (50, 100), color: (0.2, 0.5, 1),
                                                    extra: EffectGoldenTests.gaussianBlur(20, dimensions: 1, repeatEdges: true))
        var renderer = try Self.animation(layers)
        let viewport = Viewport(width: 160, height: 240, contentMode: .fill)
        renderer.threads = 1
        let one = renderer.render(frame: 0, viewport: viewport)
        renderer.threads = 4
        var banded = Surface(width: viewport.width, height: viewport.height)
        renderer.render(frame: 0, viewport: viewport, into: &banded)
        XCTAssertEqual(zip(one.pixels, banded.pixels).filter { $0 != $1 }.count, 0)
        XCTAssertEqual(one.pixels[0] >> 24, 255, "solid at the frame's corner")
    }
}
