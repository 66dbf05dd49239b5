import Foundation
import XCTest
import LottieModel

/// Broken and hostile files: each must give a typed error naming the JSON path (or a warning
/// for what is merely unsupported), never a crash, hang or runaway allocation.
final class BadInputTests: XCTestCase {
    /// A minimal valid document with `layers` spliced in.
    static func document(layers: String = "[]", extra: String = "") -> String {
        #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100\#(extra),"layers":\#(layers)}"#
    }

    static func shapeLayer(_ shapes: String, extra: String = "") -> String {
        #"{"ty":4,"nm":"L","ind":1,"ip":0,"op":60,"st":0,"ks":{}\#(extra),"shapes":\#(shapes)}"#
    }

    struct Case {
        let name: String
        let json: String
        /// The JSON path the error must name (nil: the error is about the file as a whole).
        let path: String?
        /// A fragment the reason must contain.
        let reason: String
    }

    /// Files with nothing to draw: refused with a typed error naming the path.
    static let cases: [Case] = [
        Case(name: "empty file", json: "", path: nil, reason: "empty"),
        Case(name: "not JSON", json: "hello, world", path: nil, reason: "invalid JSON"),
        Case(name: "binary garbage", json: "\u{1}\u{2}\u{3}\u{ff}", path: nil, reason: "invalid JSON"),
        Case(name: "truncated object", json: String(document().dropLast(5)), path: nil, reason: "truncated"),
        Case(name: "truncated string", json: #"{"v":"5.7"#, path: nil, reason: "truncated"),
        Case(name: "top level is an array", json: "[1,2,3]", path: "", reason: "top level"),
        Case(name: "trailing garbage", json: document() + "xyz", path: nil, reason: "after the end"),
        Case(name: "NaN literal", json: #"{"fr":NaN}"#, path: nil, reason: "invalid JSON"),
        Case(name: "missing w", json: #"{"fr":30,"ip":0,"op":60,"h":100,"layers":[]}"#, path: "w", reason: "missing"),
        Case(name: "missing layers", json: #"{"fr":30,"ip":0,"op":60,"w":100,"h":100}"#, path: "layers", reason: "missing"),
        Case(name: "w is a string", json: #"{"fr":30,"ip":0,"op":60,"w":"wide","h":100,"layers":[]}"#, path: "w", reason: "expected a number"),
        Case(name: "w = 1e9", json: #"{"fr":30,"ip":0,"op":60,"w":1e9,"h":100,"layers":[]}"#, path: "w", reason: "out of range"),
        Case(name: "negative height", json: #"{"fr":30,"ip":0,"op":60,"w":100,"h":-5,"layers":[]}"#, path: "h", reason: "out of range"),
        Case(name: "layers is an object", json: document(layers: "{}"), path: "layers", reason: "expected an array"),
        Case(name: "no layer readable", json: document(layers: "[7]"), path: "layers", reason: "nothing to draw"),
        Case(name: "deep nesting", json: String(repeating: "[", count: 100_000), path: nil, reason: "nesting"),
        Case(name: "invalid escape", json: #"{"nm":"\u12"}"#, path: nil, reason: "escape"),
        Case(name: "control character in string", json: "{\"nm\":\"a\u{1}b\"}", path: nil, reason: "control character"),
    ]

    /// A null layer that always reads: the forgiven cases keep something to draw beside it.
    static let goodLayer = #"{"ty":3,"ind":99,"ip":0,"op":60}"#

    /// Malformed parts of a file that still has something to draw: skipped or defaulted, with
    /// a warning naming the JSON path (issue 10, item 9: what peers render is not refused).
    static let forgiven: [Case] = [
        Case(name: "huge frame rate", json: #"{"fr":1e400,"ip":0,"op":60,"w":100,"h":100,"layers":[\#(goodLayer)]}"#, path: "fr", reason: "30 is used"),
        Case(name: "zero frame rate", json: #"{"fr":0,"ip":0,"op":60,"w":100,"h":100,"layers":[\#(goodLayer)]}"#, path: "fr", reason: "30 is used"),
        Case(name: "op before ip", json: #"{"fr":30,"ip":60,"op":10,"w":100,"h":100,"layers":[\#(goodLayer)]}"#, path: "op", reason: "not after"),
        Case(name: "no ip or op", json: #"{"fr":30,"w":100,"h":100,"layers":[\#(goodLayer)]}"#, path: "", reason: "no out point"),
        Case(name: "layer is a number", json: document(layers: "[7,\(goodLayer)]"), path: "layers[0]", reason: "expected a layer object"),
        Case(name: "layer without ty", json: document(layers: #"[{"ip":0,"op":60},\#(goodLayer)]"#), path: "layers[0].ty", reason: "missing"),
        Case(name: "layer without op", json: document(layers: #"[{"ty":3,"ip":0}]"#), path: "layers[0]", reason: "composition's is used"),
        Case(name: "self parenting", json: document(layers: #"[{"ty":3,"ind":1,"parent":1,"ip":0,"op":60}]"#),
             path: "layers[0].parent", reason: "own parent"),
        Case(name: "parent cycle", json: document(layers: #"[{"ty":3,"ind":1,"parent":2,"ip":0,"op":60},{"ty":3,"ind":2,"parent":1,"ip":0,"op":60}]"#),
             path: "layers[0].parent", reason: "loops"),
        Case(name: "precomp references itself",
             json: document(layers: #"[{"ty":0,"refId":"a","ip":0,"op":60}]"#,
                            extra: #","assets":[{"id":"a","layers":[{"ty":0,"refId":"a","ip":0,"op":60}]}]"#),
             path: "assets[0].layers[0].refId", reason: "cycle"),
        Case(name: "shape without ty", json: document(layers: "[" + shapeLayer(#"[{"nm":"x"}]"#) + "]"), path: "layers[0].shapes[0].ty", reason: "missing"),
        Case(name: "fill colour is a string", json: document(layers: "[" + shapeLayer(#"[{"ty":"gr","it":[{"ty":"fl","c":{"a":0,"k":"red"},"o":{"a":0,"k":100}}]}]"#) + "]"),
             path: "layers[0].shapes[0].it[0].c.k", reason: "expected a number"),
        Case(name: "colour with two components", json: document(layers: "[" + shapeLayer(#"[{"ty":"fl","c":{"a":0,"k":[1,0]}}]"#) + "]"),
             path: "layers[0].shapes[0].c.k", reason: "padded"),
        Case(name: "keyframe without time", json: document(layers: "[" + shapeLayer(#"[{"ty":"fl","c":{"a":0,"k":[1,0,0]},"o":{"a":1,"k":[{"s":[0]},{"t":10,"s":[100]}]}}]"#) + "]"),
             path: "layers[0].shapes[0].o.k[0].t", reason: "dropped"),
        Case(name: "first keyframe without value", json: document(layers: "[" + shapeLayer(#"[{"ty":"fl","c":{"a":0,"k":[1,0,0]},"o":{"a":1,"k":[{"t":0},{"t":10,"s":[100]}]}}]"#) + "]"),
             path: "layers[0].shapes[0].o.k[0].s", reason: "no value"),
        Case(name: "path vertex with one number", json: document(layers: "[" + shapeLayer(#"[{"ty":"sh","ks":{"a":0,"k":{"c":true,"v":[[0]],"i":[],"o":[]}}}]"#) + "]"),
             path: "layers[0].shapes[0].ks.k.v[0]", reason: "point"),
        Case(name: "rectangle without size", json: document(layers: "[" + shapeLayer(#"[{"ty":"rc","p":{"a":0,"k":[0,0]}}]"#) + "]"),
             path: "layers[0].shapes[0].s", reason: "missing"),
        Case(name: "invalid solid colour", json: document(layers: ##"[{"ty":1,"sc":"#zzzzzz","sw":10,"sh":10,"ip":0,"op":60}]"##),
             path: "layers[0].sc", reason: "invalid colour"),
        Case(name: "empty solid colour", json: document(layers: ##"[{"ty":1,"sc":"","sw":10,"sh":10,"ip":0,"op":60}]"##),
             path: "layers[0].sc", reason: "invalid colour"),
        Case(name: "precomp without refId", json: document(layers: #"[{"ty":0,"ip":0,"op":60},\#(goodLayer)]"#), path: "layers[0].refId", reason: "missing"),
        Case(name: "mask without path", json: document(layers: #"[{"ty":3,"ip":0,"op":60,"masksProperties":[{"mode":"a"}]}]"#),
             path: "layers[0].masksProperties[0].pt", reason: "missing"),
        Case(name: "deep shape groups", json: document(layers: "[" + shapeLayer(String(repeating: #"[{"ty":"gr","it":"#, count: 80) + "[]" + String(repeating: "}]", count: 80)) + "]"),
             path: nil, reason: "nested deeper"),
        Case(name: "number too large for a coordinate", json: document(layers: "[" + shapeLayer(#"[{"ty":"rc","p":{"a":0,"k":[1e300,0]},"s":{"a":0,"k":[1,1]}}]"#) + "]"),
             path: "layers[0].shapes[0].p.k[0]", reason: "clamped"),
        Case(name: "scale of 1.6e17", json: document(layers: #"[{"ty":3,"ip":0,"op":60,"ks":{"s":{"a":0,"k":[1.6e17,100]}}}]"#),
             path: "layers[0].ks.s.k[0]", reason: "clamped"),
        Case(name: "effect ty is a string", json: document(layers: #"[{"ty":3,"ip":0,"op":60,"ef":[{"ty":"drop","ef":[]}]}]"#),
             path: "layers[0].ef[0].ty", reason: "expected a number"),
        Case(name: "effect value of a wrong type", json: document(layers: #"[{"ty":3,"ip":0,"op":60,"ef":[{"ty":25,"ef":[{"ty":2,"v":{"a":0,"k":"x"}}]}]}]"#),
             path: "layers[0].ef[0].ef[0].v.k", reason: "expected a number"),
        Case(name: "vector given as one number", json: document(layers: #"[{"ty":3,"ip":0,"op":60,"ks":{"s":{"a":0,"k":50}}}]"#),
             path: "layers[0].ks.s.k", reason: "one number"),
        Case(name: "markers of a wrong type", json: document(layers: "[\(goodLayer)]", extra: #","markers":{"a":1}"#), path: "markers", reason: "expected an array"),
    ]

    func testMalformedPartsAreSkippedOrDefaultedWithAWarningNamingThePath() {
        for c in Self.forgiven {
            do {
                let animation = try Animation.parse(Array(c.json.utf8), name: "odd.json", baseDirectory: nil)
                let matching = animation.warnings.filter { w in (c.path == nil || w.jsonPath == c.path) && w.message.contains(c.reason) }
                XCTAssertFalse(matching.isEmpty, "\(c.name): warnings \(animation.warnings)")
                XCTAssertFalse(animation.layers.isEmpty, c.name)
            } catch {
                XCTFail("\(c.name): refused: \(error)")
            }
        }
    }

    func testDefaultsTakenForMalformedParts() throws {
        let missingTimes = try Animation.parse(Array(#"{"fr":25,"ip":5,"op":50,"w":10,"h":10,"layers":[{"ty":3}]}"#.utf8), name: "t", baseDirectory: nil)
        XCTAssertEqual(missingTimes.layers[0].inPoint, 5)
        XCTAssertEqual(missingTimes.layers[0].outPoint, 50)
        let scale = try Animation.parse(Array(Self.document(layers: #"[{"ty":3,"ip":0,"op":60,"ks":{"s":{"a":0,"k":[1.6e17,7]}}}]"#).utf8),
                                        name: "s", baseDirectory: nil)
        XCTAssertEqual(scale.layers[0].transform.scale.value(at: 0).x, 1e15)
        XCTAssertEqual(scale.layers[0].transform.scale.value(at: 0).y, 7)
        let padded = try Animation.parse(Array(Self.document(layers: #"[{"ty":3,"ip":0,"op":60,"ks":{"s":{"a":0,"k":50}}}]"#).utf8),
                                         name: "p", baseDirectory: nil)
        XCTAssertEqual(padded.layers[0].transform.scale.value(at: 0).y, 50)
        let keyframes = try Animation.parse(Array(Self.document(layers: "[" + Self.shapeLayer(#"[{"ty":"fl","c":{"a":0,"k":[1,0,0]},"o":{"a":1,"k":[{"t":0},{"t":10,"s":[40]}]}}]"#) + "]").utf8), name: "k", baseDirectory: nil)
        guard case .shape(let items) = keyframes.layers[0].kind, case .fill(_, let opacity, _) = items[0].kind else { return XCTFail("no fill") }
        XCTAssertEqual(opacity.value(at: 0), 40, "the keyframe without a value is dropped")
    }

    func testEveryBadInputGivesATypedErrorWithItsPath() {
        XCTAssertGreaterThanOrEqual(Self.cases.count + Self.forgiven.count, 40)
        for c in Self.cases {
            do {
                _ = try Animation.parse(Array(c.json.utf8), name: "bad.json", baseDirectory: nil)
                XCTFail("\(c.name): parsed without an error")
            } catch let error as ParseError {
                XCTAssertEqual(error.file, "bad.json", c.name)
                if let path = c.path {
                    if path.isEmpty || path == "refId" {
                        XCTAssertTrue(error.jsonPath.hasSuffix(path), "\(c.name): path \(error.jsonPath)")
                    } else {
                        XCTAssertEqual(error.jsonPath, path, "\(c.name): \(error)")
                    }
                }
                XCTAssertTrue(error.reason.contains(c.reason), "\(c.name): reason was \(error.reason)")
                XCTAssertTrue(error.description.hasPrefix("bad.json: "), c.name)
            } catch {
                XCTFail("\(c.name): untyped error \(error)")
            }
        }
    }

    func testHugeLayerAndKeyframeCountsAreCutWithAWarning() throws {
        var limits = ParseLimits()
        limits.maxLayersPerComposition = 100
        let layers = "[" + Array(repeating: #"{"ty":3,"ip":0,"op":60}"#, count: 101).joined(separator: ",") + "]"
        let cut = try Animation.parse(Array(Self.document(layers: layers).utf8), name: "x", baseDirectory: nil, limits: limits)
        XCTAssertEqual(cut.layers.count, 100)
        XCTAssertTrue(cut.warnings.contains { $0.jsonPath == "layers" && $0.message.contains("limit") }, "\(cut.warnings)")
        limits = ParseLimits()
        limits.maxKeyframes = 50
        let keyframes = (0..<60).map { #"{"t":\#($0),"s":[\#($0)]}"# }.joined(separator: ",")
        let json = Self.document(layers: #"[{"ty":3,"ip":0,"op":60,"ks":{"o":{"a":1,"k":[\#(keyframes)]}}}]"#)
        let limited = try Animation.parse(Array(json.utf8), name: "x", baseDirectory: nil, limits: limits)
        XCTAssertTrue(limited.warnings.contains { $0.jsonPath == "layers[0].ks.o.k" && $0.message.contains("keyframes") }, "\(limited.warnings)")
        XCTAssertEqual(limited.layers[0].transform.opacity.value(at: 10), 100, "the default opacity")
    }

    func testOversizedFileIsRefusedBeforeReading() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-huge-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        // A sparse 100 MB file: refused by its size, without reading it.
        FileManager.default.createFile(atPath: url.path, contents: Data("{".utf8))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 100 * 1024 * 1024)
        try handle.close()
        XCTAssertThrowsError(try Animation.load(path: url.path)) {
            let error = $0 as? ParseError
            XCTAssertEqual(error?.file, url.path)
            XCTAssertTrue(error?.reason.contains("limit") ?? false)
            // Told by its size before any read (stat), not by reading past the limit.
            XCTAssertTrue(error?.reason.hasPrefix("file is 104857600 bytes") ?? false, "\(String(describing: error))")
        }
    }

    func testMissingFileNamesTheFile() {
        XCTAssertThrowsError(try Animation.load(path: "/nonexistent/anim.json")) {
            XCTAssertEqual("\($0)", "/nonexistent/anim.json: no such file")
        }
    }

    func testUnsupportedFeaturesAreWarningsNotErrors() throws {
        let json = Self.document(layers: "[" + Self.shapeLayer(#"[{"ty":"xx","nm":"future"},{"ty":"tw","a":{"a":0,"k":10}}]"#) + #",{"ty":13,"ip":0,"op":60}]"#)
        let animation = try Animation.parse(Array(json.utf8), name: "w", baseDirectory: nil)
        XCTAssertEqual(animation.layers.count, 2)
        let paths = animation.warnings.map(\.jsonPath)
        XCTAssertTrue(paths.contains("layers[0].shapes[0]"), "\(paths)")
        XCTAssertTrue(paths.contains("layers[0].shapes[1]"), "\(paths)")
        XCTAssertTrue(paths.contains("layers[1]"), "\(paths)")
    }

    func testEveryTruncationOfARealFileFailsCleanly() throws {
        let path = CorpusLocation.samples + "/HamburgerArrow.json"
        guard let data = FileManager.default.contents(atPath: path) else { throw XCTSkip("corpus not found at \(path)") }
        let bytes = [UInt8](data)
        // Every 97th prefix, so the cut lands everywhere: inside numbers, strings, keys.
        for length in stride(from: 0, to: bytes.count - 1, by: 97) {
            XCTAssertThrowsError(try Animation.parse(Array(bytes[0..<length]), name: "cut", baseDirectory: nil), "prefix \(length)") {
                XCTAssertTrue($0 is ParseError)
            }
        }
    }
}

/// The shared corpus sits beside the checkout (../shared), or where BUOY_SHARED points.
enum CorpusLocation {
    static var shared: String {
        if let env = ProcessInfo.processInfo.environment["BUOY_SHARED"] { return env }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repo.deletingLastPathComponent().appendingPathComponent("shared").path
    }

    static var samples: String { shared + "/corpus/lottie-ios/samples" }
}
