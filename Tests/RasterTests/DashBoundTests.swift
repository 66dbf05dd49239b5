import Foundation
import XCTest
import Raster

/// A dash pattern too fine for `maxDashPieces` along its path is drawn solid, at a cost that
/// does not grow with length / period (a denormal gap once made one frame take seconds).
final class DashBoundTests: XCTestCase {
    /// A 100x100 surface stroked along a line that runs far past both sides (length 2e6).
    func strokeHugeLine(dashes: [Double], cap: LineCap = .round) -> (Surface, Double) {
        var path = Path()
        path.move(to: Point(-1e6, 50))
        path.line(to: Point(1e6, 50))
        var style = StrokeStyle()
        style.width = 6
        style.cap = cap
        style.dashes = dashes
        var s = Surface(width: 100, height: 100)
        let start = ProcessInfo.processInfo.systemUptime
        s.stroke(path, style: style, paint: .solid(.black))
        return (s, ProcessInfo.processInfo.systemUptime - start)
    }

    func testPathologicalPatternsAreDrawnSolidAndQuickly() {
        let (solid, _) = strokeHugeLine(dashes: [])
        let patterns: [[Double]] = [[0, 5e-324], [5e-324, 5e-324], [0, 1e-300], [1e-9, 1e-9], [0.5, 0.5], [3, 5e-324, 0, 1e-12]]
        for pattern in patterns {
            var path = Path()
            path.move(to: Point(-1e6, 50))
            path.line(to: Point(1e6, 50))
            XCTAssertTrue(dashPatternIsTooFine(path, dashes: pattern), "\(pattern)")
            let (dashed, seconds) = strokeHugeLine(dashes: pattern)
            XCTAssertEqual(dashed.pixels, solid.pixels, "\(pattern) is drawn solid")
            XCTAssertLessThan(seconds, 0.5, "\(pattern): \(seconds) s")
        }
    }

    func testAPatternWithinTheLimitIsStillDashed() {
        // Period 40 on 2e6: 1e5 pieces would pass the limit; period 100 on 2e6 gives 4e4.
        var path = Path()
        path.move(to: Point(-1e6, 50))
        path.line(to: Point(1e6, 50))
        XCTAssertFalse(dashPatternIsTooFine(path, dashes: [50, 50]))
        let (solid, _) = strokeHugeLine(dashes: [], cap: .butt)
        let (dashed, seconds) = strokeHugeLine(dashes: [50, 50], cap: .butt)
        XCTAssertNotEqual(dashed.pixels, solid.pixels)
        XCTAssertLessThan(seconds, 5)
    }
}
