import Foundation
import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// The render tree's nodes keep merges and offsets whose inputs held still (`GeometryMemo`);
/// matte sources drawn for their alpha leave out colour effects. Both draw exactly what the
/// reference draws.
final class GeometryMemoTests: XCTestCase {
    /// Two overlapping rectangles merged by `mode`, offset by `offset`, filled with a colour
    /// that animates; with `moving`, the second rectangle moves too.
    static func mergeAnimation(mode: Int, offset: Double, moving: Bool) throws -> Animation {
        let position = moving ? #"{"a":1,"k":[{"t":0,"s":[60,55],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":60,"s":[40,45]}]}"#
            : #"{"a":0,"k":[60,55]}"#
        let color = #"{"a":1,"k":[{"t":0,"s":[1,0,0,1],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":60,"s":[0,0,1,1]}]}"#
        let layer = """
        {"ty":4,"ind":1,"ip":0,"op":60,"st":0,\(RenderBehaviourTests.identityTransform),"shapes":[{"ty":"gr","it":[
         \(MergePathTests.ellipse(40, 45, 50)),{"ty":"rc","p":\(position),"s":{"a":0,"k":[40,30]},"r":{"a":0,"k":0}},
         {"ty":"mm","mm":\(mode)},{"ty":"op","a":{"a":0,"k":\(offset)},"lj":2,"ml":{"a":0,"k":4}},
         {"ty":"fl","c":\(color),"o":{"a":0,"k":100}},
         {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
        """
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":[\#(layer)]}"#
        return try Animation.parse(Array(json.utf8), name: "memo.json", baseDirectory: nil)
    }

    /// Frames forward, one twice, and back.
    static let frames: [Double] = [0, 7, 7.5, 20, 20, 33, 12, 59]

    func testMemoizedMergesAndOffsetsDrawWhatEvaluatingAnewDraws() throws {
        for mode in [2, 3, 4, 5] {
            for offset in [0.0, 3.0] {
                for moving in [false, true] {
                    let animation = try Self.mergeAnimation(mode: mode, offset: offset, moving: moving)
                    let tree = AnimationRenderer(animation: animation)
                    var reference = AnimationRenderer(animation: animation)
                    reference.usesRenderTree = false
                    let viewport = Viewport(width: 100, height: 100, contentMode: .fit)
                    for frame in Self.frames {
                        let drawn = tree.render(frame: frame, viewport: viewport)
                        let expected = reference.render(frame: frame, viewport: viewport)
                        XCTAssertEqual(drawn.pixels, expected.pixels, "mode \(mode) offset \(offset) moving \(moving) frame \(frame)")
                        XCTAssertTrue(drawn.pixels.contains { $0 != 0 }, "something is drawn")
                    }
                    let memo = try XCTUnwrap(tree.renderTree?.allNodes.first?.memo.statistics)
                    if moving {
                        // The rectangle moves on every frame but the one drawn twice.
                        XCTAssertGreaterThan(memo.computed, Self.frames.count - 2)
                    } else {
                        // Computed once per step (merge, and offset when there is one); reused after.
                        XCTAssertEqual(memo.computed, offset == 0 ? 1 : 2, "mode \(mode) offset \(offset)")
                        XCTAssertGreaterThan(memo.reused, 0)
                    }
                }
            }
        }
    }

    func testAMemoKeepsOneResultPerPlaceAndComparesInputs() {
        let memo = GeometryMemo()
        var square = RasterPath()
        square.addRect(Rect(x: 0, y: 0, width: 10, height: 10))
        var made = 0
        func make() -> RasterPath? { made += 1; return square }
        _ = memo.result(at: 0, input: MergeInput(paths: [square], mode: 2), make: make)
        _ = memo.result(at: 0, input: MergeInput(paths: [square], mode: 2), make: make)
        XCTAssertEqual(made, 1, "the same input at the same place is reused")
        _ = memo.result(at: 0, input: MergeInput(paths: [square], mode: 3), make: make)
        XCTAssertEqual(made, 2, "another mode is computed")
        _ = memo.result(at: 1, input: MergeInput(paths: [square], mode: 3), make: make)
        XCTAssertEqual(made, 3, "another place is computed")
        _ = memo.result(at: 0, input: OffsetInput(path: square, amount: 1, join: 1, miterLimit: 4), make: make)
        XCTAssertEqual(made, 4, "an input of another kind is computed")
        _ = memo.result(at: GeometryMemo.maxPlaces, input: MergeInput(paths: [square], mode: 2), make: make)
        _ = memo.result(at: GeometryMemo.maxPlaces, input: MergeInput(paths: [square], mode: 2), make: make)
        XCTAssertEqual(made, 6, "places past the bound are not kept")
    }

    /// A solid with a fill effect as the source of a matte: an alpha matte takes only its
    /// alpha (the effect, which keeps alpha, is left out and changes nothing); a luma matte
    /// takes its colour (the effect shows).
    static func matteAnimation(mode: Int, effect: Bool, contentEffect: Bool = false) throws -> Animation {
        let fill = #""ef":[{"ty":21,"nm":"Fill","en":1,"ef":[{"ty":10,"v":{"a":0,"k":0}},{"ty":7,"v":{"a":0,"k":0}},"#
            + #"{"ty":2,"v":{"a":0,"k":[0.2,0.2,0.2,1]}},{"ty":7,"v":{"a":0,"k":0}},{"ty":0,"v":{"a":0,"k":0}},"#
            + #"{"ty":0,"v":{"a":0,"k":0}},{"ty":0,"v":{"a":0,"k":1}}]}]"#
        let source = """
        {"ty":1,"ind":1,"ip":0,"op":60,"st":0,"td":1,"sc":"#ffffff","sw":60,"sh":50,\(RenderBehaviourTests.identityTransform)\(effect ? "," + fill : "")}
        """
        let content = RenderBehaviourTests.rectLayer(index: 2, center: (40, 40), size: (70, 70), color: (0, 0.6, 0.3),
                                                     extra: #""tt":\#(mode),"# + (contentEffect ? fill + "," : ""))
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":[],"layers":[\#(source),\#(content)]}"#
        return try Animation.parse(Array(json.utf8), name: "matte.json", baseDirectory: nil)
    }

    func testAnAlphaMatteSourcesColourEffectChangesNothing() throws {
        let viewport = Viewport(width: 100, height: 100, contentMode: .fit)
        func render(mode: Int, effect: Bool) throws -> [UInt32] {
            AnimationRenderer(animation: try Self.matteAnimation(mode: mode, effect: effect)).render(frame: 10, viewport: viewport).pixels
        }
        for mode in [1, 2] {
            let plain = try render(mode: mode, effect: false)
            XCTAssertTrue(plain.contains { $0 != 0 }, "alpha matte mode \(mode) shows the content")
            XCTAssertEqual(try render(mode: mode, effect: true), plain, "alpha matte mode \(mode)")
        }
        // The matted layer's own colour effect still shows: only the source is drawn for its alpha.
        let recoloured = AnimationRenderer(animation: try Self.matteAnimation(mode: 1, effect: true, contentEffect: true))
        XCTAssertNotEqual(recoloured.render(frame: 10, viewport: viewport).pixels, try render(mode: 1, effect: true))
        // A luma matte reads colour: the effect darkens the source, and the content fades.
        XCTAssertNotEqual(try render(mode: 3, effect: true), try render(mode: 3, effect: false))
    }
}
