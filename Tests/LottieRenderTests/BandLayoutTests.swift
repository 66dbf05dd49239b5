@testable import LottieRender
import Raster
import XCTest

/// Band cuts move toward the rows that cost time, stay in order within the frame and keep
/// each band at least `minimumRows` high, whatever times they are fed.
final class BandLayoutTests: XCTestCase {
    /// Rows 0..<500 of 1000 cost `dear` times as much as the rest: each band's seconds.
    static func seconds(_ bands: [PixelRect], dear: Double = 3) -> [Double] {
        bands.map { band in
            let dearRows = Double(max(0, min(band.y1, 500) - band.y0))
            return (dearRows * dear + Double(band.height) - dearRows) * 1e-6
        }
    }

    /// Records frames of `seconds` until the cuts move (at most `limit`): how many it took.
    static func framesUntilMoved(_ layout: BandLayout, _ rect: PixelRect, limit: Int = 100,
                                 seconds: ([PixelRect]) -> [Double]) -> Int {
        let bands = layout.bands(of: rect, count: 2)
        var frames = 0
        while layout.bands(of: rect, count: 2) == bands, frames < limit {
            layout.record(bands, seconds: seconds(bands))
            frames += 1
        }
        return frames
    }

    func testCutsStartEvenAndMoveTowardTheDearRows() {
        let layout = BandLayout()
        let rect = PixelRect(x0: 0, y0: 0, x1: 100, y1: 1000)
        XCTAssertEqual(layout.bands(of: rect, count: 2).map(\.y0), [0, 500])
        // The first frame (2 ms) stands for what a move costs: half of it, 1 ms, as the
        // average with nothing. Each frame then waits 0.5 ms on the top band, so the cut
        // moves after two or three of them, to where the cost splits evenly (333 for this
        // content), and there it stays.
        let frames = Self.framesUntilMoved(layout, rect) { Self.seconds($0) }
        XCTAssertGreaterThanOrEqual(frames, 3)
        XCTAssertLessThanOrEqual(frames, 4)
        var cuts: [Int] = []
        for _ in 0..<8 {
            let bands = layout.bands(of: rect, count: 2)
            layout.record(bands, seconds: Self.seconds(bands))
            cuts.append(layout.bands(of: rect, count: 2)[1].y0)
        }
        // (Rows that cost nothing are counted at a twentieth of the mean, so it lands a little lower.)
        XCTAssertEqual(Double(cuts[0]), 1000.0 / 3, accuracy: 10)
        XCTAssertEqual(Set(cuts).count, 1, "balanced cuts stay: \(cuts)")

        // Uneven again (the dear rows moved): the frame after the move cost no more than the
        // frames before, so a move is now thought to cost half as much (0.5 ms), and the cut
        // follows within two frames.
        let after = Self.framesUntilMoved(layout, rect) { _ in [1e-3, 1e-6] }
        XCTAssertLessThanOrEqual(after, 2)
        XCTAssertLessThan(layout.bands(of: rect, count: 2)[1].y0, cuts[0])
    }

    /// A move whose next frame cost more than the frames before waits until the frames
    /// have lost as much to the uneven bands: then it moves.
    func testDearMovesWaitUntilTheUnevenBandsCostAsMuch() {
        let layout = BandLayout()
        let rect = PixelRect(x0: 0, y0: 0, x1: 100, y1: 1000)
        _ = Self.framesUntilMoved(layout, rect) { Self.seconds($0) }
        var bands = layout.bands(of: rect, count: 2)
        XCTAssertNotEqual(bands[1].y0, 500)
        // The frame after the move rasterized anew: 2 ms more than the frames before. A move
        // is now thought to cost 1.5 ms (the average of the 1 ms thought before and this 2 ms).
        layout.record(bands, seconds: Self.seconds(bands).map { $0 + 1e-3 })
        bands = layout.bands(of: rect, count: 2)
        // Now the dear rows are six times dearer: each frame waits about 0.28 ms on the top band,
        // so the cut stays for six frames, then moves.
        let stayed = Self.framesUntilMoved(layout, rect) { Self.seconds($0, dear: 6) }
        XCTAssertGreaterThanOrEqual(stayed, 6)
        XCTAssertLessThanOrEqual(stayed, 7)
        XCTAssertLessThan(layout.bands(of: rect, count: 2)[1].y0, bands[1].y0)
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
        XCTAssertLessThan(Self.framesUntilMoved(layout, rect) { _ in [1, 0] }, 10)
        XCTAssertNotEqual(layout.bands(of: rect, count: 2)[1].y0, 50)
        XCTAssertEqual(layout.bands(of: rect, count: 4).map(\.y0), [0, 25, 50, 75])
        XCTAssertEqual(layout.bands(of: PixelRect(x0: 0, y0: 0, x1: 10, y1: 20), count: 4).count, 1)
    }

    /// Before any frame is recorded every band's thread evaluates until the plan is done,
    /// the first from the front; then the band that draws longest evaluates least.
    func testTheBandThatDrawsLongerEvaluatesLess() throws {
        let layout = BandLayout()
        let rect = PixelRect(x0: 0, y0: 0, x1: 100, y1: 1000)
        let even = layout.evaluationShares(count: 2)
        XCTAssertEqual(even.map(\.seconds), [nil, nil])
        XCTAssertEqual(even.map(\.fromBack), [false, true])
        let bands = layout.bands(of: rect, count: 2)
        // Band 0 draws 0.95 ms, band 1 0.9 ms; the plan takes 0.2 ms in all. Spread evenly
        // each thread would end at 1.025 ms: band 0 evaluates 0.075 ms, band 1 the rest.
        for _ in 0..<3 { layout.record(bands, seconds: [0.95e-3, 0.9e-3], evaluating: [0.1e-3, 0.1e-3]) }
        let shares = layout.evaluationShares(count: 2)
        XCTAssertEqual(try XCTUnwrap(shares[0].seconds), 0.075e-3, accuracy: 1e-9)
        XCTAssertNil(shares[1].seconds)
        XCTAssertEqual(shares.map(\.fromBack), [true, false], "the lightest band takes the front")
        // Uneven by more than the plan: the dearer band evaluates nothing.
        for _ in 0..<3 { layout.record(bands, seconds: [0.2e-3, 0.9e-3], evaluating: [0.1e-3, 0.1e-3]) }
        XCTAssertEqual(layout.evaluationShares(count: 2).map(\.seconds), [nil, 0])
        XCTAssertEqual(layout.evaluationShares(count: 3).map(\.seconds), [nil, nil, nil], "other counts: no shares known")
    }

    /// Bands that draw unevenly but end together, because the lighter one evaluated more of
    /// the plan, wait for nothing: the cuts stay. Uneven in plan and drawing together, they move.
    func testBandsEndingTogetherKeepTheirCuts() {
        let layout = BandLayout()
        let rect = PixelRect(x0: 0, y0: 0, x1: 100, y1: 1000)
        let bands = layout.bands(of: rect, count: 2)
        for _ in 0..<50 { layout.record(bands, seconds: [1e-3, 0.8e-3], evaluating: [0, 0.2e-3]) }
        XCTAssertEqual(layout.bands(of: rect, count: 2), bands)
        let frames = Self.framesUntilMoved(layout, rect) { _ in [1e-3, 0.8e-3] }
        XCTAssertLessThan(frames, 100)
        XCTAssertLessThan(layout.bands(of: rect, count: 2)[1].y0, 500, "the cut gives the dearer top band fewer rows")
    }

    func testHostileEvaluationTimesKeepTheSharesValid() {
        let layout = BandLayout()
        let rect = PixelRect(x0: 0, y0: 0, x1: 100, y1: 1000)
        let bands = layout.bands(of: rect, count: 2)
        for evaluating in [[Double.nan, 1], [-1, .infinity], [1e300, 0], [0.1e-3]] {
            for _ in 0..<3 { layout.record(bands, seconds: [1e-3, 0.9e-3], evaluating: evaluating) }
            for share in layout.evaluationShares(count: 2) {
                if let seconds = share.seconds { XCTAssertTrue(seconds.isFinite && seconds >= 0 && seconds <= 1, "\(evaluating)") }
            }
        }
    }

    /// Rows 600..<640 of 1000 cost 51 times as much as the others: each band's seconds.
    /// The cost splits in halves at row 617.6.
    static func narrowSeconds(_ cuts: [Int]) -> [Double] {
        (0..<cuts.count - 1).map { k in
            let dear = max(0, min(cuts[k + 1], 640) - max(cuts[k], 600))
            return Double(cuts[k + 1] - cuts[k] + 50 * dear) * 1e-6
        }
    }

    /// Cost packed into a few rows near the cut: the even-spread rule alone swings the cut
    /// from one side of the balance to the other and back; with the last move's times the
    /// cut closes in on the balance, each step shorter than the one before.
    func testCostInAFewRowsConvergesWithoutSwinging() {
        var cuts = [0, 500, 1000]
        var even = cuts
        var before: (cuts: [Int], seconds: [Double])?
        var steps: [Int] = []
        for _ in 0..<6 {
            let next = BandLayout.balanced(cuts: cuts, seconds: Self.narrowSeconds(cuts), before: before)
            before = (cuts, Self.narrowSeconds(cuts))
            steps.append(next[1] - cuts[1])
            cuts = next
            even = BandLayout.balanced(cuts: even, seconds: Self.narrowSeconds(even))
        }
        XCTAssertEqual(Double(cuts[1]), 617.6, accuracy: 2, "\(steps)")
        for k in 2..<steps.count { XCTAssertLessThanOrEqual(abs(steps[k]), abs(steps[k - 1]), "\(steps)") }
        XCTAssertGreaterThan(abs(Double(even[1]) - 617.6), 20, "the even-spread rule alone keeps swinging: \(even)")
        XCTAssertEqual(BandLayout.balanced(cuts: [0, 500, 1000], seconds: [1, 1], before: nil), BandLayout.balanced(cuts: [0, 500, 1000], seconds: [1, 1]))

        // The same through the layout: the cut settles near the balance and stays.
        let layout = BandLayout()
        let rect = PixelRect(x0: 0, y0: 0, x1: 100, y1: 1000)
        var seen: [Int] = []
        for _ in 0..<200 {
            let bands = layout.bands(of: rect, count: 2)
            layout.record(bands, seconds: Self.narrowSeconds([0, bands[1].y0, 1000]))
            let cut = layout.bands(of: rect, count: 2)[1].y0
            if cut != seen.last { seen.append(cut) }
        }
        XCTAssertEqual(Double(seen.last ?? 0), 617.6, accuracy: 3, "\(seen)")
        XCTAssertLessThanOrEqual(seen.count, 8, "\(seen)")
    }
}
