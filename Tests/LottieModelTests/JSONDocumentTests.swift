import Foundation
import XCTest
@testable import LottieModel

/// The flat `JSONDocument` the model is built from against `JSONReader`'s tree (the
/// reference): the same values for every text both accept, the same error for every text
/// they refuse, and JSON paths spelled as the chain of keys and indices always spelled them.
final class JSONDocumentTests: XCTestCase {
    /// Both readers on one text: equal trees, or equal errors.
    func assertSameAsReference(_ bytes: [UInt8], _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let reference = Result { try bytes.withUnsafeBytes { try JSONReader.parse($0) } }
        let document = Result { try JSONDocument.read(bytes) }
        switch (reference, document) {
        case (.success(let tree), .success(let doc)):
            XCTAssertEqual(doc.value(at: 0), tree, label, file: file, line: line)
        case (.failure(let expected), .failure(let got)):
            XCTAssertEqual("\(got)", "\(expected)", label, file: file, line: line)
            XCTAssertTrue(got is JSONSyntaxError, label, file: file, line: line)
        default:
            XCTFail("\(label): reference \(reference), document \(document)", file: file, line: line)
        }
    }

    func testEveryCorpusFileReadsAsTheReferenceTree() throws {
        let root = CorpusLocation.shared + "/corpus/lottie-ios"
        let files = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThan(files.count, 50, "the corpus at \(root)")
        for name in files.sorted() {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/" + name)))
            assertSameAsReference(bytes, name)
        }
    }

    func testMalformedAndEdgeTextsFailOrReadAsTheReference() {
        let texts = [
            "", " ", "{", "}", "[", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{\"a\":1,}", "{1:2}", "nul", "tru", "falsey",
            "-", "1.", "1e", "1e+", "01", "-0", "1.5e3", "123456789012345678901234567890", "0.1234567890123456789",
            "1e400", "-1e400", "\"abc", "\"a\\\"b\"", "\"\\u00e9\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\u12\"", "\"\\uZZZZ\"",
            "\"tab\there\"", "\"line\nbreak\"", "\"\\n\\t\\r\\b\\f\\/\\\\\"", "{\"k\\u0065y\":1,\"key\":2}", "[[[]]]", "{} {}",
            "[1,2,3] x", "\u{FEFF}[]", "[\"\u{00e9}\"]", "{\"a\":[1,{\"b\":null}],\"c\":true,\"d\":false}", "[-1.25,3e-2,0.5E+2]",
            String(repeating: "[", count: 199) + String(repeating: "]", count: 199),
            String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
        ]
        for text in texts { assertSameAsReference(Array(text.utf8), text) }
    }

    /// Truncated and corrupted real files: the errors (offset, line, reason) must match.
    func testCutAndCorruptedFilesFailAsTheReference() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: CorpusLocation.samples + "/TwitterHeart.json")))
        for length in stride(from: 0, to: bytes.count, by: 211) {
            assertSameAsReference(Array(bytes[0..<length]), "prefix \(length)")
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let noise: [UInt8] = Array("{}[]\",:\\-.eE0 9tfnu\u{1}".utf8) + [0xFF, 0xC3]
        for trial in 0..<300 {
            var corrupted = bytes
            for _ in 0..<(1 + random(3)) { corrupted[random(corrupted.count)] = noise[random(noise.count)] }
            assertSameAsReference(corrupted, "corruption \(trial)")
        }
    }

    /// Keys are found whole: not by a prefix, not past their length, short or long, escaped or not.
    func testMembersAreFoundByTheirWholeKey() throws {
        let text = #"{"a":1,"ab":2,"abcdefgh":3,"abcdefghi":4,"":5,"xy":6,"abcdefg":7,"k":null}"#
        let root = JSONNode(try JSONDocument.read(Array(text.utf8)), index: 0)
        let expected: [(String, Double?)] = [("a", 1), ("ab", 2), ("abcdefgh", 3), ("abcdefghi", 4), ("", 5), ("xy", 6), ("abcdefg", 7),
                                             ("abc", nil), ("abcdefghij", nil), ("b", nil), ("x", nil), ("k", nil), ("abcdefgh\0", nil)]
        for (key, value) in expected {
            XCTAssertEqual(try root[key]?.double(), value, "key \(key)")
        }
        XCTAssertTrue(root.has("k"), "a null member is there")
        XCTAssertFalse(root.has("z"))
    }

    func testPathsAreSpelledAsKeysAndIndices() throws {
        let text = #"{"layers":[{"ks":{"p":{"k":[10,20]}}},{"n\u0061me":"x","shapes":[{"it":[{"c":{"k":[0,1]}}]}]}]}"#
        let document = try JSONDocument.read(Array(text.utf8))
        let root = JSONNode(document, index: 0)
        let y = try XCTUnwrap(root["layers"]?.array()[0]["ks"]?["p"]?["k"]?.array()[1])
        XCTAssertEqual(y.path.description, "layers[0].ks.p.k[1]")
        XCTAssertEqual(try y.double(), 20)
        let second = try root.required("layers").array()[1]
        XCTAssertEqual(try second.required("name").string(), "x", "an escaped key is found by its decoded spelling")
        let c = try XCTUnwrap(second["shapes"]?.array()[0]["it"]?.array()[0]["c"])
        XCTAssertEqual(c.path.description, "layers[1].shapes[0].it[0].c")
        XCTAssertEqual(c.memberPath("missing").description, "layers[1].shapes[0].it[0].c.missing")
        XCTAssertEqual(root.path.description, "")
        XCTAssertEqual(root.memberPath("w").description, "w")
        XCTAssertThrowsError(try c.required("a")) { error in
            XCTAssertEqual((error as? DecodeError)?.path.description, "layers[1].shapes[0].it[0].c.a")
        }
    }
}
