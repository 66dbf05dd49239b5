import Foundation
import Raster
import XCTest

/// `buoy demo` as the integrator first sees it, checked on its frames' pixels: no frame is one
/// flat colour and every download frame shows the boat; a failure says why in the chosen language.
final class DemoScreenTests: CommandTestCase {
    /// The built-in boat's hull and mast colour.
    static let hull = (r: 56, g: 64, b: 82)

    struct Facts {
        var flatness: Double
        var figure: Int
        /// White pixels (the progress line's text) in the bottom fifth of the frame.
        var text: Int
    }

    func facts(_ path: String) throws -> Facts {
        let image = try PNG.read(path: path)
        let surface = Surface(image: image)
        var counts: [UInt32: Int] = [:]
        var figure = 0, text = 0
        for (i, p) in surface.pixels.enumerated() where i >= surface.pixels.count * 4 / 5 && p & 0xf0f0f0 == 0xf0f0f0 { text += 1 }
        for p in surface.pixels {
            counts[p, default: 0] += 1
            if abs(Int((p >> 16) & 0xff) - Self.hull.r) <= 4 && abs(Int((p >> 8) & 0xff) - Self.hull.g) <= 4
                && abs(Int(p & 0xff) - Self.hull.b) <= 4 { figure += 1 }
        }
        return Facts(flatness: Double(counts.values.max() ?? 0) / Double(surface.pixels.count), figure: figure, text: text)
    }

    func testDemoFramesAreNeverFlatAndShowTheBoatInBothOrientations() throws {
        for size in ["480x270", "270x480"] {
            let out = "\(dir)/demo-\(size)"
            let (status, log) = try run(["demo", "-o", out, "--size", size, "--bytes", "600000", "--rate", "400000", "--fps", "10"])
            XCTAssertEqual(status, 0, log)
            let trace = try String(contentsOfFile: out + "/trace.jsonl", encoding: .utf8).split(separator: "\n").map { line in
                try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            var flat: [Int] = [], hidden: [Int] = [], silent: [Int] = [], downloading = 0
            for (seq, row) in trace.enumerated() {
                let frame = try facts(String(format: "\(out)/frames/frame-%06d.png", seq))
                if frame.flatness >= 0.9 { flat.append(seq) }
                if row["state"] as? String == "downloading" {
                    downloading += 1
                    if frame.figure < 40 { hidden.append(seq) }
                    if frame.text < 20 { silent.append(seq) }
                }
            }
            print("demo \(size): \(trace.count) frames, \(flat.count) flat, \(downloading - hidden.count) of \(downloading) download frames show the boat")
            XCTAssertGreaterThan(downloading, 5, size)
            XCTAssertEqual(flat, [], "\(size): flat frames")
            XCTAssertEqual(hidden, [], "\(size): download frames without the boat")
            XCTAssertEqual(silent, [], "\(size): download frames without the progress line")
        }
    }

    /// The failure's reason and the words around it follow --language, then the locale; an
    /// unknown language is English.
    func testAFailureSpeaksTheChosenLanguage() throws {
        let cases: [(arguments: [String], environment: [String: String], expected: String)] = [
            (["--language", "de"], [:], "Download fehlgeschlagen: "),
            ([], ["LANG": "fr_FR.UTF-8"], "Échec du téléchargement : "),
            (["--language", "xx"], ["LANG": "fr_FR.UTF-8"], "Download failed: "),
            ([], ["LC_ALL": "C"], "Download failed: "),
        ]
        for (i, c) in cases.enumerated() {
            let process = Process()
            process.executableURL = buoy
            process.arguments = ["run", "--url", "\(base)/files/missing-\(i)", "--output", "\(dir)/out-\(i).bin", "--display", "headless:\(dir)/f\(i)",
                                 "--size", "320x180", "--fps", "10"] + c.arguments
            var environment = ProcessInfo.processInfo.environment
            for key in ["LC_ALL", "LC_MESSAGES", "LANG"] { environment[key] = nil }
            process.environment = environment.merging(c.environment) { $1 }
            let (status, _, err) = try runToEnd(process)
            XCTAssertEqual(status, 5, err)
            XCTAssertTrue(err.contains(c.expected + "\(base)/files/missing-\(i)"), "\(c): \(err)")
        }
    }
}
