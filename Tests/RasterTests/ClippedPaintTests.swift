@testable import Raster
import XCTest

/// One colour through coverage and a clip mask by runs (`Surface.paintRuns(_:color:clip:)`)
/// against the per-pixel painting of `referenceFill`.
final class ClippedPaintTests: XCTestCase {
    func testClippedSolidFillsMatchTheReferenceToTheBit() {
        var r = FastPathTests.Random(state: 77)
        for round in 0..<40 {
            let (w, h) = (37 + Int(r.next() % 40), 29 + Int(r.next() % 30))
            // A clip mask over part of the surface, with runs of 0, 255 and everything between.
            let rect = PixelRect(x0: Int(r.next() % 9), y0: Int(r.next() % 7), x1: w - Int(r.next() % 9), y1: h - Int(r.next() % 7))
            let mask = FastPathTests.randomMask(&r, rect: rect)
            let clip = Clip(rect: PixelRect(x0: 0, y0: 0, x1: w, y1: h), mask: mask)
            let color = Color(r: r.unit(), g: r.unit(), b: r.unit(), a: round % 3 == 0 ? 1 : r.unit())
            let opacity = round % 2 == 0 ? 1 : r.unit()
            var fast = Surface(width: w, height: h, clearColor: Color(r: 0.2, g: 0.3, b: 0.4, a: 0.5))
            var reference = fast
            let path = FastPathTests.randomPath(&r, width: Double(w), height: Double(h))
            fast.fill(path, rule: round % 2 == 0 ? .nonZero : .evenOdd, paint: .solid(color), opacity: opacity, clip: clip)
            reference.referenceFill(path, rule: round % 2 == 0 ? .nonZero : .evenOdd, paint: .solid(color), opacity: opacity, clip: clip)
            XCTAssertEqual(fast.pixels, reference.pixels, "round \(round)")
        }
    }

    /// Gradients and images through a clip mask (`Surface.paintShadedRuns`: the product of
    /// coverage and clip in lanes, then `blendRow` with no clip) against `referenceFill`.
    func testClippedShadedFillsMatchTheReferenceToTheBit() {
        var r = FastPathTests.Random(state: 79)
        for round in 0..<50 {
            let (w, h) = (37 + Int(r.next() % 60), 29 + Int(r.next() % 40))
            let rect = PixelRect(x0: Int(r.next() % 9), y0: Int(r.next() % 7), x1: w - Int(r.next() % 9), y1: h - Int(r.next() % 7))
            let mask = FastPathTests.randomMask(&r, rect: rect)
            let clip = Clip(rect: PixelRect(x0: 0, y0: 0, x1: w, y1: h), mask: mask)
            let paint = ShadedRunTests.randomPaint(&r, round: round, width: Double(w), height: Double(h))
            let opacity = round % 2 == 0 ? 1 : 0.2 + r.unit() * 0.8
            var fast = Surface(width: w, height: h, clearColor: Color(r: 0.2, g: 0.3, b: 0.4, a: 0.5))
            var reference = fast
            // Long inside runs (whole blocks of lanes) and short edge runs.
            var path = FastPathTests.randomPath(&r, width: Double(w), height: Double(h))
            path.move(to: Point(3, 2)); path.line(to: Point(Double(w) - 4, 5)); path.line(to: Point(Double(w) - 9, Double(h) - 3))
            path.close()
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            fast.fill(path, rule: rule, paint: paint, opacity: opacity, clip: clip)
            reference.referenceFill(path, rule: rule, paint: paint, opacity: opacity, clip: clip)
            XCTAssertEqual(fast.pixels, reference.pixels, "round \(round)")
        }
    }

    func testTheProductOfCoverageAndClipRoundsAsThePerPixelPath() {
        var r = FastPathTests.Random(state: 5)
        for count in [0, 1, 7, 8, 9, 31, 64] {
            let source = (0..<count).map { _ in r.byte() }, clip = (0..<count).map { _ in r.byte() }
            var out = [UInt8](repeating: 0, count: count + 8)
            for constant: UInt8? in [nil, 0, 1, 128, 254, 255] {
                source.withUnsafeBufferPointer { s in
                    out.withUnsafeMutableBufferPointer { o in
                        Surface.multiply(constant == nil ? s.baseAddress : nil, constant: constant ?? 0, by: clip, into: o.baseAddress!,
                                         count: count)
                    }
                }
                for i in 0..<count {
                    let a = UInt32(constant ?? source[i])
                    XCTAssertEqual(out[i], UInt8((a * UInt32(clip[i]) + 127) / 255), "count \(count) at \(i)")
                }
            }
        }
    }
}
