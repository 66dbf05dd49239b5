@testable import buoy
import Foundation
import TOMLKit
import XCTest

/// buoy's own TOML reader against toml++ (through TOMLKit, which buoy used before): the same
/// documents accepted with the same values, the same ones refused, and no trap on any input.
final class TOMLReaderTests: XCTestCase {
    /// A value as text, the same for both readers' trees (keys sorted, dates by kind only).
    func canonical(_ value: buoy.TOMLValue) -> String {
        switch value {
        case .string(let text): return "s" + text.debugDescription
        case .integer(let number): return "i\(number)"
        case .float(let number): return "f\(number)"
        case .boolean(let flag): return "b\(flag)"
        case .dateTime: return "d"
        case .array(let values): return "[" + values.map(canonical).joined(separator: ",") + "]"
        case .table(let table): return "{" + table.keys.sorted().map { "\($0)=" + canonical(table[$0]!) }.joined(separator: ";") + "}"
        }
    }

    func canonical(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: return "s" + value.string!.debugDescription
        case .int: return "i\(value.int!)"
        case .double: return "f\(value.double!)"
        case .bool: return "b\(value.bool!)"
        case .date, .time, .dateTime: return "d"
        case .array: return "[" + value.array!.map { canonical($0) }.joined(separator: ",") + "]"
        case .table:
            let table = value.table!
            return "{" + table.keys.sorted().map { "\($0)=" + canonical(table[$0]!) }.joined(separator: ";") + "}"
        }
    }

    /// Both readers on `text`: nil when it is refused, else the document's canonical text.
    func both(_ text: String) -> (ours: String?, reference: String?) {
        let ours = (try? TOMLReader.parse(text)).map { canonical(.table($0)) }
        let reference = (try? TOMLKit.TOMLTable(string: text)).map { canonical($0 as TOMLValueConvertible) }
        return (ours, reference)
    }

    static let accepted = [
        "", "# only a comment\n", "a = 1\nb = -2\nc = +3\nd = 1_000\n", "h = 0xDEAD_beef\no = 0o755\nb = 0b1010\n",
        "f = 3.5\ng = -0.25\ne = 5e+22\nE = 1E-5\nm = 6.626e-34\nu = 9_224_617.445_991\ni = inf\nj = -inf\n",
        "t = true\nf = false\n", "s = \"a\\tb\\n\\\"q\\\" \\\\ \\u00E9 \\U0001F680\"\n", "l = 'C:\\path\\no escapes'\n",
        "m = \"\"\"\nfirst\nsecond\"\"\"\n", "m = \"\"\"one \\\n     two\"\"\"\n", "m = '''\nraw \\n\n'''\n", "q = \"\"\"x\"\"\"\"\"\n",
        "d1 = 1979-05-27\nd2 = 07:32:00\nd3 = 1979-05-27T07:32:00Z\nd4 = 1979-05-27 07:32:00.999-07:00\n",
        "a = [1, 2, 3]\nb = [ \"x\", 'y', ]\nc = [\n  1, # one\n  2,\n]\nd = [[1, 2], [\"a\"]]\ne = []\n",
        "t = { x = 1, y.z = \"w\" }\nu = {}\n", "[screen]\nrotate = 90\n[playback]\nlift = 0.5\n",
        "[[download]]\nurl = \"u1\"\n[[download]]\nurl = \"u2\"\noutput = 'o2'\n", "[a.b.c]\nx = 1\n[a]\ny = 2\n",
        "a.b.c = 1\na.b.d = 2\n", "\"quoted key\" = 1\n'literal key' = 2\n\"a.b\" = 3\n", "[ spaced . header ]\nk=1\n",
        "[[a]]\n[a.b]\nx = 1\n[[a]]\n[a.b]\nx = 2\n", "[[a]]\n[[a.b]]\nx = 1\n[[a.b]]\nx = 2\n", "k = 1\r\nj = 2\r\n",
        "keys = [28, 57]\n[input]\ntouch = \"anywhere\"\n", "big = 9223372036854775807\nsmall = -9223372036854775808\n",
    ]

    static let refused = [
        "a = \n", "= 1\n", "a = 1\na = 2\n", "[a]\n[a]\n", "a = 1\n[a]\n", "a.b = 1\n[a]\n", "a = { x = 1 }\n[a]\n",
        "a = [1\n", "a = [1,,2]\n", "s = \"open\n", "s = 'open\n", "s = \"\"\"never closed\n", "s = \"\\x\"\n", "s = \"\\u12\"\n",
        "s = \"\\uD800\"\n", "i = 01\n", "i = 1__0\n", "i = _1\n", "i = 1_\n", "i = 0x\n", "f = 1.\n", "f = .5\n", "f = 1e\n",
        "i = 9223372036854775808\n", "b = True\n", "a = 1 b = 2\n", "[a\n", "[[a]\n", "a = 1\n[[a]]\n", "t = { x = 1, }\n",
        "t = { x = 1\n}\n", "k = \"a\u{1}b\"\n", "k = 1 # bad \u{7F} comment\n", "k = 1\rj = 2\n", "a = [1]\n[[a]]\n",
        "x = nope\n", "[a]\nb = 1\n[a.b]\n",
    ]

    func testDocumentsAreReadAsTOMLxxReadsThem() {
        for text in Self.accepted {
            let (ours, reference) = both(text)
            XCTAssertNotNil(reference, "toml++ refuses \(text.debugDescription)")
            XCTAssertEqual(ours, reference, text.debugDescription)
        }
    }

    func testWhatTOMLxxRefusesIsRefusedWithALine() {
        for text in Self.refused {
            XCTAssertNil(both(text).reference, "toml++ accepts \(text.debugDescription)")
            XCTAssertThrowsError(try TOMLReader.parse(text), text.debugDescription) { error in
                let line = (error as? buoy.TOMLParseError)?.line ?? 0
                XCTAssertTrue((1...text.split(separator: "\n", omittingEmptySubsequences: false).count).contains(line), "\(text.debugDescription): line \(line)")
            }
        }
        XCTAssertThrowsError(try TOMLReader.parse("a = 1\n\nb = [1,\n2,,]\n")) { XCTAssertEqual(($0 as? buoy.TOMLParseError)?.line, 4) }
    }

    func testTheExampleConfigReadsAsTOMLxxReadsIt() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../deploy/buoy.toml.example").standardized.path
        let text = try String(contentsOfFile: example, encoding: .utf8)
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { Self.isCommentedSetting($0) ? String($0.dropFirst(2)) : String($0) }.joined(separator: "\n")
        for document in [text, uncommented] {
            let (ours, reference) = both(document)
            XCTAssertNotNil(ours)
            XCTAssertEqual(ours, reference)
        }
    }

    /// `# key = value`: an example setting, not prose.
    static func isCommentedSetting(_ line: Substring) -> Bool {
        guard line.hasPrefix("# ") else { return false }
        let rest = line.dropFirst(2)
        let key = rest.prefix { $0.isLowercase || $0 == "-" }
        return !key.isEmpty && rest.dropFirst(key.count).hasPrefix(" = ")
    }

    /// Mutations of valid documents (bytes cut, swapped, doubled, replaced by TOML's own
    /// punctuation) and deep nesting: every one is read or refused, none traps, and what is
    /// read keeps the values of the unmutated lines. (Not against toml++ here: its debug
    /// build stops on an assertion for some of these, e.g. a key cut after a dot.)
    func testMutatedAndDeeplyNestedDocumentsAreReadOrRefusedNeverTrap() {
        var random = SystemRandomNumberGenerator()
        let punctuation = Array("[]{}=,.\"'#\\\n \t0_+-:eE".utf8)
        var read = 0
        for _ in 0..<5000 {
            var bytes = Array(Self.accepted.randomElement(using: &random)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(punctuation.randomElement(using: &random)!, at: at)
                case 2: bytes[at] = punctuation.randomElement(using: &random)!
                default: bytes.insert(bytes[at], at: at)
                }
            }
            guard let text = String(validating: bytes, as: UTF8.self) else { continue }
            do {
                _ = try TOMLReader.parse(text)
                read += 1
            } catch {
                XCTAssertTrue(error is buoy.TOMLParseError, "\(error)")
            }
        }
        XCTAssertGreaterThan(read, 100, "some mutations are still TOML")
        for depth in [10, 63, 64, 65, 5000] {
            let array = try? TOMLReader.parse("a = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n")
            let inline = try? TOMLReader.parse("a = " + String(repeating: "{b=", count: depth) + "1" + String(repeating: "}", count: depth) + "\n")
            let header = try? TOMLReader.parse("[" + Array(repeating: "a", count: depth).joined(separator: ".") + "]\n")
            if depth == 10 { XCTAssertTrue(array != nil && inline != nil && header != nil) }
            if depth == 5000 { XCTAssertTrue(array == nil && inline == nil && header == nil, "nesting past the bound is refused") }
        }
    }
}
