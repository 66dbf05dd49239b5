@testable import Raster
import XCTest

/// `PathMeasure.parameter` (walks the chord lengths to the sample it needs) against
/// `referenceParameter` (the whole table, searched in halves): the same parameter, bit for
/// bit, at random lengths, at the samples' own lengths, before the start and past the end.
final class PathMeasureParameterTests: XCTestCase {
    func testParameterIsTheReferenceParameter() {
        var r = FastPathTests.Random(state: 41)
        var checked = 0
        for _ in 0..<300 {
            let measure = PathMeasure(FastPathTests.randomPath(&r, width: 200, height: 120))
            for segment in measure.cubicSegments {
                var table: [Double] = []
                PathMeasure.chordLengths(segment.p0, segment.c1, segment.c2, segment.p3) { _, sum in table.append(sum); return true }
                XCTAssertEqual(table.last, segment.length)
                let lengths = table + [-1, 0, segment.length * 1.5, .nan, .infinity] + (0..<8).map { _ in r.unit() * segment.length }
                for s in lengths {
                    let fast = measure.parameter(segment, s), reference = measure.referenceParameter(segment, s)
                    XCTAssertTrue(fast == reference || (fast.isNaN && reference.isNaN), "s \(s): \(fast) vs \(reference)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
    }
}
