@testable import Raster
import XCTest

/// The lane kernels that paint one colour against their pixel-by-pixel references, to the bit.
final class SolidSpanTests: XCTestCase {
    typealias Random = FastPathTests.Random

    /// Random spans (lengths across the 8-lane blocks and their tails), random colours
    /// (opaque, transparent, partial, any bits) and constant coverage folded into the colour.
    func testOverSolidMatchesTheReference() {
        var r = Random(state: 41)
        for round in 0..<400 {
            let count = Int(r.next() % 75)
            let dst = (0..<count + 1).map { _ in KernelSamples.randomPixel(&r) }
            var color = KernelSamples.randomPixel(&r)
            if round % 5 == 0 { color = PixelMath.scale(color, UInt32(r.byte())) }
            var fast = dst, reference = dst
            fast.withUnsafeMutableBufferPointer { SpanKernels.overSolid($0.baseAddress!, color: color, count: count) }
            reference.withUnsafeMutableBufferPointer {
                SpanKernels.overSolidReference($0.baseAddress!, color: color, count: count)
            }
            XCTAssertEqual(fast, reference, "round \(round), colour \(String(color, radix: 16)), count \(count)")
            // The pixel past the span is never written.
            XCTAssertEqual(fast[count], dst[count], "round \(round)")
        }
    }

    /// The reference is source-over itself: an opaque colour replaces, a transparent one leaves.
    func testOverSolidReferenceIsSourceOver() {
        var pixels: [UInt32] = [0x8040_2010, 0xffff_ffff, 0]
        pixels.withUnsafeMutableBufferPointer { SpanKernels.overSolid($0.baseAddress!, color: 0xff11_2233, count: 2) }
        XCTAssertEqual(pixels, [0xff11_2233, 0xff11_2233, 0])
        pixels.withUnsafeMutableBufferPointer { SpanKernels.overSolid($0.baseAddress!, color: 0, count: 3) }
        XCTAssertEqual(pixels, [0xff11_2233, 0xff11_2233, 0])
        // Half-transparent black over an opaque pixel: that pixel at 127/255, plus 0x80 of alpha.
        pixels.withUnsafeMutableBufferPointer { SpanKernels.overSolid($0.baseAddress! + 1, color: 0x8000_0000, count: 1) }
        XCTAssertEqual(pixels[1], 0xff08_1119)
    }

    /// Long stretches of full coverage under an opaque colour (stored in one go) broken by
    /// partial and empty bytes anywhere, against the reference.
    func testBlendSolidStretchesOfFullCoverageMatchTheReference() {
        var r = Random(state: 7)
        for round in 0..<200 {
            let count = 1 + Int(r.next() % 140)
            var coverage = [UInt8](repeating: 255, count: count)
            for _ in 0..<Int(r.next() % 4) { coverage[Int(r.next()) % count] = round % 2 == 0 ? r.byte() : 0 }
            let dst = (0..<count + 1).map { _ in KernelSamples.randomPixel(&r) }
            let color = 0xff00_0000 | UInt32(truncatingIfNeeded: r.next())
            var fast = dst, reference = dst
            coverage.withUnsafeBufferPointer { c in
                fast.withUnsafeMutableBufferPointer { SpanKernels.blendSolid($0.baseAddress!, color: color, coverage: c.baseAddress!, count: count) }
                reference.withUnsafeMutableBufferPointer {
                    SpanKernels.blendSolidReference($0.baseAddress!, color: color, coverage: c.baseAddress!, count: count)
                }
            }
            XCTAssertEqual(fast, reference, "round \(round), count \(count)")
            XCTAssertEqual(fast[count], dst[count], "round \(round): past the span")
        }
    }

    /// `scale` in 16-bit lanes against its 32-bit form and `PixelMath.scale`, for every
    /// factor 0...255 on random pixels (any bits, all ones, zero).
    func testScaleInSixteenBitLanesMatchesTheReference() {
        var r = Random(state: 53)
        for a in UInt32(0)...255 {
            for round in 0..<40 {
                var pixels = (0..<8).map { _ in KernelSamples.randomPixel(&r) }
                if round == 0 { pixels[0] = .max; pixels[7] = 0 }
                let p = SpanKernels.Lanes(pixels[0], pixels[1], pixels[2], pixels[3], pixels[4], pixels[5], pixels[6], pixels[7])
                // Each lane its own factor too, as coverage gives them.
                let factors = SpanKernels.Lanes(a, 255 - a, a / 2, 255, 0, a, UInt32(r.byte()), UInt32(r.byte()))
                for factor in [SpanKernels.Lanes(repeating: a), factors] {
                    let fast = SpanKernels.scale(p, factor)
                    XCTAssertEqual(fast, SpanKernels.scaleReference(p, factor), "a \(a), round \(round)")
                    for i in 0..<8 { XCTAssertEqual(fast[i], PixelMath.scale(p[i], factor[i]), "a \(a), lane \(i)") }
                }
            }
        }
    }

    /// Coverage bytes reach the lanes through byte unpacking; the reference shifts them out.
    func testWidenPutsEachCoverageByteInItsLane() {
        var r = FastPathTests.Random(state: 29)
        var words: [UInt64] = [0, .max, 0x0102_0304_0506_0708, 0xff00_ff00_00ff_00ff, 0x8000_0000_0000_0001]
        for _ in 0..<5000 { words.append(r.next() << 31 ^ r.next()) }
        for word in words {
            let lanes = SpanKernels.widen(word)
            XCTAssertEqual(lanes, SpanKernels.widenReference(word), String(word, radix: 16))
            for i in 0..<8 { XCTAssertEqual(lanes[i], UInt32((word >> (8 * UInt64(i))) & 0xff)) }
        }
    }
}
