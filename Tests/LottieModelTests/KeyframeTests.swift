import Foundation
import XCTest
import LottieModel

/// Keyframe evaluation: easing, hold, legacy end values, split and curved positions.
final class KeyframeTests: XCTestCase {
    func layerTransform(_ ks: String) throws -> LottieModel.Transform {
        let json = BadInputTests.document(layers: #"[{"ty":3,"ip":0,"op":60,"ks":\#(ks)}]"#)
        return try Animation.parse(Array(json.utf8), name: "k", baseDirectory: nil).layers[0].transform
    }

    func testLinearKeyframesInterpolateAndClampOutside() throws {
        let t = try layerTransform(#"{"o":{"a":1,"k":[{"t":10,"s":[0],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":20,"s":[100]}]}}"#)
        XCTAssertEqual(t.opacity.value(at: 0), 0)
        XCTAssertEqual(t.opacity.value(at: 15), 50, accuracy: 1e-9)
        XCTAssertEqual(t.opacity.value(at: 17.5), 75, accuracy: 1e-9)
        XCTAssertEqual(t.opacity.value(at: 99), 100)
    }

    func testBezierEasingMatchesTheCurve() throws {
        // Ease-in-out (0.42, 0, 0.58, 1) is symmetric: half way in time is half way in value,
        // and a quarter of the way in time is well under a quarter in value.
        let t = try layerTransform(#"{"r":{"a":1,"k":[{"t":0,"s":[0],"o":{"x":[0.42],"y":[0]},"i":{"x":[0.58],"y":[1]}},{"t":100,"s":[100]}]}}"#)
        XCTAssertEqual(t.rotation.value(at: 50), 50, accuracy: 1e-4)
        XCTAssertLessThan(t.rotation.value(at: 25), 15)
        XCTAssertGreaterThan(t.rotation.value(at: 75), 85)
    }

    func testHoldKeyframeKeepsItsValueUntilTheNext() throws {
        let t = try layerTransform(#"{"o":{"a":1,"k":[{"t":0,"s":[20],"h":1},{"t":10,"s":[80]}]}}"#)
        XCTAssertEqual(t.opacity.value(at: 9.99), 20)
        XCTAssertEqual(t.opacity.value(at: 10), 80)
    }

    func testLegacyEndValuesAreUsed() throws {
        // Old exporters write each segment's end as `e` and leave the last keyframe bare.
        let t = try layerTransform(#"{"o":{"a":1,"k":[{"t":0,"s":[0],"e":[40]},{"t":10,"s":[60],"e":[100]},{"t":20}]}}"#)
        XCTAssertEqual(t.opacity.value(at: 5), 20, accuracy: 1e-9)
        XCTAssertEqual(t.opacity.value(at: 15), 80, accuracy: 1e-9)
        XCTAssertEqual(t.opacity.value(at: 30), 100, accuracy: 1e-9)
    }

    func testSplitPositionAnimatesAxesSeparately() throws {
        let t = try layerTransform(#"{"p":{"s":true,"x":{"a":1,"k":[{"t":0,"s":[0]},{"t":10,"s":[100]}]},"y":{"a":0,"k":7}}}"#)
        let p = t.position.value(at: 5)
        XCTAssertEqual(p.x, 50, accuracy: 1e-9)
        XCTAssertEqual(p.y, 7)
    }

    func testPerDimensionEasing() throws {
        // x eases linearly, y holds back (ease-in with a flat start).
        let t = try layerTransform(#"{"p":{"a":1,"k":[{"t":0,"s":[0,0],"o":{"x":[0,1],"y":[0,0]},"i":{"x":[1,1],"y":[1,1]}},{"t":10,"s":[100,100]}]}}"#)
        let p = t.position.value(at: 5)
        XCTAssertEqual(p.x, 50, accuracy: 1e-6)
        XCTAssertLessThan(p.y, 40)
    }

    func testSpatialTangentsCurveThePathAndKeepEvenSpeed() throws {
        // From (0,0) to (100,0) bulging down through y > 0: the half-way point lies on the
        // curve's middle, x = 50 by symmetry, y = 0.75 · 40.
        let t = try layerTransform(#"{"p":{"a":1,"k":[{"t":0,"s":[0,0],"to":[0,40],"ti":[0,40]},{"t":10,"s":[100,0]}]}}"#)
        let mid = t.position.value(at: 5)
        XCTAssertEqual(mid.x, 50, accuracy: 0.5)
        XCTAssertEqual(mid.y, 30, accuracy: 0.5)
        XCTAssertEqual(t.position.value(at: 10).x, 100)
    }

    /// Control points on the line through a keyframe's ends make no curve: the position moves
    /// along that line at its eased progress (as lottie-ios and lottie-web move it), not along
    /// the length of a curve that overshoots both ends and comes back. Ends that coincide, or a
    /// control point off the line, keep the curve.
    func testTangentsAlongTheLineMoveStraightAtTheEasedProgress() throws {
        // From 200 to 20 with handles pointing past both ends: linear keyframes, so at frame
        // 9 of 10 the position is 0.9 of the way, x = 38 (along the overshooting curve's
        // length it would be near 9).
        let straight = try layerTransform(#"{"p":{"a":1,"k":[{"t":0,"s":[200,-4],"to":[90,0],"ti":[-120,0]},{"t":10,"s":[20,-4]}]}}"#)
        for frame in [1.0, 5, 9, 9.25] {
            let p = straight.position.value(at: frame)
            XCTAssertEqual(p.x, 200 - 18 * frame, accuracy: 1e-9, "frame \(frame)")
            XCTAssertEqual(p.y, -4, accuracy: 1e-9)
        }
        // Diagonal, handles along the line short of the ends.
        let diagonal = try layerTransform(#"{"p":{"a":1,"k":[{"t":0,"s":[0,0],"to":[10,10],"ti":[-10,-10]},{"t":10,"s":[100,100]}]}}"#)
        XCTAssertEqual(diagonal.position.value(at: 3).x, 30, accuracy: 1e-9)
        XCTAssertEqual(diagonal.position.value(at: 3).y, 30, accuracy: 1e-9)
        // One handle a unit off the line: a curve, which leaves the line.
        let bent = try layerTransform(#"{"p":{"a":1,"k":[{"t":0,"s":[200,-4],"to":[90,1],"ti":[-120,0]},{"t":10,"s":[20,-4]}]}}"#)
        XCTAssertNotEqual(bent.position.value(at: 5).y, -4, accuracy: 1e-6)
        // Coinciding ends: the loop the handles draw is kept.
        let loop = try layerTransform(#"{"p":{"a":1,"k":[{"t":0,"s":[50,50],"to":[40,0],"ti":[-40,0]},{"t":10,"s":[50,50]}]}}"#)
        XCTAssertNotEqual(loop.position.value(at: 3).x, 50, accuracy: 1e-6)
    }

    func testColoursIn0To255AreNormalised() throws {
        let json = BadInputTests.document(layers: "[" + BadInputTests.shapeLayer(#"[{"ty":"fl","c":{"a":0,"k":[255,128,0,255]}}]"#) + "]")
        let layer = try Animation.parse(Array(json.utf8), name: "c", baseDirectory: nil).layers[0]
        guard case .shape(let items) = layer.kind, case .fill(let color, _, _) = items[0].kind else { return XCTFail("no fill") }
        let c = color.value(at: 0)
        XCTAssertEqual(c.r, 1, accuracy: 1e-9)
        XCTAssertEqual(c.g, 128.0 / 255, accuracy: 1e-9)
        XCTAssertEqual(c.a, 1, accuracy: 1e-9)
    }

    func testEveryCorpusFileParses() throws {
        let dir = CorpusLocation.samples
        guard let e = FileManager.default.enumerator(atPath: dir) else { throw XCTSkip("corpus not found at \(dir)") }
        var count = 0
        while let item = e.nextObject() as? String {
            guard item.hasSuffix(".json") else { continue }
            do {
                let animation = try Animation.load(path: dir + "/" + item)
                XCTAssertGreaterThan(animation.width, 0, item)
                count += 1
            } catch {
                XCTFail("\(item): \(error)")
            }
        }
        XCTAssertEqual(count, 105)
    }
}
