import Foundation
import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// A frame drawn in bands on several threads has exactly the pixels of one thread.
final class ThreadedRenderTests: XCTestCase {
    /// Corpus files with masks, mattes, precomps, gradients, images (one drawn at several sizes
    /// in a frame: issue_1800), drop shadows and text.
    static let samples = ["LottieLogo1_masked.json", "LottieFiles/dog_car_ride.json", "Issues/issue_1169_shadow_effect.json",
                          "TypeFace/A.json", "Issues/issue_1932.json",
                          "Issues/issue_1800.json"]

    func testBandsOnSeveralThreadsGiveTheSamePixelsAsOneThread() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var compared = 0
        for name in Self.samples {
            let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            var renderer = AnimationRenderer(animation: try Animation.load(path: url.path))
            let anim = renderer.animation
            for (viewport, progress) in [(Viewport(width: 203, height: 311, contentMode: .fit), 0.37),
                                         (Viewport(width: 320, height: 180, contentMode: .fill), 0.71)] {
                let frame = anim.inPoint + (anim.outPoint - anim.inPoint) * progress
                renderer.threads = 1
                let one = renderer.render(frame: frame, viewport: viewport, background: .clear)
                for threads in [2, 3, 4, 5] {
                    renderer.threads = threads
                    // The cuts move now and then (balanced by the time each band took):
                    // every placement draws the same pixels.
                    for pass in 0..<(BandLayout.window + 1) {
                        var banded = Surface(width: viewport.width, height: viewport.height)
                        renderer.render(frame: frame, viewport: viewport, into: &banded)
                        let differing = zip(one.pixels, banded.pixels).filter { $0 != $1 }.count
                        XCTAssertEqual(differing, 0, "\(name) \(viewport.width)x\(viewport.height), \(threads) threads, pass \(pass)")
                    }
                }
                XCTAssertTrue(one.pixels.contains { $0 != 0 }, "\(name) draws something")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 6)
    }

    /// Bands cut unevenly, as the balancing leaves them, draw what one thread draws, into a
    /// surface that already holds a frame (so clearing by the painted region is covered too).
    func testUnevenBandsGiveTheSamePixelsAsOneThread() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent("LottieLogo1_masked.json")
        var renderer = AnimationRenderer(animation: try Animation.load(path: url.path))
        let viewport = Viewport(width: 240, height: 200, contentMode: .fill)
        let anim = renderer.animation
        var banded = Surface(width: viewport.width, height: viewport.height)
        for (i, progress) in [0.2, 0.5, 0.8].enumerated() {
            let frame = anim.inPoint + (anim.outPoint - anim.inPoint) * progress
            renderer.threads = 1
            let one = renderer.render(frame: frame, viewport: viewport)
            renderer.threads = 3
            // Teach the layout that one band (another each time) is very dear, then draw
            // with the cuts it moves to.
            let bands = renderer.bandLayout.bands(of: banded.bounds, count: 3)
            var seconds = [0.0, 0, 0]
            seconds[i] = 1
            // (As many frames as it takes the layout to find that moving pays.)
            for _ in 0..<50 where renderer.bandLayout.bands(of: banded.bounds, count: 3) == bands {
                renderer.bandLayout.record(bands, seconds: seconds)
            }
            XCTAssertNotEqual(renderer.bandLayout.bands(of: banded.bounds, count: 3).map(\.y0), bands.map(\.y0))
            renderer.render(frame: frame, viewport: viewport, into: &banded)
            XCTAssertEqual(zip(one.pixels, banded.pixels).filter { $0 != $1 }.count, 0, "progress \(progress)")
        }
    }
}
