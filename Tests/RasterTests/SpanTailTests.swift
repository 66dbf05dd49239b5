import Foundation
@testable import Raster
import XCTest

/// The lane kernels end a span of eight or more pixels with one block over its last eight,
/// in which the lanes painted already get no coverage. These tests put spans of every length
/// from 8 to 40 in the middle of a longer row (so that a write before or past the span would
/// show) and compare each kernel with its pixel-by-pixel reference, to the bit: every
/// coverage edge (0, 1, 254, 255, runs of full coverage), every opacity edge (0, 1, 127,
/// 128, 254, 255), opaque, transparent, partial and arbitrary-bit pixels.
final class SpanTailTests: XCTestCase {
    typealias Random = FastPathTests.Random

    static let opacities: [UInt32] = [0, 1, 127, 128, 254, 255]
    static let margin = 9

    /// Coverage where each byte is 0, 255, an edge value or any byte; `full` makes long stretches of 255.
    static func coverage(_ r: inout Random, count: Int, full: Bool) -> [UInt8] {
        (0..<count).map { _ in
            switch r.next() % (full ? 12 : 6) {
            case 0: return 0
            case 1: return 1
            case 2: return 254
            case 3: return r.byte()
            default: return 255
            }
        }
    }

    static func row(_ r: inout Random, count: Int) -> [UInt32] {
        (0..<count + 2 * margin).map { _ in KernelSamples.randomPixel(&r) }
    }

    /// From one pixel on: spans shorter than eight go pixel by pixel, longer ones end in a tail block.
    func testBlendTailsMatchTheReference() {
        var r = Random(state: 101)
        for count in 1...40 {
            for round in 0..<24 {
                let o = Self.opacities[round % Self.opacities.count]
                var src = Self.row(&r, count: count)
                if round % 3 == 0 { src = src.map { $0 | 0xff00_0000 } }
                let dst = Self.row(&r, count: count)
                let cover = Self.coverage(&r, count: count + 2 * Self.margin, full: round % 2 == 0)
                var fast = dst, reference = dst
                src.withUnsafeBufferPointer { s in
                    cover.withUnsafeBufferPointer { c in
                        let mask = round % 4 < 2 ? c.baseAddress! + Self.margin : nil
                        fast.withUnsafeMutableBufferPointer {
                            SpanKernels.blend($0.baseAddress! + Self.margin, s.baseAddress! + Self.margin, coverage: mask, opacity: o,
                                              count: count)
                        }
                        reference.withUnsafeMutableBufferPointer {
                            SpanKernels.blendReference($0.baseAddress! + Self.margin, s.baseAddress! + Self.margin, coverage: mask,
                                                       opacity: o, count: count)
                        }
                    }
                }
                XCTAssertEqual(fast, reference, "blend, count \(count), round \(round), opacity \(o)")
            }
        }
    }

    func testBlendSolidTailsMatchTheReference() {
        var r = Random(state: 103)
        for count in 8...40 {
            for round in 0..<24 {
                var color = KernelSamples.randomPixel(&r)
                if round % 3 == 0 { color |= 0xff00_0000 }
                if round % 7 == 0 { color = 0 }
                let dst = Self.row(&r, count: count)
                let cover = Self.coverage(&r, count: count + 2 * Self.margin, full: round % 2 == 0)
                var fast = dst, reference = dst
                cover.withUnsafeBufferPointer { c in
                    fast.withUnsafeMutableBufferPointer {
                        SpanKernels.blendSolid($0.baseAddress! + Self.margin, color: color, coverage: c.baseAddress! + Self.margin,
                                               count: count)
                    }
                    reference.withUnsafeMutableBufferPointer {
                        SpanKernels.blendSolidReference($0.baseAddress! + Self.margin, color: color, coverage: c.baseAddress! + Self.margin,
                                                        count: count)
                    }
                }
                XCTAssertEqual(fast, reference, "blendSolid, count \(count), round \(round), colour \(String(color, radix: 16))")
            }
        }
    }

    func testOverSolidTailsMatchTheReference() {
        var r = Random(state: 107)
        for count in 8...40 {
            for round in 0..<12 {
                // Constant coverage folded into the colour, at its edges too.
                let a = [0, 1, 127, 128, 254, 255, UInt32(r.byte())][round % 7]
                let color = PixelMath.scale(KernelSamples.randomPixel(&r), a)
                let dst = Self.row(&r, count: count)
                var fast = dst, reference = dst
                fast.withUnsafeMutableBufferPointer { SpanKernels.overSolid($0.baseAddress! + Self.margin, color: color, count: count) }
                reference.withUnsafeMutableBufferPointer {
                    SpanKernels.overSolidReference($0.baseAddress! + Self.margin, color: color, count: count)
                }
                XCTAssertEqual(fast, reference, "overSolid, count \(count), round \(round), colour \(String(color, radix: 16))")
            }
        }
    }

    /// Long spans: several blocks, long stretches of full coverage.
    func testLongSpansMatchTheReference() {
        var r = Random(state: 109)
        for round in 0..<60 {
            let count = 40 + Int(r.next() % 300)
            let src = Self.row(&r, count: count), dst = Self.row(&r, count: count)
            let cover = Self.coverage(&r, count: count + 2 * Self.margin, full: true)
            let color = round % 2 == 0 ? 0xff00_0000 | UInt32(truncatingIfNeeded: r.next()) : KernelSamples.randomPixel(&r)
            let o = Self.opacities[round % Self.opacities.count]
            var blended = dst, blendedReference = dst, solid = dst, solidReference = dst
            src.withUnsafeBufferPointer { s in
                cover.withUnsafeBufferPointer { c in
                    let (sp, cp, m) = (s.baseAddress! + Self.margin, c.baseAddress! + Self.margin, Self.margin)
                    blended.withUnsafeMutableBufferPointer {
                        SpanKernels.blend($0.baseAddress! + m, sp, coverage: cp, opacity: o, count: count)
                    }
                    blendedReference.withUnsafeMutableBufferPointer {
                        SpanKernels.blendReference($0.baseAddress! + m, sp, coverage: cp, opacity: o, count: count)
                    }
                    solid.withUnsafeMutableBufferPointer {
                        SpanKernels.blendSolid($0.baseAddress! + m, color: color, coverage: cp, count: count)
                    }
                    solidReference.withUnsafeMutableBufferPointer {
                        SpanKernels.blendSolidReference($0.baseAddress! + m, color: color, coverage: cp, count: count)
                    }
                }
            }
            XCTAssertEqual(blended, blendedReference, "blend, round \(round)")
            XCTAssertEqual(solid, solidReference, "blendSolid, round \(round)")
        }
    }

    /// The tail block's lane mask: the first `painted` bytes in memory are zero, the rest 0xff.
    func testUntouchedLanesClearsThePaintedBytesInMemoryOrder() {
        for painted in 0...7 {
            var word = SpanKernels.untouchedLanes(painted: painted)
            let bytes = withUnsafeBytes(of: &word) { Array($0) }
            XCTAssertEqual(bytes, (0..<8).map { $0 < painted ? 0 : 255 }, "painted \(painted)")
        }
    }
}
