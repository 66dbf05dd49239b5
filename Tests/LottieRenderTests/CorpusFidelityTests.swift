import LottieModel
import LottieRender
import Raster
import XCTest

/// Real corpus frames against lottie-ios's reference snapshots, judged with lottie-ios's own
/// criterion. The full corpus is scored by .ci/fidelity; these samples are the ones Buoy
/// must never regress on.
final class CorpusFidelityTests: XCTestCase {
    func assertSamplePasses(_ sample: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try XCTSkipUnless(CorpusPaths.available, "shared corpus not found at \(CorpusPaths.corpus.path)")
        let frames = try CorpusPaths.frames(of: sample)
        XCTAssertFalse(frames.isEmpty, "no frames for \(sample) in the manifest", file: file, line: line)
        let renderer = AnimationRenderer(animation: try Animation.load(path: frames[0].file))
        for f in frames {
            let reference = try PNG.read(path: f.reference)
            let viewport = Viewport(width: f.width, height: f.height, contentMode: .fit, alignment: .topLeft)
            let surface = renderer.render(frame: f.frame, viewport: viewport)
            let criterion = SnapshotCriterion(precision: f.precision, perceptualPrecision: f.perceptualPrecision)
            let verdict = criterion.judge(reference: reference, rendered: surface)
            XCTAssertTrue(verdict.passed, "\(sample) frame \(f.label) (\(f.frame)): match \(verdict.matchFraction) < \(f.precision)",
                          file: file, line: line)
        }
    }

    func testBoatLoaderEveryFrame() throws { try assertSamplePasses("Boat_Loader") }
}
