@testable import Raster
import XCTest

/// `RadialSpans.row` works in blocks aligned on device columns, so a pixel's colour does not
/// depend on where its span starts: a row drawn in random pieces (bands, clipped runs, the
/// edges of a stroke) is the row drawn whole, to the bit.
final class RadialSpanRowTests: XCTestCase {
    func testARowDrawnInPiecesIsTheRowDrawnWhole() {
        var r = FastPathTests.Random(state: 77)
        let lut = (0..<256).map { _ in UInt32(truncatingIfNeeded: r.next() &* 2_654_435_761) }
        lut.withUnsafeBufferPointer { lut in
            for round in 0..<400 {
                let radius = [3, 40, 400][round % 3] * (0.5 + r.unit())
                let centre = Point(r.unit() * 300, r.unit() * 300)
                let focal = round % 2 == 0 ? centre : Point(centre.x + radius * 0.5 * (r.unit() - 0.5), centre.y)
                let angle = r.unit() * 6.283, zoom = 0.2 + r.unit() * 3
                let inverse = Transform(a: zoom * cos(angle), b: zoom * sin(angle), c: -zoom * sin(angle), d: zoom * cos(angle),
                                        tx: r.unit() * 100, ty: r.unit() * 100)
                guard let setup = RadialSpans.Setup(center: centre, radius: radius, focal: focal, inverse: inverse) else {
                    return XCTFail("round \(round): no lanes")
                }
                let x0 = Int(r.next() % 400) - 60, y = Int(r.next() % 400) - 60, count = 1 + Int(r.next() % 200)
                var whole = [UInt32](repeating: 0, count: count), pieces = whole
                RadialSpans.row(lut.baseAddress!, setup, y: y, x0: x0, count: count, into: &whole)
                var start = 0
                while start < count {
                    let length = min(count - start, 1 + Int(r.next() % 13))
                    pieces.withUnsafeMutableBufferPointer {
                        RadialSpans.row(lut.baseAddress!, setup, y: y, x0: x0 + start, count: length, into: $0.baseAddress! + start)
                    }
                    start += length
                }
                XCTAssertEqual(pieces, whole, "round \(round)")
            }
        }
    }

    /// The lanes decline what `Float` cannot hold: a degenerate circle, positions beyond 10¹⁴ radii.
    func testSetupDeclinesWhatTheLanesCannotHold() {
        let far = Transform(a: 1e20, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        XCTAssertNil(RadialSpans.Setup(center: Point(0, 0), radius: 10, focal: Point(0, 0), inverse: far))
        XCTAssertNil(RadialSpans.Setup(center: Point(0, 0), radius: 0, focal: Point(0, 0), inverse: .identity))
        let setup = RadialSpans.Setup(center: Point(0, 0), radius: 10, focal: Point(0, 0), inverse: .identity)
        XCTAssertEqual(setup?.holds(y: 5, x0: 0, count: 100), true)
        XCTAssertEqual(setup?.holds(y: 1 << 60, x0: 0, count: 100), false)
    }
}
