import Foundation
import XCTest
import LottieModel
import LottieRender
import Raster

/// Issue 10: an image drawn much smaller than its pixels is kept at about the size it is drawn.
final class ImageDownsampleTests: XCTestCase {
    /// An image of 8x8 blocks of distinct opaque colours (so the box filter and the full-size
    /// sampler agree away from block edges).
    static func blocks(side: Int) -> Surface {
        var surface = Surface(width: side, height: side)
        let block = side / 8
        for y in 0..<side {
            let by = y / block
            for x in 0..<side {
                let bx = x / block
                surface.pixels[y * side + x] = 0xFF00_0000 | UInt32(bx * 32) << 16 | UInt32(by * 32) << 8 | UInt32((bx + by) * 16)
            }
        }
        return surface
    }

    static func animation(png: [UInt8], side: Int, drawn: Int) throws -> Animation {
        let scale = 100.0 * Double(drawn) / Double(side)
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":\#(drawn),"h":\#(drawn),"#
            + #""assets":[{"id":"img","w":\#(side),"h":\#(side),"e":1,"u":"","p":"data:image/png;base64,\#(Data(png).base64EncodedString())"}],"#
            + #""layers":[{"ty":2,"ind":1,"refId":"img","ip":0,"op":30,"st":0,"ks":{"s":{"a":0,"k":[\#(scale),\#(scale)]}}}]}"#
        return try Animation.parse(Array(json.utf8), name: "big-image", baseDirectory: nil)
    }

    func testA8192ImageDrawnAt64KeepsADownsampledCopyCloseToTheFullSizeReference() throws {
        let side = 8192, drawn = 64
        let full = Self.blocks(side: side)
        let renderer = AnimationRenderer(animation: try Self.animation(png: try PNG.encode(full), side: side, drawn: drawn))
        let frame = renderer.render(frame: 0, viewport: Viewport(width: drawn, height: drawn))
        XCTAssertTrue(renderer.warnings.isEmpty, "\(renderer.warnings)")
        XCTAssertGreaterThan(renderer.decodedImageBytes, 0)
        XCTAssertLessThanOrEqual(renderer.decodedImageBytes, (drawn * 4) * (drawn * 4) * 4)
        // The reference: the full-size image drawn at the same scale.
        var reference = Surface(width: drawn, height: drawn)
        let s = Double(drawn) / Double(side)
        reference.draw(Image(width: side, height: side, pixels: full.pixels), transform: Transform(a: s, b: 0, c: 0, d: s, tx: 0, ty: 0))
        var total = 0, worst = 0
        for (a, b) in zip(frame.pixels, reference.pixels) {
            for shift in stride(from: 0, to: 32, by: 8) {
                let d = abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF))
                total += d
                worst = max(worst, d)
            }
        }
        let mean = Double(total) / Double(drawn * drawn * 4)
        print("8192x8192 drawn at 64x64: \(renderer.decodedImageBytes) bytes kept, mean channel difference \(mean), worst \(worst)")
        XCTAssertLessThan(mean, 2, "mean channel difference \(mean), worst \(worst)")
    }

    func testDownsampledAveragesWholeBlocks() {
        // 5x3 with a factor of 2 each way: blocks at the right and bottom edges are smaller.
        let pixels: [UInt32] = (0..<15).map { i in 0xFF00_0000 | UInt32(i * 10) }
        let image = downsampled(Image(width: 5, height: 3, pixels: pixels), toFit: 2, 1)
        XCTAssertEqual(image.width, 3)
        XCTAssertEqual(image.height, 1)
        // The first block is pixels 0, 1, 5, 6, 10, 11 of the 5-wide rows; the last, 4, 9, 14.
        XCTAssertEqual(image.pixels[0], 0xFF00_0000 | 55, "(0 + 10 + 50 + 60 + 100 + 110) / 6, rounded")
        XCTAssertEqual(image.pixels[2], 0xFF00_0000 | 90, "(40 + 90 + 140) / 3")
        XCTAssertEqual(downsampled(image, toFit: 3, 1), image, "nothing to reduce")
    }
}
