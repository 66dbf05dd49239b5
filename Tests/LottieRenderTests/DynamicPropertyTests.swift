import LottieModel
import LottieRender
import Raster
import XCTest

/// Value providers bound by keypath change what is drawn, and only what they match.
final class DynamicPropertyTests: XCTestCase {
    let viewport = Viewport(width: 100, height: 100)

    func animation(layers: String) throws -> AnimationRenderer {
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":["# + layers + "]}"
        return AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil))
    }

    func boat() throws -> AnimationRenderer {
        let stroke = #"{"ty":"st","nm":"Stroke 1","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"lc":1,"lj":1},"#
        return try animation(layers: RenderBehaviourTests.rectLayer(name: "Boat", center: (50, 50), size: (20, 20), color: (1, 0, 0), items: stroke))
    }

    func pixel(_ r: AnimationRenderer, _ x: Int, _ y: Int, frame: Double = 0) -> UInt32 {
        r.render(frame: frame, viewport: viewport).pixels[y * 100 + x]
    }

    func testEveryProviderTypeChangesPixels() throws {
        var r = try boat()
        XCTAssertEqual(pixel(r, 50, 50), 0xFFFF_0000)
        // Colour.
        XCTAssertEqual(r.setValueProvider(ConstantValueProvider(RGBA(r: 0, g: 1, b: 0)), keypath: Keypath("Boat.g.f.Color")), 1)
        XCTAssertEqual(pixel(r, 50, 50), 0xFF00_FF00)
        // Number: fill opacity 0 hides the fill.
        r.setValueProvider(ConstantValueProvider(0.0), keypath: Keypath("**.f.Opacity"))
        XCTAssertEqual(pixel(r, 50, 50), 0)
        r.removeValueProviders(keypath: Keypath("**.f.Opacity"))
        XCTAssertEqual(pixel(r, 50, 50), 0xFF00_FF00, "removing a provider restores the value")
        // Point: the layer moves by its position.
        r.setValueProvider(ConstantValueProvider(Vec2(x: 30, y: 0)), keypath: Keypath("Boat.Transform.Position"))
        XCTAssertEqual(pixel(r, 85, 50), 0xFF00_FF00)
        XCTAssertEqual(pixel(r, 50, 50), 0)
        // Size: a wider rectangle.
        r.setValueProvider(ConstantValueProvider(Vec2(x: 80, y: 20)), keypath: Keypath("Boat.g.r.Size"))
        XCTAssertEqual(pixel(r, 50, 50), 0xFF00_FF00)
        // Stroke width and colour through a wildcard with spaces in names.
        r.setValueProvider(ConstantValueProvider(20.0), keypath: Keypath("**.Stroke 1.Stroke Width"))
        XCTAssertEqual(pixel(r, 79, 32), 0xFF00_00FF)
        // Path: a triangle instead of the rectangle's shape is drawn by a path item; a path
        // provider on a layer without paths matches nothing.
        XCTAssertEqual(r.setValueProvider(ConstantValueProvider(BezierPath(closed: true, vertices: [], inTangents: [], outTangents: [])),
                                          keypath: Keypath("**.Path")), 0)
    }

    func testPathAndGradientProviders() throws {
        let layer = """
        {"ty":4,"ind":1,"nm":"L","ip":0,"op":60,"st":0,\(RenderBehaviourTests.identityTransform),"shapes":[
          {"ty":"sh","nm":"P","ks":{"a":0,"k":{"c":true,"v":[[0,0],[10,0],[10,10]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}}},
          {"ty":"gf","nm":"G","o":{"a":0,"k":100},"t":1,"s":{"a":0,"k":[0,0]},"e":{"a":0,"k":[100,0]},
           "g":{"p":2,"k":{"a":0,"k":[0,1,0,0,1,1,0,0]}}}]}
        """
        var r = try animation(layers: layer)
        XCTAssertEqual(pixel(r, 50, 50), 0)
        let square = BezierPath(closed: true, vertices: [Vec2(x: 0, y: 0), Vec2(x: 100, y: 0), Vec2(x: 100, y: 100), Vec2(x: 0, y: 100)],
                                inTangents: Array(repeating: Vec2(x: 0, y: 0), count: 4), outTangents: Array(repeating: Vec2(x: 0, y: 0), count: 4))
        XCTAssertEqual(r.setValueProvider(ConstantValueProvider(square), keypath: Keypath("L.P.Path")), 1)
        XCTAssertEqual(pixel(r, 50, 50), 0xFFFF_0000)
        // Gradient stops: all blue.
        r.setValueProvider(ConstantValueProvider(GradientColors(colorCount: 2, raw: [0, 0, 0, 1, 1, 0, 0, 1])), keypath: Keypath("L.G.Colors"))
        XCTAssertEqual(pixel(r, 50, 50), 0xFF00_00FF)
    }

    func testInterpolatorEndpointsAreExactAndClosureFollowsFrames() throws {
        var r = try boat()
        let water = InterpolatorValueProvider(start: Vec2(x: 0, y: 0), end: Vec2(x: 0, y: -40))
        r.setValueProvider(water, keypath: Keypath("Boat.Transform.Position"))
        water.progress = 0
        XCTAssertEqual(r.animation.layers[0].transform.position.value(at: 0), Vec2(x: 0, y: 0))
        water.progress = 1
        XCTAssertEqual(r.animation.layers[0].transform.position.value(at: 0), Vec2(x: 0, y: -40))
        water.progress = 0.25
        XCTAssertEqual(r.animation.layers[0].transform.position.value(at: 0), Vec2(x: 0, y: -10))
        XCTAssertEqual(pixel(r, 50, 35), 0xFFFF_0000)
        XCTAssertEqual(pixel(r, 50, 55), 0)
        // A closure provider sees the frame.
        r.setValueProvider(ClosureValueProvider { frame in Vec2(x: frame, y: 0) }, keypath: Keypath("Boat.Transform.Position"))
        XCTAssertEqual(pixel(r, 50 + 25, 50, frame: 30), 0xFFFF_0000)
        XCTAssertEqual(pixel(r, 45, 50, frame: 30), 0)
    }

    func testLastProviderWinsAndVersionsChange() throws {
        var r = try boat()
        r.setValueProvider(ConstantValueProvider(RGBA(r: 0, g: 1, b: 0)), keypath: Keypath("**.Color"))
        let blue = ConstantValueProvider(RGBA(r: 0, g: 0, b: 1))
        r.setValueProvider(blue, keypath: Keypath("Boat.g.f.Color"))
        XCTAssertEqual(pixel(r, 50, 50), 0xFF00_00FF)
        let before = r.providersVersion
        blue.value = RGBA(r: 1, g: 1, b: 1)
        XCTAssertNotEqual(r.providersVersion, before, "a changed provider invalidates cached frames")
        XCTAssertEqual(pixel(r, 50, 50), 0xFFFF_FFFF)
        r.removeValueProviders(keypath: Keypath("Boat.g.f.Color"))
        XCTAssertEqual(pixel(r, 50, 50), 0xFF00_FF00, "the earlier provider applies again")
    }

    func testCoordinateConversionRoundTripsAndFollowsTheLayer() throws {
        var r = try boat()
        r.setValueProvider(ConstantValueProvider(Vec2(x: 10, y: 20)), keypath: Keypath("Boat.Transform.Position"))
        // Output 300x200, fit: scale 2, centred with 50 px on each side.
        let view = Viewport(width: 300, height: 200)
        let centre = try XCTUnwrap(r.convert(Point(150, 100), toLayerAt: Keypath("Boat"), frame: 0, viewport: view))
        XCTAssertEqual(centre.x, 40, accuracy: 1e-9)
        XCTAssertEqual(centre.y, 30, accuracy: 1e-9)
        let back = try XCTUnwrap(r.convert(centre, fromLayerAt: Keypath("Boat"), frame: 0, viewport: view))
        XCTAssertEqual(back.x, 150, accuracy: 1e-9)
        XCTAssertEqual(back.y, 100, accuracy: 1e-9)
        // "One screen height above the centre", in layer space, is 100 animation units up.
        let above = try XCTUnwrap(r.convert(Point(150, 100 - 200), toLayerAt: Keypath("Boat"), frame: 0, viewport: view))
        XCTAssertEqual(centre.y - above.y, 100, accuracy: 1e-9)
        XCTAssertNil(r.convert(Point(0, 0), toLayerAt: Keypath("Nope"), frame: 0, viewport: view))
    }

    func testKeypathListingCoversBoundProperties() throws {
        let r = try boat()
        let listed = AnimationRenderer.keypaths(of: r.animation)
        XCTAssertTrue(listed.contains { $0.keypath == "Boat" && $0.type == nil })
        XCTAssertTrue(listed.contains { $0.keypath == "Boat.Transform.Position" && $0.type == "Vec2" })
        XCTAssertTrue(listed.contains { $0.keypath == "Boat.g.Stroke 1.Stroke Width" && $0.type == "Double" })
        XCTAssertTrue(listed.contains { $0.keypath == "Boat.g.f.Color" && $0.type == "RGBA" })
    }
}

final class RedrawTests: XCTestCase {
    func testOnlyChangesRedraw() throws {
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":["# + RenderBehaviourTests.rectLayer(name: "Boat", center: (50, 50), size: (20, 20), color: (1, 0, 0)) + "]}"
        var r = AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "t", baseDirectory: nil))
        let viewport = Viewport(width: 100, height: 100)
        var surface = Surface(width: 100, height: 100)
        let level = InterpolatorValueProvider(start: 0.0, end: 100.0, progress: 1)
        r.setValueProvider(level, keypath: Keypath("Boat.Transform.Opacity"))
        XCTAssertTrue(r.renderIfChanged(frame: 3, viewport: viewport, into: &surface))
        XCTAssertFalse(r.renderIfChanged(frame: 3, viewport: viewport, into: &surface))
        level.progress = 0.5
        XCTAssertTrue(r.renderIfChanged(frame: 3, viewport: viewport, into: &surface))
        XCTAssertEqual(surface.pixels[50 * 100 + 50] >> 24, 128)
        // Nothing in this file moves and the provider does not read the frame: frame 4 is the
        // same picture as frame 3 (TimeDependenceTests).
        XCTAssertFalse(r.renderIfChanged(frame: 4, viewport: viewport, into: &surface))
    }
}

extension DynamicPropertyTests {
    /// A provider marks only the layer it drives dirty: after a change of its value, the next
    /// render evaluates that layer's shapes again and reuses the others'; a transform provider
    /// re-evaluates no shapes at all. What is drawn is what a fresh renderer draws.
    func testAProviderChangeReevaluatesOnlyWhatItDrives() throws {
        let layers = [RenderBehaviourTests.rectLayer(index: 1, name: "Left", center: (25, 50), size: (20, 20), color: (1, 0, 0)),
                      RenderBehaviourTests.rectLayer(index: 2, name: "Right", center: (75, 50), size: (20, 20), color: (0, 0, 1))]
        var r = try animation(layers: layers.joined(separator: ","))
        let colour = InterpolatorValueProvider(start: RGBA(r: 1, g: 0, b: 0), end: RGBA(r: 0, g: 1, b: 0))
        XCTAssertEqual(r.setValueProvider(colour, keypath: Keypath("Left.**.Color")), 1)
        let position = ConstantValueProvider(Vec2(x: 0, y: 0))
        XCTAssertEqual(r.setValueProvider(position, keypath: Keypath("Right.Transform.Position")), 1)
        var surface = Surface(width: 100, height: 100)

        XCTAssertTrue(r.renderIfChanged(frame: 5, viewport: viewport, into: &surface))
        XCTAssertEqual(r.shapeEvaluations.evaluated, 2)
        XCTAssertEqual(surface.pixels[50 * 100 + 25], 0xFFFF_0000)

        // The colour changes: Left is evaluated again, Right is reused.
        colour.progress = 1
        XCTAssertTrue(r.renderIfChanged(frame: 5, viewport: viewport, into: &surface))
        XCTAssertEqual(r.shapeEvaluations.evaluated, 3)
        XCTAssertEqual(r.shapeEvaluations.reused, 1)
        XCTAssertEqual(surface.pixels[50 * 100 + 25], 0xFF00_FF00)

        // Right's position changes: its transform moves it, no shapes are evaluated.
        position.value = Vec2(x: 0, y: -30)
        XCTAssertTrue(r.renderIfChanged(frame: 5, viewport: viewport, into: &surface))
        XCTAssertEqual(r.shapeEvaluations.evaluated, 3)
        XCTAssertEqual(r.shapeEvaluations.reused, 3)
        XCTAssertEqual(surface.pixels[50 * 100 + 75], 0)
        XCTAssertEqual(surface.pixels[20 * 100 + 75], 0xFF00_00FF)

        // The cached shapes draw exactly what evaluating everything anew draws.
        var fresh = try animation(layers: layers.joined(separator: ","))
        fresh.setValueProvider(ConstantValueProvider(RGBA(r: 0, g: 1, b: 0)), keypath: Keypath("Left.**.Color"))
        fresh.setValueProvider(ConstantValueProvider(Vec2(x: 0, y: -30)), keypath: Keypath("Right.Transform.Position"))
        XCTAssertEqual(fresh.render(frame: 5, viewport: viewport).pixels, surface.pixels)

        // A new frame of a file where nothing moves is the same picture: nothing is evaluated
        // or drawn again. Binding a provider starts afresh.
        XCTAssertFalse(r.renderIfChanged(frame: 6, viewport: viewport, into: &surface))
        XCTAssertEqual(r.shapeEvaluations.evaluated, 3)
        r.removeValueProviders(keypath: Keypath("Left.**.Color"))
        XCTAssertEqual(r.shapeEvaluations.evaluated, 0)
        XCTAssertTrue(r.renderIfChanged(frame: 6, viewport: viewport, into: &surface))
        XCTAssertEqual(surface.pixels[50 * 100 + 25], 0xFFFF_0000)
    }
}
