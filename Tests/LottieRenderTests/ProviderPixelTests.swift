import Foundation
import LottieModel
import LottieRender
import Raster
import XCTest

/// Providers for the transform, trim, stroke and gradient properties change the rendered
/// pixels the way the property means; interpolators are exact at their endpoints.
final class ProviderPixelTests: XCTestCase {
    let viewport = Viewport(width: 100, height: 100)

    func renderer(_ layers: String...) throws -> AnimationRenderer {
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":["# + layers.joined(separator: ",") + "]}"
        return AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "test.json", baseDirectory: nil))
    }

    func render(_ r: AnimationRenderer, frame: Double = 0) -> Surface { r.render(frame: frame, viewport: viewport) }

    func pixel(_ s: Surface, _ x: Int, _ y: Int) -> UInt32 { s.pixels[y * s.width + x] }

    /// A layer whose transform has anchor and position at the centre (50, 50), so scale and
    /// rotation act about the centre.
    static let centredTransform = #""ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[50,50]},"a":{"a":0,"k":[50,50]},"s":{"a":0,"k":[100,100]}}"#

    /// A horizontal line (10, 50) → (90, 50), stroked 10 wide in blue with butt caps, under a
    /// trim that leaves it whole.
    static let trimmedLine = """
    {"ty":4,"ind":1,"nm":"L","ip":0,"op":60,"st":0,\(RenderBehaviourTests.identityTransform),"shapes":[{"ty":"gr","nm":"g","it":[
      {"ty":"sh","nm":"P","ks":{"a":0,"k":{"c":false,"v":[[10,50],[90,50]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]]}}},
      {"ty":"tm","nm":"Trim","s":{"a":0,"k":0},"e":{"a":0,"k":100},"o":{"a":0,"k":0},"m":1},
      {"ty":"st","nm":"Stroke 1","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":10},"lc":1,"lj":1},
      {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
    """

    /// The whole 100x100 area filled with a linear gradient, red at (0, 0) to blue at (100, 0).
    static let gradientSquare = """
    {"ty":4,"ind":1,"nm":"L","ip":0,"op":60,"st":0,\(RenderBehaviourTests.identityTransform),"shapes":[{"ty":"gr","nm":"g","it":[
      {"ty":"rc","nm":"r","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0}},
      {"ty":"gf","nm":"G","o":{"a":0,"k":100},"t":1,"s":{"a":0,"k":[0,0]},"e":{"a":0,"k":[100,0]},"g":{"p":2,"k":{"a":0,"k":[0,1,0,0,1,0,0,1]}}},
      {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
    """

    func red(_ p: UInt32) -> Int { Int((p >> 16) & 0xFF) }
    func blue(_ p: UInt32) -> Int { Int(p & 0xFF) }

    func testScaleRotationAndAnchorPointMoveThePixels() throws {
        // A 40x10 red bar across the centre (30...70 × 45...55).
        let layer = RenderBehaviourTests.rectLayer(name: "Bar", center: (50, 50), size: (40, 10), color: (1, 0, 0),
                                                   transform: Self.centredTransform)
        let plain = render(try renderer(layer))
        XCTAssertEqual(pixel(plain, 31, 50), 0xFFFF_0000)
        XCTAssertEqual(pixel(plain, 25, 50), 0)
        XCTAssertEqual(pixel(plain, 50, 40), 0)

        // Scale 200 % about the centre: 10...90 × 40...60.
        var scaled = try renderer(layer)
        XCTAssertEqual(scaled.setValueProvider(ConstantValueProvider(Vec2(x: 200, y: 200)), keypath: Keypath("Bar.Transform.Scale")), 1)
        let s = render(scaled)
        XCTAssertEqual(pixel(s, 11, 50), 0xFFFF_0000)
        XCTAssertEqual(pixel(s, 50, 41), 0xFFFF_0000)
        XCTAssertEqual(pixel(s, 9, 50), 0)
        XCTAssertEqual(s.pixels.filter { $0 == 0xFFFF_0000 }.count, 80 * 20)

        // Rotation 90°: the bar stands upright, 45...55 × 30...70.
        var rotated = try renderer(layer)
        XCTAssertEqual(rotated.setValueProvider(ConstantValueProvider(90.0), keypath: Keypath("Bar.Transform.Rotation")), 1)
        let r = render(rotated)
        XCTAssertEqual(pixel(r, 50, 31), 0xFFFF_0000)
        XCTAssertEqual(pixel(r, 50, 68), 0xFFFF_0000)
        XCTAssertEqual(pixel(r, 31, 50), 0)
        XCTAssertEqual(r.pixels.filter { $0 == 0xFFFF_0000 }.count, 10 * 40)

        // Anchor point 20 to the left of the centre: the content moves 20 to the right.
        var anchored = try renderer(layer)
        XCTAssertEqual(anchored.setValueProvider(ConstantValueProvider(Vec2(x: 30, y: 50)), keypath: Keypath("Bar.Transform.Anchor Point")), 1)
        let a = render(anchored)
        XCTAssertEqual(pixel(a, 51, 50), 0xFFFF_0000)
        XCTAssertEqual(pixel(a, 88, 50), 0xFFFF_0000)
        XCTAssertEqual(pixel(a, 48, 50), 0)
        // Scale and anchor together: scaling about the new anchor (30, 50) puts 30...70 at 50...130.
        anchored.setValueProvider(ConstantValueProvider(Vec2(x: 200, y: 100)), keypath: Keypath("Bar.Transform.Scale"))
        let both = render(anchored)
        XCTAssertEqual(pixel(both, 51, 50), 0xFFFF_0000)
        XCTAssertEqual(pixel(both, 99, 50), 0xFFFF_0000)
        XCTAssertEqual(pixel(both, 49, 50), 0)
    }

    func testTrimStartEndAndOffsetCutTheStroke() throws {
        let whole = render(try renderer(Self.trimmedLine))
        XCTAssertEqual(pixel(whole, 11, 50), 0xFF00_00FF)
        XCTAssertEqual(pixel(whole, 88, 50), 0xFF00_00FF)
        XCTAssertEqual(whole.pixels.filter { $0 == 0xFF00_00FF }.count, 80 * 10)

        // Each row: start %, end %, offset °, and the x range that stays drawn (the line runs
        // from x 10 to 90, 0.8 px per per cent).
        let table: [(Double?, Double?, Double?, ClosedRange<Int>)] = [
            (nil, 50, nil, 10...49),
            (50, nil, nil, 50...89),
            (25, 75, nil, 30...69),
            (0, 50, 180, 50...89),       // half a turn of offset: the first half becomes the second
            (0, 25, 90, 30...49),
        ]
        for (start, end, offset, drawn) in table {
            var r = try renderer(Self.trimmedLine)
            if let start { XCTAssertEqual(r.setValueProvider(ConstantValueProvider(start), keypath: Keypath("L.g.Trim.Start")), 1) }
            if let end { XCTAssertEqual(r.setValueProvider(ConstantValueProvider(end), keypath: Keypath("L.g.Trim.End")), 1) }
            if let offset { XCTAssertEqual(r.setValueProvider(ConstantValueProvider(offset), keypath: Keypath("L.g.Trim.Offset")), 1) }
            let s = render(r)
            let label = "start \(start ?? 0) end \(end ?? 100) offset \(offset ?? 0)"
            for x in 10..<90 {
                XCTAssertEqual(pixel(s, x, 50), drawn.contains(x) ? 0xFF00_00FF : 0, "\(label) at x \(x)")
            }
            XCTAssertEqual(s.pixels.filter { $0 == 0xFF00_00FF }.count, drawn.count * 10, label)
        }
    }

    func testStrokeColourProvider() throws {
        var r = try renderer(Self.trimmedLine)
        XCTAssertEqual(r.setValueProvider(ConstantValueProvider(RGBA(r: 0, g: 1, b: 0)), keypath: Keypath("**.Stroke 1.Color")), 1)
        let s = render(r)
        XCTAssertEqual(pixel(s, 50, 50), 0xFF00_FF00)
        XCTAssertEqual(s.pixels.filter { $0 == 0xFF00_FF00 }.count, 80 * 10)
        XCTAssertEqual(s.pixels.filter { $0 == 0xFF00_00FF }.count, 0)
    }

    func testGradientStartAndEndPointProviders() throws {
        let plain = render(try renderer(Self.gradientSquare))
        XCTAssertGreaterThan(red(pixel(plain, 5, 50)), 230)
        XCTAssertGreaterThan(blue(pixel(plain, 95, 50)), 230)

        // Start and end swapped: blue on the left, red on the right.
        var swapped = try renderer(Self.gradientSquare)
        XCTAssertEqual(swapped.setValueProvider(ConstantValueProvider(Vec2(x: 100, y: 0)), keypath: Keypath("L.g.G.Start Point")), 1)
        XCTAssertEqual(swapped.setValueProvider(ConstantValueProvider(Vec2(x: 0, y: 0)), keypath: Keypath("L.g.G.End Point")), 1)
        let s = render(swapped)
        XCTAssertGreaterThan(blue(pixel(s, 5, 50)), 230)
        XCTAssertGreaterThan(red(pixel(s, 95, 50)), 230)
        for x in 0..<100 { XCTAssertEqual(pixel(s, x, 50), pixel(plain, 99 - x, 50), "mirrored at x \(x)") }

        // End point moved to x 20: everything to its right is the end colour.
        var short = try renderer(Self.gradientSquare)
        short.setValueProvider(ConstantValueProvider(Vec2(x: 20, y: 0)), keypath: Keypath("L.g.G.End Point"))
        let e = render(short)
        XCTAssertEqual(pixel(e, 30, 50), 0xFF00_00FF)
        XCTAssertEqual(pixel(e, 90, 10), 0xFF00_00FF)
        XCTAssertNotEqual(pixel(plain, 30, 50), 0xFF00_00FF)
        // A vertical gradient: the colour changes down a column, not along a row.
        var vertical = try renderer(Self.gradientSquare)
        vertical.setValueProvider(ConstantValueProvider(Vec2(x: 0, y: 100)), keypath: Keypath("L.g.G.End Point"))
        let v = render(vertical)
        XCTAssertEqual(pixel(v, 5, 50), pixel(v, 95, 50))
        XCTAssertGreaterThan(red(pixel(v, 50, 5)), 230)
        XCTAssertGreaterThan(blue(pixel(v, 50, 95)), 230)
    }

    /// Interpolators give exactly `start` at progress 0 and exactly `end` at progress 1, for
    /// values where a + (b − a)·1 would not round back to b.
    func testInterpolatorEndpointsAreExactForPathGradientAndSize() throws {
        func path(_ xs: [Double]) -> BezierPath {
            BezierPath(closed: true, vertices: xs.enumerated().map { Vec2(x: $0.element, y: [0.1, 0.3, 90.7][$0.offset]) },
                       inTangents: Array(repeating: Vec2(x: 0, y: 0), count: xs.count),
                       outTangents: Array(repeating: Vec2(x: 0.3, y: 0.1), count: xs.count))
        }
        let p0 = path([0.1, 90.3, 0.7]), p1 = path([0.7, 99.9, 0.1])
        let paths = InterpolatorValueProvider(start: p0, end: p1)
        let g0 = GradientColors(colorCount: 2, raw: [0, 0.1, 0.2, 0.3, 1, 0.7, 0.1, 0.3])
        let g1 = GradientColors(colorCount: 2, raw: [0, 0.7, 0.3, 0.1, 1, 0.1, 0.9, 0.7])
        let gradients = InterpolatorValueProvider(start: g0, end: g1)
        let s0 = Vec2(x: 0.7, y: 99.9), s1 = Vec2(x: 0.1, y: 0.3)
        let sizes = InterpolatorValueProvider(start: s0, end: s1)
        // The test values are ones where plain interpolation at 1 misses the end.
        XCTAssertNotEqual(0.7 + (0.1 - 0.7) * 1.0, 0.1)
        XCTAssertNotEqual(99.9 + (0.3 - 99.9) * 1.0, 0.3)
        for (progress, path, gradient, size) in [(0.0, p0, g0, s0), (1.0, p1, g1, s1), (-3, p0, g0, s0), (7, p1, g1, s1)] {
            paths.progress = progress
            gradients.progress = progress
            sizes.progress = progress
            XCTAssertEqual(paths.value(at: 12), path)
            XCTAssertEqual(gradients.value(at: 12), gradient)
            XCTAssertEqual(sizes.value(at: 12), size)
        }

        // Rendered: at each end the interpolator draws exactly what a constant draws, and the
        // two ends differ.
        let square = BezierPath(closed: true, vertices: [Vec2(x: 10, y: 10), Vec2(x: 90, y: 10), Vec2(x: 90, y: 90), Vec2(x: 10, y: 90)],
                                inTangents: Array(repeating: Vec2(x: 0, y: 0), count: 4), outTangents: Array(repeating: Vec2(x: 0, y: 0), count: 4))
        let triangle = BezierPath(closed: true, vertices: [Vec2(x: 10, y: 10), Vec2(x: 90, y: 10), Vec2(x: 10, y: 90), Vec2(x: 10, y: 90)],
                                  inTangents: Array(repeating: Vec2(x: 0, y: 0), count: 4), outTangents: Array(repeating: Vec2(x: 0, y: 0), count: 4))
        let layer = """
        {"ty":4,"ind":1,"nm":"L","ip":0,"op":60,"st":0,\(RenderBehaviourTests.identityTransform),"shapes":[
          {"ty":"sh","nm":"P","ks":{"a":0,"k":{"c":true,"v":[[0,0],[10,0],[10,10]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}}},
          {"ty":"rc","nm":"R","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[10,10]},"r":{"a":0,"k":0}},
          {"ty":"gf","nm":"G","o":{"a":0,"k":100},"t":1,"s":{"a":0,"k":[0,0]},"e":{"a":0,"k":[100,0]},
           "g":{"p":2,"k":{"a":0,"k":[0,1,0,0,1,1,0,0]}}}]}
        """
        let redToBlue = GradientColors(colorCount: 2, raw: [0, 1, 0, 0, 1, 0, 0, 1])
        let greenToWhite = GradientColors(colorCount: 2, raw: [0, 0, 1, 0, 1, 1, 1, 1])
        let pathMove = InterpolatorValueProvider(start: square, end: triangle)
        let colourMove = InterpolatorValueProvider(start: redToBlue, end: greenToWhite)
        let sizeMove = InterpolatorValueProvider(start: Vec2(x: 0, y: 0), end: Vec2(x: 100, y: 100))
        var moving = try renderer(layer)
        XCTAssertEqual(moving.setValueProvider(pathMove, keypath: Keypath("L.P.Path")), 1)
        XCTAssertEqual(moving.setValueProvider(colourMove, keypath: Keypath("L.G.Colors")), 1)
        XCTAssertEqual(moving.setValueProvider(sizeMove, keypath: Keypath("L.R.Size")), 1)
        var rendered: [Surface] = []
        for (progress, path, colours, size) in [(0.0, square, redToBlue, Vec2(x: 0, y: 0)), (1.0, triangle, greenToWhite, Vec2(x: 100, y: 100))] {
            pathMove.progress = progress
            colourMove.progress = progress
            sizeMove.progress = progress
            var constant = try renderer(layer)
            constant.setValueProvider(ConstantValueProvider(path), keypath: Keypath("L.P.Path"))
            constant.setValueProvider(ConstantValueProvider(colours), keypath: Keypath("L.G.Colors"))
            constant.setValueProvider(ConstantValueProvider(size), keypath: Keypath("L.R.Size"))
            let drawn = render(moving)
            XCTAssertEqual(drawn.pixels, render(constant).pixels, "progress \(progress)")
            rendered.append(drawn)
        }
        XCTAssertNotEqual(rendered[0].pixels, rendered[1].pixels)
        // The size alone: the full square at 1 covers the corner the triangle leaves out.
        XCTAssertEqual(pixel(rendered[1], 95, 95) >> 24, 0xFF)
        XCTAssertEqual(pixel(rendered[0], 95, 95), 0)
    }
}
