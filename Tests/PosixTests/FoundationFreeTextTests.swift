import Foundation
import Posix
import XCTest

/// The small text helpers that stand in for full Foundation's on the drawing path give what
/// Foundation gives: `String(format:)`, NSString's path methods, `trimmingCharacters(in:)`.
final class FoundationFreeTextTests: XCTestCase {
    func testCFormatGivesStringFormatsDigits() {
        var random = SystemRandomNumberGenerator()
        let formats = ["%.3f", "%.1f", "%.2f", "%.0f", "%5.1f%%", "%.6f", "%.1f MB", "%.0f/%.0f "]
        for _ in 0..<2000 {
            let exponent = Double.random(in: -8...12, using: &random)
            let value = (Bool.random(using: &random) ? -1 : 1) * pow(10, exponent) * Double.random(in: 0...1, using: &random)
            for format in formats {
                let expected = format.contains("/") ? String(format: format, value, value * 2) : String(format: format, value)
                let actual = format.contains("/") ? String(cFormat: format, value, value * 2) : String(cFormat: format, value)
                XCTAssertEqual(actual, expected, "\(format) of \(value)")
            }
        }
        for n in [0, 5, 59, 60, 123_456, 999_999, Int(Int32.max)] {
            XCTAssertEqual(String(cFormat: "%ld:%02ld", n / 60, n % 60), String(format: "%d:%02d", n / 60, n % 60))
            XCTAssertEqual(String(cFormat: "frame-%06ld.png", n), String(format: "frame-%06d.png", n))
        }
        XCTAssertEqual(String(cFormat: "#%02X%02X%02X", UInt8(1), UInt8(0xAB), UInt8(255)), "#01ABFF")
        XCTAssertEqual(String(cFormat: "%ld", Int.max), String(Int.max), "a 64-bit Int through %ld")
    }

    func testCFormatGrowsPastItsFirstBuffer() {
        let long = String(cFormat: "%0300.1f", 1.5)
        XCTAssertEqual(long.count, 300)
        XCTAssertTrue(long.hasSuffix("001.5"))
    }

    /// (Not on one-character relative paths: Foundation's `deletingLastPathComponent` traps on "a".)
    func testPathNameTakesPathsApartAsNSStringDoes() {
        let paths = ["/a/b.json", "/a/b/", "ab", "a/b", "/", "", "//a//b//", "./x.tar.gz", ".hidden", "/dir/.rc", "name.", "a/b.c/d"]
        for path in paths {
            let ns = path as NSString
            XCTAssertEqual(PathName.last(path), ns.lastPathComponent, "last of \(path)")
            XCTAssertEqual(PathName.parent(path), ns.deletingLastPathComponent, "parent of \(path)")
            XCTAssertEqual(PathName.stem(path), (ns.lastPathComponent as NSString).deletingPathExtension, "stem of \(path)")
            for name in ["c.png", "frames"] where !path.isEmpty {
                XCTAssertEqual(PathName.join(path, name), ns.appendingPathComponent(name), "\(path) + \(name)")
            }
        }
    }

    func testOneLetterPathsHaveNoParent() {
        XCTAssertEqual(PathName.parent("a"), "")
        XCTAssertEqual(PathName.last("a"), "a")
        XCTAssertEqual(PathName.stem("a"), "a")
        XCTAssertEqual(PathName.join("a", "b"), "a/b")
    }

    func testTrimmingWhitespaceTrimsWhatFoundationTrims() {
        let samples = [" a ", "\t\tb\n", "\u{3000}c\u{00A0}", "\r\nd e\r\n", "\u{2028}f\u{85}", "   ", "", "g", " \u{301}h "]
        for text in samples {
            XCTAssertEqual(text.trimmingWhitespace(), text.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(text.unicodeScalars))")
            XCTAssertEqual(text.trimmingWhitespace(lineEnds: false), text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
        }
    }
}
