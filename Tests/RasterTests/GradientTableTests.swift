@testable import Raster
import XCTest

/// The kept gradient colour tables (`GradientTables`) against tables made afresh.
final class GradientTableTests: XCTestCase {
    static func stops(_ r: inout FastPathTests.Random) -> [GradientStop] {
        (0..<Int(1 + r.next() % 4)).map { _ in
            GradientStop(offset: r.unit(), color: Color(r: r.unit(), g: r.unit(), b: r.unit(), a: r.unit()))
        }
    }

    func testAKeptTableIsAFreshTableWhileStopsHoldAndAfterTheyChange() {
        var r = FastPathTests.Random(state: 0x6AD1)
        var tables = GradientTables()
        var current = Self.stops(&r)
        for step in 0..<400 {
            // Stops hold still for a few steps, change, sometimes come back to earlier ones.
            if step % 3 == 0 { current = Self.stops(&r) }
            if step % 7 == 0, !current.isEmpty { current[0].color.r = r.unit() }
            XCTAssertEqual(tables.table(for: current), Shader.lookupTable(current), "step \(step)")
        }
        // Stops that differ only in the sign of zero, or hold NaN, still get their own table.
        let zero = [GradientStop(offset: 0, color: Color(r: 0, g: 1, b: 0))]
        let negativeZero = [GradientStop(offset: -0.0, color: Color(r: -0.0, g: 1, b: 0))]
        XCTAssertEqual(tables.table(for: zero), Shader.lookupTable(zero))
        XCTAssertEqual(tables.table(for: negativeZero), Shader.lookupTable(negativeZero))
        let notANumber = [GradientStop(offset: .nan, color: Color(r: .nan, g: 0.5, b: 0.5))]
        XCTAssertEqual(tables.table(for: notANumber), Shader.lookupTable(notANumber))
        XCTAssertEqual(tables.table(for: notANumber), Shader.lookupTable(notANumber))
    }

    /// An animated gradient drawn frame after frame on one surface (its tables kept) and on a
    /// surface that forgets them before every fill: the same bytes every frame.
    func testAGradientAnimationPaintsTheSameBytesWithAndWithoutKeptTables() {
        var r = FastPathTests.Random(state: 0xF4DE)
        var kept = Surface(width: 64, height: 48), fresh = Surface(width: 64, height: 48)
        var a = Self.stops(&r), b = Self.stops(&r)
        var style = StrokeStyle()
        style.width = 2
        for frame in 0..<60 {
            if frame % 5 == 0 { a = Self.stops(&r) }
            if frame % 11 == 0 { b = Self.stops(&r) }
            let path = FastPathTests.randomPath(&r, width: 64, height: 48)
            let paints: [Paint] = [
                .gradient(.linear(start: Point(0, 0), end: Point(64, 48), stops: a), .identity),
                .gradient(.radial(center: Point(32, 24), radius: 30, focal: Point(30, 20), stops: b), .identity),
                .gradient(.linear(start: Point(5, 5), end: Point(5, 5), stops: a), .identity),
            ]
            kept.clear(.clear); fresh.clear(.clear)
            for paint in paints {
                kept.fill(path, rule: .evenOdd, paint: paint, opacity: 0.85)
                kept.stroke(path, style: style, paint: paint)
                fresh.gradientTables = GradientTables()
                fresh.fill(path, rule: .evenOdd, paint: paint, opacity: 0.85)
                fresh.gradientTables = GradientTables()
                fresh.stroke(path, style: style, paint: paint)
            }
            XCTAssertEqual(kept.pixels, fresh.pixels, "frame \(frame)")
        }
    }
}

extension GradientTableTests {
    /// Bands keep their tables from frame to frame (`withBands`): a gradient animation drawn
    /// band by band paints what one plain surface paints.
    func testBandsKeepingTablesPaintAsAPlainSurface() {
        var r = FastPathTests.Random(state: 0xBA4D)
        var banded = Surface(width: 40, height: 40), plain = Surface(width: 40, height: 40)
        var stops = Self.stops(&r)
        for frame in 0..<30 {
            if frame % 4 == 0 { stops = Self.stops(&r) }
            let path = FastPathTests.randomPath(&r, width: 40, height: 40)
            let paint = Paint.gradient(.linear(start: Point(0, 0), end: Point(40, 30), stops: stops), .identity)
            banded.clear(.clear); plain.clear(.clear)
            banded.withBands([0..<13, 13..<40]) { parts in
                for i in parts.indices { parts[i].fill(path, paint: paint, opacity: 0.7) }
            }
            plain.gradientTables = GradientTables()
            plain.fill(path, paint: paint, opacity: 0.7)
            XCTAssertEqual(banded.pixels, plain.pixels, "frame \(frame)")
        }
    }
}
