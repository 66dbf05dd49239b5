import Display
import Raster
import XCTest

/// `--display auto`, the pixel layouts fbdev accepts, and headless frames and video that are
/// the panel's buffer when turned.
final class DisplayFallbackTests: XCTestCase {
    func testAutoGoesOnOnlyWhenThereIsNothingToShowOn() {
        func error(_ kind: DisplayError.Kind) -> DisplayError { DisplayError(device: "/dev/dri/card0", reason: "x", kind: kind) }
        XCTAssertTrue(DisplayFallback.mayFallBack(after: error(.noDevice)))
        XCTAssertTrue(DisplayFallback.mayFallBack(after: error(.noDisplay)))
        // A card that is there but refused: the user must see it (fbdev would be invisible).
        XCTAssertFalse(DisplayFallback.mayFallBack(after: error(.busy)))
        XCTAssertFalse(DisplayFallback.mayFallBack(after: error(.permissionDenied)))
        XCTAssertFalse(DisplayFallback.mayFallBack(after: error(.failed)))
        XCTAssertFalse(DisplayFallback.mayFallBack(after: DisplayError(device: "d", reason: "r")))
    }

    func kind(_ open: () throws -> Any) -> DisplayError.Kind? {
        do { _ = try open() } catch let error as DisplayError { return error.kind } catch { return nil }
        return nil
    }

    func testDeviceErrorsSayWhatKindTheyAre() {
        XCTAssertEqual(kind { try DRMPresenter(device: "/dev/dri/card-nope") }, .noDevice)
        XCTAssertEqual(kind { try FBDevPresenter(device: "/dev/fb-nope") }, .noDevice)
        // A node that is not a KMS device (not a DRM master failure): nothing to show on.
        XCTAssertEqual(kind { try DRMPresenter(device: "/dev/null") }, .noDisplay)
        XCTAssertEqual(kind { try FBDevPresenter(device: "/dev/null") }, .noDevice)
    }

    func testDeviceErrorsKeepTheirErrno() {
        func failure(_ open: () throws -> Any) -> DisplayError? {
            do { _ = try open() } catch let error as DisplayError { return error } catch { return nil }
            return nil
        }
        let drm = failure { try DRMPresenter(device: "/dev/dri/card-nope") }
        XCTAssertEqual(drm?.errno, ENOENT)
        XCTAssertEqual(drm?.description, "/dev/dri/card-nope: cannot open: No such file or directory")
        let fb = failure { try FBDevPresenter(device: "/dev/fb-nope") }
        XCTAssertEqual(fb?.errno, ENOENT)
        XCTAssertEqual(fb?.description, "/dev/fb-nope: no such framebuffer device: No such file or directory")
        // An error of no system call has no errno, and says only its reason.
        XCTAssertEqual(DisplayError(device: "d", reason: "r").description, "d: r")
    }

    func testPermissionDeniedStopsAuto() throws {
        guard getuid() != 0 else { throw XCTSkip("root opens any file: no permission error to see") }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-card-\(getpid())").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(kind { try DRMPresenter(device: path) }, .permissionDenied)
        XCTAssertEqual(kind { try FBDevPresenter(device: path) }, .permissionDenied)
        XCTAssertFalse(DisplayFallback.mayFallBack(after: DisplayError(device: path, reason: "", kind: .permissionDenied)))
    }

    func testFramebufferLayouts() {
        typealias F = FBPixelLayout.Field
        func layout(_ bpp: Int, _ r: (Int, Int), _ g: (Int, Int), _ b: (Int, Int), msbRight: Bool = false) -> FBPixelLayout {
            FBPixelLayout(bitsPerPixel: bpp, red: F(offset: r.0, length: r.1, msbRight: msbRight),
                          green: F(offset: g.0, length: g.1), blue: F(offset: b.0, length: b.1))
        }
        XCTAssertEqual(layout(32, (16, 8), (8, 8), (0, 8)).pixelFormat, .xrgb8888)
        XCTAssertEqual(layout(16, (11, 5), (5, 6), (0, 5)).pixelFormat, .rgb565)
        // What Buoy cannot write: blue and red swapped, 15-bit colour, 24 bpp, bits reversed.
        XCTAssertNil(layout(32, (0, 8), (8, 8), (16, 8)).pixelFormat)
        XCTAssertNil(layout(16, (0, 5), (5, 6), (11, 5)).pixelFormat)
        XCTAssertNil(layout(16, (10, 5), (5, 5), (0, 5)).pixelFormat)
        XCTAssertNil(layout(24, (16, 8), (8, 8), (0, 8)).pixelFormat)
        XCTAssertNil(layout(32, (16, 8), (8, 8), (0, 8), msbRight: true).pixelFormat)
        XCTAssertEqual("\(layout(32, (0, 8), (8, 8), (16, 8)))", "32 bpp, red 8 bits at 0, green 8 bits at 8, blue 8 bits at 16")
    }

    /// An opaque picture with every pixel distinct (PNG keeps opaque pixels exactly).
    func picture(_ w: Int, _ h: Int) -> Surface {
        var s = Surface(width: w, height: h)
        for i in 0..<(w * h) { s.pixels[i] = 0xff00_0000 | UInt32(i * 0x010203 & 0xff_ffff) }
        return s
    }

    func testHeadlessFramesAreThePanelsBuffer() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-turned-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Where the picture's top-left pixel lands in a 32x18 panel buffer, turned clockwise.
        let corner: [Rotation: Int] = [.none: 0, .quarter: 31, .half: 32 * 18 - 1, .threeQuarters: 17 * 32]
        for r in Rotation.allCases {
            try? FileManager.default.removeItem(atPath: dir)
            let presenter = try HeadlessPresenter(directory: dir, width: 32, height: 18, rotate: r)
            XCTAssertEqual(presenter.rotation, r)
            // Rendered the other way round for a quarter turn, as on a panel mounted sideways.
            XCTAssertEqual([presenter.width, presenter.height], r.swapsAxes ? [18, 32] : [32, 18], "\(r)")
            let s = picture(presenter.width, presenter.height)
            _ = try presenter.present(s)
            let png = try PNG.read(path: dir + "/frame-000000.png")
            XCTAssertEqual([png.width, png.height], [32, 18], "\(r)")
            // Exactly what DRM and fbdev write into the panel's buffer.
            var buffer = [UInt32](repeating: 0, count: 32 * 18)
            buffer.withUnsafeMutableBytes { PanelConversion.write(s, rotation: r, to: $0.baseAddress!, stride: 32 * 4, format: .xrgb8888) }
            XCTAssertEqual(png.pixels, buffer, "\(r)")
            XCTAssertEqual(png.pixels[corner[r]!], s.pixels[0], "\(r)")
        }
    }

    func testY4MIsThePanelsBufferToo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-turned-\(getpid()).y4m").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let presenter = try Y4MPresenter(path: path, width: 8, height: 4, fps: 30, rotate: .quarter)
        XCTAssertEqual([presenter.width, presenter.height], [4, 8])
        var s = Surface(width: 4, height: 8, clearColor: .black)
        s.pixels[0] = 0xffff_ffff  // the picture's top-left: the panel's top-right when turned clockwise
        _ = try presenter.present(s)
        presenter.close()
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let header = "YUV4MPEG2 W8 H4 F30:1 Ip A1:1 C444\n"
        XCTAssertEqual(String(decoding: data.prefix(header.utf8.count), as: UTF8.self), header)
        let luma = Array(data[(header.utf8.count + 6)...].prefix(8 * 4))
        XCTAssertEqual(luma.firstIndex(of: 235), 7)
        XCTAssertEqual(luma.filter { $0 == 235 }.count, 1)
    }
}
