@testable import LottieRender
import Raster
import XCTest

/// A paint's reach holds every pixel it paints (so a band skipping a paint out of its reach
/// loses nothing), and a paint out of a target's rows is known to paint nothing there.
final class PaintReachTests: XCTestCase {
    /// Sharp spikes (long miters), open ends (caps) and curves.
    static func spiky() -> Path {
        var path = Path()
        path.move(to: Point(0, 0))
        path.line(to: Point(30, 2))
        path.line(to: Point(0, 4))
        path.line(to: Point(12, 20))
        path.cubic(to: Point(-10, 10), control1: Point(20, 40), control2: Point(-30, 30))
        return path
    }

    func testEveryPaintedPixelIsWithinTheReach() {
        let transforms = [Transform.translation(90, 90),
                          Transform.scale(2.5, 0.7).concatenating(.rotation(radians: 0.7)).concatenating(.translation(100, 80)),
                          Transform(a: 1.2, b: 0.4, c: -0.9, d: 0.8, tx: 110, ty: 95)]
        var styles: [StrokeStyle] = []
        for (cap, join, miter) in [(LineCap.butt, LineJoin.miter, 10.0), (.square, .miter, 1.0), (.round, .round, 4), (.square, .bevel, 4)] {
            var style = StrokeStyle()
            style.width = 7
            style.cap = cap
            style.join = join
            style.miterLimit = miter
            styles.append(style)
        }
        let path = Self.spiky()
        let bounds = try! XCTUnwrap(path.bounds)
        var checked = 0
        for transform in transforms {
            let kinds = [StyleKind.fill(.solid(Color(r: 1, g: 0, b: 0, a: 1)), .nonZero)]
                + styles.map { StyleKind.stroke(.solid(Color(r: 0, g: 0, b: 1, a: 1)), $0) }
            for kind in kinds {
                var surface = Surface(width: 220, height: 200)
                switch kind {
                case .fill(let paint, let rule): surface.fill(path, transform: transform, rule: rule, paint: paint)
                case .stroke(let paint, let style): surface.stroke(path, transform: transform, style: style, paint: paint)
                }
                let reach = try! XCTUnwrap(PaintReach.pixels(of: bounds, kind: kind, toDevice: transform))
                var painted = 0
                for y in 0..<surface.height {
                    for x in 0..<surface.width where surface.pixels[y * surface.width + x] != 0 {
                        painted += 1
                        XCTAssertTrue(reach.contains(x: x, y: y), "(\(x), \(y)) outside \(reach), \(kind)")
                    }
                }
                XCTAssertGreaterThan(painted, 0)
                XCTAssertTrue(PaintReach.mayPaint(reach, surface: surface, clip: nil))
                checked += 1
            }
        }
        XCTAssertEqual(checked, 15)
    }

    func testAPaintOutOfTheTargetIsSkippedAndAnUnknownReachIsNot() {
        let bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        let fill = StyleKind.fill(.solid(Color(r: 1, g: 1, b: 1, a: 1)), .nonZero)
        let band = Surface(width: 100, height: 40)
        let below = PaintReach.pixels(of: bounds, kind: fill, toDevice: .translation(20, 60))
        XCTAssertFalse(PaintReach.mayPaint(below, surface: band, clip: nil))
        let inside = PaintReach.pixels(of: bounds, kind: fill, toDevice: .translation(20, 10))
        XCTAssertTrue(PaintReach.mayPaint(inside, surface: band, clip: nil))
        XCTAssertFalse(PaintReach.mayPaint(inside, surface: band, clip: Clip(rect: PixelRect(x0: 50, y0: 0, x1: 100, y1: 40))))
        // A hostile matrix or width gives no reach: the paint is drawn (and clipped) as before.
        XCTAssertNil(PaintReach.pixels(of: bounds, kind: fill, toDevice: Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)))
        var wide = StrokeStyle()
        wide.width = 1e300
        XCTAssertNil(PaintReach.pixels(of: bounds, kind: .stroke(.solid(Color(r: 1, g: 1, b: 1, a: 1)), wide), toDevice: .identity))
        XCTAssertTrue(PaintReach.mayPaint(nil, surface: band, clip: nil))
    }
}
