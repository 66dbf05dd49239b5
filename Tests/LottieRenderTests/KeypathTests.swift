import LottieRender
import XCTest

final class KeypathTests: XCTestCase {
    func testMatchingTable() {
        let table: [(String, [String], Bool)] = [
            ("Boat.Transform.Position", ["Boat", "Transform", "Position"], true),
            ("Boat.Transform.Position", ["Boat", "Transform", "Scale"], false),
            ("Boat.*.Position", ["Boat", "Transform", "Position"], true),
            ("Boat.*.Position", ["Boat", "Group", "Transform", "Position"], false),
            ("**.Fill.Color", ["Layer", "Group", "Fill", "Color"], true),
            ("**.Fill.Color", ["Fill", "Color"], true),
            ("**.Fill.Color", ["Layer", "Fill 1", "Color"], false),
            ("**.Fill 1.Color", ["Layer", "Shape Group", "Fill 1", "Color"], true),
            ("Layer.**.Color", ["Layer", "Color"], true),
            ("Layer.**.Color", ["Layer", "a", "b", "c", "Color"], true),
            ("Layer.**", ["Layer"], true),
            ("**", ["anything", "at", "all"], true),
            ("*", ["one"], true),
            ("*", ["one", "two"], false),
            ("Layer.Shape Group.Stroke 1.Color", ["Layer", "Shape Group", "Stroke 1", "Color"], true),
            (#"v1\.2.Color"#, ["v1.2", "Color"], true),
            (#"v1\.2.Color"#, ["v1", "2", "Color"], false),
            ("**.**.Color", ["Color"], true),
            ("Boat", ["boat"], false),
        ]
        for (pattern, names, expected) in table {
            XCTAssertEqual(Keypath(pattern).matches(names), expected, "\(pattern) vs \(names)")
        }
    }

    func testPrefixPruning() {
        XCTAssertTrue(Keypath("Boat.Transform.Position").couldMatch(prefix: ["Boat"]))
        XCTAssertFalse(Keypath("Boat.Transform.Position").couldMatch(prefix: ["Fish"]))
        XCTAssertTrue(Keypath("**.Color").couldMatch(prefix: ["Fish", "Body"]))
        XCTAssertTrue(Keypath("*.Fill.Color").couldMatch(prefix: ["Fish", "Fill"]))
    }

    func testDescriptionEscapesDots() {
        XCTAssertEqual(Keypath(components: ["v1.2", "Color"]).description, #"v1\.2.Color"#)
        XCTAssertEqual(Keypath(#"v1\.2.Color"#).components, ["v1.2", "Color"])
    }
}
