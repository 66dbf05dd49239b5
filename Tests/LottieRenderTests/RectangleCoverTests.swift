@testable import LottieRender
import Raster
import XCTest

/// A turned precomp rectangle that holds the whole target is no clip (`RectangleCover`): the
/// mask it stands for (the reference, made as before) is opaque over every pixel there.
final class RectangleCoverTests: XCTestCase {
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func unit() -> Double { Double(next() % 1_000_001) / 1_000_000 }
    }

    /// The rectangle's coverage over `target`, rasterized as `clipRegion` does for a mask.
    static func referenceMask(width: Double, height: Double, matrix: Transform, target: PixelRect) -> Mask {
        var mask = Mask(rect: target)
        var path = Path()
        path.addRect(Rect(x: 0, y: 0, width: width, height: height))
        mask.fill(path, transform: matrix, rule: .nonZero)
        return mask
    }

    func testARectangleThatHoldsTheTargetWouldMaskNothing() {
        var r = Random(state: 9)
        var held = 0, notHeld = 0
        for _ in 0..<400 {
            let width = 20 + r.unit() * 300, height = 20 + r.unit() * 300
            let angle = (r.unit() - 0.5) * 2 * Double.pi
            let scale = 0.3 + r.unit() * 3
            let matrix = Transform.translation(-width / 2, -height / 2)
                .concatenating(.rotation(radians: angle))
                .concatenating(.scale(scale, scale * (0.5 + r.unit())))
                .concatenating(.translation(40 + r.unit() * 40, 30 + r.unit() * 40))
            let target = PixelRect(x0: Int(r.next() % 60), y0: Int(r.next() % 60), x1: 60 + Int(r.next() % 60), y1: 60 + Int(r.next() % 40))
            let reference = Self.referenceMask(width: width, height: height, matrix: matrix, target: target)
            if RectangleCover.holds(width: width, height: height, matrix: matrix, target: target) {
                held += 1
                XCTAssertTrue(reference.values.allSatisfy { $0 == 255 }, "held, yet the mask is not opaque everywhere")
                XCTAssertNil(LayerCompositor.clipRegion(width: width, height: height, matrix: matrix, target: target))
            } else {
                notHeld += 1
                let clip = LayerCompositor.clipRegion(width: width, height: height, matrix: matrix, target: target)
                if reference.values.contains(where: { $0 != 255 }) {
                    XCTAssertNotNil(clip?.mask, "a rectangle that leaves part of the target out still clips it")
                }
            }
        }
        XCTAssertGreaterThan(held, 40)
        XCTAssertGreaterThan(notHeld, 40)
    }

    func testTheCornersOfTheTargetMustLieInside() {
        let turned = Transform.translation(-50, -50).concatenating(.rotation(radians: 0.3)).concatenating(.translation(50, 50))
        XCTAssertTrue(RectangleCover.holds(width: 100, height: 100, matrix: turned, target: PixelRect(x0: 30, y0: 30, x1: 70, y1: 70)))
        XCTAssertFalse(RectangleCover.holds(width: 100, height: 100, matrix: turned, target: PixelRect(x0: 0, y0: 0, x1: 100, y1: 100)))
        let flat = Transform(a: 1, b: 0, c: 2, d: 0, tx: 0, ty: 0)
        XCTAssertFalse(RectangleCover.holds(width: 100, height: 100, matrix: flat, target: PixelRect(x0: 0, y0: 0, x1: 10, y1: 10)))
        XCTAssertFalse(RectangleCover.holds(width: 100, height: 100, matrix: turned, target: .empty))
    }
}
