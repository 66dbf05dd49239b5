import Foundation
import LottieModel
import Raster
import XCTest
@testable import LottieRender

/// Frames drawn with the clear deferred to the first paint (`defersClear`, the default) are
/// the frames drawn after a plain clear (the reference), pixel for pixel, frame after frame
/// into the same surface: content that moves and shrinks, transparent and opaque
/// backgrounds, one thread and two.
final class DeferredClearRenderTests: XCTestCase {
    /// Renders a run of frames of `animation` with and without the deferred clear and fails
    /// at the first pixel that differs. Returns how many frames were compared.
    static func assertDeferredMatchesReference(_ animation: Animation, frames: [Double], viewport: Viewport, background: Color,
                                               threads: Int, _ name: String) -> Int {
        let fast = { () -> AnimationRenderer in var r = AnimationRenderer(animation: animation); r.threads = threads; return r }()
        var reference = AnimationRenderer(animation: animation)
        reference.threads = threads
        reference.defersClear = false
        var a = Surface(width: viewport.width, height: viewport.height)
        var b = Surface(width: viewport.width, height: viewport.height)
        for frame in frames {
            fast.render(frame: frame, viewport: viewport, background: background, into: &a)
            reference.render(frame: frame, viewport: viewport, background: background, into: &b)
            guard a.pixels == b.pixels else {
                let i = zip(a.pixels, b.pixels).enumerated().first { $0.element.0 != $0.element.1 }!.offset
                XCTFail("\(name) frame \(frame) \(viewport.width)x\(viewport.height) threads \(threads): pixel \(i % a.width),\(i / a.width) "
                        + "\(String(a.pixels[i], radix: 16)) against \(String(b.pixels[i], radix: 16))")
                return 0
            }
            XCTAssertEqual(a.drawnRegion.union, b.drawnRegion.union, "\(name) frame \(frame)")
        }
        return frames.count
    }

    /// Every corpus file, a dozen frames each (forward, then back and forth, so that shapes
    /// move, grow and shrink between consecutive frames), at two sizes and backgrounds.
    func testCorpusFramesMatchThoseDrawnAfterAPlainClear() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        let samples = CorpusPaths.corpus.appendingPathComponent("samples")
        guard let walker = FileManager.default.enumerator(atPath: samples.path) else { return XCTFail("no samples") }
        let names = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
        var compared = 0
        for (n, name) in names.enumerated() {
            guard let animation = try? Animation.load(path: samples.appendingPathComponent(name).path) else { continue }
            let span = animation.outPoint - animation.inPoint
            let steps = [0.0, 0.1, 0.2, 0.35, 0.5, 0.45, 0.3, 0.7, 0.95, 0.6, 0.05, 0.8]
            let frames = steps.map { animation.inPoint + span * $0 }
            let background = n % 2 == 0 ? Color.clear : Color(r: 0.1, g: 0.3, b: 0.2)
            compared += Self.assertDeferredMatchesReference(animation, frames: frames, viewport: Viewport(width: 160, height: 120, contentMode: .fill),
                                                            background: background, threads: 1, name)
            compared += Self.assertDeferredMatchesReference(animation, frames: Array(frames.prefix(5)),
                                                            viewport: Viewport(width: 96, height: 150, contentMode: .fit),
                                                            background: n % 3 == 0 ? .white : .clear, threads: n % 4 == 0 ? 2 : 1, name)
        }
        XCTAssertGreaterThan(compared, 1000)
    }
}
