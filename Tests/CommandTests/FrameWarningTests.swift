import Foundation
import XCTest

/// `buoy play` and `buoy run` draw many frames of a file past a budget: each renderer warning
/// is printed once, when it first appears, not once a frame.
final class FrameWarningTests: CommandTestCase {
    /// 20 nested precomps each drawing the next eight times: past the layer budget every frame.
    func writeFanOut() throws -> String {
        var assets: [String] = []
        for level in 0..<20 {
            let child = level == 19 ? #"{"ty":3,"ip":0,"op":30}"# : #"{"ty":0,"refId":"p\#(level + 1)","ip":0,"op":30,"w":20,"h":20}"#
            assets.append(#"{"id":"p\#(level)","layers":[\#(Array(repeating: child, count: 8).joined(separator: ","))]}"#)
        }
        let path = dir + "/fan.json"
        let text = #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":20,"h":20,"assets":[\#(assets.joined(separator: ","))],"#
            + #""layers":[{"ty":0,"refId":"p0","ip":0,"op":30,"w":20,"h":20}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func occurrences(_ text: String, in log: String) -> Int {
        log.components(separatedBy: text).count - 1
    }

    func testPlayPrintsABudgetWarningOnce() throws {
        let path = try writeFanOut()
        let (status, err) = try run(["play", path, "--display", "headless:\(dir)/play", "--size", "20x20", "--duration", "0.3"])
        XCTAssertEqual(status, 0, err)
        let frames = try FileManager.default.contentsOfDirectory(atPath: dir + "/play")
        XCTAssertGreaterThan(frames.count, 2, "several frames drawn")
        XCTAssertEqual(occurrences("frame budget exceeded", in: err), 1, err)
    }

    func testRunPrintsABudgetWarningOnce() throws {
        let path = try writeFanOut()
        let (status, err) = try run(["run", "--animation", path, "--url", "\(base)/slow/20000?rate=40000", "--output", "\(dir)/file.bin",
                                     "--display", "headless:\(dir)/run", "--size", "20x20", "--every", "1000", "--on-complete", "exit"])
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(occurrences("frame budget exceeded", in: err), 1, err)
    }
}
