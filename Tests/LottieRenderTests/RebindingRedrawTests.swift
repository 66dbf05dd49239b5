import LottieModel
import LottieRender
import Raster
import XCTest

/// `renderIfChanged` redraws whenever the providers bound change, even when their number and
/// the sum of their versions come out the same.
final class RebindingRedrawTests: XCTestCase {
    let viewport = Viewport(width: 100, height: 100)

    func pixel(_ s: Surface, _ x: Int, _ y: Int) -> UInt32 { s.pixels[y * s.width + x] }

    /// Removing a provider and setting a fresh one leaves the number of bindings and the sum
    /// of their versions as they were; the screen must be redrawn all the same.
    func testRebindingAlwaysRedraws() throws {
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":["# + RenderBehaviourTests.rectLayer(name: "Boat", center: (50, 50), size: (20, 20), color: (1, 0, 0)) + "]}"
        var r = AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "t", baseDirectory: nil))
        var surface = Surface(width: 100, height: 100)
        r.setValueProvider(ConstantValueProvider(RGBA(r: 0, g: 0, b: 1)), keypath: Keypath("Boat.g.f.Color"))
        XCTAssertTrue(r.renderIfChanged(frame: 0, viewport: viewport, into: &surface))
        XCTAssertEqual(pixel(surface, 50, 50), 0xFF00_00FF)
        XCTAssertFalse(r.renderIfChanged(frame: 0, viewport: viewport, into: &surface))
        let versionBefore = r.providersVersion
        r.removeValueProviders(keypath: Keypath("Boat.g.f.Color"))
        r.setValueProvider(ConstantValueProvider(RGBA(r: 0, g: 1, b: 0)), keypath: Keypath("Boat.g.f.Color"))
        XCTAssertEqual(r.providersVersion, versionBefore, "the case the count and the version sum cannot tell")
        XCTAssertTrue(r.renderIfChanged(frame: 0, viewport: viewport, into: &surface))
        XCTAssertEqual(pixel(surface, 50, 50), 0xFF00_FF00)
        XCTAssertFalse(r.renderIfChanged(frame: 0, viewport: viewport, into: &surface))
        // Removing alone redraws too: the file's own red is back.
        r.removeValueProviders(keypath: Keypath("Boat.g.f.Color"))
        XCTAssertTrue(r.renderIfChanged(frame: 0, viewport: viewport, into: &surface))
        XCTAssertEqual(pixel(surface, 50, 50), 0xFFFF_0000)
    }
}
