import Foundation
import XCTest

/// `buoy present-bench`, through the built `buoy` beside this test bundle: a small square
/// crossing the frame, written into two flipped buffers by drawn regions, byte for byte the
/// whole-frame conversion, in both formats and every turn.
final class PresentBenchCommandTests: XCTestCase {
    var buoy: String { Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("buoy").path }

    func testRegionWritesEqualTheWholeFrameConversionAndWriteLess() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-present-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let json = #"""
        {"v":"5.7.0","fr":10,"ip":0,"op":10,"w":32,"h":18,"layers":[
         {"ty":1,"sc":"#00ff00","sw":6,"sh":4,"ip":0,"op":10,"st":0,"ks":{"p":{"a":1,"k":[
           {"t":0,"s":[0,0],"i":{"x":1,"y":1},"o":{"x":0,"y":0}},{"t":10,"s":[26,14]}]}}}]}
        """#
        try json.write(toFile: dir + "/anim.json", atomically: true, encoding: .utf8)
        for (format, rotate) in [("xrgb8888", "0"), ("rgb565", "90"), ("xrgb8888", "180"), ("rgb565", "270")] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: buoy)
            process.arguments = ["present-bench", dir + "/anim.json", "--size", "97x55", "--count", "12", "--pixel-format", format, "--rotate", rotate]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "\(format) \(rotate): \(text)")
            XCTAssertTrue(text.contains("identical=yes"), "\(format) \(rotate): \(text)")
            let written = text.split(separator: " ").first { $0.hasPrefix("pixels_written=") }
                .flatMap { Double($0.dropFirst("pixels_written=".count).dropLast()) }
            XCTAssertLessThan(written ?? 100, 50, "\(format) \(rotate): a small moving square rewrites little: \(text)")
        }
        // Refused arguments are usage errors, not a crash.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: buoy)
        process.arguments = ["present-bench", dir + "/anim.json", "--pixel-format", "argb8888"]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1)
    }
}
