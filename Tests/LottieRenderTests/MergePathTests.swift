import Foundation
import LottieModel
import LottieRender
import Raster
import XCTest

/// Merge paths against coverage made independently: the operands filled one by one into
/// coverage masks and combined pixel by pixel.
final class MergePathTests: XCTestCase {
    /// A layer whose group holds `shapes`, a merge of `mode`, then a red fill.
    static func animation(shapes: String, mode: Int) throws -> AnimationRenderer {
        let layer = """
        {"ty":4,"ind":1,"ip":0,"op":60,"st":0,\(RenderBehaviourTests.identityTransform),"shapes":[{"ty":"gr","it":[\(shapes),
         {"ty":"mm","mm":\(mode)},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}},
         {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
        """
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":[\#(layer)]}"#
        let animation = try Animation.parse(Array(json.utf8), name: "merge.json", baseDirectory: nil)
        XCTAssertTrue(animation.warnings.isEmpty, "\(animation.warnings)")
        return AnimationRenderer(animation: animation)
    }

    static func rect(_ cx: Double, _ cy: Double, _ w: Double, _ h: Double) -> String {
        #"{"ty":"rc","p":{"a":0,"k":[\#(cx),\#(cy)]},"s":{"a":0,"k":[\#(w),\#(h)]},"r":{"a":0,"k":0}}"#
    }

    static func ellipse(_ cx: Double, _ cy: Double, _ d: Double) -> String {
        #"{"ty":"el","p":{"a":0,"k":[\#(cx),\#(cy)]},"s":{"a":0,"k":[\#(d),\#(d)]}}"#
    }

    /// The expected coverage: each operand filled alone, combined in order by `operation`.
    static func expected(_ paths: [Path], _ operation: MaskOperation?, exclude: Bool = false, size: Int = 100) -> Raster.Mask {
        var masks = paths.map { path -> Raster.Mask in
            var m = Raster.Mask(width: size, height: size)
            m.fill(path)
            return m
        }
        var result = masks.removeFirst()
        for m in masks {
            if exclude {
                var both = result
                both.combine(m, .intersect)
                result.combine(m, .add)
                result.combine(both, .subtract)
            } else if let operation {
                result.combine(m, operation)
            }
        }
        return result
    }

    func assertCoverage(_ s: Surface, _ expected: Raster.Mask, _ name: String, tolerance: Int, allowed: Int) {
        var off = 0
        for y in 0..<100 {
            for x in 0..<100 where abs(Int(s.pixels[y * 100 + x] >> 24) - Int(expected.value(x: x, y: y))) > tolerance { off += 1 }
        }
        XCTAssertLessThanOrEqual(off, allowed, "\(name): \(off) pixels differ by more than \(tolerance)")
    }

    func testEachModeOnOverlappingSquaresIsExact() throws {
        var a = Path(), b = Path()
        a.addRect(Rect(x: 20, y: 20, width: 40, height: 40))
        b.addRect(Rect(x: 40, y: 40, width: 40, height: 40))
        let shapes = Self.rect(40, 40, 40, 40) + "," + Self.rect(60, 60, 40, 40)
        let cases: [(Int, MaskOperation?, Bool)] = [(1, .add, false), (2, .add, false), (3, .subtract, false), (4, .intersect, false),
                                                    (5, nil, true)]
        for (mode, operation, exclude) in cases {
            let s = try Self.animation(shapes: shapes, mode: mode).render(frame: 0, viewport: Viewport(width: 100, height: 100))
            assertCoverage(s, Self.expected([a, b], operation, exclude: exclude), "mode \(mode)", tolerance: 0, allowed: 0)
        }
    }

    /// Curved operands (three circles, the later ones combined in turn) within flattening and
    /// anti-aliasing error: a few edge pixels, never a wrong region.
    func testEachModeOnCirclesMatchesCombinedCoverage() throws {
        var paths: [Path] = []
        for (cx, cy, d) in [(40.0, 45.0, 50.0), (60.0, 50.0, 44.0), (50.0, 30.0, 30.0)] {
            var p = Path()
            p.addEllipse(in: Rect(x: cx - d / 2, y: cy - d / 2, width: d, height: d))
            paths.append(p)
        }
        let shapes = [Self.ellipse(40, 45, 50), Self.ellipse(60, 50, 44), Self.ellipse(50, 30, 30)].joined(separator: ",")
        let cases: [(Int, MaskOperation?, Bool)] = [(2, .add, false), (3, .subtract, false), (4, .intersect, false), (5, nil, true)]
        for (mode, operation, exclude) in cases {
            let s = try Self.animation(shapes: shapes, mode: mode).render(frame: 0, viewport: Viewport(width: 100, height: 100))
            let expected = Self.expected(paths, operation, exclude: exclude)
            assertCoverage(s, expected, "mode \(mode)", tolerance: 40, allowed: 12)
            let drawn = s.pixels.filter { $0 >> 24 > 128 }.count, wanted = expected.values.filter { $0 > 128 }.count
            XCTAssertEqual(Double(drawn), Double(wanted), accuracy: Double(wanted) * 0.01 + 3, "mode \(mode): area")
        }
    }

    func testTooManyEdgesKeepsTheShapesAsTheyAre() {
        var star = Path()
        star.move(to: Point(0, 0))
        for i in 1..<5000 { star.line(to: Point(Double(i % 100), Double(i / 100))) }
        star.close()
        XCTAssertNil(PathBoolean.combine([star, star], .union, tolerance: 0.1), "past the edge budget")
        XCTAssertNotNil(PathBoolean.combine([star], .union, tolerance: 0.1, maxEdges: 10_000))
    }
}
