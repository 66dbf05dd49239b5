@testable import Raster
import XCTest

/// `LinearSpans.ramp` (the lanes `Shader.linearRowSteep` takes in an optimized build) against
/// the per-pixel reference, to the bit: random gradients, directions, steps and row starts,
/// and steps that are powers of two, whose positions land exactly on entry boundaries (u an
/// integer, where rounding and truncation part).
final class LinearSpanTests: XCTestCase {
    func testRampAndStretchesMatchThePerPixelReferenceExactly() {
        var r = FastPathTests.Random(state: 7)
        let lut = (0..<256).map { _ in UInt32(truncatingIfNeeded: r.next() &* 2_654_435_761) }
        var fast = [UInt32](repeating: 0, count: 1300), reference = fast
        lut.withUnsafeBufferPointer { lut in
            for round in 0..<3000 {
                let count = 1 + Int(r.next() % 1200)
                let sign = r.next() % 2 == 0 ? 1.0 : -1.0
                let dt: Double
                if round % 3 == 0 {
                    dt = sign * Double(sign: .plus, exponent: -Int(r.next() % 16) - 1, significand: 1)
                } else if round % 3 == 1 {
                    dt = sign * (1e-6 + r.unit() * 0.0005)  // entries from 8 to 4000 pixels wide
                } else {
                    dt = sign * (0.0002 + r.unit() * 0.05)
                }
                let t0 = round % 3 == 0 ? Double(Int(r.next() % 64)) / 64 - 0.5 : r.unit() * 1.4 - 0.2
                // The reference row, then the ramp: the pixels whose entry is neither end's.
                for p in 0..<count { reference[p] = lut[Shader.lutIndex(t0 + Double(p) * dt)] }
                let inside = (0..<count).filter { (1...254).contains(Shader.lutIndex(t0 + Double($0) * dt)) }
                guard let first = inside.first, let last = inside.last else { continue }
                XCTAssertEqual(inside.count, last - first + 1)
                // Any sub-range of the ramp, as a row's span may start anywhere in it.
                let start = first + Int(r.next() % UInt64(last - first + 1))
                let end = start + Int(r.next() % UInt64(last - start + 2))
                fast.withUnsafeMutableBufferPointer { fast in
                    LinearSpans.ramp(lut, t0: t0, dt: dt, from: start, to: end, into: fast.baseAddress!)
                }
                XCTAssertEqual(fast[start..<end], reference[start..<end], "round \(round): t0 \(t0) dt \(dt) \(start)..<\(end)")
                fast.withUnsafeMutableBufferPointer { fast in
                    LinearSpans.stretches(lut, t0: t0, dt: dt, from: start, to: end, into: fast.baseAddress!)
                }
                XCTAssertEqual(fast[start..<end], reference[start..<end], "stretches, round \(round): t0 \(t0) dt \(dt)")
            }
        }
    }

    /// Whole rows through `Shader.linearRowSteep` with the lanes on (as an optimized build
    /// runs every linear row: padded ends, then the ramp in stretches or in lanes) against
    /// the per-pixel reference, to the bit, from steep to nearly flat gradients.
    func testRowsWithTheLanesMatchThePerPixelReferenceExactly() {
        var r = FastPathTests.Random(state: 23)
        let lut = (0..<256).map { _ in UInt32(truncatingIfNeeded: r.next() &* 2_654_435_761) }
        var fast = [UInt32](repeating: 0, count: 2100), reference = fast
        lut.withUnsafeBufferPointer { lut in
            for round in 0..<3000 {
                let count = 1 + Int(r.next() % 2000)
                let sign = r.next() % 2 == 0 ? 1.0 : -1.0
                let widths = [0.3, 1, 3, 7.9, 8.1, 12, 40, 300, 1e5]  // pixels per entry
                var dt = sign / (255 * widths[round % widths.count] * (0.8 + 0.4 * r.unit()))
                if round % 5 == 0 { dt = sign * Double(sign: .plus, exponent: -Int(r.next() % 14) - 1, significand: 1) }
                let t0 = round % 5 == 0 ? Double(Int(r.next() % 128)) / 64 - 0.5 : r.unit() * 3 - 1
                fast.withUnsafeMutableBufferPointer {
                    Shader.linearRowSteep(lut, t0: t0, dt: dt, count: count, into: $0.baseAddress!, lanes: true)
                }
                reference.withUnsafeMutableBufferPointer { Shader.linearRowReference(lut, t0: t0, dt: dt, count: count, into: $0.baseAddress!) }
                XCTAssertEqual(fast[0..<count], reference[0..<count], "round \(round): t0 \(t0) dt \(dt) count \(count)")
            }
            for (t0, dt) in [(0.5, 0.0), (-3, 0.0), (3, 0.0), (-1e300, 1e300), (0.2, -1e-300), (0.3, 1e-310)] {
                fast.withUnsafeMutableBufferPointer { Shader.linearRowSteep(lut, t0: t0, dt: dt, count: 40, into: $0.baseAddress!, lanes: true) }
                reference.withUnsafeMutableBufferPointer { Shader.linearRowReference(lut, t0: t0, dt: dt, count: 40, into: $0.baseAddress!) }
                XCTAssertEqual(fast[0..<40], reference[0..<40], "t0 \(t0) dt \(dt)")
            }
        }
    }

    /// The position arithmetic of the lanes on its own, at every table boundary: u exactly
    /// k and just either side of it.
    func testFloorAtEveryEntryBoundary() {
        let lut = (0..<256).map { UInt32($0) }
        var out = [UInt32](repeating: 0, count: 3)
        lut.withUnsafeBufferPointer { lut in
            for k in 1...254 {
                let t = (Double(k) - 0.5) / 255
                for t0 in [t.nextDown, t, t.nextUp] {
                    out.withUnsafeMutableBufferPointer { LinearSpans.ramp(lut, t0: t0, dt: 0, from: 0, to: 3, into: $0.baseAddress!) }
                    let expected = UInt32(Shader.lutIndex(t0))
                    XCTAssertEqual(out, [expected, expected, expected], "t0 \(t0)")
                }
            }
        }
    }
}

/// The lanes' square root (`RadialSpans.squareRoot`, Newton steps from a guess made of the
/// bits) against `Float.squareRoot`: within one unit in the last place over the whole range
/// the radial lanes feed it, 0 exactly 0 to within 10⁻¹⁹.
final class RadialSquareRootTests: XCTestCase {
    func testLanesSquareRootIsWithinOneUlpOfTheLibrarys() {
        var r = FastPathTests.Random(state: 5)
        for round in 0..<4000 {
            let exponent = Int(r.next() % 120) - 60
            let d = RadialSpans.Values((0..<8).map { _ in Float(r.unit() + 0.001) * Float(sign: .plus, exponent: exponent, significand: 1) })
            let fast = RadialSpans.squareRoot(d)
            for lane in 0..<8 {
                let exact = d[lane].squareRoot()
                XCTAssertLessThanOrEqual(abs(fast[lane] - exact), exact.ulp, "round \(round): √\(d[lane])")
            }
        }
        XCTAssertLessThan(RadialSpans.squareRoot(.zero).max(), 1e-19)
    }
}
