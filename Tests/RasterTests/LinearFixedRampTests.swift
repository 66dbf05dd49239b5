@testable import Raster
import XCTest

/// `LinearSpans.fixedRamp` (the integer lanes `Shader.linearRowSteep` takes for a ramp in an
/// optimized build) against the per-pixel reference, to the bit.
final class LinearFixedRampTests: XCTestCase {
    /// Random gradients, directions, steps and sub-ranges of the ramp; a third of the steps
    /// are powers of two with starts on multiples of 1/64, whose positions land exactly on
    /// entry boundaries (where the lanes must hand the pixels to the reference's arithmetic).
    func testFixedRampMatchesThePerPixelReferenceExactly() {
        var r = FastPathTests.Random(state: 41)
        let lut = (0..<256).map { _ in UInt32(truncatingIfNeeded: r.next() &* 2_654_435_761) }
        var fast = [UInt32](repeating: 0, count: 4100), reference = fast
        var planned = 0
        lut.withUnsafeBufferPointer { lut in
            for round in 0..<4000 {
                let count = 1 + Int(r.next() % 4000)
                let sign = r.next() % 2 == 0 ? 1.0 : -1.0
                let dt: Double
                switch round % 3 {
                case 0: dt = sign * Double(sign: .plus, exponent: -Int(r.next() % 14) - 1, significand: 1)
                case 1: dt = sign * (1e-5 + r.unit() * 0.0005)
                default: dt = sign * (0.0002 + r.unit() * 0.06)
                }
                let t0 = round % 3 == 0 ? Double(Int(r.next() % 64)) / 64 - 0.5 : r.unit() * 1.4 - 0.2
                for p in 0..<count { reference[p] = lut[Shader.lutIndex(t0 + Double(p) * dt)] }
                let inside = (0..<count).filter { (1...254).contains(Shader.lutIndex(t0 + Double($0) * dt)) }
                guard let first = inside.first, let last = inside.last else { continue }
                let start = first + Int(r.next() % UInt64(last - first + 1))
                let end = start + Int(r.next() % UInt64(last - start + 2))
                if LinearSpans.FixedRamp(t0: t0, dt: dt, from: start, to: end) != nil { planned += 1 }
                fast.withUnsafeMutableBufferPointer { fast in
                    LinearSpans.fixedRamp(lut, t0: t0, dt: dt, from: start, to: end, into: fast.baseAddress!)
                }
                XCTAssertEqual(fast[start..<end], reference[start..<end], "round \(round): t0 \(t0) dt \(dt) \(start)..<\(end)")
            }
        }
        // The integer lanes are the way taken, not the fallback to `ramp`.
        XCTAssertGreaterThan(planned, 2500)
    }

    /// The plan's bound stays small for the rows a screen has, and declines what it cannot bound.
    func testPlanAcceptsScreenRowsAndDeclinesWhatItCannotBound() {
        XCTAssertNotNil(LinearSpans.FixedRamp(t0: 0.1, dt: 1.0 / 1900, from: 0, to: 1900))
        XCTAssertNotNil(LinearSpans.FixedRamp(t0: 0.9, dt: -0.05, from: 3, to: 19))
        XCTAssertNil(LinearSpans.FixedRamp(t0: 0.5, dt: 0.1, from: 0, to: 4))  // 25 entries a pixel
        XCTAssertNil(LinearSpans.FixedRamp(t0: .nan, dt: 0.001, from: 0, to: 100))
        XCTAssertNil(LinearSpans.FixedRamp(t0: 0.5, dt: .nan, from: 0, to: 100))
        XCTAssertNil(LinearSpans.FixedRamp(t0: 0.5, dt: 1e-7, from: 0, to: 1 << 40))
        XCTAssertNil(LinearSpans.FixedRamp(t0: 0.5, dt: 0.001, from: 10, to: 10))
    }

    /// Whole rows through `Shader.linearRow` at every short length and just past the
    /// short-span limit (pixel by pixel below it, the ramp search above), to the bit.
    func testShortAndLongRowsMatchThePerPixelReference() {
        var r = FastPathTests.Random(state: 3)
        let lut = (0..<256).map { _ in UInt32(truncatingIfNeeded: r.next() &* 2_654_435_761) }
        var fast = [UInt32](repeating: 0, count: 64), reference = fast
        lut.withUnsafeBufferPointer { lut in
            for round in 0..<2000 {
                let count = 1 + round % (2 * LinearSpans.shortRow + 8)
                let dt = (r.unit() - 0.5) * [0.3, 0.02, 0.002][round % 3]
                let t0 = r.unit() * 1.6 - 0.3
                fast.withUnsafeMutableBufferPointer { Shader.linearRow(lut, t0: t0, dt: dt, count: count, into: $0.baseAddress!) }
                reference.withUnsafeMutableBufferPointer { Shader.linearRowReference(lut, t0: t0, dt: dt, count: count, into: $0.baseAddress!) }
                XCTAssertEqual(fast[0..<count], reference[0..<count], "round \(round): t0 \(t0) dt \(dt) count \(count)")
            }
        }
    }
}
