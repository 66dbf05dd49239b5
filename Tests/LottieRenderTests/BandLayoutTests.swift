@testable import LottieRender
import Raster
import XCTest

/// Band cuts move toward the rows that cost time, stay in order within the frame and keep
/// each band at least `minimumRows` high, whatever times they are fed.
final class BandLayoutTests: XCTestCase {
    func testCutsStartEvenAndMoveTowardTheDearRows() {
        let layout = BandLayout()
        let rect = PixelRect(x0: 0, y0: 0, x1: 100, y1: 1000)
        XCTAssertEqual(layout.bands(of: rect, count: 2).map(\.y0), [0, 500])
        // Rows 0..<500 cost three times as much as the rest: after `window` frames the cut
        // moves to where the cost splits evenly (333 for this content), then stays.
        var cuts: [Int] = []
        for _ in 0..<(3 * BandLayout.window) {
            let bands = layout.bands(of: rect, count: 2)
            let rowsA = Double(min(bands[0].y1, 500)) * 3 + Double(max(0, bands[0].y1 - 500))
            let rowsB = Double(max(0, 500 - bands[1].y0)) * 3 + Double(1000 - max(500, bands[1].y0))
            layout.record(bands, seconds: [rowsA * 1e-6, rowsB * 1e-6])
            cuts.append(layout.bands(of: rect, count: 2)[1].y0)
        }
        XCTAssertEqual(Array(cuts.prefix(BandLayout.window - 1)), [Int](repeating: 500, count: BandLayout.window - 1))
        // (Rows that cost nothing are counted at a twentieth of the mean, so it lands a little lower.)
        XCTAssertEqual(Double(cuts[BandLayout.window - 1]), 1000.0 / 3, accuracy: 10)
        XCTAssertEqual(Set(cuts.suffix(from: BandLayout.window - 1)).count, 1, "balanced cuts stay: \(cuts)")

        // Uneven again: the cut moves only once a whole window of frames has been summed.
        let bands = layout.bands(of: rect, count: 2)
        for _ in 0..<(BandLayout.settling + BandLayout.window - 1) { layout.record(bands, seconds: [1e-3, 1e-6]) }
        XCTAssertEqual(layout.bands(of: rect, count: 2)[1].y0, cuts.last)
        layout.record(bands, seconds: [1e-3, 1e-6])
        XCTAssertLessThan(layout.bands(of: rect, count: 2)[1].y0, cuts.last!)
    }

    func testHostileTimesKeepTheBandsValid() {
        let cuts = [10, 40, 70, 100, 130]
        for seconds in [[Double.nan, 1, 2, 3], [0, 0, 0, 0], [1e300, 0, 0, 0], [-5, 1, .infinity, 0], [0, 0, 0, 1]] {
            for _ in 0..<3 {
                let next = BandLayout.balanced(cuts: cuts, seconds: seconds)
                XCTAssertEqual(next.first, 10)
                XCTAssertEqual(next.last, 130)
                for k in 1..<next.count { XCTAssertGreaterThanOrEqual(next[k] - next[k - 1], BandLayout.minimumRows, "\(seconds)") }
            }
        }
        XCTAssertEqual(BandLayout.balanced(cuts: cuts, seconds: [1, 2]), cuts, "times for other bands are ignored")
    }

    func testANewSizeOrCountStartsEvenAgain() {
        let layout = BandLayout()
        let rect = PixelRect(x0: 0, y0: 0, x1: 10, y1: 100)
        let bands = layout.bands(of: rect, count: 2)
        for _ in 0..<BandLayout.window { layout.record(bands, seconds: [1, 0]) }
        XCTAssertNotEqual(layout.bands(of: rect, count: 2)[1].y0, 50)
        XCTAssertEqual(layout.bands(of: rect, count: 4).map(\.y0), [0, 25, 50, 75])
        XCTAssertEqual(layout.bands(of: PixelRect(x0: 0, y0: 0, x1: 10, y1: 20), count: 4).count, 1)
    }
}
