import XCTest
import Raster
@testable import Display

/// Display buffers written a region at a time, against the whole-frame reference
/// (`PanelConversion.write(_:rotation:to:stride:format:)`), byte for byte.
final class PanelBufferTests: XCTestCase {
    struct Random {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        mutating func unit() -> Double { Double(next(1_000_001)) / 1_000_000 }
    }

    /// A display buffer in ordinary memory, rows `padding` bytes wider than the pixels, the
    /// padding and every pixel starting as `0x5a` so that a stray or missing write shows.
    final class Memory {
        var bytes: [UInt8]
        let pitch: Int, width: Int, height: Int, format: PixelFormat
        init(width: Int, height: Int, format: PixelFormat, padding: Int) {
            (self.width, self.height, self.format) = (width, height, format)
            pitch = width * format.bytesPerPixel + padding
            bytes = [UInt8](repeating: 0x5a, count: pitch * height)
        }
        var view: PixelBufferView {
            bytes.withUnsafeMutableBytes { PixelBufferView(base: $0.baseAddress!, bytesPerRow: pitch, width: width, height: height, format: format)! }
        }
        /// The whole-frame reference conversion of `surface`, padding as it was.
        func reference(_ surface: Surface, rotation: Rotation) -> [UInt8] {
            var out = [UInt8](repeating: 0x5a, count: pitch * height)
            out.withUnsafeMutableBytes { PanelConversion.write(surface, rotation: rotation, to: $0.baseAddress!, stride: pitch, format: format) }
            return out
        }
    }

    func randomSurface(_ r: inout Random, width: Int, height: Int) -> Surface {
        var s = Surface(width: width, height: height)
        for i in s.pixels.indices {
            let a = UInt32(r.next(256))
            s.pixels[i] = a << 24 | UInt32(r.next(Int(a) + 1)) << 16 | UInt32(r.next(Int(a) + 1)) << 8 | UInt32(r.next(Int(a) + 1))
        }
        s.markPainted()
        return s
    }

    func randomRect(_ r: inout Random, width: Int, height: Int) -> PixelRect {
        let x0 = r.next(width), y0 = r.next(height)
        return PixelRect(x0: x0, y0: y0, x1: x0 + 1 + r.next(width - x0), y1: y0 + 1 + r.next(height - y0))
    }

    func testARegionIsWrittenAsTheReferenceWritesItAndNothingElseIsTouched() {
        var r = Random(state: 3)
        for format in PixelFormat.allCases {
            for rotation in Rotation.allCases {
                for round in 0..<6 {
                    let (w, h) = (5 + r.next(40), 3 + r.next(30))
                    let surface = randomSurface(&r, width: w, height: h)
                    let memory = Memory(width: rotation.swapsAxes ? h : w, height: rotation.swapsAxes ? w : h, format: format, padding: 4 * r.next(4))
                    var region = PixelRegion()
                    for _ in 0..<(1 + r.next(5)) { region.add(randomRect(&r, width: w, height: h)) }
                    let before = memory.bytes
                    PanelConversion.write(surface, region: region, rotation: rotation, into: memory.view)
                    let reference = memory.reference(surface, rotation: rotation)
                    let bpp = format.bytesPerPixel
                    for py in 0..<memory.height {
                        for x in 0..<(memory.pitch / bpp) {
                            let inside = x < memory.width && (0..<region.count).contains {
                                rotation.panelRect(of: region[$0], width: w, height: h).contains(x: x, y: py)
                            }
                            let at = py * memory.pitch + x * bpp
                            let expected = inside ? reference[at..<at + bpp] : before[at..<at + bpp]
                            if memory.bytes[at..<at + bpp] != expected {
                                return XCTFail("\(format) \(rotation) round \(round): panel pixel \(x),\(py) inside \(inside)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// Frames drawn as the renderer draws them (cleared to a colour, a few shapes), shown in
    /// two buffers in turn as DRM flips them: after every frame the buffer written holds
    /// exactly the whole-frame conversion, though each write covered only what the buffer's
    /// old picture and the new one drew.
    func testTwoBuffersInTurnHoldEveryFrameExactly() {
        var r = Random(state: 11)
        for format in PixelFormat.allCases {
            for rotation in Rotation.allCases {
                let (w, h) = (61, 43)
                let (pw, ph) = rotation.swapsAxes ? (h, w) : (w, h)
                let memories = (0..<2).map { _ in Memory(width: pw, height: ph, format: format, padding: 8) }
                var buffers = memories.map { PanelBuffer(view: $0.view) }
                var surface = Surface(width: w, height: h)
                var written = 0, frames = 0
                for frame in 0..<40 {
                    // Mostly black, sometimes another colour (the whole buffer then rewritten).
                    surface.clear(frame % 13 == 12 ? Color(r: 0, g: 0, b: 0.5) : .black)
                    for _ in 0..<(r.next(3)) {
                        var path = Path()
                        path.addRect(Rect(x: r.unit() * Double(w), y: r.unit() * Double(h), width: 1 + r.unit() * 12, height: 1 + r.unit() * 9))
                        surface.fill(path, paint: .solid(Color(r: r.unit(), g: r.unit(), b: r.unit(), a: 0.3 + 0.7 * r.unit())))
                    }
                    let b = frame % 2
                    buffers[b].show(surface, version: UInt64(frame), rotation: rotation)
                    XCTAssertTrue(memories[b].bytes == memories[b].reference(surface, rotation: rotation), "\(format) \(rotation) frame \(frame)")
                    if frame >= 2 { written += buffers[b].pixelsWritten; frames += 1 }
                }
                XCTAssertLessThan(written, frames * w * h / 2, "\(format) \(rotation): small changes rewrite little")
            }
        }
    }

    func testABufferHoldingThePictureIsNotRewrittenAndAnotherSizeIsRefused() {
        let memory = Memory(width: 20, height: 10, format: .xrgb8888, padding: 0)
        var buffer = PanelBuffer(view: memory.view)
        var surface = Surface(width: 20, height: 10)
        surface.clear(.white)
        buffer.show(surface, version: 7, rotation: .none)
        XCTAssertEqual(buffer.pixelsWritten, 200)
        buffer.show(surface, version: 7, rotation: .none)
        XCTAssertEqual(buffer.pixelsWritten, 0)
        // An unknown version is written, but only where something was drawn (nothing here).
        buffer.show(surface, version: .max, rotation: .none)
        XCTAssertEqual(buffer.pixelsWritten, 0)
        XCTAssertTrue(memory.bytes == memory.reference(surface, rotation: .none))
        // The wrong size (a quarter turn of a non-square panel) writes nothing.
        let before = memory.bytes
        surface.clear(.black)
        buffer.show(surface, version: 8, rotation: .quarter)
        XCTAssertEqual(buffer.pixelsWritten, 0)
        XCTAssertTrue(memory.bytes == before)
    }
}
