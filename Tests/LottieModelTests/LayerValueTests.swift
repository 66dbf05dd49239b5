import XCTest
import LottieModel

/// `Layer` keeps its values in a shared box (LayerFields.swift): it must still behave as a
/// value. A copy changed leaves the original as it was, a change made in place (through an
/// array, a nested property) lands, and every property reads back what was parsed.
final class LayerValueTests: XCTestCase {
    private func parsedLayer() throws -> Layer {
        let json = BadInputTests.document(layers: #"[{"ty":4,"nm":"Boat","ind":3,"parent":1,"ip":2,"op":40,"st":1,"sr":2,"#
            + #""ao":1,"hd":false,"bm":3,"tt":1,"tp":1,"ks":{"o":{"a":0,"k":50}},"shapes":[]},"#
            + #"{"ty":3,"nm":"Parent","ind":1,"ip":0,"op":60,"st":0,"ks":{}}]"#)
        let animation = try Animation.parse(Array(json.utf8), name: "layer.json", baseDirectory: nil)
        return animation.layers[0]
    }

    func testPropertiesReadBackWhatWasParsed() throws {
        let layer = try parsedLayer()
        XCTAssertEqual(layer.name, "Boat")
        XCTAssertEqual(layer.index, 3)
        XCTAssertEqual(layer.parent, 1)
        XCTAssertEqual(layer.inPoint, 2)
        XCTAssertEqual(layer.outPoint, 40)
        XCTAssertEqual(layer.startTime, 1)
        XCTAssertEqual(layer.timeStretch, 2)
        XCTAssertTrue(layer.autoOrient)
        XCTAssertFalse(layer.hidden)
        XCTAssertEqual(layer.blendMode, BlendMode(rawValue: 3))
        XCTAssertEqual(layer.matteMode, MatteMode(rawValue: 1))
        XCTAssertEqual(layer.matteParent, 1)
        XCTAssertEqual(layer.transform.opacity.value(at: 0), 50)
        guard case .shape(let items) = layer.kind else { return XCTFail("a shape layer was parsed as \(layer.kind)") }
        XCTAssertTrue(items.isEmpty)
    }

    func testChangingACopyLeavesTheOriginal() throws {
        let original = try parsedLayer()
        var copy = original
        copy.name = "Other"
        copy.hidden = true
        copy.inPoint = 9
        copy.transform.opacity = Animated(25)
        copy.masks.append(contentsOf: original.masks)
        XCTAssertEqual(copy.name, "Other")
        XCTAssertTrue(copy.hidden)
        XCTAssertEqual(copy.inPoint, 9)
        XCTAssertEqual(copy.transform.opacity.value(at: 0), 25)
        XCTAssertEqual(original.name, "Boat")
        XCTAssertFalse(original.hidden)
        XCTAssertEqual(original.inPoint, 2)
        XCTAssertEqual(original.transform.opacity.value(at: 0), 50)
    }

    func testChangesInPlaceThroughAnArrayLand() throws {
        var layers = [try parsedLayer(), try parsedLayer()]
        let before = layers
        layers[1].transform.opacity = Animated(75)
        layers[1].outPoint = 12
        XCTAssertEqual(layers[1].transform.opacity.value(at: 0), 75)
        XCTAssertEqual(layers[1].outPoint, 12)
        XCTAssertEqual(layers[0].transform.opacity.value(at: 0), 50)
        XCTAssertEqual(before[1].transform.opacity.value(at: 0), 50)
        XCTAssertEqual(before[1].outPoint, 40)
    }
}
