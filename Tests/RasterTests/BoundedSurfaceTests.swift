import Raster
import XCTest

/// Surfaces that hold only part of the frame (an offscreen layer's bounds, a band) draw the
/// same pixels there as a whole-frame surface, and pooled buffers are reused.
final class BoundedSurfaceTests: XCTestCase {
    func shapes() -> [(Path, Paint, Double)] {
        var circle = Path()
        circle.addEllipse(in: Rect(x: 7.3, y: 5.1, width: 50.2, height: 41.7))
        var square = Path()
        square.addRect(Rect(x: 20.5, y: 12.25, width: 30, height: 40))
        let stops = [GradientStop(offset: 0, color: Color(r: 1, g: 0, b: 0, a: 1)),
                     GradientStop(offset: 1, color: Color(r: 0, g: 0, b: 1, a: 0.5))]
        let gradient = Paint.gradient(.radial(center: Point(30, 25), radius: 30, focal: Point(25, 20), stops: stops), .identity)
        return [(circle, gradient, 1), (square, .solid(Color(r: 0, g: 1, b: 0, a: 0.6)), 0.8)]
    }

    func testAPartOfTheFrameHoldsTheSamePixelsAsTheWholeFrame() {
        var whole = Surface(width: 64, height: 56)
        let part = PixelRect(x0: 11, y0: 17, x1: 47, y1: 39)
        var bounded = Surface(bounds: part, pool: BufferPool())
        for (path, paint, opacity) in shapes() {
            whole.fill(path, paint: paint, opacity: opacity)
            bounded.fill(path, paint: paint, opacity: opacity)
        }
        XCTAssertEqual(bounded.painted, part, "both shapes cover the part")
        var differing = 0
        for y in part.y0..<part.y1 {
            for x in part.x0..<part.x1 where whole.pixels[y * 64 + x] != bounded.pixels[(y - part.y0) * part.width + (x - part.x0)] {
                differing += 1
            }
        }
        XCTAssertEqual(differing, 0)
    }

    func testCompositeAppliesTheMaskAndTouchesOnlyWhatTheSourcePainted() {
        var source = Surface(bounds: PixelRect(x0: 10, y0: 10, x1: 30, y1: 30))
        var square = Path()
        square.addRect(Rect(x: 12, y: 12, width: 6, height: 6))
        source.fill(square, paint: .solid(Color(r: 1, g: 0, b: 0, a: 1)))
        XCTAssertEqual(source.painted, PixelRect(x0: 12, y0: 12, x1: 18, y1: 18))
        var mask = Mask(rect: PixelRect(x0: 15, y0: 0, x1: 40, y1: 40), value: 255)
        mask.values[(14 - 0) * 25 + (16 - 15)] = 0   // device pixel (16, 14)
        var target = Surface(width: 40, height: 40, clearColor: Color(r: 0, g: 0, b: 1, a: 1))
        target.composite(source, mask: mask)
        XCTAssertEqual(target.pixels[14 * 40 + 13], 0xFF00_00FF, "left of the mask's rectangle: not covered")
        XCTAssertEqual(target.pixels[14 * 40 + 15], 0xFFFF_0000)
        XCTAssertEqual(target.pixels[14 * 40 + 16], 0xFF00_00FF, "zero coverage in the mask")
        XCTAssertEqual(target.pixels[20 * 40 + 20], 0xFF00_00FF, "outside what the source painted")
    }

    func testMasksOverDifferentRectanglesCombineAsIfZeroOutside() {
        var a = Mask(rect: PixelRect(x0: 0, y0: 0, x1: 4, y1: 1), value: 200)
        let b = Mask(rect: PixelRect(x0: 2, y0: 0, x1: 6, y1: 1), value: 100)
        var added = a
        added.combine(b, .add)
        XCTAssertEqual(added.values, [200, 200, 222, 222])
        a.combine(b, .intersect)
        XCTAssertEqual(a.values, [0, 0, 78, 78])
    }

    func testAPoolGivesBackItsBuffers() {
        let pool = BufferPool()
        for _ in 0..<5 {
            var s = Surface(bounds: PixelRect(x0: 3, y0: 4, x1: 103, y1: 54), pool: pool)
            var m = Mask(rect: PixelRect(x0: 0, y0: 0, x1: 90, y1: 40), pool: pool)
            XCTAssertTrue(s.pixels.allSatisfy { $0 == 0 }, "a reused buffer is cleared")
            // A pixel written directly is noted as painted (what every drawing operation does).
            s.pixels[7] = 0xFFFF_FFFF
            s.markPainted(PixelRect(x0: 10, y0: 4, x1: 11, y1: 5))
            m.values[3] = 9
            s.recycle(into: pool)
            m.recycle(into: pool)
        }
        XCTAssertEqual(pool.allocations, 2, "one pixel buffer and one coverage buffer, made once")
    }

    /// A surface clears only what it painted when handed back; the next clear surface takes
    /// that buffer without filling it, at the same size, a smaller one or a larger one.
    func testAHandedBackSurfaceIsClearForTheNext() {
        let pool = BufferPool()
        for (k, size) in [(60, 40), (60, 40), (30, 20), (61, 45), (90, 10)].enumerated() {
            var s = Surface(bounds: PixelRect(x0: -5, y0: 2, x1: size.0 - 5, y1: size.1 + 2), pool: pool)
            XCTAssertTrue(s.pixels.allSatisfy { $0 == 0 }, "surface \(k) starts clear")
            var blob = Path()
            blob.addEllipse(in: Rect(x: Double(k * 3), y: 4, width: 30, height: 25))
            s.fill(blob, paint: .solid(Color(r: 1, g: 0.5, b: 0, a: 0.8)))
            XCTAssertTrue(s.pixels.contains { $0 != 0 })
            s.recycle(into: pool)
        }
        XCTAssertLessThanOrEqual(pool.allocations, 3)
    }

    func testTheFastBlurMatchesTheReference() {
        var random = FillRunTests.Random(state: 7)
        for (radius, origin) in [(3.0, (0, 0)), (9.5, (-20, 13)), (40.0, (5, -7))] {
            var fast = Surface(bounds: PixelRect(x0: origin.0, y0: origin.1, x1: origin.0 + 97, y1: origin.1 + 61), pool: BufferPool())
            for _ in 0..<6 {
                var blob = Path()
                let c = random.point(97, 61)
                blob.addEllipse(in: Rect(x: c.x + Double(origin.0), y: c.y + Double(origin.1), width: 4 + random.next() * 30, height: 3 + random.next() * 20))
                fast.fill(blob, paint: .solid(Color(r: random.next(), g: random.next(), b: random.next(), a: 0.3 + random.next() * 0.7)))
            }
            var reference = fast
            fast.blur(radius: radius, pool: BufferPool())
            reference.referenceBlur(radius: radius)
            XCTAssertEqual(fast.pixels, reference.pixels, "radius \(radius)")
            XCTAssertTrue(fast.painted.contains(PixelRect(x0: origin.0, y0: origin.1, x1: origin.0 + 1, y1: origin.1 + 1)) || fast.pixels[0] == 0)
        }
    }
}

/// The Float kernel of every blend mode against the Double reference.
final class BlendKernelTests: XCTestCase {
    func testEveryModeAgreesWithTheReferenceWithinOneStep() {
        var random = FillRunTests.Random(state: 99)
        func pixel() -> UInt32 {
            // Premultiplied: colour channels at most alpha; some fully transparent or opaque.
            let choice = random.next()
            let a = choice < 0.1 ? 0 : choice < 0.3 ? 255 : UInt32(random.next() * 255.99)
            func c() -> UInt32 { UInt32(random.next() * Double(a) + 0.5) }
            return a << 24 | c() << 16 | c() << 8 | c()
        }
        for mode in BlendMode.allCases where mode != .normal {
            var worst: UInt32 = 0
            for _ in 0..<4000 {
                let s = pixel(), b = pixel()
                let reference = Surface.referenceBlend(s, b, mode)
                let fast = Surface.fastBlend(s, b, mode)
                for shift in stride(from: 0, to: 32, by: 8) {
                    let x = (reference >> shift) & 0xff, y = (fast >> shift) & 0xff
                    worst = max(worst, x > y ? x - y : y - x)
                }
            }
            XCTAssertLessThanOrEqual(worst, 1, "\(mode)")
        }
    }

    func testCompositeUsesTheModeOverTheWholeSpan() {
        var backdrop = Surface(width: 64, height: 1, clearColor: Color(r: 0.5, g: 0.25, b: 1))
        let source = Surface(width: 64, height: 1, clearColor: Color(r: 1, g: 0.5, b: 0))
        backdrop.composite(source, blend: .screen)
        let expected = Surface.referenceBlend(source.pixels[0], Color(r: 0.5, g: 0.25, b: 1).premultiplied, .screen)
        XCTAssertTrue(backdrop.pixels.allSatisfy { $0 == expected || Int($0 & 0xff) - Int(expected & 0xff) == 1 })
    }
}
