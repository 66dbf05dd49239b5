import Display
import Foundation
import Raster
import XCTest

final class DisplayTests: XCTestCase {
    func tempDir(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        return dir
    }

    func frame(_ i: Int) -> Surface {
        var s = Surface(width: 8, height: 4)
        var p = Path()
        p.addRect(Rect(x: Double(i % 8), y: 0, width: 1, height: 4))
        s.fill(p, paint: .solid(.white))
        return s
    }

    func testHeadlessWritesEveryNthFrameAtVirtualTimes() throws {
        let dir = tempDir("headless")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let presenter = try HeadlessPresenter(directory: dir, width: 8, height: 4, fps: 50, every: 3)
        var times: [Double] = []
        for i in 0..<7 {
            XCTAssertEqual(presenter.nextPresentationTime(), Double(i) * 0.02, accuracy: 1e-12)
            times.append(try presenter.present(frame(i)).time)
        }
        XCTAssertEqual(times.last!, 0.12, accuracy: 1e-12)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(files, ["frame-000000.png", "frame-000001.png", "frame-000002.png"])  // frames 0, 3, 6
        let third = try PNG.read(path: dir + "/frame-000002.png")
        XCTAssertEqual(third.pixels, frame(6).pixels)
    }

    func testHeadlessIsDeterministic() throws {
        var runs: [[Data]] = []
        for run in 0..<2 {
            let dir = tempDir("det\(run)")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let presenter = try HeadlessPresenter(directory: dir, width: 8, height: 4)
            for i in 0..<3 { _ = try presenter.present(frame(i)) }
            runs.append(try (0..<3).map { try Data(contentsOf: URL(fileURLWithPath: dir + String(format: "/frame-%06d.png", $0))) })
        }
        XCTAssertEqual(runs[0], runs[1])
    }

    func testUnwritableDirectoryIsAClearError() {
        XCTAssertThrowsError(try HeadlessPresenter(directory: "/proc/buoy-cannot", width: 8, height: 8)) {
            XCTAssertTrue("\($0)".hasPrefix("headless:/proc/buoy-cannot"), "\($0)")
        }
    }

    /// A y4m path is written in place: a FIFO stays a FIFO (a reader gets the video), and a
    /// device such as /dev/null is never replaced by a regular file.
    func testY4MWritesInPlaceAndNeverReplacesWhatIsThere() throws {
        let path = tempDir("y4m-fifo") + ".fifo"
        unlink(path)
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        defer { unlink(path) }
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let presenter = try Y4MPresenter(path: path, width: 4, height: 2, fps: 30)
        _ = try presenter.present(Surface(width: 4, height: 2, clearColor: .white))
        presenter.close()
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "still the FIFO")
        var buffer = [UInt8](repeating: 0, count: 64)
        XCTAssertEqual(String(decoding: buffer[..<max(0, read(reader, &buffer, 9))], as: UTF8.self), "YUV4MPEG2")
        // Whatever /dev/null is now (another program on a shared machine may have broken it),
        // writing y4m to it leaves it that.
        XCTAssertEqual(lstat("/dev/null", &st), 0)
        let before = (st.st_mode & S_IFMT, st.st_ino)
        let null = try Y4MPresenter(path: "/dev/null", width: 4, height: 2, fps: 30)
        _ = try null.present(Surface(width: 4, height: 2, clearColor: .black))
        null.close()
        XCTAssertEqual(lstat("/dev/null", &st), 0)
        XCTAssertTrue((st.st_mode & S_IFMT, st.st_ino) == before, "/dev/null is still what it was (a device here: \(before.0 == S_IFCHR))")
    }

    func testY4MStream() throws {
        let path = tempDir("y4m") + ".y4m"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let presenter = try Y4MPresenter(path: path, width: 8, height: 4, fps: 30)
        _ = try presenter.present(Surface(width: 8, height: 4, clearColor: .white))
        _ = try presenter.present(Surface(width: 8, height: 4, clearColor: .black))
        presenter.close()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let header = "YUV4MPEG2 W8 H4 F30:1 Ip A1:1 C444\n"
        XCTAssertEqual(String(decoding: data.prefix(header.utf8.count), as: UTF8.self), header)
        XCTAssertEqual(data.count, header.utf8.count + 2 * ("FRAME\n".utf8.count + 8 * 4 * 3))
        let firstY = data[header.utf8.count + 6]
        XCTAssertEqual(firstY, 235)  // white is Y 235 in limited range
    }

    func testRotationMapsCornersToThePanel() {
        // A 3x2 picture with a marked top-left pixel.
        var s = Surface(width: 3, height: 2)
        s.pixels[0] = 0xffff_0000
        func panel(_ r: Rotation) -> [UInt32] {
            var out = [UInt32](repeating: 0, count: 6)
            out.withUnsafeMutableBytes { PanelConversion.write(s, rotation: r, to: $0.baseAddress!, stride: (r.swapsAxes ? 2 : 3) * 4, format: .argb8888) }
            return out
        }
        XCTAssertEqual(panel(.none)[0], 0xffff_0000)
        XCTAssertEqual(panel(.quarter)[1], 0xffff_0000)       // top-right of a 2x3 panel
        XCTAssertEqual(panel(.half)[5], 0xffff_0000)          // bottom-right
        XCTAssertEqual(panel(.threeQuarters)[4], 0xffff_0000) // bottom-left of 2x3
    }

    /// A touch on the panel, mapped back through the rotation, lands on the logical pixel the
    /// panel shows there: for every rotation and every pixel of a 5x3 picture.
    func testPanelPointsMapBackToTheLogicalPixelShownThere() {
        let w = 5, h = 3
        for r in Rotation.allCases {
            let pw = r.swapsAxes ? h : w, ph = r.swapsAxes ? w : h
            for target in 0..<(w * h) {
                var s = Surface(width: w, height: h)
                s.pixels[target] = 0xffff_ffff
                var out = [UInt32](repeating: 0, count: w * h)
                out.withUnsafeMutableBytes { PanelConversion.write(s, rotation: r, to: $0.baseAddress!, stride: pw * 4, format: .argb8888) }
                guard let shown = out.firstIndex(of: 0xffff_ffff) else { return XCTFail("\(r): pixel \(target) not on the panel") }
                let (px, py) = (shown % pw, shown / pw)
                let p = r.logicalPoint(panelX: (Double(px) + 0.5) / Double(pw), panelY: (Double(py) + 0.5) / Double(ph))
                let logical = Int(p.y * Double(h)) * w + Int(p.x * Double(w))
                XCTAssertEqual(logical, target, "\(r): panel pixel \(px),\(py)")
            }
        }
    }

    func testSpecsAndModes() {
        XCTAssertEqual(DisplaySpec("auto"), .auto(headless: nil))
        XCTAssertEqual(DisplaySpec("auto:headless:out/frames"), .auto(headless: "out/frames"))
        XCTAssertNil(DisplaySpec("auto:headless"))
        XCTAssertNil(DisplaySpec("auto:y4m:-"))
        XCTAssertNil(DisplaySpec("auto:"))
        XCTAssertEqual(DisplaySpec("drm"), .drm(device: nil))
        XCTAssertEqual(DisplaySpec("drm:/dev/dri/card1"), .drm(device: "/dev/dri/card1"))
        XCTAssertEqual(DisplaySpec("fbdev"), .fbdev(device: "/dev/fb0"))
        XCTAssertEqual(DisplaySpec("headless:out"), .headless(directory: "out"))
        XCTAssertEqual(DisplaySpec("y4m:-"), .y4m(path: "-"))
        XCTAssertNil(DisplaySpec("headless"))
        XCTAssertNil(DisplaySpec("vnc:1"))
        XCTAssertEqual(ModeRequest("1280x720@60"), ModeRequest("1280x720@60"))
        XCTAssertEqual(ModeRequest("1280x720")?.refresh, nil)
        XCTAssertNil(ModeRequest("1280x"))
        XCTAssertNil(ModeRequest("0x720"))
    }

    func testMissingDevicesNameThemselves() {
        XCTAssertThrowsError(try DRMPresenter(device: "/dev/dri/card-nope")) { XCTAssertTrue("\($0)".hasPrefix("/dev/dri/card-nope: ")) }
        XCTAssertThrowsError(try FBDevPresenter(device: "/dev/fb-nope")) { XCTAssertTrue("\($0)".hasPrefix("/dev/fb-nope: ")) }
    }

    func testTraceLine() {
        let line = FrameTrace.Entry(sequence: 3, time: 0.05, frame: 3, progress: 0.25, download: nil, state: "playing", speed: 1, missed: 0).json
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        XCTAssertEqual(object?["seq"] as? Int, 3)
        XCTAssertTrue(object?["download"] is NSNull)
        XCTAssertEqual(object?["state"] as? String, "playing")
    }
}
