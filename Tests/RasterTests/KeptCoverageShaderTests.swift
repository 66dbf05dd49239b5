@testable import Raster
import XCTest

/// A coverage kept in a slot from a solid paint and painted later with a gradient or an
/// image. `Rasterizer.sweepRuns` trims a varying run to the pixels whose coverage changes
/// (an edge block's pixels that already have the inside's coverage go with the inside's
/// constant run), so such a coverage is cut into runs differently from the per-pixel sweep;
/// a shader steps along a row from where a run starts (`Shader.shade`: the paint position of
/// the run's first pixel, then `t0 + i·dt`; images in 32.32 fixed point), so the cut could
/// show. The run path (`paintCoverage` of the kept coverage, constant runs through
/// `paintConstantRun`), the sweep that paints as it goes (`paintSwept`) and the per-pixel
/// reference (`referenceFill`, each row's whole span through its coverage bytes) are
/// checked to give the same pixels to the bit. Found: they do on every round here. What
/// remains possible is a position that lands within rounding (about 1e-16 of t in `Double`,
/// 2^-20 pixel for images) of a table entry's or texel's boundary, which the two starts can
/// put on either side: one neighbouring entry, not bounded by 1/255 on a steep ramp, and
/// not met in these rounds (all 72 pixel-identical).
final class KeptCoverageShaderTests: XCTestCase {
    typealias Random = FastPathTests.Random

    /// Linear (fast and slow along the row), radial and image paints.
    func shaderPaint(_ r: inout Random, kind: Int, width w: Double, height h: Double) -> Paint {
        let stops = (0..<(2 + Int(r.next() % 3))).map { _ in
            GradientStop(offset: r.unit(), color: Color(r: r.unit(), g: r.unit(), b: r.unit(), a: r.next() % 2 == 0 ? 1 : r.unit()))
        }
        switch kind % 4 {
        case 0: return .gradient(.linear(start: Point(r.unit() * w, r.unit() * h), end: Point(r.unit() * w, r.unit() * h), stops: stops), .identity)
        case 1: return .gradient(.linear(start: Point(0, 0), end: Point(w * 3, h * 0.2), stops: stops), .identity)
        case 2:
            let center = Point(r.unit() * w, r.unit() * h)
            return .gradient(.radial(center: center, radius: 8 + r.unit() * w, focal: center, stops: stops), .identity)
        default:
            let pixels = (0..<(16 * 16)).map { _ in KernelSamples.randomPixel(&r) }
            return .image(Image(width: 16, height: 16, pixels: pixels), Transform(a: 5, b: 1, c: -1, d: 4, tx: 2, ty: 1))
        }
    }

    /// Shapes whose edges fall inside 16-pixel blocks, so that the sweep trims varying runs:
    /// rectangles with fractional sides (an edge block's inside pixels join the inside run),
    /// thin bars within one block, and random outlines.
    func shape(_ r: inout Random, kind: Int, width w: Double, height h: Double) -> Path {
        var path = Path()
        func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            path.move(to: Point(x0, y0)); path.line(to: Point(x1, y0)); path.line(to: Point(x1, y1)); path.line(to: Point(x0, y1)); path.close()
        }
        switch kind % 3 {
        case 0: rect(3.3 + r.unit() * 20, 2.6 + r.unit() * 10, w - 4.7 - r.unit() * 20, h - 3.2 - r.unit() * 10)
        case 1:
            for i in 0..<6 { let x = Double(i) * 16 + 2.5 + r.unit() * 8; rect(x, 1.5, x + 0.7 + r.unit() * 5, h - 2.25) }
        default:
            path = FastPathTests.randomPath(&r, width: w, height: h)
            rect(5.5, 4.25, w * 0.6 + 0.4, h * 0.7)
        }
        return path
    }

    func testAKeptSolidCoveragePaintedWithAShaderIsThePerPixelReferenceToTheBit() {
        var r = Random(state: 2024)
        var reused = 0
        for round in 0..<72 {
            let (w, h) = (70 + Int(r.next() % 110), 40 + Int(r.next() % 60))
            let path = shape(&r, kind: round, width: Double(w), height: Double(h))
            let paint = shaderPaint(&r, kind: round / 3, width: Double(w), height: Double(h))
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            let opacity = round % 4 < 2 ? 1 : 0.3 + r.unit() * 0.6
            let background = Color(r: 0.2, g: 0.3, b: 0.4, a: round % 3 == 0 ? 1 : 0.5)
            let slots = CoverageSlots()
            // The frame before: the same shape in one colour keeps its coverage in the slot.
            var before = Surface(width: w, height: h, clearColor: background)
            before.fill(path, rule: rule, paint: .solid(Color(r: 0.9, g: 0.1, b: 0.2)), slots: slots, slot: 0, cache: nil)
            var kept = Surface(width: w, height: h, clearColor: background)
            let hits = slots.statistics.hits
            kept.fill(path, rule: rule, paint: paint, opacity: opacity, slots: slots, slot: 0, cache: nil)
            if slots.statistics.hits > hits { reused += 1 }
            var swept = Surface(width: w, height: h, clearColor: background)
            swept.paintSwept(path, rule: rule, limit: swept.bounds, shader: Shader(paint: paint, pathToDevice: .identity),
                             opacity: opacity, clip: nil)
            var reference = Surface(width: w, height: h, clearColor: background)
            reference.referenceFill(path, rule: rule, paint: paint, opacity: opacity)
            XCTAssertNotEqual(reference.pixels, Surface(width: w, height: h, clearColor: background).pixels, "round \(round) paints")
            XCTAssertEqual(kept.pixels, reference.pixels, "round \(round): kept coverage")
            XCTAssertEqual(swept.pixels, reference.pixels, "round \(round): swept")
        }
        XCTAssertEqual(reused, 72, "every shaded paint must reuse the coverage the solid paint kept")
    }

    /// The kept coverage really is cut differently from the sweep's blocks: some row has a
    /// constant run that starts or ends inside a 16-pixel block an edge crossed.
    func testTheKeptCoverageHasConstantRunsThatEndInsideEdgeBlocks() {
        var surface = Surface(width: 64, height: 8)
        var path = Path()
        path.move(to: Point(20.5, 0)); path.line(to: Point(43.25, 0)); path.line(to: Point(43.25, 8)); path.line(to: Point(20.5, 8)); path.close()
        let coverage = surface.coverage(of: path, rule: .nonZero, limit: surface.bounds)
        let constants = coverage.runs.filter { $0.offset < 0 && $0.value == 255 }
        XCTAssertFalse(constants.isEmpty)
        XCTAssertTrue(constants.contains { Int($0.x) % 16 != 0 || (Int($0.x) + Int($0.count)) % 16 != 0 },
                      "runs: \(coverage.runs.map { ($0.x, $0.count, $0.offset, $0.value) })")
    }
}
