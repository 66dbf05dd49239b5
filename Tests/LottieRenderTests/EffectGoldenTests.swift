import Foundation
import LottieModel
import LottieRender
import Raster
import XCTest

/// Shadows, layer styles and the blur effect against pixels known independently of Buoy: the
/// Gaussian-blurred rectangle (a product of two error functions) and lottie-ios's own
/// snapshots of the corpus's shadow samples, each at two scales.
final class EffectGoldenTests: XCTestCase {
    /// A 100x100 animation with one black-filled 40x40 square centred at (50, 50) carrying
    /// `extra` (effects, styles) on its layer.
    static func squareAnimation(extra: String) throws -> AnimationRenderer {
        let layer = RenderBehaviourTests.rectLayer(center: (50, 50), size: (40, 40), color: (0, 0, 0), extra: extra)
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":[\#(layer)]}"#
        return AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "effects.json", baseDirectory: nil))
    }

    static func dropShadow(opacity: Double, direction: Double, distance: Double, softness: Double) -> String {
        #""ef":[{"ty":25,"nm":"Drop Shadow","en":1,"ef":[{"ty":2,"nm":"Shadow Color","v":{"a":0,"k":[0,0,0,1]}},"#
            + #"{"ty":0,"nm":"Opacity","v":{"a":0,"k":\#(opacity)}},{"ty":0,"nm":"Direction","v":{"a":0,"k":\#(direction)}},"#
            + #"{"ty":0,"nm":"Distance","v":{"a":0,"k":\#(distance)}},{"ty":0,"nm":"Softness","v":{"a":0,"k":\#(softness)}}]}],"#
    }

    static func gaussianBlur(_ blurriness: Double, dimensions: Int, repeatEdges: Bool = false) -> String {
        #""ef":[{"ty":29,"nm":"Gaussian Blur","en":1,"ef":[{"ty":0,"nm":"Blurriness","v":{"a":0,"k":\#(blurriness)}},"#
            + #"{"ty":7,"nm":"Blur Dimensions","v":{"a":0,"k":\#(dimensions)}},"#
            + #"{"ty":7,"nm":"Repeat Edge Pixels","v":{"a":0,"k":\#(repeatEdges ? 1 : 0)}}]}],"#
    }

    static func style(_ type: Int, size: Double, distance: Double, angle: Double, opacity: Double, spread: Double = 0,
                      color: String = "[0,0,0,1]") -> String {
        #""sy":[{"ty":\#(type),"nm":"style","c":{"a":0,"k":\#(color)},"o":{"a":0,"k":\#(opacity)},"a":{"a":0,"k":\#(angle)},"#
            + #""s":{"a":0,"k":\#(size)},"d":{"a":0,"k":\#(distance)},"ch":{"a":0,"k":\#(spread)}}],"#
    }

    /// The standard normal distribution function.
    static func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.squareRoot()) }

    /// The alpha (0...1) at the centre of device pixel (x, y) of the rectangle [x0, x1) × [y0, y1)
    /// blurred by a Gaussian of deviation sx across and sy down (0: not blurred that way).
    static func blurredRect(x: Int, y: Int, _ r: (x0: Double, y0: Double, x1: Double, y1: Double), sx: Double, sy: Double) -> Double {
        func part(_ p: Double, _ lo: Double, _ hi: Double, _ s: Double) -> Double {
            s > 0 ? phi((hi - p) / s) - phi((lo - p) / s) : (p >= lo && p < hi ? 1 : 0)
        }
        return part(Double(x) + 0.5, r.x0, r.x1, sx) * part(Double(y) + 0.5, r.y0, r.y1, sy)
    }

    func alpha(_ s: Surface, _ x: Int, _ y: Int) -> Double { Double(s.pixels[y * s.width + x] >> 24) / 255 }

    /// Compares every pixel of `surface` that `where` selects with `expected`, within `tolerance`.
    func assertMatches(_ surface: Surface, tolerance: Double, _ name: String, where selected: (Int, Int) -> Bool = { _, _ in true },
                       expected: (Int, Int) -> Double, file: StaticString = #filePath, line: UInt = #line) {
        var worst = 0.0, at = (0, 0), compared = 0
        for y in 0..<surface.height {
            for x in 0..<surface.width where selected(x, y) {
                let error = abs(alpha(surface, x, y) - expected(x, y))
                compared += 1
                if error > worst { (worst, at) = (error, (x, y)) }
            }
        }
        XCTAssertGreaterThan(compared, 0, name, file: file, line: line)
        XCTAssertLessThanOrEqual(worst, tolerance, "\(name): worst alpha error \(worst) at \(at)", file: file, line: line)
    }

    /// A drop shadow (softness 20 → Core Animation radius 4 → σ 0.93·4 per unit; distance 6
    /// straight down) around the square, against the blurred rectangle, at 1x and 2x: the
    /// offset and the blur scale with the output.
    func testDropShadowMatchesAGaussianAtTwoScales() throws {
        let renderer = try Self.squareAnimation(extra: Self.dropShadow(opacity: 255, direction: 180, distance: 6, softness: 20))
        for scale in [1, 2] {
            let s = renderer.render(frame: 0, viewport: Viewport(width: 100 * scale, height: 100 * scale))
            let k = Double(scale)
            let sigma = 4 * 0.93 * k
            let shadow = (x0: 30 * k, y0: 36 * k, x1: 70 * k, y1: 76 * k)
            let square = PixelRect(x0: 30 * scale, y0: 30 * scale, x1: 70 * scale, y1: 70 * scale)
            assertMatches(s, tolerance: 0.03, "shadow at \(scale)x", where: { !square.contains(x: $0, y: $1) }) { x, y in
                Self.blurredRect(x: x, y: y, shadow, sx: sigma, sy: sigma)
            }
            XCTAssertEqual(s.pixels[(50 * scale) * s.width + 50 * scale], 0xFF00_0000, "the square is drawn over its shadow")
        }
    }

    /// The drop shadow style: size 10 → radius 5, angle 0 moves it right, opacity 50 %.
    func testDropShadowStyleMovesAlongItsAngle() throws {
        let renderer = try Self.squareAnimation(extra: Self.style(1, size: 10, distance: 8, angle: 0, opacity: 50))
        for scale in [1, 2] {
            let s = renderer.render(frame: 0, viewport: Viewport(width: 100 * scale, height: 100 * scale))
            let k = Double(scale)
            let sigma = 5 * 0.93 * k
            let square = PixelRect(x0: 30 * scale, y0: 30 * scale, x1: 70 * scale, y1: 70 * scale)
            assertMatches(s, tolerance: 0.02, "style shadow at \(scale)x", where: { !square.contains(x: $0, y: $1) }) { x, y in
                0.5 * Self.blurredRect(x: x, y: y, (38 * k, 30 * k, 78 * k, 70 * k), sx: sigma, sy: sigma)
            }
        }
    }

    /// The Gaussian blur effect: blurriness 10 → σ 3 per unit, both ways, across only, down only.
    func testGaussianBlurInEachDimensionAtTwoScales() throws {
        for (dimensions, across, down) in [(1, true, true), (2, true, false), (3, false, true)] {
            let renderer = try Self.squareAnimation(extra: Self.gaussianBlur(10, dimensions: dimensions))
            for scale in [1, 2] {
                let s = renderer.render(frame: 0, viewport: Viewport(width: 100 * scale, height: 100 * scale))
                let k = Double(scale), sigma = 3 * k
                assertMatches(s, tolerance: 0.03, "blur \(dimensions) at \(scale)x") { x, y in
                    Self.blurredRect(x: x, y: y, (30 * k, 30 * k, 70 * k, 70 * k), sx: across ? sigma : 0, sy: down ? sigma : 0)
                }
            }
        }
    }

    /// An inner shadow (angle 90: the outside moved down into the square's top) stays inside
    /// the square; an outer glow surrounds it evenly and leaves the square's own pixels alone.
    func testInnerShadowAndOuterGlow() throws {
        let inner = try Self.squareAnimation(extra: Self.style(2, size: 8, distance: 6, angle: 90, opacity: 100, color: "[1,1,1,1]"))
        let s = inner.render(frame: 0, viewport: Viewport(width: 100, height: 100))
        let sigma = 4 * 0.93
        let square = PixelRect(x0: 30, y0: 30, x1: 70, y1: 70)
        for y in 0..<100 {
            for x in 0..<100 where !square.contains(x: x, y: y) {
                XCTAssertEqual(s.pixels[y * 100 + x], 0, "nothing outside the square at (\(x), \(y))")
            }
        }
        // Inside, the white shadow's share is the blurred outside, moved 6 down.
        for (x, y) in [(50, 31), (50, 34), (50, 38), (50, 45), (31, 50), (50, 68)] {
            let outside = 1 - Self.blurredRect(x: x, y: y - 6, (30, 30, 70, 70), sx: sigma, sy: sigma)
            let white = Double((s.pixels[y * 100 + x] >> 16) & 0xff) / 255
            XCTAssertEqual(white, outside, accuracy: 0.03, "inner shadow at (\(x), \(y))")
        }

        let glow = try Self.squareAnimation(extra: Self.style(3, size: 12, distance: 0, angle: 0, opacity: 100, color: "[1,0,0,1]"))
        let g = glow.render(frame: 0, viewport: Viewport(width: 100, height: 100))
        let gs = 6 * 0.93
        assertMatches(g, tolerance: 0.03, "outer glow", where: { !square.contains(x: $0, y: $1) }) { x, y in
            Self.blurredRect(x: x, y: y, (30, 30, 70, 70), sx: gs, sy: gs)
        }
        XCTAssertEqual(g.pixels[50 * 100 + 50], 0xFF00_0000, "the square stays black over its glow")
        XCTAssertEqual(g.pixels[50 * 100 + 20] >> 16 & 0xff, g.pixels[50 * 100 + 20] >> 24, "the glow is red")
    }

    /// Over half-transparent content an inner shadow is kept in proportion to the content's
    /// alpha: white at 1 − ½ (what lies outside) × ½ (the content) over ½ black.
    func testInnerShadowOverHalfTransparentContent() throws {
        let layer = RenderBehaviourTests.rectLayer(center: (50, 50), size: (40, 40), color: (0, 0, 0),
                                                   extra: Self.style(2, size: 0, distance: 0, angle: 90, opacity: 100, color: "[1,1,1,1]"))
            .replacingOccurrences(of: #"1]},"o":{"a":0,"k":100}}"#, with: #"1]},"o":{"a":0,"k":50}}"#)
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":[\#(layer)]}"#
        let s = AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "half.json", baseDirectory: nil))
            .render(frame: 0, viewport: Viewport(width: 100, height: 100))
        let p = s.pixels[50 * 100 + 50]
        XCTAssertEqual(Double(p >> 24), 160, accuracy: 2, "alpha: ¼ white over ½ black")
        for shift: UInt32 in [0, 8, 16] { XCTAssertEqual(Double((p >> shift) & 0xff), 64, accuracy: 2, "channel \(shift)") }
    }

    /// An inner glow from the edges is an inner shadow that does not move; one from the centre
    /// is the layer's own alpha blurred, inside it: full in the middle, half at the edge.
    func testInnerGlowFromTheEdgesAndFromTheCentre() throws {
        let viewport = Viewport(width: 100, height: 100)
        let glow = try Self.squareAnimation(extra: Self.style(4, size: 8, distance: 0, angle: 0, opacity: 100, color: "[1,1,1,1]")
            .replacingOccurrences(of: #""nm":"style","#, with: #""nm":"style","sr":{"a":0,"k":2},"#)).render(frame: 0, viewport: viewport)
        let shadow = try Self.squareAnimation(extra: Self.style(2, size: 8, distance: 0, angle: 0, opacity: 100, color: "[1,1,1,1]"))
            .render(frame: 0, viewport: viewport)
        XCTAssertEqual(glow.pixels, shadow.pixels, "from the edges: an inner shadow at distance 0")
        XCTAssertGreaterThan(glow.pixels[50 * 100 + 30] >> 16 & 0xff, 100, "bright at the edge")
        XCTAssertEqual(glow.pixels[50 * 100 + 50], 0xFF00_0000, "dark in the middle")

        let centre = try Self.squareAnimation(extra: Self.style(4, size: 8, distance: 0, angle: 0, opacity: 100, color: "[1,1,1,1]")
            .replacingOccurrences(of: #""nm":"style","#, with: #""nm":"style","sr":{"a":0,"k":1},"#)).render(frame: 0, viewport: viewport)
        XCTAssertEqual(centre.pixels[50 * 100 + 50], 0xFFFF_FFFF, "white in the middle")
        let edge = Double(centre.pixels[50 * 100 + 30] >> 16 & 0xff) / 255
        XCTAssertEqual(edge, Self.blurredRect(x: 30, y: 50, (30, 30, 70, 70), sx: 4 * 0.93, sy: 4 * 0.93), accuracy: 0.03, "half at the edge")
        XCTAssertEqual(centre.pixels[50 * 100 + 29], 0, "nothing outside")
    }

    /// A spread makes the edge more solid: more alpha at every point of the falloff, capped at 1.
    func testSpreadHardensTheFalloff() throws {
        let soft = try Self.squareAnimation(extra: Self.style(3, size: 12, distance: 0, angle: 0, opacity: 100))
            .render(frame: 0, viewport: Viewport(width: 100, height: 100))
        let spread = try Self.squareAnimation(extra: Self.style(3, size: 12, distance: 0, angle: 0, opacity: 100, spread: 50))
            .render(frame: 0, viewport: Viewport(width: 100, height: 100))
        for x in [22, 25, 28] {
            let a = alpha(soft, x, 50), b = alpha(spread, x, 50)
            XCTAssertEqual(b, min(1, 2 * a), accuracy: 0.02, "spread 50 % doubles the falloff at x \(x)")
        }
    }

    /// A track matte cuts the shadow with the layer; a precomp's bounds cut it too; the layer's
    /// opacity scales it.
    func testMatteClipAndOpacityApplyToTheShadow() throws {
        let shadow = Self.dropShadow(opacity: 255, direction: 90, distance: 12, softness: 0)
        // The matte covers the left 60 units: the shadow, moved 12 right, shows only up to x 60.
        let matte = RenderBehaviourTests.rectLayer(index: 1, name: "matte", center: (30, 50), size: (60, 100), color: (1, 1, 1),
                                                   extra: "\"td\":1,")
        let matted = RenderBehaviourTests.rectLayer(index: 2, center: (50, 50), size: (40, 40), color: (0, 0, 1), extra: "\"tt\":1," + shadow)
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":[\#(matte),\#(matted)]}"#
        let m = AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "m.json", baseDirectory: nil))
            .render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(m.pixels[50 * 100 + 40], 0xFF00_00FF, "the layer inside the matte")
        XCTAssertEqual(m.pixels[50 * 100 + 75], 0, "its shadow outside the matte is cut")
        XCTAssertEqual(m.pixels[50 * 100 + 65], 0, "and so is the layer")

        // In a 74-unit-wide precomp the shadow (x 42...82) is cut at 74.
        let inner = RenderBehaviourTests.rectLayer(center: (50, 50), size: (40, 40), color: (0, 0, 0), extra: shadow)
        let precomp = #"{"ty":0,"ind":1,"refId":"p","w":74,"h":100,"ip":0,"op":60,"st":0,\#(RenderBehaviourTests.identityTransform)}"#
        let assets = #"[{"id":"p","layers":[\#(inner)]}]"#
        let pjson = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":\#(assets),"layers":[\#(precomp)]}"#
        let p = AnimationRenderer(animation: try Animation.parse(Array(pjson.utf8), name: "p.json", baseDirectory: nil))
            .render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(p.pixels[50 * 100 + 73] >> 24, 255, "the shadow inside the precomp")
        XCTAssertEqual(p.pixels[50 * 100 + 74], 0, "the shadow beyond the precomp's bounds")

        let half = #""ks":{"o":{"a":0,"k":50},"r":{"a":0,"k":0},"p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}}"#
        let faded = RenderBehaviourTests.rectLayer(center: (50, 50), size: (40, 40), color: (0, 0, 0), extra: shadow, transform: half)
        let fjson = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":[\#(faded)]}"#
        let f = AnimationRenderer(animation: try Animation.parse(Array(fjson.utf8), name: "f.json", baseDirectory: nil))
            .render(frame: 0, viewport: Viewport(width: 100, height: 100))
        XCTAssertEqual(Double(f.pixels[50 * 100 + 75] >> 24), 127.5, accuracy: 1.5, "the shadow at the layer's opacity")
    }

    /// The corpus's shadow samples against lottie-ios's snapshots with its own criterion: at the
    /// snapshots' size, and at half of it against the snapshots averaged down 2×2.
    func testShadowSamplesMatchLottieIOSAtTwoScales() throws {
        try XCTSkipUnless(CorpusPaths.available, "shared corpus not found at \(CorpusPaths.corpus.path)")
        for sample in ["Issues/issue_1169_shadow_effect", "Issues/issue_1169_shadow_effect_animated", "Issues/issue_1169_shadow_style"] {
            let frames = try CorpusPaths.frames(of: sample)
            XCTAssertFalse(frames.isEmpty, sample)
            let renderer = AnimationRenderer(animation: try Animation.load(path: frames[0].file))
            for f in frames {
                let reference = try PNG.read(path: f.reference)
                for half in [false, true] {
                    let expected = half ? Self.halved(reference) : reference
                    let viewport = Viewport(width: expected.width, height: expected.height, contentMode: .fit, alignment: .topLeft)
                    let surface = renderer.render(frame: f.frame, viewport: viewport)
                    let verdict = SnapshotCriterion(precision: f.precision, perceptualPrecision: f.perceptualPrecision)
                        .judge(reference: expected, rendered: surface)
                    XCTAssertTrue(verdict.passed, "\(sample) frame \(f.label) \(half ? "at half size" : ""): match \(verdict.matchFraction)")
                }
            }
        }
    }

    /// `image` averaged down 2×2 (premultiplied, as the pixels are stored).
    static func halved(_ image: Image) -> Image {
        let (w, h) = (image.width / 2, image.height / 2)
        var pixels = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let quad = [image.pixels[2 * y * image.width + 2 * x], image.pixels[2 * y * image.width + 2 * x + 1],
                            image.pixels[(2 * y + 1) * image.width + 2 * x], image.pixels[(2 * y + 1) * image.width + 2 * x + 1]]
                var value: UInt32 = 0
                for shift: UInt32 in [0, 8, 16, 24] {
                    let sum = quad.reduce(UInt32(0)) { $0 + (($1 >> shift) & 0xff) }
                    value |= ((sum + 2) / 4) << shift
                }
                pixels[y * w + x] = value
            }
        }
        return Image(width: w, height: h, pixels: pixels)
    }
}

/// Effects with hostile values: drawn within bounds, quickly, never a trap.
final class HostileEffectTests: XCTestCase {
    func testHugeAndNegativeEffectValuesStayBounded() throws {
        let cases = [
            EffectGoldenTests.gaussianBlur(1e15, dimensions: 1), EffectGoldenTests.gaussianBlur(-5, dimensions: 99),
            EffectGoldenTests.gaussianBlur(4e9, dimensions: -3), EffectGoldenTests.gaussianBlur(1e15, dimensions: 1, repeatEdges: true),
            EffectGoldenTests.gaussianBlur(0.3, dimensions: 2, repeatEdges: true),
            EffectGoldenTests.style(1, size: 1e300, distance: -1e300, angle: 1e18, opacity: 1e9, spread: 1e9),
            EffectGoldenTests.style(2, size: -4, distance: 1e15, angle: -1e300, opacity: 100, spread: -20),
            EffectGoldenTests.style(3, size: 1e15, distance: 0, angle: 0, opacity: 100, spread: 100),
            EffectGoldenTests.dropShadow(opacity: 1e300, direction: -1e300, distance: 1e300, softness: -1e300),
        ]
        for extra in cases {
            let renderer = try EffectGoldenTests.squareAnimation(extra: extra)
            let start = Date()
            for size in [1, 64, 160] {
                let s = renderer.render(frame: 0, viewport: Viewport(width: size, height: size))
                XCTAssertEqual(s.width, size)
            }
            // A guard against runaway work (a debug build on a busy machine), not a speed figure.
            XCTAssertLessThan(Date().timeIntervalSince(start), 20, "\(extra)")
        }
    }

    /// Every offscreen buffer of an effect comes from the pool and goes back to it: frames
    /// after the first make none.
    func testEffectBuffersAreReusedFromFrameToFrame() throws {
        let extra = EffectGoldenTests.gaussianBlur(8, dimensions: 1) + EffectGoldenTests.style(2, size: 6, distance: 4, angle: 45, opacity: 80)
        let renderer = try EffectGoldenTests.squareAnimation(extra: extra)
        var surface = Surface(width: 100, height: 100)
        let viewport = Viewport(width: 100, height: 100)
        for frame in 0..<3 { renderer.render(frame: Double(frame), viewport: viewport, into: &surface) }
        let settled = renderer.bufferAllocations
        for frame in 0..<5 { renderer.render(frame: Double(frame), viewport: viewport, into: &surface) }
        XCTAssertEqual(renderer.bufferAllocations, settled)
    }
}
