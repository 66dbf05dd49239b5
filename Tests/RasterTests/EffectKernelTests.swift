@testable import Raster
import Foundation
import XCTest

/// Random pixels and the distance between two, for the kernel tests.
enum KernelSamples {
    typealias Random = FastPathTests.Random

    /// Premultiplied pixels: transparent, opaque and partial ones, and now and then any bits.
    static func randomPixel(_ r: inout Random) -> UInt32 {
        switch r.next() % 6 {
        case 0: return 0
        case 1: return 0xff00_0000 | UInt32(truncatingIfNeeded: r.next()) & 0xffffff
        case 2: return UInt32(truncatingIfNeeded: r.next() ^ (r.next() << 16))
        default:
            let a = UInt32(r.byte())
            let channel = { (v: UInt8) in UInt32(v) * a / 255 }
            return a << 24 | channel(r.byte()) << 16 | channel(r.byte()) << 8 | channel(r.byte())
        }
    }

    /// The largest difference of one channel (alpha included) between two pixels.
    static func channelDistance(_ p: UInt32, _ q: UInt32) -> Int {
        var largest = 0
        for shift in stride(from: UInt32(0), to: 32, by: 8) {
            let a = Int((p >> shift) & 0xff), b = Int((q >> shift) & 0xff)
            largest = max(largest, abs(a - b))
        }
        return largest
    }

}

/// The fast kernels of effects and blend modes against their per-pixel references.
final class EffectKernelTests: XCTestCase {
    typealias Random = FastPathTests.Random

    func randomPixel(_ r: inout Random) -> UInt32 { KernelSamples.randomPixel(&r) }
    func channelDistance(_ p: UInt32, _ q: UInt32) -> Int { KernelSamples.channelDistance(p, q) }

    func randomColor(_ r: inout Random) -> Color { Color(r: r.unit(), g: r.unit(), b: r.unit()) }

    func testColorTransformLanesAgreeWithTheStraightColourReferenceWithinOneStep() {
        var r = Random(state: 41)
        for round in 0..<200 {
            let amount = [0, 1, r.unit()][round % 3]
            let transform: ColorTransform = round % 2 == 0
                ? .fill(randomColor(&r), amount: amount)
                : .tint(black: randomColor(&r), white: randomColor(&r), amount: amount)
            let count = 1 + Int(r.next() % 40)
            let pixels = (0..<count).map { _ in randomPixel(&r) }
            var fast = pixels, scalar = pixels
            fast.withUnsafeMutableBufferPointer { ColorSpans.applyLanes(transform, $0.baseAddress!, count: count) }
            scalar.withUnsafeMutableBufferPointer { p in for i in 0..<count { p[i] = ColorSpans.mapOne(transform, p[i]) } }
            for i in 0..<count {
                let reference = ColorSpans.mapReference(transform, pixels[i])
                XCTAssertLessThanOrEqual(channelDistance(fast[i], reference), 1, "round \(round) pixel \(String(pixels[i], radix: 16))")
                XCTAssertEqual(fast[i] >> 24, pixels[i] >> 24, "alpha kept")
            }
            XCTAssertEqual(fast, scalar, "lanes and the tail's scalar map, round \(round)")
        }
    }

    func testColorTransformOnASurfaceVisitsOnlyWhatWasPaintedAndMatchesTheReference() {
        var surface = Surface(bounds: PixelRect(x0: 10, y0: 5, x1: 60, y1: 40))
        var r = Random(state: 5)
        var path = Path()
        path.addRect(Rect(x: 20, y: 10, width: 25, height: 20))
        surface.fill(path, paint: .solid(Color(r: 0.8, g: 0.3, b: 0.1, a: 0.7)))
        XCTAssertFalse(surface.painted.isEmpty)
        let transform = ColorTransform.tint(black: randomColor(&r), white: randomColor(&r), amount: 0.6)
        var reference = surface
        surface.apply(transform)
        reference.applyReference(transform)
        for (p, q) in zip(surface.pixels, reference.pixels) { XCTAssertLessThanOrEqual(channelDistance(p, q), 1) }
        XCTAssertNotEqual(surface.pixels, Surface(bounds: surface.bounds).pixels, "the fill is recoloured, not lost")
    }

    func testAFullFillMakesEveryPaintedPixelItsColourAtItsOwnAlpha() {
        var surface = Surface(width: 4, height: 1)
        surface.pixels = [0xff10_2030, 0x8040_0000, 0, 0x0101_0000]
        surface.markPainted()
        surface.apply(.fill(Color(r: 1, g: 0, b: 0), amount: 1))
        XCTAssertEqual(surface.pixels, [0xffff_0000, 0x8080_0000, 0, 0x0101_0000])
    }
}

/// The one-channel blur of shadows against the four-channel blur it stands for.
final class GreyBlurTests: XCTestCase {
    func testBlurringAGreySurfaceByItsAlphaAloneGivesTheFourChannelBlurToTheBit() {
        var r = FastPathTests.Random(state: 77)
        for round in 0..<40 {
            let bounds = PixelRect(x0: -7, y0: 3, x1: 20 + Int(r.next() % 90), y1: 10 + Int(r.next() % 70))
            var surface = Surface(bounds: bounds)
            // A grey patch somewhere inside (or reaching an edge), with some empty pixels.
            let x0 = bounds.x0 + Int(r.next() % UInt64(bounds.width)), y0 = bounds.y0 + Int(r.next() % UInt64(bounds.height))
            let patch = PixelRect(x0: x0, y0: y0, x1: min(bounds.x1, x0 + 1 + Int(r.next() % 40)),
                                  y1: min(bounds.y1, y0 + 1 + Int(r.next() % 40)))
            for y in patch.y0..<patch.y1 {
                for x in patch.x0..<patch.x1 where r.next() % 5 != 0 {
                    surface.pixels[(y - bounds.y0) * bounds.width + (x - bounds.x0)] = UInt32(r.byte()) &* 0x0101_0101
                }
            }
            surface.markPainted(patch)
            let sigmaX = [0, 0.5, 1.3, 4, 9.7, 30, 80][round % 7], sigmaY = [2.2, 0, 7, 0.4, 16][round % 5]
            var four = surface, one = surface
            four.blur(sigmaX: sigmaX, sigmaY: sigmaY)
            one.blurGrey(sigmaX: sigmaX, sigmaY: sigmaY, pool: round % 2 == 0 ? BufferPool() : nil)
            XCTAssertEqual(one.pixels, four.pixels, "round \(round): sigma \(sigmaX) x \(sigmaY)")
            // And the four-channel blur against its definition, on rows shorter than a box too.
            var reference = surface
            reference.referenceBlur(sigmaX: sigmaX, sigmaY: sigmaY)
            XCTAssertEqual(four.pixels, reference.pixels, "round \(round): the reference")
            XCTAssertEqual(one.painted, four.painted, "round \(round): what it painted")
        }
    }
}

/// The radial gradient's lanes against its per-pixel reference.
final class RadialSpanTests: XCTestCase {
    func testRadialLanesPickTheReferencesTableEntryOrItsNeighbour() {
        var r = FastPathTests.Random(state: 13)
        // Entry i of the table is i: the colours are the indices.
        let lut = (0..<256).map { UInt32($0) }
        var exact = 0, total = 0
        lut.withUnsafeBufferPointer { lut in
            for round in 0..<300 {
                let radius = [0.5, 20, 300, 5000][round % 4] * (0.5 + r.unit())
                let centre = Point(r.unit() * 400 - 100, r.unit() * 400 - 100)
                // The focal point anywhere inside the circle (the shader keeps it there), often the centre.
                let angle = r.unit() * 6.283, reach = round % 3 == 0 ? 0 : r.unit() * 0.99 * radius
                let focal = Point(centre.x + reach * cos(angle), centre.y + reach * sin(angle))
                let (ex, ey) = (focal.x - centre.x, focal.y - centre.y)
                let c = ex * ex + ey * ey - radius * radius
                let scale = [1, 0.01, 7.5, -2][round % 4]
                let stepX = scale * (r.unit() - 0.3), stepY = round % 2 == 0 ? 0 : scale * (r.unit() - 0.5)
                // Device to paint space: stepX, stepY along a row, anything down a column.
                let inverse = Transform(a: stepX, b: stepY, c: scale * (r.unit() - 0.5), d: scale * (r.unit() - 0.2),
                                        tx: r.unit() * 600 - 150, ty: r.unit() * 600 - 150)
                let x0 = Int(r.next() % 700) - 150, y = Int(r.next() % 700) - 150
                let count = 1 + Int(r.next() % 300)
                var fast = [UInt32](repeating: 999, count: count), reference = fast
                guard let setup = RadialSpans.Setup(center: centre, radius: radius, focal: focal, inverse: inverse),
                      setup.holds(y: y, x0: x0, count: count) else { return XCTFail("round \(round): no lanes") }
                RadialSpans.row(lut.baseAddress!, setup, y: y, x0: x0, count: count, into: &fast)
                let p = inverse.apply(Point(Double(x0) + 0.5, Double(y) + 0.5))
                RadialSpans.rowReference(lut, focal: focal, ex: ex, ey: ey, c: c, x: p.x, y: p.y, stepX: stepX, stepY: stepY,
                                         count: count, into: &reference)
                for i in 0..<count {
                    XCTAssertLessThanOrEqual(abs(Int(fast[i]) - Int(reference[i])), 1, "round \(round) pixel \(i)")
                    if fast[i] == reference[i] { exact += 1 }
                    total += 1
                }
            }
        }
        XCTAssertGreaterThan(Double(exact) / Double(total), 0.99, "off by one only near half steps")
    }
}

final class WindowDividerTests: XCTestCase {
    func testTheFloatDivisionOfBoxSumsIsTheIntegerOneForEverySumOfEveryWindow() {
        for box in [1, 2, 3, 7, 50, 333, 1000, 1024] {
            let window = UInt32(2 * box + 1), divider = WindowDivider(box: box)
            var failures = 0
            for sum in 0...(255 * window) where divider.divide(sum) != (sum + window / 2) / window { failures += 1 }
            XCTAssertEqual(failures, 0, "box \(box)")
        }
    }
}

/// Every blend mode's span kernel against the per-pixel reference (`Surface.compositeRow`).
final class BlendSpanTests: XCTestCase {
    func testEveryModesSpanKernelAgreesWithTheReferenceWithinOneStepOnRandomSpans() {
        var r = FastPathTests.Random(state: 99)
        let pixels = KernelSamples.self
        for mode in BlendMode.allCases {
            let kernel = BlendSpans.kernel(for: mode)
            var worst = 0
            for round in 0..<60 {
                let count = 1 + Int(r.next() % 50)
                let src = (0..<count).map { _ in pixels.randomPixel(&r) }
                let dst = (0..<count).map { _ in pixels.randomPixel(&r) }
                let mask: [UInt8] = (0..<count).map { _ in r.next() % 3 == 0 ? 255 : r.byte() }
                let opacity: UInt32 = [255, 128, UInt32(r.byte())][round % 3]
                var fast = dst, reference = dst
                src.withUnsafeBufferPointer { s in
                    mask.withUnsafeBufferPointer { m in
                        let m = round % 2 == 0 ? m.baseAddress : nil
                        fast.withUnsafeMutableBufferPointer { kernel($0.baseAddress!, s.baseAddress!, m, count, opacity) }
                        reference.withUnsafeMutableBufferPointer {
                            Surface.compositeRow($0.baseAddress!, s.baseAddress!, mask: m, count: count, opacity: opacity, blend: mode)
                        }
                    }
                }
                for i in 0..<count { worst = max(worst, pixels.channelDistance(fast[i], reference[i])) }
            }
            XCTAssertLessThanOrEqual(worst, 1, "\(mode)")
        }
    }
}
