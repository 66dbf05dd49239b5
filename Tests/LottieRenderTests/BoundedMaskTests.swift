@testable import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// Masks rasterized over their own footprint combine to the same coverage as masks that span
/// the whole area (the reference).
final class BoundedMaskTests: XCTestCase {
    static func mask(_ mode: String, inverted: Bool = false, opacity: Double = 100, expansion: Double = 0,
                     _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> String {
        """
        {"mode":"\(mode)","inv":\(inverted),"o":{"a":0,"k":\(opacity)},"x":{"a":0,"k":\(expansion)},"pt":{"a":0,"k":{"c":true,\
        "v":[[\(x0),\(y0)],[\(x1),\(y0 + 7)],[\(x1),\(y1)],[\(x0 + 5),\(y1)]],"i":[[0,0],[0,0],[-9,4],[0,0]],"o":[[0,0],[0,0],[9,-4],[0,0]]}}}
        """
    }

    /// Each layer's masks built both ways over the whole viewport, at a few frames.
    /// Returns how many were compared.
    @discardableResult
    func assertBoundedMasksMatch(_ renderer: AnimationRenderer, viewport: Viewport, frames: [Double],
                                 file: StaticString = #filePath, line: UInt = #line) -> Int {
        let matrix = viewport.transform(animationWidth: renderer.animation.width, animationHeight: renderer.animation.height)
        let area = PixelRect(x0: 0, y0: 0, x1: viewport.width, y1: viewport.height)
        let compositor = LayerCompositor(renderer: renderer)
        var compared = 0
        for comp in [renderer.root] + Array(renderer.precomps.values) {
            for layer in comp.layers where !layer.masks.isEmpty {
                let masks = layer.masks.filter { $0.mode != .none }
                for frame in frames {
                    let world = compositor.layerMatrix(layer, in: comp, frame: frame).concatenating(matrix)
                    let bounded = compositor.buildMasks(masks, frame: frame, world: world, area: area)
                    let reference = compositor.buildMasks(masks, frame: frame, world: world, area: area, bounded: false)
                    XCTAssertEqual(bounded, reference, "layer \(layer.name) at frame \(frame)", file: file, line: line)
                    compared += 1
                }
            }
        }
        return compared
    }

    func testEveryKindOfMaskGivesTheSameCoverageOverItsFootprint() throws {
        let masks = [Self.mask("a", 10, 12, 60, 50), Self.mask("s", expansion: -3, 30, 20, 45, 70),
                     Self.mask("a", expansion: 4, 55, 55, 90, 85), Self.mask("i", inverted: true, 20, 25, 35, 40),
                     Self.mask("l", opacity: 60, 5, 60, 40, 95), Self.mask("d", 0, 0, 95, 90), Self.mask("f", 40, 5, 80, 45),
                     Self.mask("a", inverted: true, expansion: 2, 60, 10, 85, 30),
                     // Alone, each is a first mask that becomes the result itself (inverted and faded ones too).
                     Self.mask("s", inverted: true, 15, 15, 70, 60), Self.mask("s", inverted: true, opacity: 45, 10, 30, 80, 75),
                     Self.mask("s", opacity: 70, 20, 20, 60, 60), Self.mask("i", inverted: true, opacity: 35, 5, 5, 50, 50),
                     // Combined straight from their paths' runs, or skipped at zero opacity.
                     Self.mask("f", opacity: 65, 10, 40, 70, 80), Self.mask("a", opacity: 40, 30, 5, 95, 50),
                     Self.mask("l", 25, 25, 75, 75), Self.mask("f", opacity: 0, 0, 0, 90, 90),
                     Self.mask("a", inverted: true, opacity: 0, 5, 5, 60, 60), Self.mask("s", opacity: 0, 10, 10, 80, 80),
                     Self.mask("i", opacity: 0, 20, 20, 70, 70)]
        // Each mask alone, then runs of them in order (a later add of an inverted mask covers
        // nearly everything, so it must not end every run).
        let runs = masks.indices.map { [masks[$0]] } + [Array(masks[0..<7]), Array(masks[1..<6]), masks, Array(masks[12...]),
                                                         Array(masks[15...]) + Array(masks[12..<15]), Array(masks[15..<18]) + [masks[6]]]
        for chosen in runs {
            let layer = RenderBehaviourTests.rectLayer(center: (50, 50), size: (90, 90), color: (1, 0, 0),
                                                       extra: "\"hasMask\":true,\"masksProperties\":[\(chosen.joined(separator: ","))],",
                                                       transform: Self.skewed)
            let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":["# + layer + "]}"
            let renderer = AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil))
            let compared = assertBoundedMasksMatch(renderer, viewport: Viewport(width: 130, height: 90, contentMode: .fill), frames: [0])
            XCTAssertEqual(compared, 1)
        }
    }

    /// Scaled more along x than along y and rotated: the expansion's growth must hold for the
    /// longest stretch.
    static let skewed = #""ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":20},"p":{"a":0,"k":[50,50]},"a":{"a":0,"k":[50,50]},"s":{"a":0,"k":[160,60]}}"#

    func testTheCorpusMasksGiveTheSameCoverageOverTheirFootprints() throws {
        guard CorpusPaths.available else { throw XCTSkip("no corpus at \(CorpusPaths.corpus.path)") }
        var compared = 0
        for name in ["LottieLogo1_masked.json", "Issues/pr_1604_1.json", "Issues/issue_1628.json", "LottieFiles/cactus.json",
                     "TypeFace/Apostrophe.json", "Issues/issue_1800.json", "TypeFace/Comma.json", "success.json"] {
            let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            let animation = try Animation.parse(Array(data), name: name, baseDirectory: nil)
            let renderer = AnimationRenderer(animation: animation)
            let span = animation.outPoint - animation.inPoint
            compared += assertBoundedMasksMatch(renderer, viewport: Viewport(width: 160, height: 120, contentMode: .fit),
                                                frames: [0, 0.31, 0.63, 0.9].map { animation.inPoint + span * $0 })
        }
        XCTAssertGreaterThan(compared, 20, "masked layers of the corpus compared")
    }
}
