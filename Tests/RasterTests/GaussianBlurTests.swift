import Raster
import XCTest

/// The blur by a standard deviation: its three boxes, and the fast path against the reference.
final class GaussianBlurTests: XCTestCase {
    /// The three boxes' variances sum to σ² within what whole odd widths allow (a third of the
    /// step between two neighbouring widths).
    func testBoxesApproachTheGaussiansVariance() {
        for sigma in [0.7, 1.0, 1.5, 2.2, 3.75, 5.0, 8.3, 11.3, 18.6, 40.0, 150.0] {
            let boxes = Surface.boxHalfWidths(sigma: sigma)
            XCTAssertEqual(boxes.count, 3, "σ \(sigma)")
            let variance = boxes.reduce(0.0) { sum, half in sum + Double((2 * half + 1) * (2 * half + 1) - 1) / 12 }
            let step = Double(2 * (boxes.max() ?? 0) + 2)
            XCTAssertEqual(variance.squareRoot(), sigma, accuracy: max(0.2, step / 6 / sigma), "σ \(sigma): boxes \(boxes)")
            XCTAssertEqual(Surface.blurSpread(sigma: sigma), boxes.reduce(0, +))
        }
        XCTAssertEqual(Surface.boxHalfWidths(sigma: 0.2), [], "too small to blur")
        XCTAssertEqual(Surface.boxHalfWidths(sigma: .nan), [])
        XCTAssertEqual(Surface.boxHalfWidths(sigma: -3), [])
        XCTAssertEqual(Surface.boxHalfWidths(sigma: .infinity), [])
        XCTAssertTrue(Surface.boxHalfWidths(sigma: 1e300).allSatisfy { $0 <= 1024 }, "boxes are capped")
    }

    func testTheFastBlurMatchesTheReferenceForEverySigmaAndDirection() {
        var random = FillRunTests.Random(state: 11)
        let cases: [(Double, Double, (Int, Int))] = [(0.6, 0.6, (0, 0)), (1.3, 1.3, (-20, 13)), (3.75, 3.75, (5, -7)),
                                                     (11.3, 11.3, (0, 0)), (5, 0, (3, 3)), (0, 7, (-4, 9)), (2.5, 9, (0, 0))]
        for (sx, sy, origin) in cases {
            var fast = Surface(bounds: PixelRect(x0: origin.0, y0: origin.1, x1: origin.0 + 97, y1: origin.1 + 61), pool: BufferPool())
            for _ in 0..<6 {
                var blob = Path()
                let c = random.point(97, 61)
                blob.addEllipse(in: Rect(x: c.x + Double(origin.0), y: c.y + Double(origin.1), width: 4 + random.next() * 30,
                                         height: 3 + random.next() * 20))
                fast.fill(blob, paint: .solid(Color(r: random.next(), g: random.next(), b: random.next(), a: 0.3 + random.next() * 0.7)))
            }
            var reference = fast
            let before = fast.pixels
            fast.blur(sigmaX: sx, sigmaY: sy, pool: BufferPool())
            reference.referenceBlur(sigmaX: sx, sigmaY: sy)
            XCTAssertEqual(fast.pixels, reference.pixels, "σ \(sx) × \(sy)")
            XCTAssertNotEqual(fast.pixels, before, "σ \(sx) × \(sy) changes the pixels")
        }
    }

    /// A blur across leaves every column's total alone and a blur down every row's, to within
    /// rounding; and a blur one way does not spread the other.
    func testADirectionalBlurStaysOnItsAxis() {
        var s = Surface(bounds: PixelRect(x0: 0, y0: 0, x1: 80, y1: 40))
        var bar = Path()
        bar.addRect(Rect(x: 30, y: 10, width: 20, height: 20))
        s.fill(bar, paint: .solid(Color(r: 0, g: 0, b: 0)))
        var across = s
        across.blur(sigmaX: 4, sigmaY: 0)
        for x in 0..<80 {
            XCTAssertEqual(across.pixels[5 * 80 + x], 0, "row 5 stays empty")
            XCTAssertEqual(across.pixels[15 * 80 + x], across.pixels[25 * 80 + x], "every row inside is blurred alike")
        }
        XCTAssertGreaterThan(across.pixels[15 * 80 + 27] >> 24, 0, "spread left of the square")
        var down = s
        down.blur(sigmaX: 0, sigmaY: 4)
        for y in 0..<40 { XCTAssertEqual(down.pixels[y * 80 + 20], 0, "column 20 stays empty") }
        XCTAssertGreaterThan(down.pixels[8 * 80 + 40] >> 24, 0, "spread above the square")
    }
}
