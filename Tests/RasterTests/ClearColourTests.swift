import XCTest
@testable import Raster

/// A surface cleared to a colour keeps track of what was drawn over it since: outside its
/// drawn region every pixel is that colour, so the next clear and a display buffer holding an
/// earlier picture rewrite only that region.
final class ClearColourTests: XCTestCase {
    typealias Random = FastPathTests.Random

    /// Fails when a pixel outside the drawn region is not the clear colour.
    func assertOutsideDrawnIsClearColour(_ s: Surface, _ context: String, line: UInt = #line) {
        let region = s.drawnRegion
        for y in 0..<s.height {
            for x in 0..<s.width where !(0..<region.count).contains(where: { region[$0].contains(x: x, y: y) }) {
                if s.pixels[y * s.width + x] != s.clearValue {
                    XCTFail("\(context): pixel \(x),\(y) is \(String(s.pixels[y * s.width + x], radix: 16)) outside the drawn region, "
                            + "clear colour \(String(s.clearValue, radix: 16))", line: line)
                    return
                }
            }
        }
    }

    func square(_ r: inout Random, _ w: Int, _ h: Int) -> Path {
        var path = Path()
        path.addRect(Rect(x: r.unit() * Double(w), y: r.unit() * Double(h), width: 2 + r.unit() * 20, height: 2 + r.unit() * 15))
        return path
    }

    func testAnOpaqueClearVisitsOnlyWhatWasDrawnAndLeavesWhatAWholeClearLeaves() {
        var r = Random(state: 21)
        let colours = [Color.black, Color(r: 0.2, g: 0.4, b: 0.6), Color.clear, Color(r: 1, g: 1, b: 1, a: 0.5)]
        var fast = Surface(width: 83, height: 61)
        var reference = fast
        for round in 0..<40 {
            let colour = colours[(round / 5) % colours.count]
            fast.clear(colour)
            reference.referenceClear(colour)
            XCTAssertEqual(fast.pixels, reference.pixels, "round \(round): clear")
            XCTAssertTrue(fast.drawnRegion.isEmpty)
            XCTAssertEqual(fast.clearValue, colour.premultiplied)
            for _ in 0..<(1 + Int(r.next() % 3)) {
                let path = square(&r, 83, 61)
                let paint = Paint.solid(Color(r: r.unit(), g: r.unit(), b: r.unit(), a: 0.2 + 0.8 * r.unit()))
                fast.fill(path, paint: paint)
                reference.fill(path, paint: paint)
            }
            XCTAssertEqual(fast.pixels, reference.pixels, "round \(round): drawing")
            assertOutsideDrawnIsClearColour(fast, "round \(round)")
            // An opaque clear counts as painted everywhere for the layer passes, as before.
            XCTAssertEqual(fast.painted, colour.premultiplied == 0 ? fast.drawnRegion.union : fast.bounds)
        }
    }

    func testClearingAroundAKeptRectangleToAnOpaqueColour() {
        var r = Random(state: 23)
        var surface = Surface(width: 70, height: 50)
        surface.clear(.black)
        for round in 0..<12 {
            for _ in 0..<3 { surface.fill(square(&r, 70, 50), paint: .solid(.white)) }
            let before = surface.pixels
            let kept = PixelRect(x0: Int(r.next() % 30), y0: Int(r.next() % 20), x1: 35 + Int(r.next() % 30), y1: 25 + Int(r.next() % 20))
            surface.clear(.black, except: kept)
            for y in 0..<50 {
                for x in 0..<70 {
                    let expected = kept.contains(x: x, y: y) ? before[y * 70 + x] : Color.black.premultiplied
                    if surface.pixels[y * 70 + x] != expected {
                        return XCTFail("round \(round): \(x),\(y) is \(surface.pixels[y * 70 + x]), expected \(expected)")
                    }
                }
            }
            XCTAssertEqual(surface.drawnRegion.union, kept)
            // The kept pixels are about to be covered: the test covers them.
            var cover = Path()
            cover.addRect(Rect(x: Double(kept.x0), y: Double(kept.y0), width: Double(kept.width), height: Double(kept.height)))
            surface.fill(cover, paint: .solid(Color(r: 0.5, g: 0, b: 0)))
            assertOutsideDrawnIsClearColour(surface, "round \(round)")
        }
    }

    /// Bands cleared to an opaque colour and drawn in: the owner knows the colour and what
    /// the bands drew, and a later clear leaves the same pixels as a whole clear.
    func testBandsClearedToAColourKeepTheRegionExact() {
        var r = Random(state: 29)
        var surface = Surface(width: 64, height: 64)
        for round in 0..<6 {
            let rows: [Range<Int>] = round % 3 == 2 ? [0..<30] : [0..<20, 20..<64]
            surface.withBands(rows) { bands in
                for i in bands.indices {
                    bands[i].clear(.black)
                    var square = Path()
                    square.addRect(Rect(x: 5 + r.unit() * 30, y: Double(bands[i].originY) + 2, width: 20, height: 10))
                    bands[i].fill(square, paint: .solid(.white))
                }
            }
            assertOutsideDrawnIsClearColour(surface, "round \(round)")
            var reference = surface
            surface.clear(.black)
            reference.referenceClear(.black)
            XCTAssertEqual(surface.pixels, reference.pixels, "round \(round)")
        }
    }

    func testAMaskOnAnOpaqueClearedSurfaceMakesEverythingCountAsDrawn() {
        var surface = Surface(width: 40, height: 30)
        surface.clear(.black)
        surface.applyMask(Mask(width: 10, height: 10, value: 255))
        assertOutsideDrawnIsClearColour(surface, "mask")
        XCTAssertEqual(surface.pixels[35 * 1 + 20 * 40], 0, "outside the mask is transparent now")
    }

    func testAPixelBufferViewRefusesSizesItCannotHold() {
        var bytes = [UInt8](repeating: 0, count: 100)
        bytes.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            XCTAssertNotNil(PixelBufferView(base: base, bytesPerRow: 20, width: 5, height: 5, format: .xrgb8888, byteCount: 100))
            XCTAssertNil(PixelBufferView(base: base, bytesPerRow: 19, width: 5, height: 5, format: .xrgb8888, byteCount: 100))
            XCTAssertNil(PixelBufferView(base: base, bytesPerRow: 20, width: 5, height: 6, format: .xrgb8888, byteCount: 100))
            XCTAssertNotNil(PixelBufferView(base: base, bytesPerRow: 10, width: 5, height: 10, format: .rgb565, byteCount: 100))
            XCTAssertNil(PixelBufferView(base: base, bytesPerRow: -4, width: 0, height: 5, format: .rgb565))
            XCTAssertNil(PixelBufferView(base: base, bytesPerRow: Int.max / 2, width: 5, height: 5, format: .rgb565))
        }
    }

    /// Row conversion, the fast path of every display write, against the whole-frame
    /// reference (`Surface.write`), byte for byte, padding included, every format.
    func testRowConversionMatchesTheWholeFrameReference() {
        var r = Random(state: 31)
        let (w, h) = (37, 11)
        var surface = Surface(width: w, height: h)
        for i in surface.pixels.indices {
            let a = UInt32(r.next() % 256)
            let c = { UInt32(r.next() % UInt64(a + 1)) }
            surface.pixels[i] = [0, 255, a][i % 3] << 24 | c() << 16 | c() << 8 | c()
            if i % 3 == 0 { surface.pixels[i] = 0 }
        }
        for format in PixelFormat.allCases {
            let pitch = w * format.bytesPerPixel + 12
            var reference = [UInt8](repeating: 0xa5, count: pitch * h)
            var fast = reference
            reference.withUnsafeMutableBytes { surface.write(to: $0.baseAddress!, stride: pitch, format: format) }
            surface.pixels.withUnsafeBufferPointer { px in
                fast.withUnsafeMutableBytes { out in
                    for y in 0..<h {
                        PixelBufferView.convert(px.baseAddress! + y * w, step: 1, count: w, to: out.baseAddress! + y * pitch, format: format)
                    }
                }
            }
            XCTAssertTrue(fast == reference, "\(format)")
        }
    }
}
