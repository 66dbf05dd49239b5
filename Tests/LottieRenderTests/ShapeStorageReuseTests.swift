import Foundation
import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// A shape layer evaluated at every frame reuses the storage of an earlier evaluation (its
/// lists and each shape's outline), and what it builds there is what building anew gives.
final class ShapeStorageReuseTests: XCTestCase {
    /// An outline mixed between keyframes straight into a used path is the path of the
    /// interpolated shape, element for element, for eased, held and mismatched keyframes.
    func testOutlineMixedInPlaceIsThePathOfTheInterpolatedShape() {
        func shape(_ n: Int, _ scale: Double, closed: Bool) -> BezierPath {
            let v = (0..<n).map { Vec2(x: cos(Double($0)) * scale, y: sin(Double($0) * 1.7) * scale) }
            let t = (0..<n).map { Vec2(x: Double($0 % 3) * 0.37 * scale, y: -Double($0 % 2) * 1.1) }
            return BezierPath(closed: closed, vertices: v, inTangents: t, outTangents: t.map { Vec2(x: -$0.y, y: $0.x) })
        }
        let eased = EasingHandle(x: [0.42], y: [0]), easedIn = EasingHandle(x: [0.58], y: [1])
        let perDimension = EasingHandle(x: [0.2, 0.7], y: [0.1, 0.9])
        let cases: [Animated<BezierPath>] = [
            Animated(keyframes: [Keyframe(time: 0, value: shape(5, 10, closed: true), easeOut: eased, easeIn: easedIn),
                                 Keyframe(time: 10, value: shape(5, 31, closed: true), hold: true),
                                 Keyframe(time: 20, value: shape(5, 7, closed: true))]),
            Animated(keyframes: [Keyframe(time: 0, value: shape(4, 3, closed: false), endValue: shape(6, 9, closed: false)),
                                 Keyframe(time: 8, value: shape(6, 9, closed: false))]),
            Animated(keyframes: [Keyframe(time: 0, value: shape(3, 2, closed: true), easeOut: perDimension, easeIn: perDimension),
                                 Keyframe(time: 12, value: shape(3, 40, closed: true))]),
            Animated(shape(7, 5, closed: true))
        ]
        var used = ShapeGeometry.path(shape(9, 100, closed: true))
        var compared = 0
        for animated in cases {
            for frame in stride(from: -2.0, through: 24, by: 0.75) {
                let expected = ShapeGeometry.path(animated.value(at: frame))
                switch animated.keyframedSpan(at: frame) {
                case .value(let bezier): ShapeGeometry.build(bezier, into: &used)
                case .between(let a, let b, let t): ShapeGeometry.build(between: a, b, t, into: &used)
                case nil: ShapeGeometry.build(animated.value(at: frame), into: &used)
                }
                XCTAssertEqual(used, expected, "frame \(frame)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 100)
    }

    /// After the first evaluations, each new evaluation of an animated layer is made in the
    /// storage of the one before last (nothing else holds it once a frame is drawn), and the
    /// pixels are those of the reference, which evaluates anew.
    func testSteadyStateEvaluationsReuseEarlierStorage() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        for name in ["HamburgerArrow.json", "TwitterHeart.json"] {
            let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent(name)
            let animation = try Animation.load(path: url.path)
            var tree = AnimationRenderer(animation: animation)
            var reference = AnimationRenderer(animation: animation)
            reference.usesRenderTree = false
            let viewport = Viewport(width: 96, height: 96, contentMode: .fit)
            let frames = 24
            for i in 0..<frames {
                let frame = animation.inPoint + (animation.outPoint - animation.inPoint) * Double(i) / Double(frames)
                XCTAssertEqual(tree.render(frame: frame, viewport: viewport).pixels,
                               reference.render(frame: frame, viewport: viewport).pixels, "\(name) frame \(frame)")
            }
            let nodes = try XCTUnwrap(tree.renderTree).allNodes
            let evaluated = nodes.map(\.statistics.evaluated).reduce(0, +)
            let refilled = nodes.map(\.refilledEvaluations).reduce(0, +)
            let animated = nodes.filter { $0.statistics.evaluated >= 3 }.count
            XCTAssertGreaterThan(animated, 0, name)
            // Each node's first two evaluations make their own storage; every later one reuses.
            XCTAssertEqual(refilled, evaluated - 2 * nodes.filter { $0.statistics.evaluated > 0 }.count
                + nodes.filter { $0.statistics.evaluated == 1 }.count, name)
        }
    }

    /// A trim measured into a used measure and written over a used path is the reference trim
    /// (a new measure, a new path), for open and closed shapes, ranges that wrap past the end,
    /// and empty ones.
    func testTrimIntoUsedStorageIsTheReferenceTrim() {
        func shape(_ n: Int, _ scale: Double, closed: Bool) -> RasterPath {
            let v = (0..<n).map { Vec2(x: cos(Double($0) * 1.3) * scale, y: sin(Double($0) * 0.9) * scale) }
            let t = (0..<n).map { Vec2(x: Double($0 % 3) * 0.41 * scale, y: -Double($0 % 2) * 1.3) }
            return ShapeGeometry.path(BezierPath(closed: closed, vertices: v, inTangents: t, outTangents: t.map { Vec2(x: $0.y, y: -$0.x) }))
        }
        var measure = PathMeasure(shape(12, 80, closed: true))
        var used = shape(9, 50, closed: false)
        var compared = 0
        for (n, closed) in [(2, false), (3, true), (5, false), (7, true), (1, true)] {
            let path = shape(n, Double(10 * n), closed: closed)
            for (s, e) in [(0.0, 0.5), (0.25, 0.75), (0.6, 1.3), (0.9, 1.05), (0.3, 0.3), (-0.2, 0.4), (0.0, 1.0)] {
                measure.remeasure(path)
                let reference = PathMeasure(path)
                XCTAssertEqual(measure.length, reference.length)
                XCTAssertEqual(measure.contours.map(\.start), reference.contours.map(\.start))
                PathModifiers.trim(measure, from: s, to: e, into: &used)
                XCTAssertEqual(used, PathModifiers.trim(reference, from: s, to: e), "\(n) \(closed) \(s)...\(e)")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 35)
    }
}
