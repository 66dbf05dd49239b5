import XCTest
@testable import Raster

/// The fast block sums of `downsampled` against the per-channel reference.
final class DownsampleFastPathTests: XCTestCase {
    /// Premultiplied pixels from a fixed pseudo-random sequence (alpha ≥ each colour channel).
    static func noise(width: Int, height: Int, seed: UInt64) -> Image {
        var state = seed
        var pixels = [UInt32]()
        for _ in 0..<(width * height) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let bits = UInt32(truncatingIfNeeded: state >> 32)
            let a = bits >> 24
            let r = (bits >> 16 & 0xFF) * a / 255, g = (bits >> 8 & 0xFF) * a / 255, b = (bits & 0xFF) * a / 255
            pixels.append(a << 24 | r << 16 | g << 8 | b)
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    func testFastPathMatchesReferenceExactly() {
        let sizes = [(1, 1), (2, 1), (7, 5), (33, 17), (128, 126), (200, 3)]
        let targets = [(1, 1), (2, 2), (3, 5), (10, 10), (16, 63), (64, 1), (1000, 1000)]
        for (w, h) in sizes {
            let image = Self.noise(width: w, height: h, seed: UInt64(w * 1000 + h))
            for (tw, th) in targets {
                let fast = downsampled(image, toFit: tw, th), reference = downsampledReference(image, toFit: tw, th)
                XCTAssertEqual(fast, reference, "\(w)x\(h) to fit \(tw)x\(th)")
            }
        }
    }

    /// Full-scale channels over large blocks: the 32-bit lanes must not carry into each other.
    func testWhiteBlocksDoNotOverflowLanes() {
        let image = Image(width: 300, height: 300, pixels: [UInt32](repeating: 0xFFFF_FFFF, count: 300 * 300))
        let fast = downsampled(image, toFit: 1, 1)
        XCTAssertEqual(fast, downsampledReference(image, toFit: 1, 1))
        XCTAssertEqual(fast.pixels, [0xFFFF_FFFF])
    }
}

/// The decoders' premultiplication against its pixel-by-pixel reference.
final class PremultiplyFastPathTests: XCTestCase {
    /// Every channel value under every alpha, with the channels in different positions.
    func testEveryChannelAndAlphaMatchesReference() {
        var rgba = [UInt8]()
        for a in 0..<256 {
            for v in 0..<256 { rgba += [UInt8(v), UInt8(255 - v), UInt8(v / 2), UInt8(a)] }
        }
        let fast = ImageFile.premultiplied(rgba: rgba, width: 256, height: 256)
        XCTAssertEqual(fast, ImageFile.premultipliedReference(rgba: rgba, width: 256, height: 256))
        XCTAssertEqual(fast.pixels[255 * 256 + 10], 0xFF0A_F505)  // opaque: the channels themselves
        XCTAssertEqual(fast.pixels[10], 0)  // clear: nothing
        XCTAssertEqual(fast.pixels[128 * 256 + 255], 0x8080_0040)  // (255·128 + 127)/255 = 128, (127·128 + 127)/255 = 64
    }
}
