import Foundation
import LottieModel
import Raster
import XCTest
import LottieRender

/// A surface made in the background colour (what `render(frame:viewport:background:)` and the
/// player's frame worker do, so the first clear fills nothing again) draws the same frames
/// as a transparent new surface cleared by the first frame (the reference), pixel for pixel,
/// and is left in the same state (clear colour, drawn region) for the frames after.
final class FirstClearTests: XCTestCase {
    func testASurfaceMadeInTheBackgroundDrawsAsOneClearedByTheFirstFrame() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        let samples = CorpusPaths.corpus.appendingPathComponent("samples")
        guard let walker = FileManager.default.enumerator(atPath: samples.path) else { return XCTFail("no samples") }
        let names = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
        let backgrounds = [Color.black, Color(r: 0.1, g: 0.3, b: 0.2, a: 0.5), Color.clear, Color.white]
        var compared = 0
        for (n, name) in names.enumerated() where n % 4 == 0 {
            guard let animation = try? Animation.load(path: samples.appendingPathComponent(name).path) else { continue }
            let renderer = AnimationRenderer(animation: animation)
            let viewport = Viewport(width: 120, height: 90, contentMode: .fit)
            let background = backgrounds[n / 4 % backgrounds.count]
            let middle = (animation.inPoint + animation.outPoint) / 2
            var made = renderer.render(frame: animation.inPoint, viewport: viewport, background: background)
            var reference = Surface(width: viewport.width, height: viewport.height)
            renderer.render(frame: animation.inPoint, viewport: viewport, background: background, into: &reference)
            for frame in [middle, animation.inPoint + 1] {
                XCTAssertEqual(made.pixels, reference.pixels, "\(name) before frame \(frame)")
                XCTAssertEqual(made.clearValue, reference.clearValue, name)
                XCTAssertEqual(made.drawnRegion.union, reference.drawnRegion.union, name)
                renderer.render(frame: frame, viewport: viewport, background: background, into: &made)
                renderer.render(frame: frame, viewport: viewport, background: background, into: &reference)
            }
            XCTAssertEqual(made.pixels, reference.pixels, "\(name) last frame")
            compared += 1
        }
        XCTAssertGreaterThan(compared, 20)
    }
}
