@testable import Raster
import XCTest

/// The short runs blended in lanes (`SpanKernels.blendShortPremultiplied`) against the pixel
/// by pixel reference (`blendSolidReference`), to the bit, with the pixels around the run
/// left as they were; and the four-lane `scale` against `PixelMath.scale`.
final class ShortRunLaneTests: XCTestCase {
    typealias Random = FastPathTests.Random

    func testShortRunsInLanesAreTheReference() {
        var r = Random(state: 4242)
        for round in 0..<3000 {
            var color = SolidRunPainterTests.premultiplied(KernelSamples.randomPixel(&r))
            if round % 3 == 0 { color |= 0xff00_0000 }
            if round % 11 == 0 { color = 0 }
            let count = 2 + round % 6
            let coverage: [UInt8] = (0..<count + 8).map { _ in [0, 1, 127, 128, 254, 255, r.byte()][Int(r.next() % 7)] }
            let dst = (0..<count + 8).map { _ in round % 5 == 0 ? 0 : KernelSamples.randomPixel(&r) }
            var reference = dst, fast = dst
            coverage.withUnsafeBufferPointer { c in
                reference.withUnsafeMutableBufferPointer {
                    SpanKernels.blendSolidReference($0.baseAddress! + 3, color: color, coverage: c.baseAddress! + 3, count: count)
                }
                fast.withUnsafeMutableBufferPointer {
                    SpanKernels.blendShortPremultiplied($0.baseAddress! + 3, color: color, coverage: c.baseAddress! + 3, count: count)
                }
            }
            XCTAssertEqual(fast, reference, "round \(round), colour \(String(color, radix: 16)), count \(count)")
        }
    }

    func testFourLaneScaleIsPixelMathScale() {
        var r = Random(state: 77)
        for _ in 0..<4000 {
            let p = SpanKernels.Quad((0..<4).map { _ in KernelSamples.randomPixel(&r) })
            let a = SpanKernels.Quad((0..<4).map { _ in UInt32(r.byte()) })
            let lanes = SpanKernels.scale(p, a)
            for i in 0..<4 { XCTAssertEqual(lanes[i], PixelMath.scale(p[i], a[i])) }
            let bytes = UInt32(a[0]) | UInt32(a[1]) << 8 | UInt32(a[2]) << 16 | UInt32(a[3]) << 24
            XCTAssertEqual(SpanKernels.widen(bytes.littleEndian), a)
        }
    }
}
