import Foundation
import Raster
import XCTest

/// The whole download screen, as a kiosk runs it: the built `buoy run` with the corpus's
/// Boat_Loader, a throttled download from the loopback server, headless PNG frames and the
/// trace. Checked from the trace: the loop while downloading, the water (the interpolator's
/// level) rising eased behind the received fraction, the 4x finish to the loop's end, the
/// success segment at 1x, exit 0 and the file's SHA-256; from the PNGs: the last downloading
/// frame, at 100 %, is at least 98 % water on a landscape, a small and a portrait (turned)
/// display.
final class EndToEndTests: CommandTestCase {
    struct Row {
        var seq: Int, t: Double, frame: Double, progress: Double, download: Double?, state: String, speed: Double, level: Double
    }

    var boatLoader: String {
        get throws {
            let shared = ProcessInfo.processInfo.environment["BUOY_SHARED"]
                ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("shared").path
            let path = shared + "/corpus/lottie-ios/samples/Boat_Loader.json"
            guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("corpus not found at \(path)") }
            return path
        }
    }

    /// Boat_Loader's sea: the fill of its root `Bg` layer (the water behind the boat), 0...255.
    func waterColour(_ path: String) throws -> (Int, Int, Int) {
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let layers = try XCTUnwrap(json["layers"] as? [[String: Any]])
        let bg = try XCTUnwrap(layers.first { $0["nm"] as? String == "Bg" }, "no Bg layer")
        func fill(_ items: [[String: Any]]) -> [Double]? {
            for item in items {
                if item["ty"] as? String == "fl", let c = item["c"] as? [String: Any], let k = c["k"] as? [Double] { return k }
                if item["ty"] as? String == "gr", let inner = item["it"] as? [[String: Any]], let found = fill(inner) { return found }
            }
            return nil
        }
        let k = try XCTUnwrap(fill(bg["shapes"] as? [[String: Any]] ?? []), "no fill in Bg")
        return (Int((k[0] * 255).rounded()), Int((k[1] * 255).rounded()), Int((k[2] * 255).rounded()))
    }

    /// The share of pixels within `tolerance` (per channel, for anti-aliased edges and the
    /// rounding of colour conversions) of `water`, and the same for the left and right halves.
    func waterShare(_ image: Image, _ water: (Int, Int, Int), tolerance: Int = 24) -> (all: Double, left: Double, right: Double) {
        var left = 0, right = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixels[y * image.width + x]
                let r = Int((p >> 16) & 0xff), g = Int((p >> 8) & 0xff), b = Int(p & 0xff)
                if abs(r - water.0) <= tolerance && abs(g - water.1) <= tolerance && abs(b - water.2) <= tolerance {
                    if x < image.width / 2 { left += 1 } else { right += 1 }
                }
            }
        }
        let halfLeft = Double(image.width / 2 * image.height), halfRight = Double((image.width - image.width / 2) * image.height)
        return (Double(left + right) / Double(image.width * image.height), Double(left) / halfLeft, Double(right) / halfRight)
    }

    func rows(_ path: String) throws -> [Row] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            let e = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            return Row(seq: try XCTUnwrap(e["seq"] as? Int), t: try XCTUnwrap(e["t"] as? Double), frame: try XCTUnwrap(e["frame"] as? Double),
                       progress: try XCTUnwrap(e["progress"] as? Double), download: e["download"] as? Double,
                       state: try XCTUnwrap(e["state"] as? String), speed: try XCTUnwrap(e["speed"] as? Double),
                       level: try XCTUnwrap(e["level"] as? Double, "no level in \(line)"))
        }
    }

    func testHeadlessRunFollowsTheDownloadFinishesAtFourTimesAndFillsTheScreenWithWater() throws {
        let animation = try boatLoader
        let water = try waterColour(animation)
        let size = 300_000
        let sum = try sha256OfServerBody(size)
        // 4 s of download (3750 bytes every 50 ms); 5 frames a second keeps the PNGs (slow to
        // encode at 1080p) few.
        let fps = 5.0
        let displays: [(name: String, size: String, rotate: Int)] = [("landscape", "1920x1080", 0), ("small", "800x480", 0),
                                                                    ("portrait", "1920x1080", 90)]
        var runs: [(name: String, process: Process, rotate: Int, dest: String)] = []
        for d in displays {
            let dest = "\(dir)/\(d.name).bin"
            let process = try start(["run", "--animation", animation, "--url", "\(base)/slow/\(size)?rate=75000", "--output", dest,
                                     "--sha256", sum, "--display", "headless:\(dir)/\(d.name)", "--size", d.size, "--rotate", "\(d.rotate)",
                                     "--fps", "\(fps)", "--on-complete", "exit", "--trace", "\(dir)/\(d.name).jsonl",
                                     "--progress", "hide"], name: d.name)  // the water alone: no progress band over it
            runs.append((d.name, process, d.rotate, dest))
        }
        for run in runs { run.process.waitUntilExit() }
        let frameRate = 60.0  // Boat_Loader's
        let loopEnd = 444.0, end = 888.0  // the loop is its first half
        for run in runs {
            let name = run.name
            XCTAssertEqual(run.process.terminationStatus, 0, "\(name): \(errors(of: name))")
            XCTAssertEqual(try sha256(of: run.dest), sum, name)
            let trace = try rows("\(dir)/\(name).jsonl")
            let states = trace.map(\.state).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            XCTAssertEqual(states, ["downloading", "finishing", "success", "done"], name)

            // Downloading: in the loop segment; the level only rises, never ahead of the bytes
            // received, through several eased values, and is full on the last downloading frame.
            let down = trace.filter { $0.state == "downloading" }
            XCTAssertTrue(down.allSatisfy { $0.progress <= 0.5 + 1e-6 && $0.frame <= loopEnd }, name)
            let levels = down.map(\.level)
            XCTAssertEqual(levels, levels.sorted(), "\(name): the water only rises")
            var received = 0.0
            for row in down {
                received = max(received, row.download ?? 0)
                XCTAssertLessThanOrEqual(row.level, received + 1e-6, "\(name) seq \(row.seq): the water is ahead of the download")
            }
            let intermediate = Set(levels.filter { $0 > 0.01 && $0 < 0.99 })
            XCTAssertGreaterThanOrEqual(intermediate.count, 3, "\(name): a step, not a rise: \(levels)")
            let last = try XCTUnwrap(down.last)
            XCTAssertEqual(last.download, 1, name)
            XCTAssertEqual(last.level, 1, name)

            // Finishing: 4x (four times the animation's frame rate per presented second) to the loop's end.
            let finishing = trace.filter { $0.state == "finishing" }
            XCTAssertEqual(finishing.first?.seq, last.seq + 1, "\(name): the finish follows the last downloading frame")
            XCTAssertTrue(finishing.allSatisfy { $0.speed == 4 && $0.frame <= loopEnd }, name)
            for (a, b) in zip(finishing, finishing.dropFirst()) {
                XCTAssertEqual((b.frame - a.frame) / (b.t - a.t), 4 * frameRate, accuracy: 0.5, "\(name) seq \(b.seq): finishing rate")
            }
            // Then 1x through the success segment, from the loop's end to the last frame.
            let success = trace.filter { $0.state == "success" }
            let firstSuccess = try XCTUnwrap(success.first)
            XCTAssertGreaterThanOrEqual(firstSuccess.frame, loopEnd, name)
            XCTAssertLessThanOrEqual(firstSuccess.frame, loopEnd + 4 * frameRate / fps, "\(name): the finish ran to the loop's end")
            XCTAssertTrue(success.allSatisfy { $0.speed == 1 && $0.progress >= 0.5 - 1e-6 }, name)
            for (a, b) in zip(success, success.dropFirst()) {
                XCTAssertEqual((b.frame - a.frame) / (b.t - a.t), frameRate, accuracy: 0.5, "\(name) seq \(b.seq): success rate")
            }
            XCTAssertEqual(trace.last?.state, "done", name)
            XCTAssertEqual(trace.last?.frame ?? 0, end, accuracy: 1, name)
            XCTAssertEqual(trace.last?.progress ?? 0, 1, accuracy: 1e-6, name)

            // The PNG of the last downloading frame (one file per presented frame): water everywhere.
            let full = try PNG.read(path: String(format: "\(dir)/\(name)/frame-%06d.png", last.seq))
            let share = waterShare(full, water)
            print("\(name): \(full.width)x\(full.height) last downloading frame \(last.seq) is \(String(format: "%.2f", share.all * 100)) % water")
            XCTAssertGreaterThanOrEqual(share.all, 0.98, name)
            if run.rotate == 90 {
                // The panel buffer, turned: the sea (the bottom of the portrait picture) is on
                // the panel's left at the start, the sky on its right.
                XCTAssertEqual(full.width, 1920, name)
                let first = waterShare(try PNG.read(path: "\(dir)/\(name)/frame-000000.png"), water)
                XCTAssertGreaterThan(first.left, first.right + 0.2, "\(name): \(first)")
            }
        }
    }

    /// `--display auto:headless:DIR` on a machine without a display writes files, and the run
    /// is paced to the clock like `headless:DIR`: the 1 s download spans about 1 s of frames
    /// (unpaced, thousands of frames would pass while it runs).
    func testAutoHeadlessFallbackIsPacedLikeHeadless() throws {
        if FileManager.default.fileExists(atPath: "/dev/fb0")
            || ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).contains(where: { $0.hasPrefix("card") }) {
            throw XCTSkip("this machine has a display device; the fallback to files is not taken")
        }
        let dest = dir + "/paced.bin"
        let (status, log) = try run(["run", "--url", "\(base)/slow/50000?rate=50000", "--output", dest, "--display", "auto:headless:\(dir)/frames",
                                     "--size", "64x36", "--fps", "20", "--on-complete", "exit", "--trace", dir + "/paced.jsonl"])
        XCTAssertEqual(status, 0, log)
        XCTAssertTrue(log.contains("writing frames to"), log)
        let trace = try rows(dir + "/paced.jsonl")
        let downloading = try XCTUnwrap(trace.last { $0.state == "downloading" })
        XCTAssertGreaterThan(downloading.t, 0.6, "the download took about a second")
        XCTAssertLessThan(downloading.t, 4, "frames paced to the clock, not as fast as they render")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dest)).count, 50000)
    }
}
