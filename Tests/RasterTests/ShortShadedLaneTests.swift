@testable import Raster
import XCTest

/// Short runs of premultiplied colours through coverage at an opacity, in lanes
/// (`SpanKernels.blendShortPremultipliedColors`), against `blendReference` to the bit.
final class ShortShadedLaneTests: XCTestCase {
    func testShortRunsOfPremultipliedColoursAreTheReference() {
        var r = FastPathTests.Random(state: 2027)
        for round in 0..<3000 {
            let count = round % 8
            let o: UInt32 = round % 3 == 0 ? 255 : [0, 1, 128, 254, UInt32(r.byte())][Int(r.next() % 5)]
            // Colours of a gradient's table: premultiplied, some opaque, some transparent.
            // One more colour and byte than the run holds: never read, and never an empty array.
            let src = (0...count).map { _ -> UInt32 in
                let p = SolidRunPainterTests.premultiplied(KernelSamples.randomPixel(&r))
                return [p, p | 0xff00_0000, 0, p & 0xff00_0000][Int(r.next() % 4)]
            }
            let coverage = (0...count).map { _ in [0, 1, 127, 128, 254, 255, r.byte()][Int(r.next() % 7)] as UInt8 }
            // Pixels on either side must stay as they are.
            let dst = (0..<count + 2).map { _ in KernelSamples.randomPixel(&r) }
            var reference = dst, fast = dst
            reference.withUnsafeMutableBufferPointer { d in
                src.withUnsafeBufferPointer { s in
                    coverage.withUnsafeBufferPointer { c in
                        SpanKernels.blendReference(d.baseAddress! + 1, s.baseAddress!, coverage: c.baseAddress!,
                                                   opacity: o, count: count)
                    }
                }
            }
            fast.withUnsafeMutableBufferPointer { d in
                src.withUnsafeBufferPointer { s in
                    coverage.withUnsafeBufferPointer { c in
                        SpanKernels.blendShortPremultipliedColors(d.baseAddress! + 1, s.baseAddress!, coverage: c.baseAddress!,
                                                                  opacity: o, count: count)
                    }
                }
            }
            XCTAssertEqual(fast, reference, "round \(round), count \(count), opacity \(o)")
        }
    }
}
