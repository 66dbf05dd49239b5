import Foundation
import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// The render tree (shapes evaluated only when what they depend on changes, paints kept in
/// slots) draws exactly what evaluating the model anew every frame draws.
final class RenderTreeTests: XCTestCase {
    /// Static and animated shapes, strokes, trims, gradients, precomps shown several times,
    /// masks and mattes, time remapping, a repeater, text, value-provider-shaped files.
    static let samples = ["TwitterHeart.json", "success.json", "TypeFace/I.json", "timeremap.json", "setValueTest.json",
                          "Switch_States.json", "LottieLogo1_masked.json", "LottieFiles/dog_car_ride.json",
                          "Issues/issue_1853.json", "HamburgerArrow.json", "Nonanimating/FirstText.json"]

    /// Frames across the animation, one drawn twice in a row (every paint from its slot)
    /// and one going back (slots replaced).
    static let progress = [0.0, 0.13, 0.41, 0.41, 0.55, 0.2, 0.87, 0.999]

    /// The samples found in the corpus, loaded, with their names.
    static func loadedSamples() throws -> [(name: String, animation: Animation)] {
        try samples.compactMap { name in
            let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return (name, try Animation.load(path: url.path))
        }
    }

    func testTheTreeDrawsTheSamePixelsAsTheReference() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var compared = 0, hits = 0
        for (name, animation) in try Self.loadedSamples() {
            var tree = AnimationRenderer(animation: animation)
            var reference = AnimationRenderer(animation: animation)
            reference.usesRenderTree = false
            XCTAssertNotNil(tree.renderTree)
            XCTAssertNil(reference.renderTree)
            let viewport = Viewport(width: 256, height: 256, contentMode: .fit)
            for (i, p) in Self.progress.enumerated() {
                let frame = animation.inPoint + (animation.outPoint - animation.inPoint) * p
                // Every other frame in three bands: each band keeps its own coverage in a slot.
                tree.threads = i % 2 == 0 ? 1 : 3
                reference.threads = tree.threads
                let drawn = tree.render(frame: frame, viewport: viewport)
                let expected = reference.render(frame: frame, viewport: viewport)
                let differing = zip(drawn.pixels, expected.pixels).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "\(name) frame \(frame), \(tree.threads) threads")
                compared += 1
            }
            hits += tree.slotReuse.hits
        }
        XCTAssertGreaterThan(compared, 60)
        XCTAssertGreaterThan(hits, 0, "paints drawn again came from their slots")
    }

    /// A layer's matrix through its parents, kept or recomputed by the tree, is the one the
    /// compositor computes, for every layer of every composition of the samples.
    func testLayerChainsGiveTheCompositorsMatrices() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var compared = 0, kept = 0
        for (name, animation) in try Self.loadedSamples() {
            let renderer = AnimationRenderer(animation: animation)
            let tree = try XCTUnwrap(renderer.renderTree)
            let compositor = LayerCompositor(renderer: renderer)
            for comp in [renderer.root] + renderer.precomps.values {
                for position in comp.layers.indices {
                    for frame in [0.0, 7.5, 31] {
                        let expected = compositor.layerMatrix(comp.layers[position], in: comp, frame: frame)
                        XCTAssertEqual(tree.layerMatrix(in: comp, at: position, frame: frame), expected, "\(name) layer \(position)")
                        compared += 1
                    }
                    if LayerChain(position: position, in: comp).positions.count > 1 { kept += 1 }
                }
            }
        }
        XCTAssertGreaterThan(compared, 300)
        XCTAssertGreaterThan(kept, 0, "some layers have parents")
    }

    /// A node is evaluated again only when what it depends on changes: a layer with nothing
    /// animated never again, one with keyframes on every new frame, one driven by a provider
    /// when the provider's value changes, and then only that one.
    func testAProviderChangeDirtiesOnlyItsNode() throws {
        let still = RenderBehaviourTests.rectLayer(index: 1, name: "Still", center: (20, 50), size: (20, 20), color: (0, 0, 1))
        let driven = RenderBehaviourTests.rectLayer(index: 2, name: "Driven", center: (50, 50), size: (20, 20), color: (1, 0, 0))
        let moving = RenderBehaviourTests.rectLayer(index: 3, name: "Moving", center: (80, 50), size: (20, 20), color: (0, 1, 0))
            .replacingOccurrences(of: #""s":{"a":0,"k":[20.0,20.0]}"#,
                                  with: #""s":{"a":1,"k":[{"t":0,"s":[10,10],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":60,"s":[30,30]}]}"#)
        XCTAssertTrue(moving.contains(#""a":1"#))
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":["# + [still, driven, moving].joined(separator: ",") + "]}"
        let animation = try Animation.parse(Array(json.utf8), name: "tree.json", baseDirectory: nil)
        var tree = AnimationRenderer(animation: animation)
        var reference = AnimationRenderer(animation: animation)
        reference.usesRenderTree = false
        let colour = InterpolatorValueProvider(start: RGBA(r: 1, g: 0, b: 0), end: RGBA(r: 0, g: 1, b: 0))
        XCTAssertEqual(tree.setValueProvider(colour, keypath: Keypath("Driven.**.Color")), 1)
        reference.setValueProvider(colour, keypath: Keypath("Driven.**.Color"))
        let viewport = Viewport(width: 100, height: 100)

        func check(_ frame: Double, _ evaluations: [Int], _ line: UInt = #line) {
            let drawn = tree.render(frame: frame, viewport: viewport)
            XCTAssertEqual(tree.renderTreeEvaluations, evaluations, "evaluations", line: line)
            XCTAssertEqual(drawn.pixels, reference.render(frame: frame, viewport: viewport).pixels, "pixels", line: line)
        }
        // Layers are nodes in file order: Still, Driven, Moving.
        check(5, [1, 1, 1])
        check(5, [1, 1, 1])
        check(6, [1, 1, 2])
        colour.progress = 0.5
        check(6, [1, 2, 2])
        check(7, [1, 2, 3])
        colour.progress = 1
        check(7, [1, 3, 3])
        let drawn = tree.render(frame: 7, viewport: viewport)
        XCTAssertEqual(drawn.pixels[50 * 100 + 50], 0xFF00_FF00, "the provider's colour is drawn")
        XCTAssertEqual(drawn.pixels[50 * 100 + 20], 0xFF00_00FF)
    }

    /// The dependence of a layer's shapes is read from every kind of item: a keyframe or a
    /// provider deep inside a group is found; a layer of constants is constant.
    func testDependenceFindsKeyframesAndProvidersAtAnyDepth() throws {
        let flat = RenderBehaviourTests.rectLayer(center: (50, 50), size: (20, 20), color: (1, 0, 0))
        let animated = flat.replacingOccurrences(of: #""r":{"a":0,"k":0}"#,
                                                 with: #""r":{"a":1,"k":[{"t":0,"s":[0]},{"t":60,"s":[5]}]}"#)
        XCTAssertNotEqual(flat, animated)
        for (layer, constant, frame) in [(flat, true, false), (animated, false, true)] {
            let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":["# + layer + "]}"
            let animation = try Animation.parse(Array(json.utf8), name: "d.json", baseDirectory: nil)
            guard case .shape(let items) = animation.layers[0].kind else { return XCTFail("a shape layer") }
            let dependence = ShapeDependence(items: items)
            XCTAssertEqual(dependence.isConstant, constant)
            XCTAssertEqual(dependence.frame, frame)
        }
    }
}
