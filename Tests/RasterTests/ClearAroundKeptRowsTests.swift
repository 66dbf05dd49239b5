@testable import Raster
import XCTest

/// Clearing around a kept rectangle that spans what was painted from left to right (the rows
/// it holds are left out whole): every pixel outside it is cleared, every pixel in it kept,
/// whether the kept rows lie inside, across or beside what was painted.
final class ClearAroundKeptRowsTests: XCTestCase {
    typealias Random = FastPathTests.Random

    func testKeptRowsSpanningThePaintedAreaAreLeftAndTheRestCleared() {
        var r = Random(state: 1207)
        let (w, h) = (64, 48)
        for round in 0..<60 {
            var surface = Surface(width: w, height: h)
            for _ in 0..<(1 + round % 4) {
                var square = Path()
                square.addRect(Rect(x: r.unit() * 50, y: r.unit() * 40, width: 2 + r.unit() * 20, height: 2 + r.unit() * 20))
                surface.fill(square, paint: .solid(Color(r: r.unit(), g: r.unit(), b: 1, a: 1)))
            }
            let before = surface.pixels
            let y0 = Int(r.next() % UInt64(h)), y1 = y0 + Int(r.next() % UInt64(h - y0 + 1))
            // Across the whole surface, or just wider than what was painted, or narrower (the row walk).
            let painted = surface.painted
            let kept = [PixelRect(x0: 0, y0: y0, x1: w, y1: y1),
                        PixelRect(x0: painted.x0, y0: y0, x1: painted.x1, y1: y1),
                        PixelRect(x0: painted.x0 + 1, y0: y0, x1: painted.x1, y1: y1)][round % 3]
            surface.clear(.clear, except: kept)
            let k = kept.intersection(surface.bounds)
            for y in 0..<h {
                for x in 0..<w {
                    let expected = k.contains(x: x, y: y) ? before[y * w + x] : 0
                    XCTAssertEqual(surface.pixels[y * w + x], expected, "round \(round) at \(x),\(y)")
                    if surface.pixels[y * w + x] != expected { return }
                }
            }
        }
    }
}
