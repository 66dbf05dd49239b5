import XCTest
@testable import Raster

/// Box-filtered halvings for images drawn much smaller than their size (issue 11).
final class ImageMipTests: XCTestCase {
    /// A checkerboard of single opaque black and white pixels.
    static func checker(_ n: Int) -> Image {
        Image(width: n, height: n, pixels: (0..<(n * n)).map { ($0 % n + $0 / n) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 })
    }

    func testHalvingAveragesEachBlockPerChannel() {
        let image = Image(width: 3, height: 2, pixels: [0xFF00_0000, 0xFFFF_FFFF, 0x8080_0000,
                                                        0xFFFF_FFFF, 0xFF00_0000, 0x0000_0000])
        let half = image.halved()
        XCTAssertEqual(half.width, 2)
        XCTAssertEqual(half.height, 1)
        XCTAssertEqual(half.pixels[0], 0xFF80_8080, "black and white average to grey, rounded")
        XCTAssertEqual(half.pixels[1], 0x4040_0000, "the odd column averages with itself; transparent weighs nothing")
        XCTAssertEqual(Self.checker(8).halved().pixels, Array(repeating: 0xFF80_8080, count: 16))
    }

    func testLevelsFollowTheScale() {
        XCTAssertEqual(Image.mipLevel(forScale: 1, width: 100, height: 100), 0)
        XCTAssertEqual(Image.mipLevel(forScale: 0.51, width: 100, height: 100), 0, "near 1: the exact path")
        XCTAssertEqual(Image.mipLevel(forScale: 0.5, width: 100, height: 100), 1)
        XCTAssertEqual(Image.mipLevel(forScale: 0.2, width: 100, height: 100), 2)
        XCTAssertEqual(Image.mipLevel(forScale: 1e-9, width: 4, height: 4), 2, "never past 1x1")
        XCTAssertEqual(Image.mipLevel(forScale: .nan, width: 4, height: 4), 0)
    }

    func testACheckerboardDrawnSmallIsGreyNotAliased() {
        // 64 pixels drawn into 9: bilinear sampling alone lands between black and white
        // pixels at varying fractions; the chosen halving gives the true mean everywhere.
        let image = Self.checker(64), scale = 9.0 / 64
        var direct = Surface(width: 9, height: 9)
        direct.draw(image, transform: .scale(scale, scale), opacity: 1, clip: nil)
        var level = image
        for _ in 0..<Image.mipLevel(forScale: scale, width: 64, height: 64) { level = level.halved() }
        XCTAssertEqual(level.width, 16, "two halvings: each drawn pixel 0.56 device pixels wide")
        var filtered = Surface(width: 9, height: 9)
        filtered.draw(level, transform: .scale(9.0 / Double(level.width), 9.0 / Double(level.height)), opacity: 1, clip: nil)
        for p in filtered.pixels {
            XCTAssertEqual(Int((p >> 16) & 0xFF), 128, accuracy: 2)
        }
        XCTAssertTrue(direct.pixels.contains { abs(Int(($0 >> 16) & 0xFF) - 128) > 40 }, "the unfiltered path aliases")
    }
}
