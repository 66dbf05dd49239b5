import XCTest
@testable import Raster

/// An image drawn larger than its pixels is area-sampled: each device pixel is the mean of the
/// source over its own footprint, so edges stay one device pixel wide (issue 11: the image
/// frames of issue_1945, drawn at 1.24x, lost 1% of their pixels to smeared edges).
final class ImageFootprintTests: XCTestCase {
    /// Random premultiplied pixels, with a transparent band and a hard opaque one.
    static func image(_ w: Int, _ h: Int) -> Image {
        var random = FillRunTests.Random(state: 11)
        let pixels = (0..<(w * h)).map { i -> UInt32 in
            if (3..<5).contains(i % w) { return 0 }
            if (8..<9).contains(i % w) { return 0xFF10_2030 }
            let a = UInt32(random.next() * 256) & 0xff
            func channel() -> UInt32 { UInt32(random.next() * Double(a + 1)) & 0xff }
            return a << 24 | channel() << 16 | channel() << 8 | channel()
        }
        return Image(width: w, height: h, pixels: pixels)
    }

    /// The mean of the source over device pixel (x, y) for an axis-aligned `scale` and
    /// `offset`, integrated over the source pixels it overlaps, per channel.
    static func areaMean(_ image: Image, x: Int, y: Int, scale: (Double, Double), offset: (Double, Double)) -> [Double] {
        func overlaps(_ device: Int, _ s: Double, _ o: Double, _ n: Int) -> [(Int, Double)] {
            let a = (Double(device) - o) / s, b = (Double(device + 1) - o) / s
            return (Int(a.rounded(.down))...Int(b.rounded(.down))).compactMap { j in
                let w = min(b, Double(j + 1)) - max(a, Double(j))
                return w > 0 && j >= 0 && j < n ? (j, w / (b - a)) : nil
            }
        }
        var mean = [Double](repeating: 0, count: 4)
        for (j, wy) in overlaps(y, scale.1, offset.1, image.height) {
            for (i, wx) in overlaps(x, scale.0, offset.0, image.width) {
                let p = image.pixels[j * image.width + i]
                for c in 0..<4 { mean[c] += wx * wy * Double((p >> UInt32(8 * c)) & 0xff) }
            }
        }
        return mean
    }

    func testAnEnlargedImageIsTheMeanOfTheSourceOverEachPixel() {
        let image = Self.image(13, 9)
        for (scale, offset) in [((1.2392, 1.2392), (0.0, 0.0)), ((2.7, 2.3), (3.25, 4.6)), ((4.0, 1.5), (0.5, 0.3))] {
            var surface = Surface(width: 64, height: 40)
            surface.draw(image, transform: Transform.scale(scale.0, scale.1).concatenating(.translation(offset.0, offset.1)))
            var compared = 0
            for y in 0..<40 {
                for x in 0..<64 {
                    // Only pixels the image covers wholly (its border is the fill's coverage).
                    let left = (Double(x) - offset.0) / scale.0, right = (Double(x + 1) - offset.0) / scale.0
                    let top = (Double(y) - offset.1) / scale.1, bottom = (Double(y + 1) - offset.1) / scale.1
                    guard left >= 0, top >= 0, right <= 13, bottom <= 9 else { continue }
                    let expected = Self.areaMean(image, x: x, y: y, scale: scale, offset: offset)
                    let actual = surface.pixels[y * 64 + x]
                    for c in 0..<4 {
                        // Weights in 1/256 steps, rounded down twice: within two levels.
                        XCTAssertEqual(Double((actual >> UInt32(8 * c)) & 0xff), expected[c], accuracy: 2.01,
                                       "scale \(scale), pixel \(x),\(y), channel \(c)")
                    }
                    compared += 1
                }
            }
            XCTAssertGreaterThan(compared, 150, "scale \(scale)")
        }
    }

    func testAHardEdgeStaysOneDevicePixelWideWhenEnlarged() {
        // One opaque column between transparent ones, drawn 6x wide: six device columns,
        // of which the inner ones are the colour exactly and the two edge ones share the rest.
        let image = Image(width: 3, height: 1, pixels: [0, 0xFF00_00FF, 0])
        var surface = Surface(width: 18, height: 6)
        surface.draw(image, transform: Transform.scale(6, 6).concatenating(.translation(0.5, 0)))
        let row = (0..<18).map { surface.pixels[3 * 18 + $0] >> 24 }
        // The column spans device x 6.5...12.5: pixels 7...11 whole, 6 and 12 half.
        XCTAssertEqual(Array(row[7...11]), [255, 255, 255, 255, 255])
        XCTAssertEqual(Double(row[6]), 127.5, accuracy: 1.5)
        XCTAssertEqual(Double(row[12]), 127.5, accuracy: 1.5)
        XCTAssertEqual(row[5], 0)
        XCTAssertEqual(row[13], 0)
    }

    func testAnImageAtItsSizeOrSmallerKeepsBilinearWeights() {
        XCTAssertEqual(ImageFootprint(.identity), .bilinear)
        XCTAssertEqual(ImageFootprint(Transform.scale(1.6, 3)), .bilinear, "inverse of a reduction: footprints over 1")
        XCTAssertNotEqual(ImageFootprint(Transform.scale(0.5, 1)), .bilinear)
        // The weight is bilinear's own fraction there, to the bit.
        for f in stride(from: 0, to: 1 << 32, by: 1 << 20) {
            XCTAssertEqual(ImageFootprint.bilinear.weightX(f), UInt32(f >> 24))
        }
        // A degenerate footprint falls back to bilinear rather than dividing by zero.
        XCTAssertEqual(ImageFootprint(Transform(a: 0, b: 0, c: 0, d: .nan, tx: 0, ty: 0)), .bilinear)
    }

    func testATurningImageChangesItsWeightsContinuously() {
        // The footprint is measured along each source axis, so a tiny rotation barely moves it.
        let flat = ImageFootprint(Transform.scale(1 / 3.0, 1 / 3.0))
        let turned = ImageFootprint(Transform.rotation(radians: 0.001).concatenating(.scale(1 / 3.0, 1 / 3.0)))
        XCTAssertEqual(Double(turned.steepX), Double(flat.steepX), accuracy: Double(flat.steepX) * 0.002)
        XCTAssertEqual(Double(turned.steepY), Double(flat.steepY), accuracy: Double(flat.steepY) * 0.002)
    }
}
