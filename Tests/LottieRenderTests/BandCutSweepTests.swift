import Foundation
import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// Wherever the cuts between bands fall, a threaded frame has exactly the pixels of one
/// thread: every row is drawn the same whichever band holds it. The balancing moves the
/// cuts by measured time, so a placement that draws otherwise shows up only now and then;
/// here every placement is drawn.
final class BandCutSweepTests: XCTestCase {
    func sweep(_ name: String, frames: [Double], viewport: Viewport, threads: Int, step: Int) throws -> [String] {
        let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("\(name) not found") }
        let animation = try Animation.load(path: url.path)
        var one = AnimationRenderer(animation: animation)
        one.threads = 1
        var banded = AnimationRenderer(animation: animation)
        banded.threads = threads
        var surface = Surface(width: viewport.width, height: viewport.height)
        let rect = surface.bounds
        var failures: [String] = []
        for frame in frames {
            let expected = one.render(frame: frame, viewport: viewport)
            for first in stride(from: BandLayout.minimumRows, through: rect.height - BandLayout.minimumRows * (threads - 1), by: step) {
                // The first cut moves; the others share the rows below it evenly.
                let rest = rect.height - first
                let cuts = [0, first] + (1..<threads).map { first + rest * $0 / (threads - 1) }
                banded.bandLayout.place(cuts: cuts, of: rect)
                banded.render(frame: frame, viewport: viewport, into: &surface)
                let differing = zip(expected.pixels, surface.pixels).enumerated().filter { $0.1.0 != $0.1.1 }
                if let firstDiff = differing.first {
                    failures.append("\(name) frame \(frame) \(viewport.width)x\(viewport.height) cuts \(cuts): \(differing.count) pixels, first at "
                                    + "\(firstDiff.offset % viewport.width),\(firstDiff.offset / viewport.width)")
                }
            }
        }
        return failures
    }

    /// issue_1800 draws one image asset on many layers at several sizes in a frame; the cuts
    /// are swept at 2, 3 and 4 threads.
    func testEveryCutPlacementGivesTheSamePixelsAsOneThread() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var failures: [String] = []
        failures += try sweep("Issues/issue_1800.json", frames: [56, 62], viewport: Viewport(width: 240, height: 200, contentMode: .fill), threads: 2, step: 3)
        failures += try sweep("Issues/issue_1800.json", frames: [69], viewport: Viewport(width: 203, height: 311, contentMode: .fit), threads: 3, step: 5)
        failures += try sweep("Issues/issue_1800.json", frames: [62], viewport: Viewport(width: 320, height: 180, contentMode: .fill), threads: 4, step: 7)
        XCTAssertEqual(failures.count, 0, failures.prefix(5).joined(separator: "\n"))
    }

    /// What a frame draws does not depend on what was drawn before: an image drawn at several
    /// sizes was kept at the size of its first draw, and a frame drawn again (or its bands
    /// drawn in another order) drew other pixels (68 at issue_1800 frame 62, 240x200).
    func testAFrameDrawnAgainOrAfterAnotherHasTheSamePixels() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        let url = CorpusPaths.corpus.appendingPathComponent("samples/Issues/issue_1800.json")
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("issue_1800.json not found") }
        let animation = try Animation.load(path: url.path)
        for viewport in [Viewport(width: 240, height: 200, contentMode: .fill), Viewport(width: 203, height: 311, contentMode: .fit)] {
            for frame in [56.0, 62, 69] {
                var renderer = AnimationRenderer(animation: animation)
                renderer.threads = 1
                let first = renderer.render(frame: frame, viewport: viewport)
                let again = renderer.render(frame: frame, viewport: viewport)
                var other = AnimationRenderer(animation: animation)
                other.threads = 1
                _ = other.render(frame: frame + 20, viewport: viewport)
                let after = other.render(frame: frame, viewport: viewport)
                XCTAssertEqual(zip(first.pixels, again.pixels).filter { $0 != $1 }.count, 0, "frame \(frame) drawn again, \(viewport.width)x\(viewport.height)")
                XCTAssertEqual(zip(first.pixels, after.pixels).filter { $0 != $1 }.count, 0, "frame \(frame) after \(frame + 20), \(viewport.width)x\(viewport.height)")
            }
        }
    }
}
