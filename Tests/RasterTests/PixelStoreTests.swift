@testable import Raster
import XCTest

/// The wide stores (`PixelStores.fill`, through the C library for long stretches) and the
/// coverage builder's short copies must write exactly what their references write, and
/// nothing outside the stretch.
final class PixelStoreTests: XCTestCase {
    typealias Random = FastPathTests.Random

    func testFillStoresTheValueOverTheStretchAndNothingElse() {
        var r = Random(state: 5)
        // Values with four equal bytes go to memset, others to wmemset (x86-64) or the loop.
        let values: [UInt32] = [0, 0xffff_ffff, 0xff00_0000, 0x8080_8080, 0x1234_5678, 0xfffe_ffff]
        for round in 0..<400 {
            let count = round < 200 ? round : Int(r.next() % 5000)
            let offset = Int(r.next() % 7)
            let value = round % 3 == 0 ? UInt32(truncatingIfNeeded: r.next()) : values[round % values.count]
            let guardValue: UInt32 = 0xdead_beef
            var fast = [UInt32](repeating: guardValue, count: count + 16)
            var expected = fast
            fast.withUnsafeMutableBufferPointer { PixelStores.fill($0.baseAddress! + offset, with: value, count: count) }
            expected.withUnsafeMutableBufferPointer { ($0.baseAddress! + offset).update(repeating: value, count: count) }
            XCTAssertEqual(fast, expected, "count \(count) offset \(offset) value \(String(value, radix: 16))")
        }
    }

    func testAZeroOrNegativeCountStoresNothing() {
        var pixels = [UInt32](repeating: 7, count: 8)
        pixels.withUnsafeMutableBufferPointer {
            PixelStores.fill($0.baseAddress!, with: 1, count: 0)
            PixelStores.fill($0.baseAddress!, with: 1, count: -3)
        }
        XCTAssertEqual(pixels, [UInt32](repeating: 7, count: 8))
    }

    func testBuilderCopyMatchesACopyForEveryShortLength() {
        var r = Random(state: 9)
        let source = (0..<64).map { _ in r.byte() }
        for count in 0...40 {
            for offset in 0..<3 {
                var fast = [UInt8](repeating: 0xa5, count: 64)
                var expected = fast
                source.withUnsafeBufferPointer { s in
                    fast.withUnsafeMutableBufferPointer { Coverage.Builder.copy(s.baseAddress! + offset, to: $0.baseAddress! + offset, count: count) }
                    expected.withUnsafeMutableBufferPointer { ($0.baseAddress! + offset).update(from: s.baseAddress! + offset, count: count) }
                }
                XCTAssertEqual(fast, expected, "count \(count) offset \(offset)")
            }
        }
    }

    func testZeroByteTestFindsEveryZeroAndNoOther() {
        var r = Random(state: 3)
        for round in 0..<20_000 {
            var bytes = (0..<8).map { _ in UInt8(1 + r.next() % 255) }
            if round % 2 == 0 { bytes[Int(r.next() % 8)] = 0 }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            XCTAssertEqual(Coverage.Builder.hasZeroByte(word), bytes.contains(0), "\(bytes)")
        }
    }
}
