import Foundation
import XCTest
import LottieModel
import LottieRender
import Raster

/// Issue 10, item 10: hostile animation files. Each is rendered at small sizes (1x1 to 64x64)
/// and must finish within a bound, without a trap, and say what it skipped.
final class HostileAnimationTests: XCTestCase {
    static let sizes = [(1, 1), (4, 4), (32, 32), (64, 48)]

    static func document(layers: String, assets: String = "[]", extra: String = "") -> String {
        #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100\#(extra),"assets":\#(assets),"layers":\#(layers)}"#
    }

    static func shapeLayer(_ shapes: String, extra: String = "") -> String {
        #"{"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{}\#(extra),"shapes":\#(shapes)}"#
    }

    static let square = #"{"ty":"rc","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[40,40]},"r":{"a":0,"k":0}}"#
    static let redFill = #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#

    /// Parses `json`, renders frames 0, 15 and 29 at every size, and returns the renderer and
    /// the slowest frame in seconds.
    @discardableResult
    func render(_ json: String, name: String, budget: RenderBudget = RenderBudget(), directory: String? = nil,
                limit seconds: Double = 5, file: StaticString = #filePath, line: UInt = #line) throws -> (AnimationRenderer, Double) {
        let animation = try Animation.parse(Array(json.utf8), name: name, baseDirectory: directory)
        let renderer = AnimationRenderer(animation: animation, budget: budget)
        var worst = 0.0
        for (w, h) in Self.sizes {
            for frame in [0.0, 15, 29] {
                let start = Date()
                _ = renderer.render(frame: frame, viewport: Viewport(width: w, height: h))
                worst = max(worst, Date().timeIntervalSince(start))
            }
        }
        XCTAssertLessThan(worst, seconds, "\(name): slowest frame \(worst) s", file: file, line: line)
        return (renderer, worst)
    }

    func testDropShadowsOfRealFilesAtTinySizes() throws {
        guard CorpusPaths.available else { throw XCTSkip("corpus not found") }
        for name in ["issue_1169_shadow_effect", "issue_1169_shadow_effect_animated", "issue_1945", "pr_1964", "pr_2559"] {
            let url = CorpusPaths.corpus.appendingPathComponent("samples/Issues/\(name).json")
            try render(String(decoding: try Data(contentsOf: url), as: UTF8.self), name: name)
        }
    }

    func testShadowFarOutsideTheOutputAndHugeSoftness() throws {
        for (distance, softness) in [("1e6", "3"), ("-1e15", "0"), ("40", "1e10"), ("1e15", "1e15")] {
            let effect = #"{"ty":25,"en":1,"ef":[{"ty":2,"v":{"a":0,"k":[0,0,0,1]}},{"ty":0,"v":{"a":0,"k":128}},"#
                + #"{"ty":0,"v":{"a":0,"k":135}},{"ty":0,"v":{"a":0,"k":\#(distance)}},{"ty":0,"v":{"a":0,"k":\#(softness)}}]}"#
            try render(Self.document(layers: "[" + Self.shapeLayer("[\(Self.square),\(Self.redFill)]", extra: #","ef":[\#(effect)]"#) + "]"),
                       name: "shadow \(distance) \(softness)")
        }
    }

    func testHugeCountsInModifiersAndGeometry() throws {
        let cases = [
            ("repeater copies", #"[{"ty":"gr","it":[\#(Self.square),\#(Self.redFill),{"ty":"rp","c":{"a":0,"k":1e15},"o":{"a":0,"k":0},"m":1,"#
                + #""tr":{"p":{"a":0,"k":[1,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}]}]"#),
            ("polystar points", #"[{"ty":"sr","sy":1,"p":{"a":0,"k":[50,50]},"pt":{"a":0,"k":1e15},"r":{"a":0,"k":0},"or":{"a":0,"k":40},"#
                + #""ir":{"a":0,"k":20},"os":{"a":0,"k":0},"is":{"a":0,"k":0}},\#(Self.redFill)]"#),
            ("zig-zag ridges", #"[\#(Self.square),{"ty":"zz","s":{"a":0,"k":5},"r":{"a":0,"k":1e15},"pt":{"a":0,"k":1}},\#(Self.redFill)]"#),
            ("rasterizer bounds", #"[{"ty":"rc","p":{"a":0,"k":[9e18,-9e18]},"s":{"a":0,"k":[1e300,1e300]},"r":{"a":0,"k":0}},\#(Self.redFill)]"#),
            ("dash 0 with gap 5e-324", #"[\#(Self.square),{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"#
                + #""d":[{"n":"d","v":{"a":0,"k":0}},{"n":"g","v":{"a":0,"k":5e-324}}]}]"#),
        ]
        for (name, shapes) in cases {
            try render(Self.document(layers: "[" + Self.shapeLayer(shapes) + "]"), name: name)
        }
    }

    /// 32 precomps, each drawing the next ten times: 10^32 layer draws if nothing stopped it.
    func testPrecompFanOutIsCutByTheLayerBudget() throws {
        var assets: [String] = []
        for level in 0..<32 {
            let child = level == 31 ? Self.shapeLayer("[\(Self.square),\(Self.redFill)]")
                : #"{"ty":0,"refId":"p\#(level + 1)","ip":0,"op":30,"w":100,"h":100,"ks":{}}"#
            assets.append(#"{"id":"p\#(level)","layers":[\#(Array(repeating: child, count: 10).joined(separator: ","))]}"#)
        }
        let json = Self.document(layers: #"[{"ty":0,"refId":"p0","ip":0,"op":30,"w":100,"h":100,"ks":{}}]"#,
                                 assets: "[" + assets.joined(separator: ",") + "]")
        XCTAssertLessThan(json.utf8.count, 40_000)
        let (renderer, _) = try render(json, name: "fan-out", limit: 10)
        XCTAssertEqual(renderer.warnings.filter { $0.contains("frame budget exceeded") }.count, 1, "\(renderer.warnings)")
    }

    /// Repeaters of 1000 copies nested four deep in a file of under 2 KB.
    func testNestedRepeatersAreCutByThePathBudget() throws {
        let repeater = #"{"ty":"rp","c":{"a":0,"k":1000},"o":{"a":0,"k":0},"m":1,"tr":{"p":{"a":0,"k":[0.1,0]},"s":{"a":0,"k":[100,100]},"#
            + #""r":{"a":0,"k":1},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}"#
        var items = "\(Self.square),\(Self.redFill),\(repeater)"
        for _ in 0..<3 { items = #"{"ty":"gr","it":[\#(items)]},\#(repeater)"# }
        let json = Self.document(layers: "[" + Self.shapeLayer("[\(items)]") + "]")
        XCTAssertLessThan(json.utf8.count, 2048)
        var budget = RenderBudget()
        budget.maxPathElementsPerLayer = 100_000
        let (renderer, _) = try render(json, name: "nested repeaters", budget: budget, limit: 10)
        XCTAssertTrue(renderer.warnings.contains { $0.contains("path elements") }, "\(renderer.warnings)")
    }

    func testAGradientWithAHundredThousandStops() throws {
        let n = 100_000
        var raw: [String] = []
        raw.reserveCapacity(n * 4)
        for i in 0..<n { raw += ["\(Double(n - i) / Double(n))", "1", "0", "0"] }
        let gradient = #"{"ty":"gf","o":{"a":0,"k":100},"r":1,"t":1,"s":{"a":0,"k":[0,0]},"e":{"a":0,"k":[100,0]},"#
            + #""g":{"p":\#(n),"k":{"a":0,"k":[\#(raw.joined(separator: ","))]}}}"#
        try render(Self.document(layers: "[" + Self.shapeLayer("[\(Self.square),\(gradient)]") + "]"), name: "gradient", limit: 2)
    }

    /// Ten thousand glyphs, each drawn from a glyph under a 1000-copy repeater.
    func testTextOfManyGlyphsUnderRepeaters() throws {
        let repeater = #"{"ty":"rp","c":{"a":0,"k":1000},"o":{"a":0,"k":0},"m":1,"tr":{"p":{"a":0,"k":[1,0]},"s":{"a":0,"k":[100,100]},"#
            + #""r":{"a":0,"k":0},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}"#
        let glyph = #"{"ch":"A","fFamily":"F","style":"R","size":100,"w":60,"data":{"shapes":[{"ty":"gr","it":[\#(Self.square),\#(repeater)]}]}}"#
        let text = String(repeating: "A", count: 10_000)
        let layer = #"{"ty":5,"ip":0,"op":30,"ks":{},"t":{"d":{"k":[{"t":0,"s":{"t":"\#(text)","f":"F","s":10,"fc":[1,0,0]}}]}}}"#
        let json = Self.document(layers: "[\(layer)]", extra: #","fonts":{"list":[{"fName":"F","fFamily":"F","fStyle":"R"}]},"chars":[\#(glyph)]"#)
        try render(json, name: "glyphs", limit: 10)
    }

    /// The hostile inputs the fuzzer and the issue's table found, kept as files.
    func testEveryRegressionFileRendersWithinBounds() throws {
        let dir = CorpusPaths.packageRoot.appendingPathComponent("Tests/LottieRenderTests/Regressions")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted()
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let data = try Data(contentsOf: dir.appendingPathComponent(file))
            guard let animation = try? Animation.parse([UInt8](data), name: file, baseDirectory: nil) else { continue }
            let renderer = AnimationRenderer(animation: animation)
            for (w, h) in Self.sizes {
                let start = Date()
                for frame in [animation.inPoint, (animation.inPoint + animation.outPoint) / 2, animation.outPoint - 1] {
                    _ = renderer.render(frame: frame, viewport: Viewport(width: w, height: h))
                }
                XCTAssertLessThan(Date().timeIntervalSince(start), 10, "\(file) at \(w)x\(h)")
            }
        }
    }

    /// The budgets cut hostile files only: no real file of the corpus reaches one.
    func testNoCorpusFileReachesABudget() throws {
        guard CorpusPaths.available else { throw XCTSkip("corpus not found") }
        let samples = CorpusPaths.corpus.appendingPathComponent("samples")
        let files = (FileManager.default.enumerator(atPath: samples.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThan(files.count, 50)
        for file in files.sorted() {
            guard let animation = try? Animation.load(path: samples.appendingPathComponent(file).path) else { continue }
            let renderer = AnimationRenderer(animation: animation)
            for frame in [animation.inPoint, (animation.inPoint + animation.outPoint) / 2] {
                _ = renderer.render(frame: frame, viewport: Viewport(width: 64, height: 64))
            }
            XCTAssertFalse(renderer.warnings.contains { $0.contains("budget") || $0.contains("more than") }, "\(file): \(renderer.warnings)")
        }
    }

    func testTheLargestOutputIsEnforced() {
        XCTAssertTrue(RenderBudget.fittedOutputSize(width: 16384, height: 16384) == (4096, 4096))
        XCTAssertTrue(RenderBudget.fittedOutputSize(width: 16384, height: 100) == (4096, 25))
        XCTAssertTrue(RenderBudget.fittedOutputSize(width: 480, height: 270) == (480, 270))
        XCTAssertTrue(RenderBudget.fittedOutputSize(width: 0.2, height: 1e300) == (1, 4096))
    }
}
