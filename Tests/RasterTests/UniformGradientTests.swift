@testable import Raster
import XCTest

/// A gradient whose stops are all one colour is stored without the gradient's arithmetic, and
/// at full opacity painted as a solid colour (the fast path): the same pixels as
/// `referenceFill`, which shades it pixel by pixel.
final class UniformGradientTests: XCTestCase {
    static func stops(_ colors: [Color]) -> [GradientStop] {
        colors.enumerated().map { GradientStop(offset: Double($0.offset) / Double(max(1, colors.count - 1)), color: $0.element) }
    }

    func testAUniformGradientPaintsAsTheShadedOne() {
        let pink = Color(r: 0.89, g: 0.11, b: 0.373, a: 1), veiled = Color(r: 0.2, g: 0.7, b: 0.4, a: 0.55)
        var ring = Path()
        ring.addEllipse(in: Rect(x: 6.5, y: 4.25, width: 70, height: 58))
        ring.addEllipse(in: Rect(x: 20.5, y: 16.25, width: 40, height: 30))
        for color in [pink, veiled] {
            for gradient in [Gradient.linear(start: Point(3, 4), end: Point(70, 50), stops: Self.stops([color, color, color])),
                             Gradient.radial(center: Point(40, 30), radius: 35, focal: Point(30, 25), stops: Self.stops([color, color]))] {
                let paint = Paint.gradient(gradient, Transform(a: 1.2, b: 0.1, c: -0.2, d: 0.9, tx: 2, ty: 1))
                XCTAssertNotNil(Shader(paint: paint, pathToDevice: .identity).uniform)
                XCTAssertNil(Shader(paint: paint, pathToDevice: .identity, uniformAsSolid: false).uniform)
                for (rule, opacity) in [(FillRule.evenOdd, 1.0), (.nonZero, 0.6)] {
                    var fast = Surface(width: 84, height: 70), reference = Surface(width: 84, height: 70)
                    fast.clear(Color(r: 0.1, g: 0.3, b: 0.9, a: 1)); reference.clear(Color(r: 0.1, g: 0.3, b: 0.9, a: 1))
                    fast.fill(ring, rule: rule, paint: paint, opacity: opacity)
                    reference.referenceFill(ring, rule: rule, paint: paint, opacity: opacity)
                    XCTAssertEqual(fast.pixels, reference.pixels, "\(gradient) \(rule) \(opacity)")
                    XCTAssertNotEqual(fast.pixels, Surface(width: 84, height: 70).pixels)
                }
            }
        }
    }

    func testTwoColoursStayAGradient() {
        let stops = Self.stops([Color(r: 1, g: 0, b: 0, a: 1), Color(r: 1, g: 0, b: 0.01, a: 1)])
        let paint = Paint.gradient(.linear(start: Point(0, 0), end: Point(100, 0), stops: stops), .identity)
        XCTAssertNil(Shader(paint: paint, pathToDevice: .identity).uniform)
    }
}
