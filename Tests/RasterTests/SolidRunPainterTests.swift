@testable import Raster
import XCTest

/// The one-colour run painter (`SolidRunPainter`) and its short stores (`ShortStores`) against
/// the references, to the bit: `update(repeating:)` for the stores, `blendSolidReference` over
/// a row of the run's coverage for the runs (what `blendRow` does with one colour), and the
/// pixel-by-pixel `referenceFill` for thin shapes swept straight to the surface.
final class SolidRunPainterTests: XCTestCase {
    typealias Random = FastPathTests.Random

    /// Every count a short stretch can have, with pixels before and after that must stay.
    func testShortStoresWriteExactlyTheStretch() {
        for count in 0...(PixelStores.callThreshold + 8) {
            for offset in 0..<4 {
                var fast = [UInt32](repeating: 0xdead_beef, count: count + 8)
                var reference = fast
                fast.withUnsafeMutableBufferPointer { ShortStores.blocks($0.baseAddress! + offset, with: 0x8011_2233, count: count) }
                reference.withUnsafeMutableBufferPointer { ($0.baseAddress! + offset).update(repeating: 0x8011_2233, count: count) }
                XCTAssertEqual(fast, reference, "count \(count), offset \(offset)")
                fast.withUnsafeMutableBufferPointer { ShortStores.fill($0.baseAddress! + offset, with: 7, count: count) }
                reference.withUnsafeMutableBufferPointer { ($0.baseAddress! + offset).update(repeating: 7, count: count) }
                XCTAssertEqual(fast, reference, "fill, count \(count), offset \(offset)")
            }
        }
    }

    /// Constant and varying runs, with and without the shade table, over random backdrops.
    func testRunsPaintAsTheReferenceDoes() {
        var r = Random(state: 307)
        var table = [UInt32](repeating: 0, count: SolidShades.count)
        for round in 0..<800 {
            var color = KernelSamples.randomPixel(&r)
            if round % 3 == 0 { color |= 0xff00_0000 }
            // Colours that are premultiplied take the branchless short runs (most random ones are).
            if round % 4 == 3 || round % 8 == 1 { color = Self.premultiplied(color) }
            let count = round % 4 < 2 ? 8 + Int(r.next() % 70) : 1 + Int(r.next() % 7)
            let constant = round % 2 == 0
            let value: UInt8 = [0, 1, 128, 254, 255, 255, r.byte()][Int(r.next() % 7)]
            let coverage: [UInt8] = constant ? [UInt8](repeating: value, count: count)
                : (0..<count).map { _ in [0, 1, 127, 128, 254, 255, r.byte()][Int(r.next() % 7)] }
            let dst = (0..<count + 2).map { _ in KernelSamples.randomPixel(&r) }
            var reference = dst
            reference.withUnsafeMutableBufferPointer { d in
                coverage.withUnsafeBufferPointer { SpanKernels.blendSolidReference(d.baseAddress! + 1, color: color, coverage: $0.baseAddress!, count: count) }
            }
            for withShades in [false, true] {
                var fast = dst
                table.withUnsafeMutableBufferPointer { t in
                    SolidShades.fill(t.baseAddress!, color: color)
                    let painter = SolidRunPainter(color: color, shades: withShades ? UnsafePointer(t.baseAddress!) : nil)
                    fast.withUnsafeMutableBufferPointer { d in
                        if constant {
                            painter.constant(d.baseAddress! + 1, count: count, coverage: value)
                        } else {
                            coverage.withUnsafeBufferPointer { painter.varying(d.baseAddress! + 1, coverage: $0.baseAddress!, count: count) }
                        }
                    }
                }
                XCTAssertEqual(fast, reference, "round \(round), colour \(String(color, radix: 16)), count \(count), shades \(withShades)")
            }
        }
    }

    /// The lanes of `blendSolid` with the branchless premultiplied tail (called here in debug
    /// builds too), every tail length 0...7 after blocks of all kinds (empty, full, mixed).
    func testBlendSolidWithPremultipliedShadesIsTheReference() {
        var r = Random(state: 911)
        var table = [UInt32](repeating: 0, count: SolidShades.count)
        for round in 0..<600 {
            var color = Self.premultiplied(KernelSamples.randomPixel(&r))
            if round % 3 == 0 { color |= 0xff00_0000 }
            let count = 8 + Int(r.next() % 40)
            let coverage: [UInt8] = (0..<count).map { i in
                let block = (i / 8 + round) % 3
                return block == 0 ? 0 : block == 1 ? 255 : [0, 1, 127, 128, 254, 255, r.byte()][Int(r.next() % 7)]
            }
            let dst = (0..<count + 2).map { _ in KernelSamples.randomPixel(&r) }
            var reference = dst, fast = dst
            reference.withUnsafeMutableBufferPointer { d in
                coverage.withUnsafeBufferPointer { SpanKernels.blendSolidReference(d.baseAddress! + 1, color: color, coverage: $0.baseAddress!, count: count) }
            }
            table.withUnsafeMutableBufferPointer { t in
                SolidShades.fill(t.baseAddress!, color: color)
                fast.withUnsafeMutableBufferPointer { d in
                    coverage.withUnsafeBufferPointer {
                        SpanKernels.blendSolid(d.baseAddress! + 1, color: color, premultipliedShades: t.baseAddress!,
                                               coverage: $0.baseAddress!, count: count)
                    }
                }
            }
            XCTAssertEqual(fast, reference, "round \(round), colour \(String(color, radix: 16)), count \(count)")
        }
    }

    /// A single pixel (`blendPremultipliedPixel`, with and without the shade table) at every
    /// coverage byte, over random backdrops, against the reference.
    func testSinglePixelRunsAreTheReferenceAtEveryCoverage() {
        var r = Random(state: 1009)
        var table = [UInt32](repeating: 0, count: SolidShades.count)
        for round in 0..<40 {
            var color = Self.premultiplied(KernelSamples.randomPixel(&r))
            if round % 3 == 0 { color |= 0xff00_0000 }
            if round == 1 { color = 0 }
            for a in 0...255 {
                let coverage = [UInt8(a)], dst = [KernelSamples.randomPixel(&r)]
                var reference = dst
                reference.withUnsafeMutableBufferPointer { d in
                    SpanKernels.blendSolidReference(d.baseAddress!, color: color, coverage: coverage, count: 1)
                }
                for withShades in [false, true] {
                    var fast = dst
                    table.withUnsafeMutableBufferPointer { t in
                        SolidShades.fill(t.baseAddress!, color: color)
                        let painter = SolidRunPainter(color: color, shades: withShades ? UnsafePointer(t.baseAddress!) : nil)
                        fast.withUnsafeMutableBufferPointer { painter.varying($0.baseAddress!, coverage: coverage, count: 1) }
                    }
                    XCTAssertEqual(fast, reference, "colour \(String(color, radix: 16)), coverage \(a), shades \(withShades)")
                }
            }
        }
    }

    /// `p` with every channel cut to its alpha.
    static func premultiplied(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        return a << 24 | min((p >> 16) & 0xff, a) << 16 | min((p >> 8) & 0xff, a) << 8 | min(p & 0xff, a)
    }

    /// Thin rings and slanted bars (runs of one to a few pixels, the shade table in use and
    /// not) swept straight to the surface, one colour, against the pixel-by-pixel fill.
    func testThinShapesSweptInOneColourMatchTheReferenceFill() {
        let (w, h) = (140, 110)
        var backdrop = Surface(width: w, height: h)
        backdrop.fill(Path.ellipse(10, 10, 120, 90), paint: .solid(Color(r: 0.3, g: 0.5, b: 0.2, a: 0.7)))
        let colours = [Color(r: 0.9, g: 0.1, b: 0.4, a: 1), Color(r: 0.2, g: 0.2, b: 1, a: 0.45)]
        for (k, colour) in colours.enumerated() {
            for (s, size) in [(0, 100.0), (1, 12.0)] {
                var path = Path.ellipse(7.4, 5.2, size * 1.2, size * 0.9)
                path.append(Path.ellipse(8.9, 6.6, size * 1.2 - 2.9, size * 0.9 - 2.7))
                path.addRect(Rect(x: 20.3, y: 3.1, width: 1.6, height: size * 0.8))
                let transform = Transform.rotation(radians: 0.35).concatenating(.translation(25, 2))
                for opacity in [1.0, 0.7] {
                    for start in [Surface(width: w, height: h), backdrop] {
                        var swept = start, reference = start
                        swept.paintSwept(path.transformed(by: transform), rule: .evenOdd, limit: PixelRect(x0: 0, y0: 0, x1: w, y1: h),
                                         shader: Shader(paint: .solid(colour), pathToDevice: transform), opacity: opacity, clip: nil)
                        reference.referenceFill(path, transform: transform, rule: .evenOdd, paint: .solid(colour), opacity: opacity)
                        XCTAssertEqual(zip(swept.pixels, reference.pixels).filter { $0 != $1 }.count, 0, "colour \(k), size \(s), opacity \(opacity)")
                        // Every pixel the paint changed lies in the region it noted.
                        let area = swept.painted
                        let outside = (0..<w * h).filter { i in
                            swept.pixels[i] != start.pixels[i] && !(area.x0...area.x1 - 1 ~= i % w && area.y0...area.y1 - 1 ~= i / w)
                        }
                        XCTAssertEqual(outside.count, 0, "pixels painted outside the noted region")
                        XCTAssertTrue(swept.pixels != start.pixels)
                    }
                }
            }
        }
    }

    /// Every value of the table of one colour over the clear colour (`ShadesOverClear`) is what
    /// the run kernels leave on a pixel of the clear colour; a run of coverage bytes painted
    /// from it is what blending it over cleared pixels gives.
    func testShadesOverTheClearColourAreThoseOfBlending() {
        var r = Random(state: 331)
        var table = [UInt32](repeating: 0, count: SolidShades.count)
        for round in 0..<120 {
            var color = KernelSamples.randomPixel(&r)
            if round % 3 == 0 { color |= 0xff00_0000 }
            let clear: UInt32 = [0, 0xff00_0000, 0xffff_ffff, KernelSamples.randomPixel(&r)][round % 4]
            table.withUnsafeMutableBufferPointer { t in
                let shades = ShadesOverClear(color: color, over: clear, table: t.baseAddress!, runs: SolidShades.worthFrom)
                let few = ShadesOverClear(color: color, over: clear, table: t.baseAddress!, runs: 1)
                XCTAssertNil(few.table)
                for a in 0..<SolidShades.count {
                    var pixel = clear
                    var coverage = UInt8(a)
                    SpanKernels.blendSolidReference(&pixel, color: color, coverage: &coverage, count: 1)
                    XCTAssertEqual(t[a], pixel, "colour \(String(color, radix: 16)) over \(String(clear, radix: 16)), coverage \(a)")
                    XCTAssertEqual(few.value(UInt8(a)), pixel)
                }
                let count = 1 + Int(r.next() % 40)
                let bytes = (0..<count).map { _ in r.byte() }
                var fast = [UInt32](repeating: clear, count: count), reference = fast
                bytes.withUnsafeBufferPointer { b in
                    fast.withUnsafeMutableBufferPointer { shades.paint($0.baseAddress!, coverage: b.baseAddress!, count: count) }
                    reference.withUnsafeMutableBufferPointer {
                        SpanKernels.blendSolidReference($0.baseAddress!, color: color, coverage: b.baseAddress!, count: count)
                    }
                }
                XCTAssertEqual(fast, reference, "round \(round)")
            }
        }
    }
}
