import Foundation
import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// What one renderer keeps from frame to frame (evaluated shapes, slots, the coverage cache,
/// layer matrices, the buffer pool, the surface drawn over) never shows: a frame drawn after
/// others, into the surface those others were drawn into, is byte for byte the frame a
/// renderer made for it alone draws into a fresh surface.
final class FrameSequenceTests: XCTestCase {
    /// Trims, strokes, masks, mattes, precomps, time remapping, repeaters and providers'
    /// files, and the small files whose frames cost little besides walking the tree.
    static let samples = ["HamburgerArrow.json", "LottieFiles/step_loader.json", "vcTransition2.json", "Issues/pr_1728.json",
                          "Issues/pr_1818.json", "timeremap.json", "setValueTest.json", "TypeFace/W.json", "Boat_Loader.json",
                          "LottieLogo1_masked.json"]

    /// Forward, the same frame twice, backward, and a jump.
    static let progress = [0.0, 0.1, 0.35, 0.35, 0.6, 0.25, 0.95]

    func testAFrameDrawnAfterOthersIsTheFrameDrawnFresh() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var compared = 0
        for name in Self.samples {
            let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let animation = try Animation.load(path: url.path)
            let viewport = Viewport(width: 160, height: 160, contentMode: .fit)
            let sequence = AnimationRenderer(animation: animation)
            var surface = Surface(width: viewport.width, height: viewport.height)
            for p in Self.progress {
                let frame = animation.inPoint + (animation.outPoint - animation.inPoint) * p
                sequence.render(frame: frame, viewport: viewport, into: &surface)
                let fresh = AnimationRenderer(animation: animation).render(frame: frame, viewport: viewport)
                let differing = zip(surface.pixels, fresh.pixels).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "\(name) frame \(frame)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 40)
    }
}
