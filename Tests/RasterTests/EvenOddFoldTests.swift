@testable import Raster
import XCTest

/// The sweep's fold of accumulated coverage (`Rasterizer.fold`) against the fmodf fold it
/// replaced (`Rasterizer.referenceFold`), and the even-odd fill it serves.
final class EvenOddFoldTests: XCTestCase {
    private func assertSameFold(_ v: Float, file: StaticString = #filePath, line: UInt = #line) {
        for rule in [FillRule.evenOdd, .nonZero] {
            let fast = Rasterizer.fold(v, rule), reference = Rasterizer.referenceFold(v, rule)
            XCTAssertEqual(fast.bitPattern, reference.bitPattern, "fold(\(v), \(rule))", file: file, line: line)
            // The byte the sweep stores, as it stores it (NaN included).
            XCTAssertEqual(Rasterizer.byte(fast * 255), Rasterizer.byte(reference * 255), file: file, line: line)
        }
    }

    func testTheFoldMatchesFmodfToTheBitOnEdgesAndExtremes() {
        let twoTo24: Float = 16_777_216
        var edges: [Float] = [0, -0, 1, -1, 2, -2, 3, 0.5, 1.5, 2.5, 1e-7, .leastNonzeroMagnitude, .leastNormalMagnitude,
                              twoTo24, twoTo24.nextDown, twoTo24.nextUp, 8_388_608, Float(8_388_608).nextDown, 8_388_609,
                              1e30, .greatestFiniteMagnitude, .infinity, -.infinity, .nan, -.nan, .signalingNaN]
        for k in 0..<64 { edges.append(Float(k) + 0.25); edges.append(Float(k).nextDown); edges.append(Float(k).nextUp) }
        for v in edges { assertSameFold(v); assertSameFold(-v) }
    }

    func testTheFoldMatchesFmodfToTheBitOnRandomSums() {
        var r = FastPathTests.Random(state: 0x5EED_F01D)
        for _ in 0..<300_000 {
            // Any bit pattern: every exponent, subnormals, infinities and NaNs.
            assertSameFold(Float(bitPattern: UInt32(truncatingIfNeeded: r.next() ^ (r.next() << 31))))
            // Sums as the sweep makes them: winding counts up to millions plus a fraction.
            assertSameFold(Float(Int(r.next() % 4_000_000) - 2_000_000) + Float(r.unit()))
        }
    }

    /// A shape drawn over itself many times: huge winding counts through the whole sweep,
    /// the fast fill against the pixel-by-pixel reference.
    func testEvenOddFillsWithHugeWindingsMatchTheReference() {
        var r = FastPathTests.Random(state: 0xE0E0)
        for round in 0..<12 {
            let one = FastPathTests.randomPath(&r, width: 48, height: 40)
            var path = Path()
            for _ in 0..<(round * 37 + 1) { path.append(one) }
            var fast = Surface(width: 48, height: 40), reference = Surface(width: 48, height: 40)
            let paint = Paint.solid(Color(r: 0.2, g: 0.6, b: 0.9, a: 0.8))
            fast.fill(path, rule: .evenOdd, paint: paint, opacity: 0.9)
            reference.referenceFill(path, rule: .evenOdd, paint: paint, opacity: 0.9)
            XCTAssertEqual(fast.pixels, reference.pixels, "round \(round)")
        }
    }
}
