import Foundation
import XCTest
import Raster

final class CoverageTests: XCTestCase {
    func alpha(_ s: Surface, _ x: Int, _ y: Int) -> Int { Int(s.pixels[y * s.width + x] >> 24) }

    func testHalfPixelEdgesGiveHalfCoverage() {
        var s = Surface(width: 8, height: 8)
        var p = Path()
        p.addRect(Rect(x: 2.5, y: 2, width: 3, height: 4))
        s.fill(p, paint: .solid(.black))
        XCTAssertEqual(alpha(s, 1, 3), 0)
        XCTAssertEqual(alpha(s, 2, 3), 128, accuracy: 1)
        XCTAssertEqual(alpha(s, 3, 3), 255)
        XCTAssertEqual(alpha(s, 5, 3), 128, accuracy: 1)
        XCTAssertEqual(alpha(s, 6, 3), 0)
        XCTAssertEqual(alpha(s, 3, 1), 0)
        XCTAssertEqual(alpha(s, 3, 6), 0)
    }

    func testDiagonalEdgeCoversTheExactArea() {
        // Triangle (0,0) (4,0) (0,4): pixel (1,1) is cut by x + y = 4 at its far corner only
        // (area 1 − 0.5 = 0.5); pixel (0,0) is fully inside; pixel (3,3) is outside.
        var s = Surface(width: 4, height: 4)
        var p = Path()
        p.move(to: Point(0, 0)); p.line(to: Point(4, 0)); p.line(to: Point(0, 4)); p.close()
        s.fill(p, paint: .solid(.black))
        XCTAssertEqual(alpha(s, 0, 0), 255)
        XCTAssertEqual(alpha(s, 1, 2), 128, accuracy: 1)
        XCTAssertEqual(alpha(s, 3, 3), 0)
        let total = s.pixels.reduce(0) { $0 + Int($1 >> 24) }
        XCTAssertEqual(Double(total) / 255, 8, accuracy: 0.05)  // the triangle's area
    }

    func testNonZeroAndEvenOddDifferOnAnOverlap() {
        var p = Path()
        p.addRect(Rect(x: 0, y: 0, width: 10, height: 10))
        p.addRect(Rect(x: 2, y: 2, width: 6, height: 6))  // same direction: winding 2 inside
        var nonZero = Surface(width: 10, height: 10)
        nonZero.fill(p, rule: .nonZero, paint: .solid(.black))
        var evenOdd = Surface(width: 10, height: 10)
        evenOdd.fill(p, rule: .evenOdd, paint: .solid(.black))
        XCTAssertEqual(alpha(nonZero, 5, 5), 255)
        XCTAssertEqual(alpha(evenOdd, 5, 5), 0)
        XCTAssertEqual(alpha(evenOdd, 1, 1), 255)
    }

    func testShapesPartlyOutsideTheSurfaceAreClipped() {
        var s = Surface(width: 10, height: 10)
        var p = Path()
        p.addEllipse(in: Rect(x: -1e6, y: -50, width: 2e6 + 5, height: 100))
        s.fill(p, paint: .solid(.black))
        XCTAssertEqual(alpha(s, 0, 5), 255)
        XCTAssertEqual(alpha(s, 9, 5), 255)
    }

    func testCurvesAreSmoothCircles() {
        // A circle of radius 20: total coverage equals its area within 0.5% (the chords of the
        // flattened curve stay within 0.05 px of it, losing a sliver along the rim).
        var s = Surface(width: 50, height: 50)
        var p = Path()
        p.addEllipse(in: Rect(x: 5, y: 5, width: 40, height: 40))
        s.fill(p, paint: .solid(.black))
        let total = Double(s.pixels.reduce(0) { $0 + Int($1 >> 24) }) / 255
        XCTAssertEqual(total, Double.pi * 400, accuracy: Double.pi * 400 * 0.005)
    }
}

/// Fills are swept into runs of coverage and painted run by run (constant stretches stored or
/// blended in bulk), possibly from a cache; `referenceFill` sweeps and paints pixel by pixel.
/// All must leave exactly the same pixels, for every fill rule, opacity, colour and shape,
/// including shapes cut by the surface's borders, with or without a clip mask.
final class FillRunTests: XCTestCase {
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func point(_ w: Double, _ h: Double) -> Point {
            Point(next() * w * 1.6 - w * 0.3, next() * h * 1.6 - h * 0.3)
        }
    }

    func testRunsDrawTheSamePixelsAsThePerPixelPath() {
        let w = 173, h = 97
        let everywhere = Clip(rect: PixelRect(x0: 0, y0: 0, x1: w, y1: h), mask: Mask(width: w, height: h, value: 255))
        var random = Random(state: 42)
        var runs = Surface(width: w, height: h)
        var masked = Surface(width: w, height: h)
        var cached = Surface(width: w, height: h)
        var scratch = Surface(width: w, height: h)
        var reference = Surface(width: w, height: h)
        let cache = CoverageCache()
        var differing = 0
        for shape in 0..<300 {
            var path = Path()
            switch shape % 4 {
            case 0:
                let a = random.point(Double(w), Double(h)), b = random.point(Double(w), Double(h))
                path.addRect(Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y)))
            case 1:
                let a = random.point(Double(w), Double(h))
                path.addEllipse(in: Rect(x: a.x, y: a.y, width: random.next() * 150 + 0.3, height: random.next() * 90 + 0.3))
            case 2:
                // A self-intersecting star: the fill rules disagree inside it.
                path.move(to: random.point(Double(w), Double(h)))
                for _ in 0..<6 { path.line(to: random.point(Double(w), Double(h))) }
                path.close()
            default:
                path.move(to: random.point(Double(w), Double(h)))
                for _ in 0..<3 {
                    path.cubic(to: random.point(Double(w), Double(h)), control1: random.point(Double(w), Double(h)),
                               control2: random.point(Double(w), Double(h)))
                }
                path.close()
                path.addEllipse(in: Rect(x: random.next() * Double(w), y: random.next() * Double(h), width: 40, height: 30))
            }
            let color = Color(r: random.next(), g: random.next(), b: random.next(), a: shape % 3 == 0 ? 1 : random.next())
            let opacity = shape % 5 == 0 ? random.next() : 1
            let rule: FillRule = shape % 2 == 0 ? .nonZero : .evenOdd
            runs.fill(path, rule: rule, paint: .solid(color), opacity: opacity)
            masked.fill(path, rule: rule, paint: .solid(color), opacity: opacity, clip: everywhere)
            // The first fill (another colour, elsewhere) fills the cache; the second is served from it.
            scratch.fill(path, rule: rule, paint: .solid(.white), opacity: 0.5, cache: cache)
            cached.fill(path, rule: rule, paint: .solid(color), opacity: opacity, cache: cache)
            reference.referenceFill(path, rule: rule, paint: .solid(color), opacity: opacity)
            for (name, surface) in [("runs", runs), ("clip mask", masked), ("cached", cached)] {
                differing = zip(surface.pixels, reference.pixels).filter { $0 != $1 }.count
                if differing > 0 {
                    XCTFail("shape \(shape) (\(rule)), \(name): \(differing) pixels differ from the reference")
                    return
                }
            }
        }
        XCTAssertEqual(differing, 0)
        XCTAssertEqual(cache.statistics.hits, 300)
        XCTAssertEqual(cache.statistics.misses, 300)
        // The shapes did draw: most of the surface is covered, by more than one colour.
        XCTAssertGreaterThan(runs.pixels.filter { $0 != 0 }.count, w * h * 9 / 10)
        XCTAssertGreaterThan(Set(runs.pixels).count, 1000)
    }
}

/// A coverage cache serves a shape drawn again unchanged — and only then: a new outline,
/// transform, rule, stroke or clip rectangle is rasterized again, while paint, opacity and
/// clip masks are applied afresh on every paint.
final class CoverageCacheTests: XCTestCase {
    func testStrokesAndGradientsFromTheCacheMatchFreshOnes() {
        let w = 120, h = 90
        var curve = Path()
        curve.move(to: Point(10, 80))
        curve.cubic(to: Point(110, 10), control1: Point(20, -30), control2: Point(100, 120))
        var ellipse = Path()
        ellipse.addEllipse(in: Rect(x: 20, y: 15, width: 70, height: 55))
        var round = StrokeStyle(); round.width = 9; round.cap = .round; round.join = .round
        var dashed = StrokeStyle(); dashed.width = 4; dashed.dashes = [12, 5]; dashed.dashOffset = 3
        let gradient = Paint.gradient(.linear(start: Point(0, 0), end: Point(120, 90),
                                              stops: [GradientStop(offset: 0, color: Color(r: 1, g: 0.2, b: 0, a: 0.9)),
                                                      GradientStop(offset: 1, color: Color(r: 0, g: 0.3, b: 1))]), .identity)
        var half = Mask(width: w, height: h)
        for y in 0..<h { for x in 0..<w / 2 { half.values[y * w + x] = UInt8((x * 255) / (w / 2)) } }
        let clip = Clip(rect: PixelRect(x0: 0, y0: 0, x1: w, y1: h), mask: half)
        let rotation = Transform(a: 0.9, b: 0.3, c: -0.3, d: 0.9, tx: 12, ty: -4)
        let cache = CoverageCache()
        var fresh = Surface(width: w, height: h), cached = Surface(width: w, height: h), scratch = Surface(width: w, height: h)
        let draws: [(inout Surface, CoverageCache?) -> Void] = [
            { $0.stroke(curve, style: round, paint: .solid(Color(r: 0.1, g: 0.6, b: 0.3)), opacity: 0.8, cache: $1) },
            { $0.stroke(ellipse, transform: rotation, style: dashed, paint: gradient, cache: $1) },
            { $0.fill(ellipse, transform: rotation, rule: .evenOdd, paint: gradient, opacity: 0.6, clip: clip, cache: $1) },
            { $0.stroke(curve, transform: rotation, style: round, paint: .solid(.black), opacity: 0.5, clip: clip, cache: $1) },
        ]
        for draw in draws {
            draw(&scratch, cache)
            draw(&cached, cache)
            draw(&fresh, nil)
        }
        XCTAssertEqual(cache.statistics.hits, draws.count)
        XCTAssertEqual(cache.statistics.misses, draws.count)
        XCTAssertEqual(zip(fresh.pixels, cached.pixels).filter { $0 != $1 }.count, 0)
        XCTAssertGreaterThan(Set(fresh.pixels).count, 500)
    }

    func testAChangedShapeTransformRuleStrokeOrClipIsRasterizedAgain() {
        let cache = CoverageCache()
        var s = Surface(width: 64, height: 64)
        var p = Path()
        p.addRect(Rect(x: 4.5, y: 4, width: 20, height: 20))
        var wide = StrokeStyle(); wide.width = 3
        s.fill(p, paint: .solid(.black), cache: cache)
        s.fill(p, paint: .solid(.white), opacity: 0.3, cache: cache)  // hit: paint and opacity are applied afresh
        XCTAssertEqual(cache.statistics.hits, 1)
        s.fill(p, transform: .translation(1, 0), paint: .solid(.black), cache: cache)
        s.fill(p, rule: .evenOdd, paint: .solid(.black), cache: cache)
        s.stroke(p, style: StrokeStyle(), paint: .solid(.black), cache: cache)
        s.stroke(p, style: wide, paint: .solid(.black), cache: cache)
        s.fill(p, paint: .solid(.black), clip: Clip(rect: PixelRect(x0: 0, y0: 0, x1: 10, y1: 64)), cache: cache)
        var moved = p
        moved.line(to: Point(30, 30))
        s.fill(moved, paint: .solid(.black), cache: cache)
        XCTAssertEqual(cache.statistics.hits, 1)
        XCTAssertEqual(cache.statistics.misses, 7)
        s.stroke(p, style: wide, paint: .solid(.white), cache: cache)
        XCTAssertEqual(cache.statistics.hits, 2)
    }

    func testTheCacheKeepsTheRecentShapesWithinItsLimit() {
        let cache = CoverageCache(byteLimit: 64 << 10)
        var s = Surface(width: 256, height: 256)
        func disc(_ i: Int) -> Path {
            var p = Path()
            p.addEllipse(in: Rect(x: Double(i % 200), y: Double(i / 2 % 200), width: 50, height: 50))
            return p
        }
        for i in 0..<300 { s.fill(disc(i), paint: .solid(.black), cache: cache) }
        XCTAssertEqual(cache.statistics.misses, 300)
        s.fill(disc(299), paint: .solid(.white), cache: cache)
        XCTAssertEqual(cache.statistics.hits, 1, "the newest shape is kept")
        s.fill(disc(0), paint: .solid(.white), cache: cache)
        XCTAssertEqual(cache.statistics.misses, 301, "the oldest was dropped to stay within the limit")
        XCTAssertLessThanOrEqual(cache.held.bytes, 64 << 10)
        // A lower limit drops what no longer fits, the newest kept.
        cache.setByteLimit(8 << 10)
        XCTAssertLessThanOrEqual(cache.held.bytes, 8 << 10)
        XCTAssertEqual(cache.byteLimit, 8 << 10)
        s.fill(disc(0), paint: .solid(.white), cache: cache)
        XCTAssertEqual(cache.statistics.hits, 2, "the newest shape is still there")
        cache.setByteLimit(0)
        XCTAssertEqual(cache.held.entries, 0)
    }
}

/// Images are sampled in fixed point along each row (a separate loop when the image is not
/// rotated); every fully covered pixel must be the sample the definition gives: the source at
/// the pixel centre mapped back, minus half a pixel, edges clamped, the two neighbours on each
/// axis weighed by the fraction `f` (bilinear), or, where a device pixel spans `fw` < 1 source
/// pixels, by `1/2 + (f - 1/2)/fw` clamped (the share of the footprint each covers), in 1/256
/// steps — computed here in plain doubles.
final class ImageSamplingTests: XCTestCase {
    func reference(_ pixels: [UInt32], _ w: Int, _ h: Int, _ x: Double, _ y: Double,
                   footprint: (x: Double, y: Double) = (1, 1)) -> UInt32 {
        let cx = min(max(x, 0), Double(w - 1)), cy = min(max(y, 0), Double(h - 1))
        let x0 = Int(cx), y0 = Int(cy), x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
        func weight(_ f: Double, _ fw: Double) -> Int {
            fw >= 1 ? Int(f * 256) : Int((min(max(0.5 + (f - 0.5) / fw, 0), 1) * 256).rounded())
        }
        let fx = weight(cx - Double(x0), footprint.x), fy = weight(cy - Double(y0), footprint.y)
        var result: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            func c(_ p: UInt32) -> Int { Int((p >> UInt32(shift)) & 0xff) }
            let top = (c(pixels[y0 * w + x0]) * (256 - fx) + c(pixels[y0 * w + x1]) * fx) >> 8
            let bottom = (c(pixels[y1 * w + x0]) * (256 - fx) + c(pixels[y1 * w + x1]) * fx) >> 8
            result |= UInt32((top * (256 - fy) + bottom * fy) >> 8) << UInt32(shift)
        }
        return result
    }

    func testEveryCoveredPixelIsTheSampleTheDefinitionGives() {
        var random = FillRunTests.Random(state: 7)
        let w = 23, h = 17
        // A transparent band (as in a cut-out image) next to random premultiplied pixels.
        let pixels = (0..<(w * h)).map { i -> UInt32 in
            let a = UInt32(random.next() * 256) & 0xff
            func channel() -> UInt32 { UInt32(random.next() * Double(a + 1)) & 0xff }
            return (5..<12).contains(i % w) ? 0 : a << 24 | channel() << 16 | channel() << 8 | channel()
        }
        let image = Image(width: w, height: h, pixels: pixels)
        let transforms: [Transform] = [
            Transform.scale(2.7, 2.3).concatenating(.translation(3.25, 4.6)),         // enlarged
            Transform.scale(0.6, 0.75).concatenating(.translation(10.5, 7)),          // reduced
            Transform.rotation(radians: 0.5).concatenating(.scale(1.9, 1.9)).concatenating(.translation(30, 2)),  // turned
            Transform.scale(-2.7, 2.3).concatenating(.translation(70.5, 4.6)),       // mirrored, enlarged
            Transform.scale(-0.6, 0.75).concatenating(.translation(40.25, 7)),        // mirrored, reduced
            Transform.scale(4.5, 3.1).concatenating(.translation(-20.3, -5.2)),       // cut by the surface's edges
        ]
        for (n, transform) in transforms.enumerated() {
            var surface = Surface(width: 80, height: 60)
            surface.draw(image, transform: transform)
            let inverse = transform.inverted()!
            var compared = 0, exact = 0
            for y in 0..<60 {
                for x in 0..<80 {
                    let p = inverse.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                    // Every pixel the image covers wholly, up to its border (where sampling clamps).
                    let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map {
                        inverse.apply(Point(Double(x) + $0.0, Double(y) + $0.1))
                    }
                    guard corners.allSatisfy({ $0.x >= 0 && $0.y >= 0 && $0.x <= Double(w) && $0.y <= Double(h) }) else { continue }
                    let footprint = (abs(inverse.a) + abs(inverse.c), abs(inverse.b) + abs(inverse.d))
                    let expected = reference(pixels, w, h, p.x - 0.5, p.y - 0.5, footprint: footprint)
                    let actual = surface.pixels[y * 80 + x]
                    compared += 1
                    if expected == actual { exact += 1; continue }
                    // Fixed point may put a weight on the other side of a 1/256 step.
                    for shift in stride(from: 0, to: 32, by: 8) {
                        let e = Int((expected >> UInt32(shift)) & 0xff), a = Int((actual >> UInt32(shift)) & 0xff)
                        XCTAssertLessThanOrEqual(abs(e - a), 1, "transform \(n), pixel \(x),\(y)")
                    }
                }
            }
            // Where a pixel centre maps to an exact 1/256 step (translations by halves do that
            // often) either side is right; elsewhere the two agree exactly.
            XCTAssertGreaterThan(compared, 100, "transform \(n)")
            XCTAssertGreaterThanOrEqual(Double(exact), Double(compared) * 0.75, "transform \(n): \(exact) of \(compared) exact")
        }
    }
}

final class StrokeTests: XCTestCase {
    func coverage(_ s: Surface) -> Double { Double(s.pixels.reduce(0) { $0 + Int($1 >> 24) }) / 255 }

    func stroke(_ path: Path, _ configure: (inout StrokeStyle) -> Void) -> Surface {
        var style = StrokeStyle()
        configure(&style)
        var s = Surface(width: 100, height: 100)
        s.stroke(path, style: style, paint: .solid(.black))
        return s
    }

    var line: Path {
        var p = Path()
        p.move(to: Point(20, 50)); p.line(to: Point(80, 50))
        return p
    }

    /// A round-capped stroke covers the points within half its width of the line: pixels
    /// well inside that distance are fully covered, pixels well outside are empty. Curves
    /// wider than their own bend (the inner side folds over), a closed ring, and a curve
    /// crossing itself must leave no hole and no spill.
    func testCurvedStrokesCoverExactlyTheBandAroundTheLine() {
        func cubic(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point) -> (Path, [Point]) {
            var path = Path()
            path.move(to: p0)
            path.cubic(to: p1, control1: c1, control2: c2)
            let samples = (0...1000).map { i -> Point in
                let t = Double(i) / 1000, u = 1 - t
                return Point(u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p1.x,
                             u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p1.y)
            }
            return (path, samples)
        }
        var ring = Path()
        ring.addEllipse(in: Rect(x: 30, y: 25, width: 100, height: 70))
        let ringSamples = (0...1000).map { i -> Point in
            let t = 2 * Double.pi * Double(i) / 1000
            return Point(80 + 50 * cos(t), 60 + 35 * sin(t))
        }
        let cases: [(String, (Path, [Point]), Double)] = [
            ("S-curve", cubic(Point(20, 100), Point(60, -20), Point(100, 140), Point(140, 20)), 26),
            ("tight bend", cubic(Point(30, 100), Point(150, 10), Point(10, 10), Point(130, 100)), 34),
            ("loop", cubic(Point(20, 60), Point(180, 120), Point(-20, 120), Point(140, 60)), 18),
            ("ring", (ring, ringSamples), 20),
        ]
        for (name, (path, line), width) in cases {
            var style = StrokeStyle()
            style.width = width
            style.cap = .round
            var s = Surface(width: 160, height: 120)
            s.stroke(path, style: style, paint: .solid(.black))
            var holes = 0, spills = 0
            for y in 0..<120 {
                for x in 0..<160 {
                    let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                    var d = Double.infinity
                    for i in 1..<line.count {
                        let a = line[i - 1], b = line[i]
                        let abx = b.x - a.x, aby = b.y - a.y
                        let t = max(0, min(1, ((p.x - a.x) * abx + (p.y - a.y) * aby) / max(abx * abx + aby * aby, 1e-12)))
                        let dx = p.x - a.x - t * abx, dy = p.y - a.y - t * aby
                        d = min(d, (dx * dx + dy * dy).squareRoot())
                    }
                    let alpha = s.pixels[y * 160 + x] >> 24
                    if d < width / 2 - 1.5 && alpha != 255 { holes += 1 }
                    if d > width / 2 + 1.5 && alpha != 0 { spills += 1 }
                }
            }
            XCTAssertEqual(holes, 0, "\(name): pixels inside the band not fully covered")
            XCTAssertEqual(spills, 0, "\(name): pixels outside the band covered")
        }
    }

    func testCapsExtendTheLineByTheRightAmount() {
        // 60 long, 10 wide: butt 600, square 700, round 600 + π·25.
        XCTAssertEqual(coverage(stroke(line) { $0.width = 10; $0.cap = .butt }), 600, accuracy: 1)
        XCTAssertEqual(coverage(stroke(line) { $0.width = 10; $0.cap = .square }), 700, accuracy: 1)
        XCTAssertEqual(coverage(stroke(line) { $0.width = 10; $0.cap = .round }), 600 + .pi * 25, accuracy: 2)
    }

    func testJoinsDifferAtACorner() {
        var corner = Path()
        corner.move(to: Point(20, 80)); corner.line(to: Point(50, 20)); corner.line(to: Point(80, 80))
        let miter = coverage(stroke(corner) { $0.width = 8; $0.join = .miter; $0.miterLimit = 10 })
        let round = coverage(stroke(corner) { $0.width = 8; $0.join = .round })
        let bevel = coverage(stroke(corner) { $0.width = 8; $0.join = .bevel })
        XCTAssertGreaterThan(miter, round)
        XCTAssertGreaterThan(round, bevel)
        // A miter limit below the corner's ratio falls back to a bevel.
        let limited = coverage(stroke(corner) { $0.width = 8; $0.join = .miter; $0.miterLimit = 1 })
        XCTAssertEqual(limited, bevel, accuracy: 0.5)
    }

    func testDashesCoverTheirShareAndHonourTheOffset() {
        let dashed = coverage(stroke(line) { $0.width = 10; $0.dashes = [10, 10] })
        XCTAssertEqual(dashed, 300, accuracy: 1)
        var shifted = Surface(width: 100, height: 100)
        var style = StrokeStyle()
        style.width = 10; style.dashes = [10, 10]; style.dashOffset = 10
        shifted.stroke(line, style: style, paint: .solid(.black))
        XCTAssertEqual(shifted.pixels[50 * 100 + 25] >> 24, 0)        // first dash moved away
        XCTAssertEqual(shifted.pixels[50 * 100 + 35] >> 24, 255)
    }

    func testPathMeasureSplitsCurvesExactly() {
        var p = Path()
        p.move(to: Point(0, 0)); p.line(to: Point(30, 0)); p.line(to: Point(30, 40))
        let m = PathMeasure(p)
        XCTAssertEqual(m.length, 70, accuracy: 1e-9)
        let piece = PathMeasure(m.segment(from: 20, to: 50))
        XCTAssertEqual(piece.length, 30, accuracy: 1e-9)
    }
}

final class PaintTests: XCTestCase {
    func testLinearGradientEndpointsAndMiddle() {
        var s = Surface(width: 101, height: 1)
        var p = Path()
        p.addRect(Rect(x: 0, y: 0, width: 101, height: 1))
        let g = Gradient.linear(start: Point(0.5, 0), end: Point(100.5, 0),
                                stops: [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: .white)])
        s.fill(p, paint: .gradient(g, .identity))
        XCTAssertEqual(s.pixels[0] & 0xff, 0)
        XCTAssertEqual(Int(s.pixels[50] & 0xff), 128, accuracy: 1)
        XCTAssertEqual(s.pixels[100] & 0xff, 255)
    }

    func testRadialGradientIsZeroAtTheFocalPointAndOneAtTheRim() {
        var s = Surface(width: 41, height: 41)
        var p = Path()
        p.addRect(Rect(x: 0, y: 0, width: 41, height: 41))
        let g = Gradient.radial(center: Point(20.5, 20.5), radius: 20, focal: Point(20.5, 20.5),
                                stops: [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: .black)])
        s.fill(p, paint: .gradient(g, .identity))
        XCTAssertEqual(s.pixels[20 * 41 + 20] & 0xff, 255)
        XCTAssertEqual(s.pixels[20 * 41 + 0] & 0xff, 0)
        XCTAssertEqual(Int(s.pixels[20 * 41 + 10] & 0xff), 128, accuracy: 4)
    }

    func testSourceOverIsPremultiplied() {
        var s = Surface(width: 1, height: 1, clearColor: Color(r: 0, g: 0, b: 1))
        var p = Path()
        p.addRect(Rect(x: 0, y: 0, width: 1, height: 1))
        s.fill(p, paint: .solid(Color(r: 1, g: 0, b: 0, a: 0.5)))
        let c = Color(premultiplied: s.pixels[0])
        XCTAssertEqual(c.a, 1, accuracy: 0.01)
        XCTAssertEqual(c.r, 0.5, accuracy: 0.01)
        XCTAssertEqual(c.b, 0.5, accuracy: 0.01)
    }

    func testMultiplyBlend() {
        var backdrop = Surface(width: 1, height: 1, clearColor: Color(r: 0.5, g: 1, b: 1))
        let source = Surface(width: 1, height: 1, clearColor: Color(r: 1, g: 0.5, b: 0))
        backdrop.composite(source, blend: .multiply)
        let c = Color(premultiplied: backdrop.pixels[0])
        XCTAssertEqual(c.r, 0.5, accuracy: 0.01)
        XCTAssertEqual(c.g, 0.5, accuracy: 0.01)
        XCTAssertEqual(c.b, 0, accuracy: 0.01)
    }

    func testMaskOperations() {
        var a = Mask(width: 1, height: 1, value: 200)
        let b = Mask(width: 1, height: 1, value: 100)
        var m = a; m.combine(b, .add); XCTAssertEqual(m.values[0], 222)
        m = a; m.combine(b, .subtract); XCTAssertEqual(m.values[0], 122)
        m = a; m.combine(b, .intersect); XCTAssertEqual(m.values[0], 78)
        m = a; m.combine(b, .lighten); XCTAssertEqual(m.values[0], 200)
        m = a; m.combine(b, .darken); XCTAssertEqual(m.values[0], 100)
        a.combine(b, .difference); XCTAssertEqual(a.values[0], 100)
        XCTAssertEqual(b.inverted().values[0], 155)
    }
}

final class OutputTests: XCTestCase {
    func testPNGRoundTripKeepsPixels() throws {
        var s = Surface(width: 3, height: 2)
        s.pixels = [0xff00_00ff, 0x8040_0000, 0, 0xffff_ffff, 0x0101_0101, 0xff12_3456]
        let decoded = try PNG.decode(try PNG.encode(s))
        XCTAssertEqual(decoded.width, 3)
        XCTAssertEqual(decoded.pixels, s.pixels)
    }

    func testPNGOfNoiseFitsTheOnePassBufferAndRoundTrips() throws {
        // Noise does not compress: the encoder's worst-case buffer must still hold it.
        var s = Surface(width: 641, height: 479)
        var state: UInt32 = 99
        for i in s.pixels.indices {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            s.pixels[i] = state | 0xff00_0000
        }
        let bytes = try PNG.encode(s)
        XCTAssertGreaterThan(bytes.count, 641 * 479 * 3)
        XCTAssertEqual(try PNG.decode(bytes).pixels, s.pixels)
    }

    func testPNGWriteIsAtomicAndCorruptInputIsAnError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-png-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("a.png").path
        try PNG.write(Surface(width: 4, height: 4, clearColor: .white), to: path)
        XCTAssertEqual(try PNG.read(path: path).pixels.first, 0xffff_ffff)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["a.png"])  // no temporary left
        XCTAssertThrowsError(try PNG.decode([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]))
        XCTAssertThrowsError(try PNG.write(Surface(width: 1, height: 1), to: "/nonexistent/dir/x.png")) {
            XCTAssertTrue("\($0)".hasPrefix("/nonexistent/dir/x.png"))
        }
    }

    func testDisplayFormats() {
        let s = Surface(width: 2, height: 1, clearColor: Color(r: 1, g: 0.5, b: 0, a: 1))
        var xrgb = [UInt32](repeating: 0, count: 2)
        xrgb.withUnsafeMutableBytes { s.write(to: $0.baseAddress!, stride: 8, format: .xrgb8888) }
        XCTAssertEqual(xrgb[0], 0xffff_8000)
        var rgb565 = [UInt16](repeating: 0, count: 2)
        rgb565.withUnsafeMutableBytes { s.write(to: $0.baseAddress!, stride: 4, format: .rgb565) }
        XCTAssertEqual(rgb565[1], 31 << 11 | 32 << 5 | 0)
    }
}
