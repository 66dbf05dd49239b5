import Foundation
import LottieModel
import XCTest

/// Effects and layer styles as the parser reads them: what is drawn is kept quietly, what is
/// not drawn is warned about, expression controls (nothing to draw) pass without a warning.
final class EffectParsingTests: XCTestCase {
    func parse(extra: String) throws -> Animation {
        let json = BadInputTests.document(layers: "[" + BadInputTests.shapeLayer("[]", extra: extra) + "]")
        return try Animation.parse(Array(json.utf8), name: "effects.json", baseDirectory: nil)
    }

    func testLayerStylesAreReadWithTheirProperties() throws {
        let animation = try parse(extra: #","sy":[{"ty":1,"nm":"Drop Shadow","c":{"a":0,"k":[0.5,0,0,1]},"o":{"a":0,"k":90},"#
            + #""a":{"a":0,"k":120},"s":{"a":0,"k":12},"d":{"a":0,"k":5},"ch":{"a":0,"k":25}},{"ty":2,"nm":"Inner"},{"ty":3}]"#)
        let styles = animation.layers[0].styles
        XCTAssertEqual(styles.count, 3)
        XCTAssertEqual(styles[0].kind, .dropShadow)
        XCTAssertEqual(styles[0].color?.value(at: 0).r, 0.5)
        XCTAssertEqual(styles[0].opacity?.value(at: 0), 90)
        XCTAssertEqual(styles[0].angle?.value(at: 0), 120)
        XCTAssertEqual(styles[0].size?.value(at: 0), 12)
        XCTAssertEqual(styles[0].distance?.value(at: 0), 5)
        XCTAssertEqual(styles[0].spread?.value(at: 0), 25)
        XCTAssertEqual(styles[1].kind, .innerShadow)
        XCTAssertNil(styles[1].size, "absent properties stay absent")
        XCTAssertEqual(styles[2].kind, .outerGlow)
        XCTAssertTrue(animation.warnings.isEmpty, "\(animation.warnings)")
    }

    func testStylesAndEffectsNotDrawnAreWarnedAbout() throws {
        let animation = try parse(extra: #","sy":[{"ty":5,"nm":"Bevel"},{"ty":42},"bad"],"ef":[{"ty":34,"nm":"Puppet","ef":[]}]"#)
        let warnings = animation.warnings.map { "\($0.jsonPath): \($0.message)" }
        XCTAssertEqual(animation.layers[0].styles.count, 2, "the malformed style is skipped, the others kept")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("layers[0].sy[0]") && $0.contains("not drawn") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("layers[0].sy[1]") && $0.contains("not drawn") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("layers[0].sy[2]") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("layers[0].ef[0]") && $0.contains("34") }, "\(warnings)")
    }

    func testBlursAndExpressionControlsNeedNoWarning() throws {
        let animation = try parse(extra: #","ef":[{"ty":29,"nm":"Gaussian Blur","ef":[{"ty":0,"v":{"a":0,"k":10}},{"ty":7,"v":{"a":0,"k":2}}]},"#
            + #"{"ty":5,"nm":"Slider Control","mn":"ADBE Slider Control","ef":[{"ty":0,"v":{"a":0,"k":3}}]},"#
            + #"{"ty":5,"nm":"Checkbox","mn":"ADBE Checkbox Control","ef":[]},{"ty":5,"nm":"Custom","mn":"Pseudo/x","ef":[]}]"#)
        let warnings = animation.warnings.map(\.jsonPath)
        XCTAssertEqual(warnings, ["layers[0].ef[3]"], "only the custom effect that is not a control is warned about")
        XCTAssertEqual(animation.layers[0].effects[0].values[1].scalar?.value(at: 0), 2, "blur dimensions are read")
    }
}
