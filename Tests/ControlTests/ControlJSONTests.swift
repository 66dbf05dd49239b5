import Control
import Foundation
import XCTest

/// The control socket's JSON lines, written and read without Foundation, against Foundation's
/// JSONSerialization: the same bytes out (`buoy status`, `buoy fetch --json` print them), the
/// same values in, and nil (not a trap) for what is not one JSON object.
final class ControlJSONTests: XCTestCase {
    static let texts = ["", "plain", "a/b", "quote \" and \\ back", "tab\tnew\nline\r", "\u{0}\u{1}\u{1F}\u{7F}", "é 漢字 🚀", "\u{8}\u{C}"]

    func randomValue(_ random: inout SystemRandomNumberGenerator, depth: Int) -> Any {
        switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &random) {
        case 0: return Self.texts.randomElement(using: &random)!
        case 1: return Int.random(in: -1_000_000_000_000...1_000_000_000_000, using: &random)
        case 2: return [0.5, 3.0, -0.25, 1e-5, 12345.678, 0.1 + 0.2, 1e21, 123456789012.5].randomElement(using: &random)!
        case 3: return Bool.random(using: &random)
        case 4: return ControlJSON.null
        case 5: return (0..<Int.random(in: 0...3, using: &random)).map { _ in randomValue(&random, depth: depth + 1) }
        default: return randomObject(&random, depth: depth + 1)
        }
    }

    func randomObject(_ random: inout SystemRandomNumberGenerator, depth: Int) -> [String: Any] {
        let keys = ["event", "state", "rate", "received", "expected", "fraction", "eta", "files", "url", "output", "Message", "cached", "error_text", "x"]
        var object: [String: Any] = [:]
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            object[keys.randomElement(using: &random)!] = randomValue(&random, depth: depth)
        }
        return object
    }

    /// The same object with `ControlJSON.null` as Foundation's NSNull.
    func foundationValue(_ value: Any) -> Any {
        switch value {
        case is ControlJSON.Null: return NSNull()
        case let array as [Any]: return array.map(foundationValue)
        case let object as [String: Any]: return object.mapValues(foundationValue)
        default: return value
        }
    }

    func testLinesAreTheBytesJSONSerializationWrites() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let object = randomObject(&random, depth: 0)
            let expected = try JSONSerialization.data(withJSONObject: foundationValue(object), options: [.sortedKeys])
            XCTAssertEqual(ControlJSON.line(object), String(decoding: expected, as: UTF8.self))
        }
    }

    func testReadingGivesBackWhatWasWritten() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let object = randomObject(&random, depth: 0)
            let line = try XCTUnwrap(ControlJSON.line(object))
            let read = try XCTUnwrap(ControlJSON.object(Array(line.utf8)), line)
            XCTAssertEqual(ControlJSON.line(read), line)
        }
    }

    func testNonFiniteNumbersAndForeignValuesGiveNoLine() {
        XCTAssertNil(ControlJSON.line(["rate": Double.nan]))
        XCTAssertNil(ControlJSON.line(["rate": [Double.infinity]]))
        XCTAssertNil(ControlJSON.line(["when": Date()]))
    }

    func testHostileLinesAreNilNotATrap() {
        let nested = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let lines = ["", "{", "}", "[]", "{\"a\":}", "{\"a\" 1}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\ud800\"}",
                     "{\"a\":\"\\udc00\\ud800\"}", "{\"a\":01}", "{\"a\":-}", "{\"a\":1.}", "{\"a\":1e}", "{\"a\":tru}",
                     "{\"a\":\"\u{1}\"}", "{\"a\":1} x", "{\"a\":" + nested + "}", "{\"a\":\"\\x\"}", "{\"a\":99999999999999999999999}"]
        for line in lines {
            let ours = ControlJSON.object(Array(line.utf8))
            let theirs = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            if line.contains("99999999999999999999999") {
                XCTAssertEqual(ours?["a"] as? Double, 1e23, "a number past Int is read as a Double")
            } else {
                XCTAssertNil(ours, line)
                XCTAssertTrue(theirs == nil || line.count > 1000, "Foundation rejects \(line) too")
            }
        }
        // A comma before the closing bracket is taken, as JSONSerialization takes it.
        XCTAssertEqual(ControlJSON.object(Array(#"{"a":[1,2,],}"#.utf8)).flatMap { ControlJSON.line($0) }, #"{"a":[1,2]}"#)
        XCTAssertNil(ControlJSON.object(Array(#"{"a":[1,,2]}"#.utf8)))
        XCTAssertNil(ControlJSON.object([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]), "not UTF-8")
        XCTAssertEqual(ControlJSON.object(Array(#" {"cmd":"fetch","n":5,"f":0.5,"s":"\ud83d\ude80\/"} "#.utf8))?["s"] as? String, "🚀/")
    }
}
