@testable import Raster
import XCTest

/// The blend kernels' inlined lane minimum, maximum and clamp against Swift's generic
/// `pointwiseMin`, `pointwiseMax` and `clamped`, which they replace: bit-identical on
/// NaN-free lanes (the kernels never make NaN: bytes / 255 and sums and products of them).
final class BlendLaneTests: XCTestCase {
    typealias Colour = BlendKernels.Colour

    /// Edge values (0, ±0, 1, just around them, out of range, huge) and random ones.
    func lanes(_ r: inout FastPathTests.Random) -> Colour {
        let edges: [Float] = [0, -0.0, 1, 0.5, -1, 2, Float(1).nextUp, Float(1).nextDown, Float.leastNonzeroMagnitude,
                              -Float.leastNonzeroMagnitude, 1e30, -1e30, .infinity, -.infinity, 255]
        func one() -> Float {
            r.next() % 3 == 0 ? edges[Int(r.next() % UInt64(edges.count))] : Float(r.unit() * 3 - 1)
        }
        return Colour(one(), one(), one(), one())
    }

    func assertSameBits(_ a: Colour, _ b: Colour, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for i in 0..<4 where a[i].bitPattern != b[i].bitPattern {
            XCTFail("\(what): lane \(i) \(a[i]) != \(b[i])", file: file, line: line)
            return
        }
    }

    func testLaneMinimumMaximumAndClampAreTheGenericOnesToTheBit() {
        var r = FastPathTests.Random(state: 2066)
        for _ in 0..<20_000 {
            let a = lanes(&r)
            // Equal lanes now and then, to check which operand a tie keeps.
            let b = r.next() % 4 == 0 ? a : lanes(&r)
            assertSameBits(BlendKernels.lanesMin(a, b), pointwiseMin(a, b), "min \(a) \(b)")
            assertSameBits(BlendKernels.lanesMax(a, b), pointwiseMax(a, b), "max \(a) \(b)")
            assertSameBits(BlendKernels.lanesMax(a - b, b - a), pointwiseMax(a - b, b - a), "difference \(a) \(b)")
            assertSameBits(BlendKernels.unit(a), a.clamped(lowerBound: .zero, upperBound: Colour(repeating: 1)), "unit \(a)")
        }
    }

    func testPackIsTheGenericallyClampedPackToTheBit() {
        func genericPack(_ c: Colour) -> UInt32 {
            let clamped = pointwiseMax(pointwiseMin(c, Colour(repeating: 1)), Colour(repeating: 0))
            let v: Colour = clamped * 255 + 0.5
            let a = UInt32(v.w)
            return a << 24 | min(UInt32(v.x), a) << 16 | min(UInt32(v.y), a) << 8 | min(UInt32(v.z), a)
        }
        var r = FastPathTests.Random(state: 1732)
        for _ in 0..<20_000 {
            let c = lanes(&r)
            guard c.x.isFinite, c.y.isFinite, c.z.isFinite, c.w.isFinite else { continue }
            XCTAssertEqual(BlendKernels.pack(c), genericPack(c), "\(c)")
        }
    }

    /// The lanes each mode mixes: every separable mode's kernel mix, with its clamp, is the
    /// same as the generic formula's on straight colours of random pixels.
    func testDarkenLightenAndDifferenceMixesAreTheGenericOnes() {
        var r = FastPathTests.Random(state: 7)
        for _ in 0..<5_000 {
            let b = BlendKernels.colour(UInt32(truncatingIfNeeded: r.next() ^ (r.next() << 16)))
            let s = BlendKernels.colour(UInt32(truncatingIfNeeded: r.next() ^ (r.next() << 16)))
            assertSameBits(DarkenMix.mix(b, s), pointwiseMin(b, s), "darken")
            assertSameBits(LightenMix.mix(b, s), pointwiseMax(b, s), "lighten")
            assertSameBits(DifferenceMix.mix(b, s), pointwiseMax(b - s, s - b), "difference")
            assertSameBits(BlendKernels.mix(for: .darken)!(b, s), pointwiseMin(b, s), "darken closure")
            assertSameBits(BlendKernels.mix(for: .lighten)!(b, s), pointwiseMax(b, s), "lighten closure")
            assertSameBits(BlendKernels.mix(for: .difference)!(b, s), pointwiseMax(b - s, s - b), "difference closure")
        }
    }
}
