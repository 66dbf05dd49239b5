@testable import Raster
import XCTest

/// A clip mask told as runs (`MaskRuns`) against its buffer form (`MaskRuns.mask()`, the
/// reference): the same values, and painting through either gives the same pixels, for one
/// colour, gradients and images, through a cache and through coverage slots.
final class MaskRunsTests: XCTestCase {
    static let maps = [MaskRuns.ValueMap(), MaskRuns.ValueMap(inverted: true), MaskRuns.ValueMap(opacity: 0.55),
                       MaskRuns.ValueMap(inverted: true, opacity: 0.3), MaskRuns.ValueMap(subtracts: true),
                       MaskRuns.ValueMap(inverted: true, subtracts: true), MaskRuns.ValueMap(opacity: 0.7, subtracts: true),
                       MaskRuns.ValueMap(opacity: .nan)]

    func testTheBufferFormIsThePathFilledIntoAMaskThenMapped() {
        var r = FastPathTests.Random(state: 11)
        for round in 0..<60 {
            let (w, h) = (30 + Int(r.next() % 60), 20 + Int(r.next() % 50))
            let rect = PixelRect(x0: Int(r.next() % 9), y0: Int(r.next() % 7), x1: w - Int(r.next() % 9), y1: h - Int(r.next() % 7))
            let path = FastPathTests.randomPath(&r, width: Double(w), height: Double(h))
            let map = Self.maps[round % Self.maps.count]
            let runs = MaskRuns(path: path, transform: .identity, rect: rect, map: map)
            var filled = Mask(rect: rect)
            filled.referenceFill(path)
            let table = map.table
            XCTAssertEqual(runs.mask().values, filled.values.map { table[Int($0)] }, "round \(round)")
            XCTAssertEqual(runs.mask().rect, rect)
        }
        // The table: inverted, then scaled as a mask's opacity scales, then inverted for subtracting.
        let table = MaskRuns.ValueMap(inverted: true, opacity: 0.5, subtracts: true).table
        XCTAssertEqual(table[0], 255 - UInt8((255 * 128) >> 8))
        XCTAssertEqual(table[255], 255)
        XCTAssertEqual(MaskRuns.ValueMap(opacity: .nan).table, (0...255).map { UInt8($0) }, "NaN scales nothing, as buildMasks")
    }

    static func randomPaint(_ r: inout FastPathTests.Random, round: Int, width w: Double, height h: Double) -> Paint {
        let color = Color(r: r.unit(), g: r.unit(), b: r.unit(), a: round % 3 == 0 ? 1 : r.unit())
        let stops = [GradientStop(offset: 0, color: color), GradientStop(offset: 1, color: Color(r: r.unit(), g: 0.2, b: 0.9, a: r.unit()))]
        switch round % 4 {
        case 0: return .solid(color)
        case 1: return .gradient(.linear(start: Point(r.unit() * w, 0), end: Point(r.unit() * w, h), stops: stops), .identity)
        case 2: return .gradient(.radial(center: Point(w / 2, h / 2), radius: w / 3, focal: Point(w / 2, h / 2), stops: stops), .identity)
        default:
            let image = Image(width: 7, height: 5, pixels: (0..<35).map { _ in
                let a = UInt32(r.byte())
                return a << 24 | (a / 2) << 16 | (a / 3) << 8 | a / 4
            })
            return .image(image, Transform(a: w / 7, b: 0.1, c: 0, d: h / 5, tx: 0, ty: 0))
        }
    }

    func testPaintingThroughRunsGivesTheBufferMasksPixels() {
        var r = FastPathTests.Random(state: 23)
        for round in 0..<160 {
            let (w, h) = (30 + Int(r.next() % 70), 20 + Int(r.next() % 50))
            let rect = PixelRect(x0: Int(r.next() % 12) - 3, y0: Int(r.next() % 9) - 2, x1: w - Int(r.next() % 12), y1: h - Int(r.next() % 9))
            let maskPath = FastPathTests.randomPath(&r, width: Double(w), height: Double(h))
            let runs = MaskRuns(path: maskPath, transform: .identity, rect: rect, map: Self.maps[round % Self.maps.count])
            let clipRect = PixelRect(x0: Int(r.next() % 5), y0: 0, x1: w - Int(r.next() % 5), y1: h)
            let paint = Self.randomPaint(&r, round: round / 2, width: Double(w), height: Double(h))
            let opacity = round % 5 == 0 ? 1 : r.unit()
            let path = FastPathTests.randomPath(&r, width: Double(w), height: Double(h))
            var fast = Surface(width: w, height: h, clearColor: Color(r: 0.2, g: 0.3, b: 0.4, a: round % 2 == 0 ? 1 : 0.5))
            var reference = fast
            let stroke = round % 3 == 2
            var style = StrokeStyle()
            style.width = 1 + r.unit() * 8
            for (clip, surface) in [(Clip(rect: clipRect, runs: runs), 0), (Clip(rect: clipRect, mask: runs.mask()), 1)] {
                if stroke {
                    if surface == 0 { fast.stroke(path, style: style, paint: paint, opacity: opacity, clip: clip) }
                    else { reference.stroke(path, style: style, paint: paint, opacity: opacity, clip: clip) }
                } else if surface == 0 {
                    fast.fill(path, paint: paint, opacity: opacity, clip: clip)
                } else {
                    reference.fill(path, paint: paint, opacity: opacity, clip: clip)
                }
            }
            let differing = fast.pixels.indices.filter { fast.pixels[$0] != reference.pixels[$0] }
            XCTAssertEqual(differing.count, 0, "round \(round): pixels \(differing.prefix(5).map { ($0 % w, $0 / w) }) \(differing.prefix(3).map { (fast.pixels[$0], reference.pixels[$0]) }) mask rect \(rect) clip \(clipRect)")
        }
    }

    /// Through coverage slots a moving solid shape would be painted from the sweep; with a
    /// clip told as runs it is made and painted from its coverage: the same pixels frame after frame.
    func testThroughSlotsAMovingShapeKeepsThePixels() {
        var r = FastPathTests.Random(state: 3)
        let (w, h) = (80, 60)
        let slots = CoverageSlots()
        let referenceSlots = CoverageSlots()
        let runs = MaskRuns(path: Path.ellipse(10, 5, 60, 50), transform: .identity, rect: PixelRect(x0: 4, y0: 2, x1: 76, y1: 58),
                            map: MaskRuns.ValueMap(opacity: 0.8))
        for frame in 0..<8 {
            let path = FastPathTests.randomPath(&r, width: Double(w), height: Double(h))
            var fast = Surface(width: w, height: h, clearColor: .clear)
            var reference = fast
            let paint = Paint.solid(Color(r: 1, g: 0.5, b: 0, a: 1))
            fast.fill(path, paint: paint, clip: Clip(rect: fast.bounds, runs: runs), slots: slots, slot: 0, cache: nil)
            reference.fill(path, paint: paint, clip: Clip(rect: fast.bounds, mask: runs.mask()), slots: referenceSlots, slot: 0, cache: nil)
            XCTAssertEqual(fast.pixels, reference.pixels, "frame \(frame)")
        }
    }

    func testAClipWithBothFormsAndIntersectionsUseTheirProduct() {
        let runs = MaskRuns(path: Path.ellipse(0, 0, 40, 30), transform: .identity, rect: PixelRect(x0: 0, y0: 0, x1: 40, y1: 30),
                            map: MaskRuns.ValueMap(inverted: true))
        var r = FastPathTests.Random(state: 9)
        let other = FastPathTests.randomMask(&r, rect: PixelRect(x0: 5, y0: 5, x1: 35, y1: 25))
        var both = Clip(rect: PixelRect(x0: 0, y0: 0, x1: 40, y1: 30), runs: runs)
        both.mask = other
        var expected = runs.mask()
        expected.combine(other, MaskOperation.intersect)
        XCTAssertEqual(both.bufferMask(), expected)
        let meet = Clip(rect: PixelRect(x0: 0, y0: 0, x1: 40, y1: 30), runs: runs).intersection(Clip(rect: both.rect, mask: other))
        XCTAssertEqual(meet.mask, expected)
        XCTAssertNil(meet.runs)
        XCTAssertEqual(Clip(rect: both.rect, runs: runs).coverage(in: both.rect).values, runs.mask().values)
        var fast = Surface(width: 40, height: 30, clearColor: .clear), reference = fast
        var path = Path()
        path.addRect(Rect(x: 2, y: 3, width: 33, height: 20))
        fast.fill(path, paint: .solid(.white), clip: both)
        reference.fill(path, paint: .solid(.white), clip: Clip(rect: both.rect, mask: expected))
        XCTAssertEqual(fast.pixels, reference.pixels)
    }
}
