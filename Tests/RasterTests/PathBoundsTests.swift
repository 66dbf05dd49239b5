@testable import Raster
import XCTest

/// `Path.bounds`, kept as the path is built, against `referenceBounds`, read from its
/// elements: on random paths, appended to each other, transformed, emptied, and on stroke
/// outlines (whose polygons go in through `appendPolygon`).
final class PathBoundsTests: XCTestCase {
    func testKeptBoundsAreTheBoundsOfTheElements() {
        var r = FastPathTests.Random(state: 31)
        for trial in 0..<500 {
            var path = StrokeOutlinerTests.randomPath(&r, size: 50)
            XCTAssertEqual(path.bounds, path.referenceBounds, "trial \(trial)")
            let other = StrokeOutlinerTests.randomPath(&r, size: 80)
            path.append(other)
            XCTAssertEqual(path.bounds, path.referenceBounds, "trial \(trial) appended")
            let transform = Transform(a: r.unit() * 3 - 1.5, b: r.unit() - 0.5, c: r.unit() - 0.5, d: r.unit() * 3 - 1.5,
                                      tx: r.unit() * 100, ty: r.unit() * 100)
            let moved = path.transformed(by: transform)
            XCTAssertEqual(moved.bounds, moved.referenceBounds, "trial \(trial) transformed")
            let style = StrokeOutlinerTests.randomStyle(&r)
            let outline = strokeOutline(path, style: style, tolerance: 0.05, transform: transform)
            XCTAssertEqual(outline.bounds, outline.referenceBounds, "trial \(trial) outline")
            path.removeAll(keepingCapacity: trial % 2 == 0)
            XCTAssertNil(path.bounds)
            path.quad(to: Point(3, 4), control: Point(-2, 9))
            XCTAssertEqual(path.bounds, path.referenceBounds, "trial \(trial) after emptying")
        }
        XCTAssertNil(Path().bounds)
    }
}
