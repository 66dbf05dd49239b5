@testable import Raster
import XCTest

/// `PathMeasure.segment(from:to:appendingTo:)` (pieces written into the caller's path) against
/// `segment(from:to:)` appended (a path per piece, copied): the same elements and the same
/// current point, for random paths and ranges, two pieces in a row as a wrapping trim makes
/// them; and `elementCount` never below what a piece holds.
final class PathMeasureAppendTests: XCTestCase {
    func testAppendingIsAppendingTheSegment() {
        var r = FastPathTests.Random(state: 17)
        var checked = 0
        for _ in 0..<300 {
            let measure = PathMeasure(FastPathTests.randomPath(&r, width: 200, height: 120))
            guard measure.length > 0 else { continue }
            let ranges = (0..<2).map { _ -> (Double, Double) in
                let a = r.unit() * measure.length * 1.1 - 0.05 * measure.length
                return (a, a + r.unit() * measure.length)
            }
            var copied = Path(), written = Path()
            for (a, b) in ranges {
                let piece = measure.segment(from: a, to: b)
                XCTAssertGreaterThanOrEqual(measure.elementCount(from: a, to: b), piece.elements.count)
                // An empty piece appended resets the current point; appending in place leaves it.
                guard !piece.isEmpty else { continue }
                copied.append(piece)
                measure.segment(from: a, to: b, appendingTo: &written)
                checked += 1
            }
            XCTAssertEqual(copied, written)
        }
        XCTAssertGreaterThan(checked, 300)
    }

    func testWholePathKeepsItsCloses() {
        var path = Path()
        path.addRect(Rect(x: 0, y: 0, width: 10, height: 5))
        let measure = PathMeasure(path)
        var written = Path()
        measure.segment(from: 0, to: measure.length, appendingTo: &written)
        XCTAssertEqual(written, measure.segment(from: 0, to: measure.length))
        XCTAssertEqual(written.elements.last, .close)
        XCTAssertGreaterThanOrEqual(measure.elementCount(from: 0, to: measure.length), written.elements.count)
    }
}
