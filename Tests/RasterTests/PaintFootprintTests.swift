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

    /// A kept coverage's pieces, worked out once (`Coverage.workOutFootprint`), hold every
    /// pixel of its runs, and leave a ring's middle out.
    func testAKeptCoveragesPiecesHoldEveryRun() {
        var surface = Surface(width: 900, height: 700)
        var style = StrokeStyle()
        style.width = 17
        for (k, path) in [Path.ellipse(40, 30, 820, 640), Path.ellipse(-100, 100, 800, 500)].enumerated() {
            var coverage = surface.coverage(of: Surface.strokeOutline(path, style: style, transform: .identity), rule: .nonZero,
                                            limit: surface.bounds)
            XCTAssertNil(coverage.footprint)
            coverage.workOutFootprint()
            guard let pieces = coverage.footprint else { return XCTFail("shape \(k): no pieces") }
            XCTAssertLessThanOrEqual(pieces.count, DirtyRegion.capacity)
            for run in coverage.runs {
                for x in Int(run.x)..<Int(run.x + run.count) where !pieces.contains(where: { $0.contains(x: x, y: Int(run.y)) }) {
                    return XCTFail("shape \(k): pixel \(x),\(run.y) left out")
                }
            }
            let area = pieces.reduce(0) { $0 + $1.width * $1.height }
            XCTAssertLessThan(area, coverage.bounds.width * coverage.bounds.height / 2, "shape \(k)")
        }
    }

    /// A ring that holds still, repainted each frame from its slot, notes its pieces, not
    /// its bounding box.
    func testAKeptRingLeavesItsMiddleOut() {
        var style = StrokeStyle()
        style.width = 24
        var surface = Surface(width: 900, height: 700)
        let slots = CoverageSlots()
        for _ in 0..<3 {
            surface.clearDeferred()
            surface.stroke(Path.ellipse(50, 50, 800, 600), style: style, paint: .solid(.white), slots: slots, slot: 0, cache: nil)
        }
        XCTAssertGreaterThan(slots.statistics.hits, 0)
        let region = surface.region
        let area = (0..<region.count).reduce(0) { $0 + region[$1].width * region[$1].height }
        XCTAssertLessThan(area, region.union.width * region.union.height / 2, "\(region.count) rectangles")
        XCTAssertFalse((0..<region.count).contains { region[$0].contains(x: 450, y: 350) })
        // Kept in the shared cache alone (no slot), as a text layer's glyphs are.
        let cache = CoverageCache()
        for _ in 0..<3 {
            surface.clearDeferred()
            surface.stroke(Path.ellipse(50, 50, 800, 600), style: style, paint: .solid(.white), cache: cache)
        }
        XCTAssertEqual(cache.statistics.hits, 2)
        XCTAssertFalse((0..<surface.region.count).contains { surface.region[$0].contains(x: 450, y: 350) })
    }

    /// Kept shapes (a ring, a line, a gradient outline, one through a clip) that hold still
    /// for a few frames, then move and hold again, cleared each frame (plain and deferred)
    /// through their stored pieces: the same pixels as clearing every pixel.
    func testClearingKeptShapesByTheirPiecesLeavesNothingBehind() {
        let (w, h) = (640, 480)
        let slots = CoverageSlots(), cache = CoverageCache()
        var surface = Surface(width: w, height: h)
        var reference = Surface(width: w, height: h)
        var style = StrokeStyle()
        style.width = 11
        let gradient = Paint.gradient(.linear(start: Point(0, 0), end: Point(600, 400),
                                              stops: [GradientStop(offset: 0, color: .white),
                                                      GradientStop(offset: 1, color: Color(r: 1, g: 0, b: 0, a: 0.5))]), .identity)
        let maskRuns = MaskRuns(path: Path.ellipse(0, 0, 600, 460), transform: .identity, rect: PixelRect(x0: 0, y0: 0, x1: w, y1: h),
                                map: MaskRuns.ValueMap(opacity: 0.8))
        for frame in 0..<12 {
            if frame % 2 == 0 { surface.clear() } else { surface.clearDeferred() }
            reference.referenceClear()
            let step = Double(frame / 4) * 37
            var line = Path()
            line.move(to: Point(10 + step, 5))
            line.line(to: Point(600 - step, 470))
            let ring = Path.ellipse(30 + step, 20, 560 - step, 440)
            let paints: [(Path, Paint, Clip?)] = [
                (ring, .solid(Color(r: 0.2, g: 0.5, b: 1, a: 1)), nil), (line, .solid(.white), nil),
                (Path.ellipse(5, 5 + step, 620, 400), gradient, nil),
                (ring, .solid(Color(r: 0, g: 1, b: 0, a: 0.6)), Clip(rect: PixelRect(x0: 20, y0: 100, x1: 500, y1: 470))),
            ]
            for (k, (path, paint, clip)) in paints.enumerated() {
                surface.stroke(path, style: style, paint: paint, clip: clip, slots: slots, slot: k, cache: k == 1 ? cache : nil)
                reference.stroke(path, style: style, paint: paint, clip: clip)
            }
            // Through a clip told as runs (`paintCoverage(…runs:)`), against its buffer form.
            surface.stroke(line, transform: .translation(20, 0), style: style, paint: .solid(.white),
                           clip: Clip(rect: surface.bounds, runs: maskRuns), slots: slots, slot: 9, cache: nil)
            reference.stroke(line, transform: .translation(20, 0), style: style, paint: .solid(.white),
                             clip: Clip(rect: reference.bounds, mask: maskRuns.mask()))
            surface.settleClear()
            let differing = zip(surface.pixels, reference.pixels).filter { $0 != $1 }.count
            XCTAssertEqual(differing, 0, "frame \(frame)")
        }
        XCTAssertGreaterThan(slots.statistics.hits, 8)
        surface.clear()
        XCTAssertTrue(surface.pixels.allSatisfy { $0 == 0 })
    }
}
