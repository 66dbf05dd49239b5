@testable import Raster
import XCTest

/// The shades of one colour worked out once per paint (`SolidShades`) against `PixelMath.scale`,
/// and the short-run painting that reads them against `blendSolidReference`, to the bit.
final class SolidShadeTests: XCTestCase {
    typealias Random = FastPathTests.Random

    func testTheTableHoldsEveryShadeOfTheColour() {
        var r = Random(state: 211)
        var colors: [UInt32] = [0, .max, 0xff00_0000, 0xff12_3456, 0x8040_2010, 0x0000_00ff]
        for _ in 0..<200 { colors.append(KernelSamples.randomPixel(&r)) }
        var table = [UInt32](repeating: 0, count: SolidShades.count)
        for color in colors {
            table.withUnsafeMutableBufferPointer { SolidShades.fill($0.baseAddress!, color: color) }
            for a in 0..<SolidShades.count {
                XCTAssertEqual(table[a], PixelMath.scale(color, UInt32(a)), "colour \(String(color, radix: 16)), coverage \(a)")
            }
            XCTAssertEqual(table[255], color)
        }
    }

    /// A paint of few runs does without the table and leaves it untouched.
    func testFewRunsMakeNoTable() {
        var table = [UInt32](repeating: 7, count: SolidShades.count)
        table.withUnsafeMutableBufferPointer { t in
            XCTAssertNil(SolidShades.table(t.baseAddress!, color: 0xff11_2233, runs: SolidShades.worthFrom - 1))
            XCTAssertNotNil(SolidShades.table(t.baseAddress!, color: 0xff11_2233, runs: SolidShades.worthFrom))
        }
        XCTAssertEqual(table[255], 0xff11_2233)
    }

    /// Short runs (and long ones, which go to the lanes) with shades, against the reference:
    /// every coverage edge, opaque, translucent, transparent and arbitrary-bit colours.
    func testPaintingWithShadesMatchesTheReference() {
        var r = Random(state: 223)
        var table = [UInt32](repeating: 0, count: SolidShades.count)
        for round in 0..<600 {
            var color = KernelSamples.randomPixel(&r)
            if round % 3 == 0 { color |= 0xff00_0000 }
            let count = round % 5 == 0 ? 8 + Int(r.next() % 30) : 1 + Int(r.next() % 7)
            let coverage: [UInt8] = (0..<count).map { _ in [0, 1, 127, 128, 254, 255, r.byte()][Int(r.next() % 7)] }
            let dst = (0..<count + 2).map { _ in KernelSamples.randomPixel(&r) }
            var fast = dst, reference = dst
            table.withUnsafeMutableBufferPointer { t in
                SolidShades.fill(t.baseAddress!, color: color)
                coverage.withUnsafeBufferPointer { c in
                    fast.withUnsafeMutableBufferPointer {
                        SpanKernels.paintSolid($0.baseAddress! + 1, color: color, shades: UnsafePointer(t.baseAddress!), coverage: c.baseAddress!,
                                               count: count)
                    }
                    reference.withUnsafeMutableBufferPointer {
                        SpanKernels.blendSolidReference($0.baseAddress! + 1, color: color, coverage: c.baseAddress!, count: count)
                    }
                }
            }
            XCTAssertEqual(fast, reference, "round \(round), colour \(String(color, radix: 16)), count \(count)")
        }
    }
}
