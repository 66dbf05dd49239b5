import Foundation
import LottieModel
import LottieRender
import Raster
import XCTest

/// A dash pattern too fine to cut (more than `maxDashPieces` pieces along its path) is drawn
/// solid, and the renderer warns once, naming the stroke's place in the file.
final class DashWarningTests: XCTestCase {
    /// A shape layer stroking a line from (10, 50) to (90, 50), 4 wide, with `dashes` (dash, gap).
    static func strokeLayer(dashes: (Double, Double)?) -> String {
        let pattern = dashes.map { #","d":[{"n":"d","nm":"dash","v":{"a":0,"k":\#($0.0)}},{"n":"g","nm":"gap","v":{"a":0,"k":\#($0.1)}}]"# } ?? ""
        return #"{"ty":4,"ind":1,"nm":"line","ip":0,"op":60,"st":0,\#(RenderBehaviourTests.identityTransform),"shapes":[{"ty":"gr","nm":"g","it":["#
            + #"{"ty":"sh","nm":"p","ks":{"a":0,"k":{"c":false,"v":[[10,50],[90,50]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]]}}},"#
            + #"{"ty":"st","nm":"s","c":{"a":0,"k":[0,0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":4},"lc":1,"lj":1\#(pattern)},"#
            + #"{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}"#
    }

    static func renderer(layers: String, assets: String = "[]") throws -> AnimationRenderer {
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"assets":\#(assets),"layers":[\#(layers)]}"#
        return AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "dash.json", baseDirectory: nil))
    }

    func dashWarnings(_ renderer: AnimationRenderer) -> [String] { renderer.warnings.filter { $0.contains("dash pattern") } }

    func testATooFinePatternIsDrawnSolidWithOneWarningNamingTheStroke() throws {
        let viewport = Viewport(width: 100, height: 100)
        let solid = try Self.renderer(layers: Self.strokeLayer(dashes: nil)).render(frame: 0, viewport: viewport)
        // 80 units in pieces of 1e-4: 1.6 million pieces.
        let fine = try Self.renderer(layers: Self.strokeLayer(dashes: (1e-4, 1e-4)))
        for frame in 0..<4 {
            let s = fine.render(frame: Double(frame), viewport: viewport)
            XCTAssertEqual(s.pixels, solid.pixels, "drawn solid at frame \(frame)")
        }
        XCTAssertEqual(dashWarnings(fine), ["at layers[0].shapes[0].it[1]: the dash pattern would cut the stroke into more than "
                                            + "\(maxDashPieces) pieces; it is drawn solid"])
    }

    func testAPatternWithinTheLimitIsDashedWithoutWarning() throws {
        let viewport = Viewport(width: 100, height: 100)
        let solid = try Self.renderer(layers: Self.strokeLayer(dashes: nil)).render(frame: 0, viewport: viewport)
        // 80 units in pieces of 0.002: 40,000 dashes and gaps, within the limit.
        for piece in [5.0, 0.002] {
            let dashed = try Self.renderer(layers: Self.strokeLayer(dashes: (piece, piece)))
            let s = dashed.render(frame: 0, viewport: viewport)
            XCTAssertNotEqual(s.pixels, solid.pixels, "pieces of \(piece) are dashed")
            XCTAssertEqual(dashWarnings(dashed), [], "pieces of \(piece)")
        }
    }

    /// Inside a precomp, drawn through the render tree or without it, the path names the asset.
    func testTheWarningNamesAStrokeInsideAPrecomp() throws {
        let precomp = #"{"ty":0,"ind":1,"refId":"p","w":100,"h":100,"ip":0,"op":60,"st":0,\#(RenderBehaviourTests.identityTransform)}"#
        let assets = #"[{"id":"p","layers":[\#(Self.strokeLayer(dashes: (0, 1e-300)))]}]"#
        for tree in [true, false] {
            var renderer = try Self.renderer(layers: precomp, assets: assets)
            renderer.usesRenderTree = tree
            _ = renderer.render(frame: 0, viewport: Viewport(width: 50, height: 50))
            _ = renderer.render(frame: 1, viewport: Viewport(width: 50, height: 50))
            XCTAssertEqual(dashWarnings(renderer).count, 1, "render tree \(tree)")
            XCTAssertTrue(dashWarnings(renderer).first?.hasPrefix("at assets[0].layers[0].shapes[0].it[1]: ") == true, "\(dashWarnings(renderer))")
        }
    }
}
