import Foundation
import LottieModel
import LottieRender
import Raster
import XCTest

/// `render(into:)` leaves uncleared the pixels an opaque background layer will cover. That is
/// only right if the background really covers every one of them: rendered over a surface full
/// of noise, each frame must come out exactly as on a freshly cleared surface.
final class BackdropTests: XCTestCase {
    func testRenderingOverNoiseMatchesAFreshSurfaceAcrossTheCorpus() throws {
        try XCTSkipUnless(CorpusPaths.available, "shared corpus not found at \(CorpusPaths.corpus.path)")
        let samples = CorpusPaths.corpus.appendingPathComponent("samples")
        let files = FileManager.default.enumerator(atPath: samples.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThan(files.count, 50)
        var withBackdrop: [String] = []
        for file in files {
            guard let animation = try? Animation.load(path: samples.appendingPathComponent(file).path) else { continue }
            let renderer = AnimationRenderer(animation: animation)
            let middle = (animation.inPoint + animation.outPoint) / 2
            // Letterboxed, cropped and a size with fractional edges.
            for (size, mode) in [((97, 61), ContentMode.fit), ((61, 97), .fill), ((80, 80), .stretch)] {
                let viewport = Viewport(width: size.0, height: size.1, contentMode: mode)
                guard let covered = renderer.backdrop(frame: middle, viewport: viewport) else { continue }
                if !withBackdrop.contains(file) { withBackdrop.append(file) }
                XCTAssertFalse(covered.isEmpty)
                let fresh = renderer.render(frame: middle, viewport: viewport, background: Color(r: 0.2, g: 0.4, b: 0.6))
                var noisy = Surface(width: size.0, height: size.1)
                var state: UInt32 = 2463534242
                for i in noisy.pixels.indices {
                    state ^= state << 13; state ^= state >> 17; state ^= state << 5
                    noisy.pixels[i] = state
                }
                renderer.render(frame: middle, viewport: viewport, background: Color(r: 0.2, g: 0.4, b: 0.6), into: &noisy)
                let differing = zip(fresh.pixels, noisy.pixels).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "\(file) \(size) \(mode): \(differing) pixels keep noise or differ")
            }
        }
        // The corpus has backgrounds of both kinds (rectangle fills and solid layers).
        XCTAssertGreaterThanOrEqual(withBackdrop.count, 5, "files with a backdrop: \(withBackdrop)")
    }

    func testOnlyWholePixelsInsideAnOpaqueUnmaskedBackgroundCount() throws {
        func renderer(_ background: String) throws -> AnimationRenderer {
            let json = """
            {"v":"5.7.0","fr":30,"ip":0,"op":10,"w":100,"h":50,"layers":[
             {"ty":4,"nm":"Dot","ip":0,"op":10,"st":0,"ks":{},"shapes":[
              {"ty":"el","p":{"a":0,"k":[50,25]},"s":{"a":0,"k":[10,10]}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]},
             \(background)]}
            """
            return AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "t.json", baseDirectory: nil))
        }
        let rect = #"{"ty":4,"nm":"BG","ip":0,"op":10,"st":0,"ks":%@,"shapes":[{"ty":"rc","p":{"a":0,"k":[50,25]},"s":{"a":0,"k":[80.5,40]},"r":{"a":0,"k":%@}},{"ty":"fl","c":{"a":0,"k":%@},"o":{"a":0,"k":100}}]}"#
        func bg(_ ks: String = "{}", round: String = "0", color: String = "[0,0,1,1]") -> String {
            String(format: rect, ks, round, color)
        }
        let viewport = Viewport(width: 100, height: 50, contentMode: .fit)
        // An 80.5 x 40 rectangle centred at (50, 25): x from 9.75 to 90.25, y from 5 to 45.
        XCTAssertEqual(try renderer(bg()).backdrop(frame: 1, viewport: viewport), PixelRect(x0: 10, y0: 5, x1: 90, y1: 45))
        let solid = ##"{"ty":1,"nm":"S","ip":0,"op":10,"st":0,"ks":{},"sw":100,"sh":50,"sc":"#336699"}"##
        XCTAssertEqual(try renderer(solid).backdrop(frame: 1, viewport: viewport), PixelRect(x0: 0, y0: 0, x1: 100, y1: 50))
        XCTAssertEqual(try renderer(bg(color: "[0,0,1,0.5]")).backdrop(frame: 1, viewport: viewport), PixelRect(x0: 10, y0: 5, x1: 90, y1: 45),
                       "a colour's 4th component is ignored (issue 11): still opaque")
        XCTAssertNil(try renderer(bg(round: "4")).backdrop(frame: 1, viewport: viewport), "rounded corners")
        XCTAssertNil(try renderer(bg(#"{"o":{"a":0,"k":60}}"#)).backdrop(frame: 1, viewport: viewport), "layer opacity")
        XCTAssertNil(try renderer(bg(#"{"r":{"a":0,"k":10}}"#)).backdrop(frame: 1, viewport: viewport), "rotated")
        XCTAssertNil(try renderer(bg()).backdrop(frame: 20, viewport: viewport), "outside the layer's time")
    }
}
