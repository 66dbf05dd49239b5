@testable import Raster
import XCTest

/// `PixelFill.fill` (memset for values of one repeated byte) against the store-per-pixel
/// reference: the same pixels, nothing written outside the stretch.
final class PixelFillTests: XCTestCase {
    func testEveryValueKindAndLengthMatchesTheReference() {
        let values: [UInt32] = [0, 0xffff_ffff, 0x0101_0101, 0x0101_0100, 0xff00_0000, 0x8080_8080, 0x8080_8081, 0x7f3c_1a05]
        let counts = [0, 1, 7, PixelFill.memsetFrom - 1, PixelFill.memsetFrom, PixelFill.memsetFrom + 1, 1000, 1920]
        for value in values {
            for count in counts {
                for offset in [0, 1, 3] {
                    var fast = [UInt32](repeating: 0x1234_5678, count: count + 8)
                    var reference = fast
                    fast.withUnsafeMutableBufferPointer { PixelFill.fill($0.baseAddress! + offset, count: count, value: value) }
                    reference.withUnsafeMutableBufferPointer { PixelFill.referenceFill($0.baseAddress! + offset, count: count, value: value) }
                    XCTAssertEqual(fast, reference, "value \(String(value, radix: 16)) count \(count) offset \(offset)")
                }
            }
        }
    }

    func testAPooledPixelBufferIsTheValueWhateverItHeld() {
        let pool = BufferPool()
        var first = pool.pixels(count: 300, value: 0xff80_4020)
        XCTAssertEqual(first, [UInt32](repeating: 0xff80_4020, count: 300))
        pool.recycle(&first)
        // Reused shorter, then longer than it was: every pixel is the new value.
        var second = pool.pixels(count: 200, value: 0)
        XCTAssertEqual(second, [UInt32](repeating: 0, count: 200))
        pool.recycle(&second)
        XCTAssertEqual(pool.pixels(count: 350, value: 0xffff_ffff), [UInt32](repeating: 0xffff_ffff, count: 350))
    }
}
