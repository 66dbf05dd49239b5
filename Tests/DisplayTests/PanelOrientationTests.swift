import Display
import Raster
import XCTest

/// The connector's "panel orientation" turns the picture so a viewer of the mounted panel
/// sees it upright. The mounts are modelled here from what the enum's names say, not from
/// `Rotation`: which panel pixel the viewer sees at each place.
final class PanelOrientationTests: XCTestCase {
    /// The panel pixel (px, py) a viewer sees at (x, y), for a panel of pw × ph pixels.
    static let mounts: [(label: String, seen: @Sendable (_ x: Int, _ y: Int, _ pw: Int, _ ph: Int) -> (Int, Int))] = [
        ("Normal", { x, y, _, _ in (x, y) }),
        // Turned half round: the panel's bottom-right pixel is at the viewer's top-left.
        ("Upside Down", { x, y, pw, ph in (pw - 1 - x, ph - 1 - y) }),
        // The panel's left edge is at the top: the viewer's top row is the panel's first
        // column, and the panel's bottom row is at the viewer's left.
        ("Left Side Up", { x, y, _, ph in (y, ph - 1 - x) }),
        // The panel's right edge is at the top: the viewer's top row is its last column, and
        // its top row is at the viewer's left.
        ("Right Side Up", { x, y, pw, _ in (pw - 1 - y, x) }),
    ]

    func testEachMountShowsThePictureUpright() {
        // A 5x3 picture as the viewer must see it, every pixel distinct.
        let w = 5, h = 3
        var picture = Surface(width: w, height: h)
        for i in 0..<(w * h) { picture.pixels[i] = 0xff00_0000 | UInt32(i + 1) }
        for mount in Self.mounts {
            let rotation = DRMPresenter.rotation(forPanelOrientation: mount.label)
            let panel = PanelConversion.panelSurface(picture, rotation: rotation)
            let sideways = mount.label.hasSuffix("Side Up")
            XCTAssertEqual([panel.width, panel.height], sideways ? [h, w] : [w, h], mount.label)
            for y in 0..<h {
                for x in 0..<w {
                    let (px, py) = mount.seen(x, y, panel.width, panel.height)
                    XCTAssertEqual(panel.pixels[py * panel.width + px], picture.pixels[y * w + x],
                                   "\(mount.label) (\(rotation)): viewer pixel \(x),\(y)")
                }
            }
        }
    }

    func testOrientationNames() {
        // Rotation counts clockwise: a panel whose left side is up needs the picture turned
        // counter-clockwise, as the kernel turns its console (DRM_MODE_ROTATE_90, FB_ROTATE_CCW).
        XCTAssertEqual(DRMPresenter.rotation(forPanelOrientation: "Left Side Up"), .threeQuarters)
        XCTAssertEqual(DRMPresenter.rotation(forPanelOrientation: "Right Side Up"), .quarter)
        XCTAssertEqual(DRMPresenter.rotation(forPanelOrientation: "Upside Down"), .half)
        XCTAssertEqual(DRMPresenter.rotation(forPanelOrientation: "Normal"), Rotation.none)
        XCTAssertEqual(DRMPresenter.rotation(forPanelOrientation: "Something New"), Rotation.none)
    }
}
