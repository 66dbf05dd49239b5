@testable import Raster
import XCTest

/// Every fast path of the painting and masking code against the simple code it stands for.
final class FastPathTests: XCTestCase {
    /// A deterministic generator (the tests must not change from run to run).
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func unit() -> Double { Double(next() % 1_000_001) / 1_000_000 }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    }

    /// A closed path of lines and curves with points around (0...w, 0...h), some outside.
    static func randomPath(_ r: inout Random, width w: Double, height h: Double) -> Path {
        var path = Path()
        path.move(to: Point(r.unit() * w, r.unit() * h))
        for _ in 0..<(3 + Int(r.next() % 5)) {
            let p = Point(r.unit() * w * 1.2 - w * 0.1, r.unit() * h * 1.2 - h * 0.1)
            if r.next() % 2 == 0 {
                path.line(to: p)
            } else {
                path.cubic(to: p, control1: Point(r.unit() * w, r.unit() * h), control2: Point(r.unit() * w, r.unit() * h))
            }
        }
        path.close()
        return path
    }

    static func randomMask(_ r: inout Random, rect: PixelRect) -> Mask {
        var mask = Mask(rect: rect)
        for i in mask.values.indices {
            // Runs of empty and full coverage as well as partial values.
            switch r.next() % 4 {
            case 0: mask.values[i] = 0
            case 1: mask.values[i] = 255
            default: mask.values[i] = r.byte()
            }
        }
        return mask
    }

    func testMaskFillByRunsMatchesTheReference() {
        var r = Random(state: 7)
        for round in 0..<60 {
            let rect = PixelRect(x0: Int(r.next() % 9), y0: Int(r.next() % 7), x1: 40 + Int(r.next() % 50), y1: 30 + Int(r.next() % 40))
            var fast = Self.randomMask(&r, rect: rect)
            if round % 3 == 0 { fast = Mask(rect: rect) }
            var reference = fast
            let path = Self.randomPath(&r, width: 100, height: 80)
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            let opacity = round % 5 == 0 ? 0.37 : 1
            fast.fill(path, rule: rule, opacity: opacity, pool: BufferPool())
            reference.referenceFill(path, rule: rule, opacity: opacity)
            XCTAssertEqual(fast, reference, "round \(round)")
        }
    }

    /// Filling a path straight into a mask gives what filling an empty mask and adding it does:
    /// what lets the compositor unite added masks without a mask of their own.
    func testFillingIntoAMaskIsAddingTheFilledMask() {
        var r = Random(state: 11)
        for round in 0..<30 {
            let rect = PixelRect(x0: 0, y0: 0, x1: 64, y1: 48)
            var direct = Self.randomMask(&r, rect: rect)
            var combined = direct
            let path = Self.randomPath(&r, width: 64, height: 48)
            direct.fill(path)
            var own = Mask(rect: rect)
            own.fill(path)
            combined.combine(own, .add)
            XCTAssertEqual(direct, combined, "round \(round)")
        }
    }

    func testCombineMatchesThePerPixelReferenceForEveryOperation() {
        var r = Random(state: 3)
        let operations: [MaskOperation] = [.add, .subtract, .intersect, .lighten, .darken, .difference]
        for operation in operations {
            for round in 0..<8 {
                let a = Self.randomMask(&r, rect: PixelRect(x0: 0, y0: 0, x1: 37, y1: 23))
                let offset = Int(r.next() % 20) - 10
                let b = Self.randomMask(&r, rect: PixelRect(x0: offset, y0: offset / 2, x1: offset + 30, y1: offset / 2 + 19))
                var fast = a
                fast.combine(b, operation)
                for y in 0..<a.height {
                    for x in 0..<a.width {
                        let expected = Mask.referenceCombine(UInt32(a.value(x: x, y: y)), UInt32(b.value(x: x, y: y)), operation)
                        XCTAssertEqual(fast.value(x: x, y: y), expected, "\(operation) round \(round) at \(x),\(y)")
                        if fast.value(x: x, y: y) != expected { return }
                    }
                }
            }
        }
    }

    func paintSome(_ surface: inout Surface, _ r: inout Random) {
        for i in 0..<4 {
            let color = Color(r: r.unit(), g: r.unit(), b: r.unit(), a: 0.3 + 0.7 * r.unit())
            surface.fill(Self.randomPath(&r, width: Double(surface.width) * 0.8, height: Double(surface.height) * 0.8),
                         transform: .translation(Double(i * 5), Double(i * 3)), paint: .solid(color))
        }
    }

    func testClearingOnlyThePaintedPixelsLeavesTheSameSurfaceAsAWholeClear() {
        var r = Random(state: 5)
        for round in 0..<10 {
            var fast = Surface(width: 90, height: 70)
            paintSome(&fast, &r)
            var reference = fast
            XCTAssertNotEqual(fast.pixels.filter { $0 != 0 }.count, 0)
            fast.clear()
            reference.referenceClear()
            XCTAssertEqual(fast.pixels, reference.pixels, "round \(round)")
            XCTAssertEqual(fast.painted, .empty)
            // A non-transparent clear still writes every pixel.
            fast.clear(Color(r: 0, g: 0, b: 1))
            reference.referenceClear(Color(r: 0, g: 0, b: 1))
            XCTAssertEqual(fast.pixels, reference.pixels)
        }
    }

    func testClearingAroundAKeptRectangleZeroesEverythingElseThatWasPainted() {
        var r = Random(state: 9)
        var surface = Surface(width: 80, height: 60)
        paintSome(&surface, &r)
        let before = surface.pixels
        let kept = PixelRect(x0: 13, y0: 9, x1: 51, y1: 40)
        surface.clear(.clear, except: kept)
        for y in 0..<60 {
            for x in 0..<80 {
                let expected = kept.contains(x: x, y: y) ? before[y * 80 + x] : 0
                XCTAssertEqual(surface.pixels[y * 80 + x], expected, "at \(x),\(y)")
                if surface.pixels[y * 80 + x] != expected { return }
            }
        }
        XCTAssertEqual(surface.painted, kept)
    }

    /// Band views start from the owner's painted rectangle, so that a frame drawn in bands
    /// and cleared again leaves nothing behind.
    func testBandsKeepTrackOfWhatTheyPainted() {
        var r = Random(state: 13)
        var surface = Surface(width: 64, height: 64)
        paintSome(&surface, &r)
        surface.withBands([0..<20, 20..<64]) { bands in
            for i in bands.indices {
                bands[i].clear()
                var square = Path()
                square.addRect(Rect(x: 5, y: Double(i * 30) + 4, width: 20, height: 10))
                bands[i].fill(square, paint: .solid(.white))
            }
        }
        XCTAssertEqual(surface.painted, PixelRect(x0: 5, y0: 4, x1: 25, y1: 44))
        surface.clear()
        XCTAssertTrue(surface.pixels.allSatisfy { $0 == 0 })
    }

    func testPooledBuffersHoldExactlyTheValueAskedFor() {
        let pool = BufferPool()
        for (count, value) in [(1000, UInt32(7)), (300, 0), (1400, 9), (10, 1), (5000, 3)] {
            var pixels = pool.pixels(count: count, value: value)
            XCTAssertEqual(pixels.count, count)
            XCTAssertTrue(pixels.allSatisfy { $0 == value })
            pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0xdead) }
            pool.recycle(&pixels)
            var bytes = pool.bytes(count: count, value: UInt8(value))
            XCTAssertEqual(bytes.count, count)
            XCTAssertTrue(bytes.allSatisfy { $0 == UInt8(value) })
            bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0xaa) }
            pool.recycle(&bytes)
        }
    }

    func testLinearGradientRowsByStretchesMatchThePerPixelReference() {
        var r = Random(state: 17)
        // A table whose neighbouring entries all differ, so that any misplaced pixel shows.
        let lut = (0..<256).map { UInt32($0) &* 0x01010101 | 0xff000000 }
        var fast = [UInt32](repeating: 0, count: 2100)
        var reference = fast
        lut.withUnsafeBufferPointer { lut in
            for round in 0..<400 {
                let count = 1 + Int(r.next() % 2000)
                let t0 = (r.unit() - 0.3) * [0.01, 1, 2, 50][round % 4]
                var dt = (r.unit() - 0.5) * [1e-5, 1e-3, 0.004, 0.05, 0, 0.0018][round % 6]
                if round % 7 == 0 { dt = 1 / 255 * (r.next() % 2 == 0 ? 1 : -1) }
                fast.withUnsafeMutableBufferPointer { Shader.linearRow(lut, t0: t0, dt: dt, count: count, into: $0.baseAddress!) }
                reference.withUnsafeMutableBufferPointer {
                    Shader.linearRowReference(lut, t0: t0, dt: dt, count: count, into: $0.baseAddress!)
                }
                XCTAssertEqual(fast[0..<count], reference[0..<count], "round \(round): t0 \(t0) dt \(dt) count \(count)")
            }
            for (t0, dt) in [(Double.nan, 0.001), (0.5, Double.infinity), (-Double.infinity, 0.001), (1e300, -1e300)] {
                fast.withUnsafeMutableBufferPointer { Shader.linearRow(lut, t0: t0, dt: dt, count: 50, into: $0.baseAddress!) }
                reference.withUnsafeMutableBufferPointer {
                    Shader.linearRowReference(lut, t0: t0, dt: dt, count: 50, into: $0.baseAddress!)
                }
                XCTAssertEqual(fast[0..<50], reference[0..<50], "t0 \(t0) dt \(dt)")
            }
        }
    }

    /// Premultiplied pixels: transparent, opaque and partial ones, and now and then any bits.
    func randomPixel(_ r: inout Random) -> UInt32 { KernelSamples.randomPixel(&r) }

    func testSpanKernelsMatchTheScalarReferenceToTheBit() {
        var r = Random(state: 23)
        for round in 0..<300 {
            let count = 1 + Int(r.next() % 70)
            var src = (0..<count).map { _ in randomPixel(&r) }
            let dst = (0..<count).map { _ in randomPixel(&r) }
            var coverage: [UInt8] = (0..<count).map { _ in
                let v = r.next() % 4
                return v == 0 ? 0 : v == 1 ? 255 : r.byte()
            }
            // Opaque sources under full coverage (the copy the kernel makes without reading
            // the backdrop), now and then with one pixel that is not.
            if round % 4 == 1 {
                // (One round in four of these keeps translucent sources: full coverage scales nothing.)
                if round % 16 != 5 { src = src.map { $0 | 0xff00_0000 } }
                coverage = coverage.map { _ in 255 }
                if round % 8 == 1 { src[Int(r.next()) % count] &= 0x7fff_ffff; coverage[Int(r.next()) % count] = 200 }
            }
            let opacity = round % 4 == 1 ? 255 : [255, 0, 1, 128, UInt32(r.byte())][round % 5]
            var fast = dst, reference = dst, composite = dst
            src.withUnsafeBufferPointer { s in
                coverage.withUnsafeBufferPointer { c in
                    let mask = round % 2 == 0 ? c.baseAddress : nil
                    fast.withUnsafeMutableBufferPointer {
                        SpanKernels.blend($0.baseAddress!, s.baseAddress!, coverage: mask, opacity: opacity, count: count)
                    }
                    reference.withUnsafeMutableBufferPointer {
                        SpanKernels.blendReference($0.baseAddress!, s.baseAddress!, coverage: mask, opacity: opacity, count: count)
                    }
                    composite.withUnsafeMutableBufferPointer {
                        Surface.compositeRow($0.baseAddress!, s.baseAddress!, mask: mask, count: count, opacity: opacity, blend: .normal)
                    }
                }
            }
            XCTAssertEqual(fast, reference, "blend, round \(round)")
            XCTAssertEqual(fast, composite, "blend against compositeRow, round \(round)")
            let color = round % 3 == 0 ? 0xff12_3456 : randomPixel(&r)
            var solid = dst, solidReference = dst
            coverage.withUnsafeBufferPointer { c in
                solid.withUnsafeMutableBufferPointer {
                    SpanKernels.blendSolid($0.baseAddress!, color: color, coverage: c.baseAddress!, count: count)
                }
                solidReference.withUnsafeMutableBufferPointer {
                    SpanKernels.blendSolidReference($0.baseAddress!, color: color, coverage: c.baseAddress!, count: count)
                }
            }
            XCTAssertEqual(solid, solidReference, "blendSolid, round \(round)")
        }
    }

    /// Scattered small shapes: more rectangles than the region keeps, so some are merged; every
    /// one must still be cleared.
    func testClearingScatteredPaintsLeavesNothingBehind() {
        var r = Random(state: 29)
        for round in 0..<20 {
            var surface = Surface(width: 120, height: 90)
            var reference = Surface(width: 120, height: 90)
            for _ in 0..<(1 + round % 9) {
                var square = Path()
                square.addRect(Rect(x: r.unit() * 110, y: r.unit() * 80, width: 1 + r.unit() * 9, height: 1 + r.unit() * 9))
                let color = Color(r: r.unit(), g: r.unit(), b: r.unit(), a: 0.5 + 0.5 * r.unit())
                surface.fill(square, paint: .solid(color))
                reference.fill(square, paint: .solid(color))
            }
            let kept = PixelRect(x0: 30, y0: 20, x1: 70, y1: 50)
            if round % 2 == 0 {
                surface.clear()
                XCTAssertTrue(surface.pixels.allSatisfy { $0 == 0 }, "round \(round)")
            } else {
                surface.clear(.clear, except: kept)
                for y in 0..<90 {
                    for x in 0..<120 {
                        let expected = kept.contains(x: x, y: y) ? reference.pixels[y * 120 + x] : 0
                        XCTAssertEqual(surface.pixels[y * 120 + x], expected, "round \(round) at \(x),\(y)")
                        if surface.pixels[y * 120 + x] != expected { return }
                    }
                }
            }
        }
    }

    func testADirtyRegionHoldsEveryRectangleAddedToIt() {
        var r = Random(state: 31)
        var region = DirtyRegion()
        var added: [PixelRect] = []
        for _ in 0..<40 {
            let x = Int(r.next() % 200), y = Int(r.next() % 200)
            let rect = PixelRect(x0: x, y0: y, x1: x + 1 + Int(r.next() % 30), y1: y + 1 + Int(r.next() % 30))
            region.add(rect)
            added.append(rect)
            XCTAssertLessThanOrEqual(region.count, DirtyRegion.capacity)
            for a in added {
                for (px, py) in [(a.x0, a.y0), (a.x1 - 1, a.y1 - 1), (a.x0, a.y1 - 1), (a.x1 - 1, a.y0)] {
                    XCTAssertTrue((0..<region.count).contains { region[$0].contains(x: px, y: py) }, "\(a) lost")
                }
                XCTAssertTrue(region.union.contains(a))
            }
        }
    }
}
