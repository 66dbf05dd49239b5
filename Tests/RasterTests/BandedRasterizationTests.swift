@testable import Raster
import XCTest

/// Large paths are rasterized in bands of rows (a small accumulation buffer): the coverage
/// must be exactly that of one rasterizer over the whole bounds, for fills and masks.
final class BandedRasterizationTests: XCTestCase {
    typealias Random = FastPathTests.Random

    /// A closed path of many lines and curves spread over (and a little past) w x h, so that
    /// edges cross the bands' borders at every slope.
    func largePath(_ r: inout Random, width w: Double, height h: Double) -> Path {
        var path = Path()
        path.move(to: Point(r.unit() * w, r.unit() * h))
        for i in 0..<40 {
            let p = Point(r.unit() * w * 1.2 - w * 0.1, r.unit() * h * 1.2 - h * 0.1)
            if i % 3 == 0 {
                path.line(to: p)
            } else {
                path.cubic(to: p, control1: Point(r.unit() * w, r.unit() * h), control2: Point(r.unit() * w, r.unit() * h))
            }
            if i % 13 == 12 { path.close(); path.move(to: Point(r.unit() * w, r.unit() * h)) }
        }
        path.close()
        return path
    }

    /// The coverage one rasterizer over the whole bounds gives (what the bands replace).
    func wholeCoverage(_ path: Path, rule: FillRule, limit: PixelRect) -> Coverage {
        var storage = Rasterizer.Storage()
        guard let bounds = path.bounds, var rasterizer = Rasterizer(bounds: bounds, limit: limit, storage: &storage) else {
            return Coverage()
        }
        rasterizer.add(path)
        // The reference's runs, as the bands below make them (the builder merges some).
        var whole = Coverage()
        rasterizer.append(rule: rule, to: &whole)
        return whole
    }

    func runs(_ coverage: Coverage) -> [[Int]] {
        coverage.runs.map { [Int($0.y), Int($0.x), Int($0.count), Int($0.offset), Int($0.value)] }
    }

    func testBandsGiveTheCoverageOfOneRasterizerOverTheWholeBounds() {
        var r = Random(state: 5)
        let limit = PixelRect(x0: 0, y0: 0, x1: 1300, y1: 900)
        XCTAssertGreaterThan(limit.height, Rasterizer.bandRows(width: limit.width) * 3, "the test must cross several bands")
        for round in 0..<12 {
            let path = largePath(&r, width: 1300, height: 900)
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            var banded = Coverage()
            var storage = Rasterizer.Storage()
            var bands = 0
            Rasterizer.inBands(path, limit: limit, storage: &storage) { rasterizer in
                bands += 1
                rasterizer.append(rule: rule, to: &banded)
            }
            let whole = wholeCoverage(path, rule: rule, limit: limit)
            XCTAssertGreaterThan(bands, 2, "round \(round)")
            XCTAssertEqual(runs(banded), runs(whole), "round \(round)")
            XCTAssertEqual(banded.bytes, whole.bytes, "round \(round)")
            XCTAssertEqual(banded.bounds, whole.bounds, "round \(round)")
            // The buffer the bands leave behind is one band's, not the whole bounds'.
            XCTAssertLessThanOrEqual(storage.cells.count, Rasterizer.bandCells, "round \(round)")
            XCTAssertTrue(storage.cells.allSatisfy { $0 == 0 }, "buffers go back zeroed")
        }
    }

    func testLargeFillsAndMaskFillsMatchTheirReferences() {
        var r = Random(state: 9)
        for round in 0..<4 {
            let path = largePath(&r, width: 1100, height: 800)
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            var fast = Surface(width: 1100, height: 800)
            var reference = fast
            fast.fill(path, rule: rule, paint: .solid(Color(r: 0.2, g: 0.6, b: 0.9, a: 0.8)), opacity: 0.9)
            reference.referenceFill(path, rule: rule, paint: .solid(Color(r: 0.2, g: 0.6, b: 0.9, a: 0.8)), opacity: 0.9)
            XCTAssertEqual(zip(fast.pixels, reference.pixels).filter { $0 != $1 }.count, 0, "fill, round \(round)")
            var mask = Mask(rect: PixelRect(x0: 20, y0: 10, x1: 1080, y1: 790))
            var referenceMask = mask
            mask.fill(path, rule: rule, opacity: 0.75, pool: BufferPool())
            referenceMask.referenceFill(path, rule: rule, opacity: 0.75)
            XCTAssertEqual(mask, referenceMask, "mask, round \(round)")
        }
    }

    /// A large shape painted straight from the sweep (as `CoverageSlots` paints one that
    /// keeps changing) goes in bands too: the pixels of a plain fill, a one-band buffer.
    func testLargeSweptPaintsMatchPlainFillsWithinOneBand() {
        var r = Random(state: 13)
        let (w, h) = (1300, 900)
        let masked = Clip(rect: PixelRect(x0: 30, y0: 20, x1: 1250, y1: 880), mask: Mask(width: w, height: h, value: 170))
        for round in 0..<6 {
            // Rounds 4 and 5: an opaque colour at full opacity (runs of full coverage are stored).
            let colour = Paint.solid(Color(r: 0.9, g: 0.3, b: 0.1, a: round >= 4 ? 1 : 0.7))
            let opacity = round >= 4 ? 1 : 0.85
            let path = largePath(&r, width: Double(w), height: Double(h))
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            let clip: Clip? = round == 2 || round == 3 ? masked : nil
            var swept = Surface(width: w, height: h)
            var plain = swept
            let limit = clip?.rect ?? PixelRect(x0: 0, y0: 0, x1: w, y1: h)
            swept.paintSwept(path, rule: rule, limit: limit, shader: Shader(paint: colour, pathToDevice: .identity), opacity: opacity, clip: clip)
            plain.fill(path, rule: rule, paint: colour, opacity: opacity, clip: clip)
            XCTAssertTrue(plain.pixels.contains { $0 != 0 }, "round \(round)")
            XCTAssertEqual(zip(swept.pixels, plain.pixels).filter { $0 != $1 }.count, 0, "round \(round)")
            XCTAssertEqual(swept.painted, plain.painted, "round \(round)")
            XCTAssertLessThanOrEqual(swept.rasterStorage.cells.count, Rasterizer.bandCells, "round \(round)")
            XCTAssertTrue(swept.rasterStorage.cells.allSatisfy { $0 == 0 }, "buffers go back zeroed")
        }
    }

    /// A large shape moving every frame, drawn through coverage slots (made, then swept once
    /// it keeps changing), leaves the pixels of plain fills and never a whole-bounds buffer.
    func testLargeChangingShapeThroughSlotsStaysWithinOneBand() {
        let (w, h) = (1300, 900)
        let slots = CoverageSlots()
        var slotted = Surface(width: w, height: h)
        var plain = slotted
        var r = Random(state: 21)
        let shape = largePath(&r, width: Double(w), height: Double(h))
        for frame in 0..<6 {
            let transform = Transform.translation(Double(frame) * 3.7 - 9, Double(frame) * -2.3 + 5)
            let colour = Paint.solid(Color(r: 0.1, g: 0.7, b: 0.4, a: frame % 2 == 0 ? 1 : 0.6))
            slotted.fill(shape, transform: transform, paint: colour, opacity: 0.9, slots: slots, slot: 0, cache: nil)
            plain.fill(shape, transform: transform, paint: colour, opacity: 0.9)
            XCTAssertEqual(zip(slotted.pixels, plain.pixels).filter { $0 != $1 }.count, 0, "frame \(frame)")
            XCTAssertEqual(slotted.painted, plain.painted, "frame \(frame)")
            XCTAssertLessThanOrEqual(slotted.rasterStorage.cells.count, Rasterizer.bandCells, "frame \(frame)")
        }
        XCTAssertEqual(slots.statistics.hits, 0, "the shape never came back")
    }
}
