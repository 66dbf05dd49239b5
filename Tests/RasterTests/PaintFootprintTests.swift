@testable import Raster
import XCTest

/// A paint's footprint (`PaintFootprint`): the dirty region notes the pieces of a large
/// stroke instead of its bounding box, and the next clear still clears every pixel painted.
final class PaintFootprintTests: XCTestCase {
    typealias Random = FastPathTests.Random

    func testEveryRunLiesInTheFootprintsRectangles() {
        var r = Random(state: 41)
        for round in 0..<30 {
            let area = PixelRect(x0: -37 + round, y0: 11, x1: 700 + round * 13, y1: 400 + round * 7)
            guard let footprint = PaintFootprint(area: area) else { return XCTFail("area \(area) noted whole") }
            var runs: [(y: Int, x: Int, count: Int)] = []
            for _ in 0..<(5 + round * 20) {
                let y = area.y0 + Int(r.next() % UInt64(area.height))
                let x = area.x0 + Int(r.next() % UInt64(area.width))
                runs.append((y, x, 1 + Int(r.next() % UInt64(min(200, area.x1 - x)))))
            }
            var region = DirtyRegion()
            region.add(PixelRect(x0: 0, y0: 0, x1: 3, y1: 3))
            footprint.withMasks { masks in
                for run in runs { footprint.note(y: run.y, x: run.x, count: run.count, in: masks) }
                footprint.add(masks, to: &region, limit: area)
            }
            XCTAssertLessThanOrEqual(region.count, DirtyRegion.capacity)
            for run in runs {
                for x in run.x..<(run.x + run.count) {
                    let held = (0..<region.count).contains { region[$0].contains(x: x, y: run.y) }
                    XCTAssertTrue(held, "round \(round): pixel \(x),\(run.y) of run \(run) left out")
                    if !held { return }
                }
            }
            XCTAssertTrue((0..<region.count).contains { region[$0].contains(x: 1, y: 1) }, "round \(round): the earlier rectangle lost")
        }
    }

    func testJoiningTheCheapestPairKeepsEveryRectangle() {
        var r = Random(state: 43)
        var region = DirtyRegion()
        var added: [PixelRect] = []
        for k in 0..<80 {
            let x = Int(r.next() % 500), y = Int(r.next() % 400)
            let rect = PixelRect(x0: x, y0: y, x1: x + 1 + Int(r.next() % 60), y1: y + 1 + Int(r.next() % 60))
            region.add(rect, pairing: k % 3 != 0)
            added.append(rect)
            XCTAssertLessThanOrEqual(region.count, DirtyRegion.capacity)
            for a in added {
                for (px, py) in [(a.x0, a.y0), (a.x1 - 1, a.y1 - 1), (a.x0, a.y1 - 1), (a.x1 - 1, a.y0)] {
                    XCTAssertTrue((0..<region.count).contains { region[$0].contains(x: px, y: py) }, "\(a) lost")
                }
            }
        }
    }

    /// A ring painted from the sweep leaves its middle out of the region, which holds far
    /// fewer pixels than its bounding box.
    func testARingsFootprintLeavesItsMiddleOut() {
        var style = StrokeStyle()
        style.width = 24
        var surface = Surface(width: 900, height: 700)
        let path = Path.ellipse(50, 50, 800, 600)
        let slots = CoverageSlots()
        // A shape that keeps changing is painted from the sweep: two frames move it first.
        for dx in [3.0, 7.0, 11.0] {
            surface.clear()
            surface.stroke(path, transform: .translation(dx, 0), style: style, paint: .solid(.white), slots: slots, slot: 0, cache: nil)
        }
        let region = surface.region
        let area = (0..<region.count).reduce(0) { $0 + region[$1].width * region[$1].height }
        XCTAssertLessThan(area, region.union.width * region.union.height / 2, "\(region.count) rectangles")
        XCTAssertFalse((0..<region.count).contains { region[$0].contains(x: 450, y: 350) })
    }

    /// Frames of large strokes and fills, kept, swept and plain, cleared each frame with the
    /// painted-only clear (plain and deferred): the same pixels as clearing every pixel.
    func testClearingLargeStrokesLeavesNothingBehind() {
        let (w, h) = (640, 480)
        let slots = CoverageSlots()
        var surface = Surface(width: w, height: h)
        var reference = Surface(width: w, height: h)
        var style = StrokeStyle()
        style.width = 9
        style.cap = .round
        for frame in 0..<8 {
            if frame % 2 == 0 { surface.clear() } else { surface.clearDeferred() }
            reference.referenceClear()
            let t = Double(frame)
            var line = Path()
            line.move(to: Point(10 + t * 20, 5))
            line.line(to: Point(600 - t * 9, 470))
            let ring = Path.ellipse(30 + t * (frame < 4 ? 0 : 5), 20, 580, 440)
            let color = Paint.solid(Color(r: 0.2, g: 0.5, b: 1, a: frame % 3 == 0 ? 1 : 0.7))
            surface.stroke(ring, style: style, paint: color, slots: slots, slot: 0, cache: nil)
            reference.stroke(ring, style: style, paint: color)
            surface.stroke(line, style: style, paint: .solid(.white), slots: slots, slot: 1, cache: nil)
            reference.stroke(line, style: style, paint: .solid(.white))
            if frame % 3 == 1 {
                surface.stroke(line, transform: .translation(13, 0), style: style, paint: .solid(.white))
                reference.stroke(line, transform: .translation(13, 0), style: style, paint: .solid(.white))
            }
            surface.settleClear()
            let differing = zip(surface.pixels, reference.pixels).filter { $0 != $1 }.count
            XCTAssertEqual(differing, 0, "frame \(frame)")
        }
        surface.clear()
        XCTAssertTrue(surface.pixels.allSatisfy { $0 == 0 })
    }
}
