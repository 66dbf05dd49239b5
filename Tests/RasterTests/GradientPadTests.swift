@testable import Raster
import XCTest

/// A steep linear gradient (an entry per pixel or so) whose row runs past one or both ends:
/// the padded stretches filled at once (`Shader.linearRowSteep`) against the per-pixel reference.
final class GradientPadTests: XCTestCase {
    func testSteepRowsWithPaddedEndsMatchThePerPixelReference() {
        let lut = (0..<256).map { UInt32($0) &* 0x01010101 | 0xff000000 }
        var r = FastPathTests.Random(state: 41)
        var fast = [UInt32](repeating: 0, count: 1200), reference = fast
        lut.withUnsafeBufferPointer { lut in
            for round in 0..<600 {
                let count = 1 + Int(r.next() % 1100)
                let dt = (r.next() % 2 == 0 ? 1 : -1) * [0.0005, 0.001, 0.003, 0.01, 0.2, 1 / 255, 0.5 / 255][round % 7]
                // Rows that start before, inside and after the ramp, in either direction.
                let t0 = [-1.0, -0.01, 0, 0.3, 1, 1.01, 2, 0.5 / 255, 254.5 / 255][round % 9] + (r.unit() - 0.5) * 1e-3
                fast.withUnsafeMutableBufferPointer { Shader.linearRowSteep(lut, t0: t0, dt: dt, count: count, into: $0.baseAddress!) }
                reference.withUnsafeMutableBufferPointer { Shader.linearRowReference(lut, t0: t0, dt: dt, count: count, into: $0.baseAddress!) }
                XCTAssertEqual(fast[0..<count], reference[0..<count], "round \(round): t0 \(t0) dt \(dt) count \(count)")
            }
            for (t0, dt) in [(0.5, 0.0), (-3, 0.0), (3, 0.0), (-1e300, 1e300), (0.2, -1e-300)] {
                fast.withUnsafeMutableBufferPointer { Shader.linearRowSteep(lut, t0: t0, dt: dt, count: 40, into: $0.baseAddress!) }
                reference.withUnsafeMutableBufferPointer { Shader.linearRowReference(lut, t0: t0, dt: dt, count: 40, into: $0.baseAddress!) }
                XCTAssertEqual(fast[0..<40], reference[0..<40], "t0 \(t0) dt \(dt)")
            }
        }
    }
}
