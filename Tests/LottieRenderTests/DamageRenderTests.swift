import Foundation
import LottieModel
import Raster
import XCTest
@testable import LottieRender

/// Frames drawn over the frame before, redrawing only the damage (`renderIfChanged`'s
/// default, `render(frame:after:…)`), are byte for byte the frames a full render draws
/// fresh: every corpus file, fitted into a square and filling a wide frame, played forwards
/// in steps of one frame and less, backwards, with jumps, repeats and random frames, on one
/// thread and two, with a provider bound, changed and rebound between frames.
final class DamageRenderTests: XCTestCase {
    /// The frames a sequence visits, as fractions of the animation: sequential steps of one
    /// frame and of a third, a repeat, backwards, jumps, then `random` frames picked by a
    /// generator seeded with `seed`.
    static func frames(of animation: Animation, seed: UInt64, random: Int) -> [Double] {
        let (start, span) = (animation.inPoint, animation.outPoint - animation.inPoint)
        var frames = [start, start + 1, start + 2, start + 2, start + 2 + 1.0 / 3, start + 2 + 2.0 / 3]
        frames += [0.5, 0.5 + 1 / max(span, 1), 0.45, 0.9, 0.1, 1.0, 0.99].map { start + span * $0 }
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        for _ in 0..<random {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            frames.append(start + span * Double(state >> 11) / Double(1 << 53))
        }
        return frames
    }

    /// What a run of frames drawn with damage was compared against, and how many of them
    /// drew only part of the frame.
    struct Outcome {
        var compared = 0
        var partial = 0
    }

    /// Draws `frames` into one reused surface through `renderIfChanged` and compares each
    /// with a fresh full render; `between` runs before each frame (it may change providers,
    /// on both renderers alike). Fails at the first pixel that differs.
    static func compare(_ animation: Animation, frames: [Double], viewport: Viewport, background: Color, threads: Int, _ name: String,
                        drawsDamageOnly: Bool = true, between: ((Int, inout AnimationRenderer, inout AnimationRenderer) -> Void)? = nil) -> Outcome {
        var damaged = AnimationRenderer(animation: animation)
        damaged.threads = threads
        damaged.drawsDamageOnly = drawsDamageOnly
        var reference = AnimationRenderer(animation: animation)
        var surface = Surface(width: viewport.width, height: viewport.height)
        var outcome = Outcome()
        var previous: Double?
        for (i, frame) in frames.enumerated() {
            between?(i, &damaged, &reference)
            var damage: PixelRect?
            if let previous {
                damage = damaged.damage(from: previous, to: frame, viewport: viewport)
                if let damage, damage.height * 8 < viewport.height * 7 { outcome.partial += 1 }
            }
            damaged.renderIfChanged(frame: frame, viewport: viewport, background: background, into: &surface)
            let fresh = reference.render(frame: frame, viewport: viewport, background: background)
            guard surface.pixels == fresh.pixels else {
                let i = zip(surface.pixels, fresh.pixels).enumerated().first { $0.element.0 != $0.element.1 }!.offset
                XCTFail("\(name) frame \(frame) after \(previous ?? .nan) \(viewport.width)x\(viewport.height) threads \(threads): "
                        + "pixel \(i % surface.width),\(i / surface.width) \(String(surface.pixels[i], radix: 16)) against "
                        + "\(String(fresh.pixels[i], radix: 16)); damage \(String(describing: damage)); the same renderer drawing it whole: "
                        + "\(String(damaged.render(frame: frame, viewport: viewport, background: background).pixels[i], radix: 16))")
                return outcome
            }
            previous = frame
            outcome.compared += 1
        }
        return outcome
    }

    static func corpusFiles() -> [(name: String, animation: Animation)] {
        let samples = CorpusPaths.corpus.appendingPathComponent("samples")
        guard let walker = FileManager.default.enumerator(atPath: samples.path) else { return [] }
        let names = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
        return names.compactMap { name in
            (try? Animation.load(path: samples.appendingPathComponent(name).path)).map { (name, $0) }
        }
    }

    /// Every corpus file at 512x512 fit and 480x270 fill, one thread.
    func testCorpusFramesDrawnOverTheFrameBeforeMatchFreshRenders() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var total = Outcome()
        for (n, file) in Self.corpusFiles().enumerated() {
            let frames = Self.frames(of: file.animation, seed: UInt64(n), random: 4)
            let background = n % 3 == 0 ? Color(r: 0.1, g: 0.3, b: 0.2) : .clear
            for viewport in [Viewport(width: 512, height: 512, contentMode: .fit), Viewport(width: 480, height: 270, contentMode: .fill)] {
                let outcome = Self.compare(file.animation, frames: frames, viewport: viewport, background: background, threads: 1, file.name)
                total.compared += outcome.compared
                total.partial += outcome.partial
            }
        }
        XCTAssertGreaterThan(total.compared, 3000)
        // The test means something only if many frames drew part of the picture.
        XCTAssertGreaterThan(total.partial, 300)
    }

    /// Every corpus file on two threads (the bands cut to the damage), fewer frames.
    func testThreadedDamageMatchesFreshRenders() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var total = Outcome()
        for (n, file) in Self.corpusFiles().enumerated() {
            let frames = Self.frames(of: file.animation, seed: UInt64(n) &+ 1000, random: 2)
            let outcome = Self.compare(file.animation, frames: frames, viewport: Viewport(width: 320, height: 200, contentMode: .fit),
                                       background: .clear, threads: 2, file.name)
            total.compared += outcome.compared
            total.partial += outcome.partial
        }
        XCTAssertGreaterThan(total.compared, 1500)
        XCTAssertGreaterThan(total.partial, 150)
    }

    /// A provider bound before the first frame, its value changed, another bound and one
    /// removed between frames: each change is drawn whole, the frames between with damage.
    func testProviderChangesBetweenFramesMatchFreshRenders() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        let names = ["Boat_Loader.json", "HamburgerArrow.json", "LottieLogo1_masked.json", "TypeFace/W.json", "Issues/pr_1728.json"]
        var total = Outcome()
        for (n, file) in Self.corpusFiles().enumerated() where names.contains(file.name) {
            let colour = ConstantValueProvider(RGBA(r: 1, g: 0, b: 0, a: 1))
            let frames = Self.frames(of: file.animation, seed: UInt64(n), random: 3)
            let outcome = Self.compare(file.animation, frames: frames, viewport: Viewport(width: 256, height: 200, contentMode: .fit),
                                       background: .white, threads: n % 2 + 1, file.name) { i, damaged, reference in
                switch i {
                case 0:
                    damaged.setValueProvider(colour, keypath: Keypath("**.Color"))
                    reference.setValueProvider(colour, keypath: Keypath("**.Color"))
                case 4: colour.value = RGBA(r: 0, g: 0.5, b: 1, a: 1)
                case 8:
                    damaged.setValueProvider(ConstantValueProvider(40.0), keypath: Keypath("**.Opacity"))
                    reference.setValueProvider(ConstantValueProvider(40.0), keypath: Keypath("**.Opacity"))
                case 11:
                    damaged.removeValueProviders(keypath: Keypath("**.Opacity"))
                    reference.removeValueProviders(keypath: Keypath("**.Opacity"))
                default: break
                }
            }
            total.compared += outcome.compared
            total.partial += outcome.partial
        }
        XCTAssertGreaterThan(total.compared, 60)
        XCTAssertGreaterThan(total.partial, 5)
    }

    /// Rows a caller painted over (a status line) are drawn anew with the next frame drawn,
    /// though the frame's own damage lies elsewhere.
    func testOverdrawnRowsAreDrawnAgain() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        let viewport = Viewport(width: 200, height: 200, contentMode: .fit)
        let band = PixelRect(x0: 0, y0: 0, x1: 200, y1: 12)
        // A pair of frames whose damage leaves the band's rows alone (else the test shows nothing).
        var found: (animation: Animation, frame: Double)?
        search: for file in Self.corpusFiles() {
            let renderer = AnimationRenderer(animation: file.animation)
            for frame in stride(from: file.animation.inPoint, to: file.animation.outPoint - 1, by: 3) {
                if let damage = renderer.damage(from: frame, to: frame + 1, viewport: viewport), !damage.isEmpty,
                   damage.intersection(band).isEmpty {
                    found = (file.animation, frame)
                    break search
                }
            }
        }
        let (animation, frame) = try XCTUnwrap(found)
        var renderer = AnimationRenderer(animation: animation)
        var surface = Surface(width: 200, height: 200)
        renderer.renderIfChanged(frame: frame, viewport: viewport, into: &surface)
        var bar = RasterPath()
        bar.addRect(Rect(x: 0, y: 0, width: 200, height: 12))
        surface.fill(bar, paint: .solid(.white))
        // Nothing changed in the picture: nothing is drawn (the caller keeps its band).
        XCTAssertFalse(renderer.renderIfChanged(frame: frame, viewport: viewport, into: &surface, overdrawn: band))
        XCTAssertTrue(renderer.renderIfChanged(frame: frame + 1, viewport: viewport, into: &surface, overdrawn: band))
        XCTAssertEqual(surface.pixels, AnimationRenderer(animation: animation).render(frame: frame + 1, viewport: viewport).pixels)
    }

    /// Damage is exact where nothing varies: the same frame, or a still file, damages nothing.
    func testSameFrameDamagesNothing() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        guard let file = Self.corpusFiles().first(where: { $0.name == "Boat_Loader.json" }) else { return XCTFail("no Boat_Loader") }
        let renderer = AnimationRenderer(animation: file.animation)
        let viewport = Viewport(width: 300, height: 200, contentMode: .fit)
        XCTAssertEqual(renderer.damage(from: 12, to: 12, viewport: viewport), .empty)
        XCTAssertNil(renderer.damage(from: .nan, to: 12, viewport: viewport))
        let moved = try XCTUnwrap(renderer.damage(from: 12, to: 13, viewport: viewport))
        XCTAssertFalse(moved.isEmpty)
        XCTAssertTrue(PixelRect(x0: 0, y0: 0, x1: 300, y1: 200).contains(moved))
    }
}
