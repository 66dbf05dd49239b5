import Foundation
import LottieModel
import Raster
import XCTest
@testable import LottieRender

/// An image layer's pixels are a function of the image and the scale it is drawn at, never
/// of what the renderer drew before: the corpus files with image assets, drawn frame after
/// frame (forwards, repeated, backwards, jumps) by one renderer, whole and with damage, are
/// byte for byte the frames a fresh renderer draws.
final class ImageHistoryTests: XCTestCase {
    static let files = ["Issues/issue_2269.json", "LottieFiles/dog_car_ride.json", "DotLottie/animation_inline_image.json",
                        "DotLottie/animation_external_image.json", "Issues/pr_1930_rx.json", "Issues/issue_2545.json",
                        "Issues/pr_2676.json", "Issues/issue_1855.json", "Issues/issue_1800.json", "Issues/issue_1882.json",
                        "Issues/issue_1945.json", "Issues/issue_2342.json", "Issues/issue_1932.json"]

    static func animations() throws -> [(name: String, animation: Animation)] {
        let samples = CorpusPaths.corpus.appendingPathComponent("samples")
        return try files.compactMap { name in
            let path = samples.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return (name, try Animation.load(path: path))
        }
    }

    /// Whole frames drawn one after another by one renderer.
    func testImageFramesDrawnAfterOthersAreTheFramesDrawnFresh() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var compared = 0
        for (n, file) in try Self.animations().enumerated() {
            let frames = DamageRenderTests.frames(of: file.animation, seed: UInt64(n) &+ 77, random: 3)
            for viewport in [Viewport(width: 512, height: 512, contentMode: .fit), Viewport(width: 200, height: 120, contentMode: .fill)] {
                let sequence = AnimationRenderer(animation: file.animation)
                for frame in frames {
                    let drawn = sequence.render(frame: frame, viewport: viewport)
                    let fresh = AnimationRenderer(animation: file.animation).render(frame: frame, viewport: viewport)
                    let differing = zip(drawn.pixels, fresh.pixels).filter { $0 != $1 }.count
                    XCTAssertEqual(differing, 0, "\(file.name) frame \(frame) \(viewport.width)x\(viewport.height)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 200)
    }

    /// Frames drawn over the frame before, redrawing only the damage.
    func testImageFramesDrawnWithDamageMatchFreshRenders() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var total = DamageRenderTests.Outcome()
        for (n, file) in try Self.animations().enumerated() {
            let frames = DamageRenderTests.frames(of: file.animation, seed: UInt64(n) &+ 99, random: 6)
            for viewport in [Viewport(width: 512, height: 512, contentMode: .fit), Viewport(width: 200, height: 120, contentMode: .fill)] {
                let outcome = DamageRenderTests.compare(file.animation, frames: frames, viewport: viewport, background: .clear,
                                                        threads: 1, file.name)
                total.compared += outcome.compared
                total.partial += outcome.partial
            }
        }
        XCTAssertGreaterThan(total.compared, 200)
        print("image files with damage: \(total.compared) frames, \(total.partial) drew part of the frame")
        // Image files take the partial path (they were drawn whole while the store's pixels hung on history).
        XCTAssertGreaterThan(total.partial, 40)
    }
    /// The store itself: thousands of draws of each file's images at random scales (spanning
    /// the image itself to many halvings, unequal each way), each compared with what a fresh
    /// store draws for that image and scale. Before halvings were picked by their depth, a
    /// draw after a smaller one got the smaller one's halving (issue_2269: within 30 draws).
    func testTheStoreDrawsEachScaleAsAFreshStoreDoes() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var compared = 0
        for (n, file) in try Self.animations().enumerated() {
            let store = ImageStore(animation: file.animation, byteBudget: 512 << 20)
            let ids = file.animation.assets.keys.sorted()
            var state = UInt64(n) &+ 12345
            for _ in 0..<100 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let id = ids[Int(state >> 33) % ids.count]
                let s = pow(2, -7 * Double((state >> 8) & 0xffff) / 65536 + 1.5)
                let world = Matrix.scale(s, s * 0.8)
                let drawn = store.drawable(id, world: world)
                let fresh = ImageStore(animation: file.animation, byteBudget: 512 << 20).drawable(id, world: world)
                XCTAssertEqual(drawn?.image, fresh?.image, "\(file.name) \(id) scale \(s)")
                XCTAssertEqual(drawn?.transform, fresh?.transform, "\(file.name) \(id) scale \(s)")
                if drawn != nil { compared += 1 }
            }
        }
        XCTAssertGreaterThan(compared, 600)
    }
}
