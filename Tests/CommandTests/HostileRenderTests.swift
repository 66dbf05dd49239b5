import Foundation
import XCTest

/// `buoy render` on broken and hostile files (issue 10): a file with malformed parts renders
/// with its warnings printed, a file past a budget renders what fits and says so once, and
/// the largest output is enforced.
final class HostileRenderTests: CommandTestCase {
    func write(_ name: String, _ text: String) throws -> String {
        let path = dir + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A file named by one letter in the working directory: Foundation's NSString path methods
    /// trapped on "a" (SIGILL), so `buoy render a` crashed before it read the file.
    func testAOneLetterFileNameInTheWorkingDirectoryRenders() throws {
        _ = try write("a", #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":20,"h":20,"layers":[]}"#)
        let process = Process()
        process.executableURL = buoy
        process.arguments = ["render", "a", "-o", "b.png"]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let (status, _, err) = try runToEnd(process)
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/b.png"))
    }

    func testMalformedPartsAreWarnedAboutAndTheFileRenders() throws {
        // A layer without ip, a solid colour of "", a scale of 1.6e17 and an effect whose ty is a string.
        let path = try write("odd.json", #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":20,"h":20,"layers":["#
            + #"{"ty":1,"sc":"","sw":20,"sh":20,"op":30,"ks":{"s":{"a":0,"k":[1.6e17,100]}},"ef":[{"ty":"x"}]}]}"#)
        let (status, err) = try run(["render", path, "-o", dir + "/odd.png"])
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/odd.png"))
        for fragment in ["layers[0].sc", "layers[0].ks.s.k[0]", "layers[0].ef[0].ty"] {
            XCTAssertTrue(err.contains(fragment), "\(fragment): \(err)")
        }
    }

    func testABudgetExceededIsReportedOnceAndTheFrameIsWritten() throws {
        var assets: [String] = []
        for level in 0..<20 {
            let child = level == 19 ? #"{"ty":3,"ip":0,"op":30}"# : #"{"ty":0,"refId":"p\#(level + 1)","ip":0,"op":30,"w":20,"h":20}"#
            assets.append(#"{"id":"p\#(level)","layers":[\#(Array(repeating: child, count: 8).joined(separator: ","))]}"#)
        }
        let path = try write("fan.json", #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":20,"h":20,"assets":[\#(assets.joined(separator: ","))],"#
            + #""layers":[{"ty":0,"refId":"p0","ip":0,"op":30,"w":20,"h":20}]}"#)
        let start = Date()
        let (status, err) = try run(["render", path, "--frames", "0:3", "-o", dir + "/fan"])
        XCTAssertEqual(status, 0, err)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
        XCTAssertEqual(err.components(separatedBy: "frame budget exceeded").count - 1, 1, err)
    }

    func testOutputsLargerThanTheMaximumAreRefused() throws {
        let path = try write("small.json", #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":20,"h":20,"layers":[{"ty":3,"ip":0,"op":30}]}"#)
        let (status, err) = try run(["render", path, "--size", "16384x16384", "-o", dir + "/big.png"])
        XCTAssertEqual(status, 1, err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/big.png"))
    }
}
