@testable import Raster
import XCTest

/// Paints drawn through coverage slots — reused, made and kept, or painted straight from the
/// sweep when the shape changed — leave exactly the pixels of a plain fill or stroke.
final class CoverageSlotTests: XCTestCase {
    func testSlotsDrawTheSamePixelsAsPlainPaints() {
        let (w, h) = (150, 90)
        let gradient = Paint.gradient(.linear(start: Point(0, 0), end: Point(60, 30),
                                              stops: [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: Color(r: 0.2, g: 0.4, b: 1, a: 0.7))]),
                                      .identity)
        let masked = Clip(rect: PixelRect(x0: 5, y0: 5, x1: 140, y1: 80), mask: Mask(width: w, height: h, value: 200))
        let paints: [(Paint, Clip?)] = [(.solid(Color(r: 1, g: 0, b: 0, a: 1)), nil), (.solid(Color(r: 0, g: 1, b: 0, a: 0.6)), nil),
                                        (gradient, nil), (.solid(Color(r: 0, g: 0, b: 1, a: 1)), masked)]
        let slots = CoverageSlots()
        var slotted = Surface(width: w, height: h)
        var plain = Surface(width: w, height: h)
        var style = StrokeStyle()
        style.width = 3
        // Frames: a shape moves (swept), holds still twice (made, then reused), moves again.
        let positions: [Double] = [0, 7.3, 7.3, 7.3, 19.6, 31.1, 31.1]
        for (frame, dx) in positions.enumerated() {
            for (slot, (paint, clip)) in paints.enumerated() {
                let path = Path.ellipse(10 + dx + Double(slot) * 12, 12 + Double(slot) * 9, 50.5, 31.25)
                let transform = Transform.scale(1.1, 0.9)
                let cache: CoverageCache? = slot == 3 && frame % 2 == 0 ? CoverageCache() : nil
                slotted.fill(path, transform: transform, rule: .evenOdd, paint: paint, opacity: 0.8, clip: clip, slots: slots,
                             slot: slot, cache: cache)
                plain.fill(path, transform: transform, rule: .evenOdd, paint: paint, opacity: 0.8, clip: clip)
                slotted.stroke(path, transform: transform, style: style, paint: paint, clip: clip, slots: slots, slot: 10 + slot, cache: nil)
                plain.stroke(path, transform: transform, style: style, paint: paint, clip: clip)
            }
            let differing = zip(slotted.pixels, plain.pixels).filter { $0 != $1 }.count
            XCTAssertEqual(differing, 0, "frame \(frame)")
            XCTAssertEqual(slotted.painted, plain.painted, "frame \(frame)")
        }
        XCTAssertTrue(plain.pixels.contains { $0 != 0 })
        // With no shared cache to serve them, a solid paint is made at frames 0 and 1 (kept),
        // reused at 2 and 3, made at 4, swept at 5 (changed twice running, the cache missed
        // twice), made at 6 (held still): two reuses each of 6 paints. A gradient is never
        // swept: reused at 2, 3 and 6, three each of 2 paints.
        XCTAssertEqual(slots.statistics.hits, 6 * 2 + 2 * 3)
        XCTAssertEqual(slots.statistics.misses, 8 * positions.count - 18)
        XCTAssertGreaterThan(slots.bytesHeld, 0)
    }

    /// One solid fill and stroke, new then moved (made and kept, twice), moved again (swept:
    /// only its path remembered), then holding still (made and kept, then reused): every frame
    /// the pixels of plain paints, whichever way it was painted.
    func testAPaintSweptMadeAndReusedDrawsTheSamePixels() {
        let (w, h) = (96, 80)
        let colour = Color(r: 0.9, g: 0.3, b: 0.1, a: 0.8)
        var style = StrokeStyle()
        style.width = 4.5
        let slots = CoverageSlots()
        var held: [Int] = [], hits: [Int] = []
        let pathBytes = Path.ellipse(0, 0, 1, 1).elements.count * MemoryLayout<Path.Element>.stride
        for (frame, dx) in [0, 3.3, 6.6, 6.6, 6.6].enumerated() {
            let path = Path.ellipse(9.3 + dx, 7.1, 60.5, 44.25)
            let transform = Transform.rotation(radians: 0.3).concatenating(.translation(14, 3))
            var reference = Surface(width: w, height: h)
            reference.fill(path, transform: transform, paint: .solid(colour), opacity: 0.7)
            reference.stroke(path, transform: transform, style: style, paint: .solid(colour))
            var s = Surface(width: w, height: h)
            s.fill(path, transform: transform, paint: .solid(colour), opacity: 0.7, slots: slots, slot: 0, cache: nil)
            s.stroke(path, transform: transform, style: style, paint: .solid(colour), slots: slots, slot: 1, cache: nil)
            XCTAssertTrue(reference.pixels.contains { $0 != 0 })
            XCTAssertEqual(zip(s.pixels, reference.pixels).filter { $0 != $1 }.count, 0, "frame \(frame)")
            XCTAssertEqual(s.painted, reference.painted, "frame \(frame)")
            held.append(slots.bytesHeld)
            hits.append(slots.statistics.hits)
        }
        XCTAssertGreaterThan(held[1], held[0] + 2 * pathBytes, "moved once: made and kept")
        XCTAssertEqual(held[2], held[1] + 2 * pathBytes, "moved again: swept, only the paths remembered")
        XCTAssertGreaterThan(held[3], held[2] + 2 * pathBytes, "held still: made and kept")
        XCTAssertEqual(held[4], held[3])
        XCTAssertEqual(hits, [0, 0, 0, 0, 2], "reused once it held still")
    }

    /// A shape that changes every frame is swept after its first two sightings, except every
    /// `offerEvery`th sweep, made and offered to the shared cache; played again (a loop), those are found and the paints
    /// after them offered too. Pixels are those of plain fills throughout.
    func testAChangingShapeIsSweptAndALoopFindsItsOfferedCoverage() {
        let slots = CoverageSlots()
        let cache = CoverageCache()
        var slotted = Surface(width: 120, height: 90)
        var plain = Surface(width: 120, height: 90)
        func frame(_ f: Int) {
            let path = Path.ellipse(4 + Double(f) * 3.7, 6 + Double(f) * 1.3, 50, 40)
            let paint = Paint.solid(Color(r: 0.2, g: 0.6, b: 0.3, a: 0.6))
            slotted.fill(path, paint: paint, slots: slots, slot: 0, cache: cache)
            plain.fill(path, paint: paint)
        }
        for f in 0..<16 { frame(f) }
        XCTAssertEqual(slots.statistics.hits, 0)
        let offered = 2 + 14 / CoverageSlots.offerEvery
        XCTAssertEqual(cache.statistics.misses, offered, "made at its first two sightings and every fourth sweep")
        for f in 0..<16 { frame(f) }
        XCTAssertGreaterThanOrEqual(slots.statistics.hits + cache.statistics.hits, offered)
        XCTAssertGreaterThan(cache.statistics.misses, offered, "the paints after one found are offered")
        XCTAssertEqual(zip(slotted.pixels, plain.pixels).filter { $0 != $1 }.count, 0)
    }

    /// A solid paint swept straight to the surface stores or blends its runs of one coverage
    /// whole: the pixels of the pixel-by-pixel reference fill, for opaque and translucent
    /// colours, full and partial opacity, over an empty and a painted backdrop.
    func testSweptSolidRunsMatchTheReferenceFill() {
        let (w, h) = (160, 120)
        var backdrop = Surface(width: w, height: h)
        backdrop.fill(Path.ellipse(20, 10, 120, 90), paint: .solid(Color(r: 0.1, g: 0.5, b: 0.9, a: 0.8)))
        let colours = [Color(r: 1, g: 0.2, b: 0, a: 1), Color(r: 0, g: 0.7, b: 0.3, a: 0.55)]
        for (k, colour) in colours.enumerated() {
            for opacity in [1.0, 0.6] {
                for start in [Surface(width: w, height: h), backdrop] {
                    var path = Path.ellipse(8.3 + Double(k) * 5, 6.7, 131.4, 97.2)
                    path.addRect(Rect(x: 30.25, y: 40.5, width: 90, height: 50.75))
                    let transform = Transform.rotation(radians: 0.2).concatenating(.translation(12, -4))
                    var swept = start, reference = start
                    let limit = PixelRect(x0: 0, y0: 0, x1: w, y1: h)
                    swept.paintSwept(path.transformed(by: transform), rule: .nonZero, limit: limit,
                                     shader: Shader(paint: .solid(colour), pathToDevice: transform), opacity: opacity, clip: nil)
                    reference.referenceFill(path, transform: transform, paint: .solid(colour), opacity: opacity)
                    XCTAssertEqual(zip(swept.pixels, reference.pixels).filter { $0 != $1 }.count, 0, "colour \(k), opacity \(opacity)")
                    XCTAssertTrue(swept.pixels.contains { $0 >> 24 == 255 } || colour.a < 1 || opacity < 1, "opaque runs were painted")
                }
            }
        }
    }

    /// Past its byte limit the store keeps nothing more: paints still draw, from new coverage.
    func testAFullStoreKeepsNothingMore() {
        let slots = CoverageSlots(byteLimit: 0)
        var s = Surface(width: 40, height: 40)
        for _ in 0..<3 {
            s.fill(Path.ellipse(5, 5, 30, 30), paint: .solid(.white), slots: slots, slot: 0, cache: nil)
        }
        XCTAssertEqual(slots.statistics.hits, 0)
        XCTAssertEqual(slots.bytesHeld, 0)
        XCTAssertEqual(s.pixels[20 * 40 + 20], 0xFFFF_FFFF)
    }

    /// Whatever is drawn through them, the slots hold no more than their byte limit, the
    /// shapes remembered without coverage included.
    func testSlotsStayWithinTheirByteLimit() {
        let slots = CoverageSlots(byteLimit: 6000)
        var slotted = Surface(width: 120, height: 120)
        var plain = Surface(width: 120, height: 120)
        for frame in 0..<40 {
            for slot in 0..<12 {
                let still = slot % 3 == 0
                let path = Path.ellipse(Double(slot * 7) + (still ? 0 : Double(frame) * 0.7), Double(slot * 5), 40, 25)
                slotted.fill(path, paint: .solid(Color(r: 0.1, g: 0.5, b: 0.9, a: 0.5)), slots: slots, slot: slot, cache: nil)
                plain.fill(path, paint: .solid(Color(r: 0.1, g: 0.5, b: 0.9, a: 0.5)))
                XCTAssertLessThanOrEqual(slots.bytesHeld, 6000)
            }
        }
        XCTAssertEqual(slotted.pixels, plain.pixels)
        XCTAssertGreaterThan(slots.bytesHeld, 0)
    }

    /// A full store drops the coverage of shapes no paint used in the last two frames, so
    /// that the shapes drawn now are kept (and found again) rather than made every time.
    func testAFullStoreMakesRoomByDroppingStaleEntries() {
        let slots = CoverageSlots(byteLimit: 1 << 20)
        var s = Surface(width: 80, height: 80)
        // Each frame draws four new paints (slots), each twice: the second finds the first's coverage if it was kept.
        func draw(frame: Int) {
            for pass in 0..<2 {
                for i in 0..<4 {
                    s.fill(Path.ellipse(Double(i * 9), 10, 30, 30), paint: .solid(.white), slots: slots, slot: frame * 4 + i, cache: nil)
                }
                _ = pass
            }
        }
        slots.startFrame(byteLimit: 1 << 20)
        draw(frame: 0)
        let onePass = slots.bytesHeld
        XCTAssertGreaterThan(onePass, 0)
        XCTAssertEqual(slots.statistics.hits, 4)
        // Room for the shapes of two frames and a half: those of the frame before last go
        // when the new are kept (those of the last frame stay: a paint may come back).
        for frame in 1...8 {
            slots.startFrame(byteLimit: onePass * 5 / 2)
            let hits = slots.statistics.hits
            draw(frame: frame)
            XCTAssertEqual(slots.statistics.hits, hits + 4, "frame \(frame): its shapes were kept")
            XCTAssertLessThanOrEqual(slots.bytesHeld, onePass * 5 / 2)
        }
        slots.startFrame(byteLimit: 0)
        XCTAssertEqual(slots.bytesHeld, 0)
    }
}
