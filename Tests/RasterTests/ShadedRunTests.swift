@testable import Raster
import XCTest

/// Gradients and images painted run by run (`Surface.paintConstantRun`: a constant run's
/// coverage folded into the opacity, an opaque gradient shaded straight into the row) must
/// give the pixels of `referenceFill`, which paints every row through its coverage bytes.
final class ShadedRunTests: XCTestCase {
    typealias Random = FastPathTests.Random

    static func randomStops(_ r: inout Random, opaque: Bool) -> [GradientStop] {
        (0..<(2 + Int(r.next() % 3))).map { _ in
            GradientStop(offset: r.unit(), color: Color(r: r.unit(), g: r.unit(), b: r.unit(), a: opaque ? 1 : r.unit()))
        }
    }

    /// A linear or radial gradient (opaque or not, steep or slow) or a filtered image.
    static func randomPaint(_ r: inout Random, round: Int, width w: Double, height h: Double) -> Paint {
        let stops = Self.randomStops(&r, opaque: round % 3 != 2)
        let transform = round % 4 == 3 ? Transform(a: 0.8, b: 0.3, c: -0.3, d: 0.9, tx: 5, ty: -3) : .identity
        switch round % 5 {
        case 0, 1:
            return .gradient(.linear(start: Point(r.unit() * w, r.unit() * h), end: Point(r.unit() * w, r.unit() * h), stops: stops), transform)
        case 2:
            // Slow along the row (entries many pixels wide) and vertical (one colour a row).
            return .gradient(.linear(start: Point(0, 0), end: Point(round % 2 == 0 ? w * 4 : 0, h), stops: stops), transform)
        case 3:
            let center = Point(r.unit() * w, r.unit() * h)
            return .gradient(.radial(center: center, radius: 10 + r.unit() * w, focal: center, stops: stops), transform)
        default:
            let pixels = (0..<(16 * 16)).map { _ in KernelSamples.randomPixel(&r) }
            return .image(Image(width: 16, height: 16, pixels: pixels), Transform(a: 6, b: 1, c: -1, d: 5, tx: 3, ty: 2))
        }
    }

    func testShadedFillsMatchTheReferenceToTheBit() {
        var r = Random(state: 41)
        var opaqueRounds = 0
        for round in 0..<60 {
            let (w, h) = (90 + Int(r.next() % 120), 60 + Int(r.next() % 80))
            let paint = Self.randomPaint(&r, round: round, width: Double(w), height: Double(h))
            if Shader(paint: paint, pathToDevice: .identity).isOpaqueGradient { opaqueRounds += 1 }
            let opacity = round % 2 == 0 ? 1 : 0.2 + r.unit() * 0.8
            var fast = Surface(width: w, height: h, clearColor: Color(r: 0.2, g: 0.3, b: 0.4, a: round % 3 == 0 ? 1 : 0.5))
            var reference = fast
            // Large shapes, so that rows have long inside runs of full coverage.
            var path = FastPathTests.randomPath(&r, width: Double(w), height: Double(h))
            path.move(to: Point(3, 2)); path.line(to: Point(Double(w) - 4, 5)); path.line(to: Point(Double(w) - 9, Double(h) - 3))
            path.line(to: Point(6, Double(h) - 6)); path.close()
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            fast.fill(path, rule: rule, paint: paint, opacity: opacity)
            reference.referenceFill(path, rule: rule, paint: paint, opacity: opacity)
            XCTAssertEqual(fast.pixels, reference.pixels, "round \(round)")
        }
        XCTAssertGreaterThan(opaqueRounds, 15, "opaque gradients must be among the paints")
    }

    /// The sweep that paints as it goes (`paintSwept`) takes the same constant runs.
    func testSweptPaintsMatchTheReferenceToTheBit() {
        var r = Random(state: 43)
        for round in 0..<40 {
            let (w, h) = (90 + Int(r.next() % 120), 60 + Int(r.next() % 80))
            let paint: Paint = round % 2 == 0 ? Self.randomPaint(&r, round: round / 2, width: Double(w), height: Double(h))
                : .solid(Color(r: r.unit(), g: r.unit(), b: r.unit(), a: round % 4 == 1 ? 1 : r.unit()))
            let opacity = round % 3 == 0 ? 1 : 0.2 + r.unit() * 0.8
            var fast = Surface(width: w, height: h, clearColor: Color(r: 0.2, g: 0.3, b: 0.4, a: 0.5))
            var reference = fast
            var path = FastPathTests.randomPath(&r, width: Double(w), height: Double(h))
            path.move(to: Point(3, 2)); path.line(to: Point(Double(w) - 4, 5)); path.line(to: Point(Double(w) - 9, Double(h) - 3))
            path.close()
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            fast.paintSwept(path, rule: rule, limit: fast.bounds, shader: Shader(paint: paint, pathToDevice: .identity), opacity: opacity, clip: nil)
            reference.referenceFill(path, rule: rule, paint: paint, opacity: opacity)
            XCTAssertEqual(fast.pixels, reference.pixels, "round \(round)")
        }
    }

    func testAGradientIsOpaqueOnlyWhenEveryColourIs() {
        let opaque = [GradientStop(offset: 0, color: Color(r: 1, g: 0, b: 0)), GradientStop(offset: 1, color: Color(r: 0, g: 0, b: 1))]
        var translucent = opaque
        translucent[1] = GradientStop(offset: 1, color: Color(r: 0, g: 0, b: 1, a: 0.99))
        let linear = { (stops: [GradientStop]) in Paint.gradient(.linear(start: Point(0, 0), end: Point(10, 0), stops: stops), .identity) }
        XCTAssertTrue(Shader(paint: linear(opaque), pathToDevice: .identity).isOpaqueGradient)
        XCTAssertFalse(Shader(paint: linear(translucent), pathToDevice: .identity).isOpaqueGradient)
        XCTAssertFalse(Shader(paint: .solid(Color(r: 1, g: 1, b: 1)), pathToDevice: .identity).isOpaqueGradient)
    }
}
