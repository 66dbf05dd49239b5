import Foundation
import LottieModel
@testable import LottieRender
import Raster
import XCTest

/// The coverage a renderer keeps between frames (the shared cache and the render tree's slots)
/// stays within `RenderBudget.keptCoverageBytes` however long it plays, and the frames drawn
/// within a small budget are those drawn within a large one.
final class KeptCoverageBudgetTests: XCTestCase {
    /// What the memory target leaves at a frame size: less for larger frames, within the range.
    func testTheBudgetIsWhatTheMemoryTargetLeaves() {
        var budget = RenderBudget()
        let hd = budget.keptCoverageBytes(width: 1920, height: 1080)
        XCTAssertGreaterThan(hd, 300_000)
        XCTAssertLessThan(hd, 700_000)
        XCTAssertGreaterThan(budget.keptCoverageBytes(width: 512, height: 512), 3_000_000)
        XCTAssertEqual(budget.keptCoverageBytes(width: 16, height: 16),
                       Int(Double((20 << 20) - RenderBudget.processFixedBytes - 16 * 16 * 4) / RenderBudget.keptCoverageCost))
        XCTAssertEqual(budget.keptCoverageBytes(width: 4096, height: 4096), budget.keptCoverageRange.lowerBound)
        budget.processMemoryTarget = 1 << 40
        XCTAssertEqual(budget.keptCoverageBytes(width: 1920, height: 1080), budget.keptCoverageRange.upperBound)
        budget.processMemoryTarget = 64 << 20
        XCTAssertGreaterThan(budget.keptCoverageBytes(width: 1920, height: 1080), 16 * hd)
    }

    /// A long sequence of consecutive frames (several loops, drawn as a screen draws them, and
    /// every fourth frame in two bands) of files with many shapes, real renders: after every
    /// frame the cache and the slots hold no more than the budget, and the pixels are those of
    /// a renderer with the default, much larger budget.
    func testALongPlayKeepsTheCoverageWithinItsBudget() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        for name in ["Boat_Loader.json", "IconTransitions.json", "LottieLogo1_masked.json"] {
            let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let animation = try Animation.load(path: url.path)
            var small = RenderBudget()
            small.keptCoverageRange = (24 << 10)...(24 << 10)
            var tight = AnimationRenderer(animation: animation, budget: small)
            var roomy = AnimationRenderer(animation: animation, budget: RenderBudget())
            roomy.keptCoverageBytes(width: 200, height: 160) == small.keptCoverageBytes(width: 200, height: 160)
                ? XCTFail("the budgets compared should differ") : ()
            let viewport = Viewport(width: 200, height: 160, contentMode: .fill)
            var tightSurface = Surface(width: 200, height: 160)
            var roomySurface = Surface(width: 200, height: 160)
            let frames = Int(animation.outPoint - animation.inPoint)
            var peak = 0
            for i in 0..<(frames * 2 + 7) {
                let frame = animation.inPoint + Double((i * 3) % frames)
                tight.threads = i % 4 == 3 ? 2 : 1
                tight.renderIfChanged(frame: frame, viewport: viewport, into: &tightSurface)
                roomy.renderIfChanged(frame: frame, viewport: viewport, into: &roomySurface)
                let held = tight.coverageBytesHeld
                peak = max(peak, held)
                XCTAssertLessThanOrEqual(held, 24 << 10, "\(name) frame \(frame)")
                XCTAssertLessThanOrEqual(tight.coverageCache.held.bytes, tight.coverageCache.byteLimit)
                if i % 17 == 0 { XCTAssertEqual(tightSurface.pixels, roomySurface.pixels, "\(name) frame \(frame)") }
            }
            XCTAssertEqual(tightSurface.pixels, roomySurface.pixels, name)
            XCTAssertGreaterThan(peak, 0, "\(name): coverage was kept")
            XCTAssertGreaterThan(roomy.coverageBytesHeld, 24 << 10, "\(name): the default budget keeps more")
        }
    }
}
