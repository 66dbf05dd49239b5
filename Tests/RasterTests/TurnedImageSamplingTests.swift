import XCTest
@testable import Raster

/// The rotated image sampler's shortcut for one-colour neighbourhoods against mixing always.
final class TurnedImageSamplingTests: XCTestCase {
    /// A cut-out image: a clear border, a flat block and a noisy block.
    static func cutOut(width: Int, height: Int) -> [UInt32] {
        var state: UInt64 = 12345
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width where x > width / 5 && y > height / 5 && x < width * 4 / 5 && y < height * 4 / 5 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = UInt32(truncatingIfNeeded: state >> 33) & 0x7F7F7F | 0x8000_0000
                pixels[y * width + x] = x < width / 2 ? 0xFF30_60C0 : noise
            }
        }
        return pixels
    }

    func testShortcutMatchesMixingEveryPixel() {
        let (w, h) = (37, 29)
        let image = Self.cutOut(width: w, height: h)
        let footprints = [ImageFootprint.bilinear, ImageFootprint(steepX: 3 << 16, steepY: 2 << 16)]
        var fast = [UInt32](repeating: 0, count: 120), reference = fast
        var sawClear = false, sawFlat = false
        image.withUnsafeBufferPointer { src in
            for (k, angle) in [0.3, 1.1, 2.5, -0.7].enumerated() {
                let scale = [0.4, 1, 2.7, 0.9][k]
                let dx = Int(cos(angle) * scale * 4_294_967_296), dy = Int(sin(angle) * scale * 4_294_967_296)
                for start in [(-5, -3), (0, 10), (20, 2)] {
                    let x = start.0 << 32 | 0x1234_5678, y = start.1 << 32 | 0x8765_4321
                    for sharpen in footprints {
                        Shader.sampleRowTurned(src.baseAddress!, w, h, x: x, y: y, dx: dx, dy: dy, sharpen: sharpen, count: 120, into: &fast)
                        Shader.sampleRowTurnedReference(src.baseAddress!, w, h, x: x, y: y, dx: dx, dy: dy, sharpen: sharpen,
                                                        count: 120, into: &reference)
                        XCTAssertEqual(fast, reference, "angle \(angle) scale \(scale) start \(start)")
                        sawClear = sawClear || fast.contains(0)
                        sawFlat = sawFlat || fast.contains(0xFF30_60C0)
                    }
                }
            }
        }
        XCTAssertTrue(sawClear && sawFlat, "the rows cross clear and flat parts")
    }
}
