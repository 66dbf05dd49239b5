import Display
import Foundation
import Raster
import XCTest

/// `buoy play` to files, through the built `buoy` beside this test bundle (`swift test` builds
/// it for the command tests).
final class PlayCommandTests: XCTestCase {
    var dir = ""

    var buoy: String { Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("buoy").path }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-play-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: buoy), "no buoy binary at \(buoy): build it first")
        // A 32x18 animation: a red solid over its left half, a green one in the top-right corner.
        let json = #"""
        {"v":"5.7.0","fr":10,"ip":0,"op":10,"w":32,"h":18,"layers":[
         {"ty":1,"sc":"#ff0000","sw":16,"sh":18,"ip":0,"op":10,"st":0,"ks":{}},
         {"ty":1,"sc":"#00ff00","sw":8,"sh":6,"ip":0,"op":10,"st":0,"ks":{"p":{"a":0,"k":[24,0]}}}]}
        """#
        try json.write(toFile: dir + "/anim.json", atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    @discardableResult
    func play(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: buoy)
        process.arguments = ["play", dir + "/anim.json"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    func testAutoWithHeadlessFallbackWritesFramesWhenThereIsNoDisplay() throws {
        let fm = FileManager.default
        if fm.fileExists(atPath: "/dev/fb0") || ((try? fm.contentsOfDirectory(atPath: "/dev/dri")) ?? []).contains(where: { $0.hasPrefix("card") }) {
            throw XCTSkip("this machine has a display device")
        }
        let out = dir + "/frames"
        let run = try play(["--display", "auto:headless:" + out, "--size", "32x18", "--fps", "10", "--duration", "0.45"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("writing frames to \(out)"), run.stderr)
        let files = try fm.contentsOfDirectory(atPath: out).sorted()
        XCTAssertEqual(files.first, "frame-000000.png")
        XCTAssertGreaterThanOrEqual(files.count, 5, "\(files)")
        let frame = try PNG.read(path: out + "/frame-000000.png")
        XCTAssertEqual([frame.width, frame.height], [32, 18])

        // Plain auto has nowhere to go: exit 4 naming what it tried.
        let plain = try play(["--display", "auto", "--duration", "0.1"])
        XCTAssertEqual(plain.status, 4, plain.stderr)
        XCTAssertTrue(plain.stderr.contains("/dev/dri") && plain.stderr.contains("/dev/fb0"), plain.stderr)
        // Looping into files that would never end is refused once it is known to be files.
        let endless = try play(["--display", "auto:headless:" + dir + "/endless", "--loop"])
        XCTAssertEqual(endless.status, 1, endless.stderr)
        XCTAssertTrue(endless.stderr.contains("--duration"), endless.stderr)
        XCTAssertEqual(try play(["--display", "auto:fbdev"]).status, 1)
    }

    func testRotateTurnsHeadlessFramesIntoThePanel() throws {
        // Upright, at the size the turned picture has; and turned, into a 32x18 panel.
        XCTAssertEqual(try play(["--display", "headless:\(dir)/upright", "--size", "18x32", "--duration", "0.05"]).status, 0)
        for r in [Rotation.quarter, .threeQuarters] {
            let out = "\(dir)/r\(r.rawValue)"
            let run = try play(["--display", "headless:" + out, "--size", "32x18", "--rotate", "\(r.rawValue)", "--duration", "0.05"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let upright = Surface(image: try PNG.read(path: "\(dir)/upright/frame-000000.png"))
            let turned = try PNG.read(path: out + "/frame-000000.png")
            XCTAssertEqual([turned.width, turned.height], [32, 18], "\(r)")
            XCTAssertEqual(turned.pixels, PanelConversion.panelSurface(upright, rotation: r).pixels, "\(r)")
        }
        // Without --size, the panel is the one the animation fills when turned.
        XCTAssertEqual(try play(["--display", "headless:\(dir)/fill", "--rotate", "90", "--duration", "0.05"]).status, 0)
        let filled = try PNG.read(path: "\(dir)/fill/frame-000000.png")
        XCTAssertEqual([filled.width, filled.height], [18, 32])
        // Red is the animation's left half: the panel's top half when turned clockwise.
        XCTAssertEqual(filled.pixels[2 * 18 + 9] & 0xff_ffff, 0xff_0000)
        XCTAssertEqual(filled.pixels[29 * 18 + 9] & 0xff_0000, 0)
    }

    func testSignalsEndPlaybackWithTheirStatus() throws {
        // Whichever thread the kernel hands the signal to, the frame loop sees it: 128 + signal.
        for (sig, status) in [(SIGTERM, Int32(143)), (SIGINT, 130), (SIGTERM, 143)] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: buoy)
            process.arguments = ["play", dir + "/anim.json", "--display", "y4m:/dev/null", "--size", "32x18", "--loop", "--duration", "100000"]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            var text = ""
            while !text.contains("first frame on screen") {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            kill(process.processIdentifier, sig)
            text += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit, text)
            XCTAssertEqual(process.terminationStatus, status, text)
            XCTAssertTrue(text.contains("stopped by signal \(sig)"), text)
        }
    }
}
