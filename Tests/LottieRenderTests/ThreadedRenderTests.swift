import Foundation
import LottieModel
import LottieRender
import Raster
import XCTest

/// A frame drawn in bands on several threads has exactly the pixels of one thread.
final class ThreadedRenderTests: XCTestCase {
    /// Corpus files with masks, mattes, precomps, gradients, images, drop shadows and text.
    static let samples = ["LottieLogo1_masked.json", "LottieFiles/dog_car_ride.json", "Issues/issue_1169_shadow_effect.json",
                          "TypeFace/A.json", "Issues/issue_1932.json"]

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
                for threads in [2, 5] {
                    renderer.threads = threads
                    var banded = Surface(width: viewport.width, height: viewport.height)
                    renderer.render(frame: frame, viewport: viewport, into: &banded)
                    let differing = zip(one.pixels, banded.pixels).filter { $0 != $1 }.count
                    XCTAssertEqual(differing, 0, "\(name) \(viewport.width)x\(viewport.height), \(threads) threads")
                }
                XCTAssertTrue(one.pixels.contains { $0 != 0 }, "\(name) draws something")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 6)
    }
}
