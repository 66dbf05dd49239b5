@testable import Raster
import XCTest

/// A `PackedCoverage` must give back the coverage it packed: the same runs (row, column,
/// count, value, and for a run told byte by byte the same bytes), bounds, longest run and
/// footprint, so that painting the unpacked coverage gives the same pixels.
final class PackedCoverageTests: XCTestCase {
    typealias Random = FastPathTests.Random
    /// Its random paths and the two ways of rasterizing them.
    let shapes = CoverageBuilderTests(name: "shapes") { _ in }

    /// Each run as (row, column, count, value or -1, its bytes): what a painter reads.
    func painted(_ coverage: Coverage) -> [[Int]] {
        coverage.runs.map { run in
            let head = [Int(run.y), Int(run.x), Int(run.count), run.offset < 0 ? Int(run.value) : -1]
            guard run.offset >= 0 else { return head }
            return head + coverage.bytes[Int(run.offset)..<Int(run.offset) + Int(run.count)].map { Int($0) }
        }
    }

    func assertRoundTrip(_ coverage: Coverage, _ message: String) {
        let packed = PackedCoverage(coverage)
        let back = packed.unpacked
        XCTAssertEqual(painted(back), painted(coverage), message)
        XCTAssertEqual(back.bounds, coverage.bounds, message)
        XCTAssertEqual(back.longestRun, coverage.longestRun, message)
        XCTAssertEqual(back.footprint, coverage.footprint, message)
        XCTAssertEqual(back.footprintKnown, coverage.footprintKnown, message)
        XCTAssertEqual(packed.runCount, coverage.runs.count, message)
        XCTAssertEqual(packed.coverageByteCount, coverage.runs.reduce(0) { $0 + ($1.offset < 0 ? 0 : Int($1.count)) }, message)
    }

    /// Rasterized random paths (many runs a row, partial bytes, full stretches), as built and
    /// as the reference builds them (runs not merged), with and without their footprint.
    func testRasterizedShapesComeBackTheSame() {
        var r = Random(state: 5)
        var packedBytes = 0, unpackedBytes = 0
        for round in 0..<40 {
            let (w, h) = (round % 4 == 0 ? 1900 : 300, round % 4 == 0 ? 1000 : 200)
            let limit = PixelRect(x0: -7, y0: -3, x1: w - 20, y1: h)
            let path = shapes.randomPath(&r, width: Double(w), height: Double(h))
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            var made = shapes.built(path, rule: rule, limit: limit, rows: limit.height)
            assertRoundTrip(made, "round \(round)")
            assertRoundTrip(shapes.reference(path, rule: rule, limit: limit), "round \(round), reference")
            made.workOutFootprint()
            assertRoundTrip(made, "round \(round), footprint")
            packedBytes += PackedCoverage(made).memorySize
            unpackedBytes += made.memorySize
        }
        XCTAssertLessThan(packedBytes * 3, unpackedBytes, "packed takes a third of the bytes or less")
    }

    /// Runs far apart and far from the origin, long, of every value, rows going back and
    /// columns to the left (a coverage need not be in row order to be kept).
    func testRunsOfAnyShapeComeBackTheSame() {
        var r = Random(state: 9)
        for round in 0..<30 {
            var runs: [Coverage.Run] = []
            var bytes: [UInt8] = []
            for _ in 0..<(1 + Int(r.unit() * 200)) {
                let y = Int32(r.unit() * 80_000) - 40_000
                let x = round % 3 == 0 ? Int32(r.unit() * 40) : Int32(r.unit() * 2_000_000) - 1_000_000
                let count = Int32(1 + (r.unit() < 0.5 ? r.unit() * 40 : r.unit() * 70_000))
                if r.unit() < 0.5 {
                    runs.append(Coverage.Run(y: y, x: x, count: count, offset: -1, value: UInt8(1 + r.unit() * 254.9)))
                } else {
                    runs.append(Coverage.Run(y: y, x: x, count: count, offset: Int32(bytes.count), value: 0))
                    bytes += (0..<Int(count)).map { _ in UInt8(r.unit() * 255.9) }
                }
            }
            let longest = runs.map { Int($0.count) }.max() ?? 0
            let bounds = PixelRect(x0: -5, y0: -6, x1: 7, y1: 8)
            assertRoundTrip(Coverage(runs: runs, bytes: bytes, longestRun: longest, bounds: bounds), "round \(round)")
        }
        assertRoundTrip(Coverage(), "empty")
    }
}
