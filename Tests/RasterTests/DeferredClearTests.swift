import XCTest
@testable import Raster

/// A deferred clear (`clearDeferred` … paints … `settleClear`) leaves the pixels, drawn
/// region and clear colour that `clear` followed by the same paints leaves: the reference.
final class DeferredClearTests: XCTestCase {
    typealias Random = FastPathTests.Random

    /// An ellipse around (cx, cy): edge pixels, partial runs on its top and bottom rows, a full inside.
    func ellipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) -> Path {
        var path = Path()
        let k = 0.5523
        path.move(to: Point(cx + rx, cy))
        path.cubic(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + k * ry), control2: Point(cx + k * rx, cy + ry))
        path.cubic(to: Point(cx - rx, cy), control1: Point(cx - k * rx, cy + ry), control2: Point(cx - rx, cy + k * ry))
        path.cubic(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - k * ry), control2: Point(cx - k * rx, cy - ry))
        path.cubic(to: Point(cx + rx, cy), control1: Point(cx + k * rx, cy - ry), control2: Point(cx + rx, cy - k * ry))
        path.close()
        return path
    }

    /// A rectangle at a fractional place (partial rows and columns around a full inside) or an ellipse.
    func shape(_ r: inout Random, _ w: Double, _ h: Double, scale: Double) -> Path {
        let (x, y) = (r.unit() * w * 1.1 - w * 0.05, r.unit() * h * 1.1 - h * 0.05)
        let (sw, sh) = ((4 + r.unit() * w * 0.7) * scale, (4 + r.unit() * h * 0.7) * scale)
        if r.next() % 2 == 0 { return ellipse(x, y, sw / 2, sh / 2) }
        var path = Path()
        path.addRect(Rect(x: x - sw / 2, y: y - sh / 2, width: sw, height: sh))
        return path
    }

    func paint(_ r: inout Random) -> Paint {
        switch r.next() % 7 {
        case 0: return .solid(Color(r: r.unit(), g: r.unit(), b: r.unit()))
        case 1: return .solid(Color(r: r.unit(), g: r.unit(), b: r.unit(), a: r.unit()))
        case 2: return .solid(.white)
        case 3: return .gradient(.linear(start: Point(0, 0), end: Point(60, 40), stops: [
            GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: Color(r: 1, g: 0, b: 0, a: 0.5))]), .identity)
        case 4: return .solid(Color(r: 0.2, g: 0.9, b: 0.4, a: 0.01))
        // Opaque: its runs at full coverage are shaded straight into the row, with no clear under them.
        case 5: return .gradient(.linear(start: Point(r.unit() * 90, 0), end: Point(30, r.unit() * 70), stops: [
            GradientStop(offset: 0, color: Color(r: 0, g: 0.5, b: 1)), GradientStop(offset: 1, color: Color(r: 1, g: 0.8, b: 0))]), .identity)
        default: return .gradient(.radial(center: Point(40, 30), radius: 5 + r.unit() * 40, focal: Point(42, 31), stops: [
            GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: Color(r: 0.3, g: 0, b: 0.6))]), .identity)
        }
    }

    /// Frames of a few shapes that move and shrink, with translucent, opaque and gradient
    /// paints (opaque and translucent gradients), some with an opacity, some
    /// clipped, some frames with nothing drawn, over clear colours that change now and then.
    func testFramesDrawnAfterADeferredClearMatchThoseAfterAClear() {
        var r = Random(state: 77)
        let (w, h) = (97, 71)
        let colours = [Color.clear, Color.clear, Color(r: 0.1, g: 0.2, b: 0.3), Color.white, Color(r: 1, g: 0, b: 0, a: 0.5)]
        var fast = Surface(width: w, height: h)
        var reference = Surface(width: w, height: h)
        let cache = CoverageCache()
        var compared = 0
        for round in 0..<300 {
            let colour = colours[(round / 20) % colours.count]
            fast.clearDeferred(colour)
            reference.clear(colour)
            XCTAssertEqual(fast.clearValue, reference.clearValue)
            XCTAssertTrue(fast.drawnRegion.isEmpty)
            let scale = 1 - Double(round % 20) / 25
            for k in 0..<Int(r.next() % 4) {
                let path = shape(&r, Double(w), Double(h), scale: scale)
                let p = paint(&r)
                let opacity = r.next() % 3 == 0 ? 0.3 + 0.7 * r.unit() : 1
                let clip = r.next() % 6 == 0 ? Clip(rect: PixelRect(x0: 5, y0: 7, x1: 80, y1: 60)) : nil
                // The same shape, kept: painted from its coverage as a render tree's paints are.
                fast.fill(path, paint: p, opacity: opacity, clip: clip, cache: cache)
                reference.fill(path, paint: p, opacity: opacity, clip: clip, cache: k % 2 == 0 ? nil : cache)
            }
            fast.settleClear()
            XCTAssertEqual(fast.drawnRegion.union, reference.drawnRegion.union, "round \(round)")
            if let difference = Self.firstDifference(fast, reference) { return XCTFail("round \(round): \(difference)") }
            compared += 1
        }
        XCTAssertEqual(compared, 300)
    }

    /// Where two surfaces of one size first differ, or nil.
    static func firstDifference(_ a: Surface, _ b: Surface) -> String? {
        guard let i = zip(a.pixels, b.pixels).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else { return nil }
        return "pixel \(i % a.width),\(i / a.width) is \(String(a.pixels[i], radix: 16)), after a clear \(String(b.pixels[i], radix: 16))"
    }

    /// The first paint's runs are stored over the clear colour: pixels under them that the
    /// last frame drew are not cleared first, and no pixel outside what it covers keeps them.
    func testTheFirstPaintOverAPendingClearLeavesNothingOfTheLastFrame() {
        var surface = Surface(width: 40, height: 30)
        var full = Path()
        full.addRect(Rect(x: 0, y: 0, width: 40, height: 30))
        surface.fill(full, paint: .solid(Color(r: 0, g: 0, b: 1)))
        surface.clearDeferred()
        XCTAssertEqual(surface.pixels[0], Color(r: 0, g: 0, b: 1).premultiplied, "the clear waits for the paint")
        surface.fill(ellipse(20, 15, 9.3, 6.7), paint: .solid(Color(r: 1, g: 0, b: 0, a: 0.5)), cache: CoverageCache())
        var reference = Surface(width: 40, height: 30)
        reference.fill(ellipse(20, 15, 9.3, 6.7), paint: .solid(Color(r: 1, g: 0, b: 0, a: 0.5)))
        XCTAssertNil(Self.firstDifference(surface, reference))
        // Nothing left to settle, and settling twice changes nothing.
        surface.settleClear()
        surface.settleClear()
        XCTAssertNil(Self.firstDifference(surface, reference))
    }

    /// A frame that draws nothing leaves a cleared surface once settled.
    func testADeferredClearWithNoPaintClearsOnSettling() {
        var surface = Surface(width: 30, height: 20)
        surface.fill(ellipse(10, 10, 8, 6), paint: .solid(.white))
        surface.fill(ellipse(25, 5, 3, 3), paint: .solid(.black))
        surface.clearDeferred()
        surface.clearDeferred()
        surface.settleClear()
        XCTAssertEqual(surface.pixels, [UInt32](repeating: 0, count: 600))
        XCTAssertTrue(surface.drawnRegion.isEmpty)
    }

    /// Bands settle their part of a deferred clear when they are made.
    func testBandsSeeTheSurfaceCleared() {
        var surface = Surface(width: 32, height: 32)
        surface.fill(ellipse(16, 16, 14, 14), paint: .solid(.white))
        surface.clearDeferred()
        surface.withBands([0..<16, 16..<32]) { bands in
            for i in bands.indices { bands[i].fill(self.ellipse(8, 8, 3, 3), paint: .solid(.black)) }
        }
        var reference = Surface(width: 32, height: 32)
        reference.fill(ellipse(8, 8, 3, 3), paint: .solid(.black))
        XCTAssertNil(Self.firstDifference(surface, reference))
    }

    /// Runs out of row order (the rasterizer makes none) paint what they paint in order.
    func testRunsOutOfRowOrderPaintAsInOrder() {
        let full = { (y: Int32, x: Int32, n: Int32) in Coverage.Run(y: y, x: x, count: n, offset: -1, value: 255) }
        let runs = [full(3, 70, 80), full(1, 2, 100), full(3, 0, 66), Coverage.Run(y: 2, x: 5, count: 3, offset: 0, value: 0), full(0, 90, 64)]
        let coverage = Coverage(runs: runs, bytes: [40, 200, 90], longestRun: 100, bounds: PixelRect(x0: 0, y0: 0, x1: 154, y1: 4))
        for color in [Color(r: 1, g: 0.5, b: 0).premultiplied, Color(r: 0, g: 0, b: 1, a: 0.5).premultiplied] {
            var fast = Surface(width: 160, height: 6)
            var stale = Path()
            stale.addRect(Rect(x: 0, y: 0, width: 160, height: 6))
            fast.fill(stale, paint: .solid(.white))
            var reference = fast
            fast.clearDeferred()
            fast.paintRunsOverPendingClear(coverage, color: color)
            reference.clear()
            reference.paintCoverage(coverage, shader: Shader(paint: .solid(Color(premultiplied: color)), pathToDevice: .identity, uniformAsSolid: false),
                                    opacity: 1, clip: nil)
            XCTAssertNil(Self.firstDifference(fast, reference))
        }
    }
}
