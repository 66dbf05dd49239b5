import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// `StyleEvaluation.gradientStops` (stops in order merged, no set) gives the stops of its
/// reference (sorted, a set of offsets, sorted again) bit for bit, and takes the reference
/// where its shortcut does not hold (stops out of order, NaN or negative-zero offsets).
final class GradientStopsTests: XCTestCase {
    /// A deterministic generator (no global state): xorshift.
    struct Numbers {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }

        mutating func unit() -> Double { Double(next() % 10_000) / 10_000 }
    }

    static func assertSame(_ g: GradientColors, file: StaticString = #filePath, line: UInt = #line) {
        let fast = StyleEvaluation.gradientStops(g), reference = StyleEvaluation.gradientStopsReference(g)
        XCTAssertEqual(fast.count, reference.count, "\(g.raw)", file: file, line: line)
        for (a, b) in zip(fast, reference) {
            XCTAssertEqual(a.offset.bitPattern, b.offset.bitPattern, "\(g.raw)", file: file, line: line)
            XCTAssertEqual(a.color, b.color, "\(g.raw)", file: file, line: line)
        }
    }

    /// Offsets from a small set, so that colour and opacity stops often share one, and in
    /// order or not; some beyond 0...1.
    func testAgreesWithTheReference() {
        var numbers = Numbers(state: 0x9E37_79B9_7F4A_7C15)
        let picks = [0, 0.1, 0.25, 0.5, 0.5, 0.75, 1, -0.2, 1.3]
        for round in 0..<2000 {
            let colorCount = Int(numbers.next() % 6)
            let alphaCount = Int(numbers.next() % 6)
            var colorOffsets = (0..<colorCount).map { _ in picks[Int(numbers.next() % UInt64(picks.count))] }
            var alphaOffsets = (0..<alphaCount).map { _ in picks[Int(numbers.next() % UInt64(picks.count))] }
            if round % 3 != 0 {
                colorOffsets.sort()
                alphaOffsets.sort()
            }
            if round % 7 == 0, !colorOffsets.isEmpty { colorOffsets[0] = numbers.unit() }
            var raw: [Double] = []
            for offset in colorOffsets { raw += [offset, numbers.unit(), numbers.unit(), numbers.unit()] }
            for offset in alphaOffsets { raw += [offset, numbers.unit()] }
            Self.assertSame(GradientColors(colorCount: colorCount, raw: raw))
        }
    }

    func testUnusualOffsetsTakeTheReference() {
        Self.assertSame(GradientColors(colorCount: 2, raw: [-0.0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0.5]))
        Self.assertSame(GradientColors(colorCount: 2, raw: [0, 1, 0, 0, 1, 0, 0, 1, -0.0, 1, 1, 0.5]))
        Self.assertSame(GradientColors(colorCount: 2, raw: [0, 1, 0, 0, 1, 0, 0, 1, 0.5, 0.3]))
        Self.assertSame(GradientColors(colorCount: 0, raw: [0, 1, 1, 0.5]))
        Self.assertSame(GradientColors(colorCount: 3, raw: [0, 1, 0, 0, 0.5, 0, 1, 0]))
        let nan = StyleEvaluation.gradientStops(GradientColors(colorCount: 2, raw: [Double.nan, 1, 0, 0, 1, 0, 0, 1]))
        XCTAssertFalse(nan.isEmpty)
    }

    /// More stops than `maxStops` are thinned alike on both paths.
    func testThinnedStopsAgree() {
        let count = StyleEvaluation.maxStops * 2 + 3
        var raw: [Double] = []
        for i in 0..<count { raw += [Double(i) / Double(count - 1), 0.5, Double(i % 7) / 7, 0.25] }
        for i in 0..<5 { raw += [Double(i) / 4, 1 - Double(i) / 8] }
        Self.assertSame(GradientColors(colorCount: count, raw: raw))
    }
}
