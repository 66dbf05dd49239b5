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
