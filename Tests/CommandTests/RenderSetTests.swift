import Foundation
import XCTest

/// `buoy render --set` and `buoy keypaths` through the built `buoy`, on the corpus's
/// Boat_Loader: what `--set` parses changes the PNG, what it cannot use is refused with exit 1.
final class RenderSetTests: XCTestCase {
    var dir = ""

    /// The `buoy` built beside this test bundle (swift build and swift test build both).
    var buoy: URL {
        Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("buoy")
    }

    /// Boat_Loader in the shared corpus (`../shared` beside the package, or $BUOY_SHARED).
    var boatLoader: String {
        let shared = ProcessInfo.processInfo.environment["BUOY_SHARED"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
        return shared.appendingPathComponent("corpus/lottie-ios/samples/Boat_Loader.json").path
    }

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: boatLoader), "no corpus at \(boatLoader)")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: buoy.path), "no buoy binary at \(buoy.path): build it first")
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-render-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if !dir.isEmpty { try? FileManager.default.removeItem(atPath: dir) }
    }

    /// Runs buoy; returns its exit status, stdout and stderr (stdout through a file, so
    /// neither pipe can fill up while the other is read).
    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = buoy
        process.arguments = arguments
        let outPath = dir + "/stdout.txt"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        defer { try? out.close() }
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let outText = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        return (process.terminationStatus, outText, String(decoding: errData, as: UTF8.self))
    }

    /// Renders frame 30 at 200x200 with the given --set values; returns the PNG's bytes.
    func render(_ name: String, sets: [String]) throws -> Data {
        let out = dir + "/\(name).png"
        let result = try run(["render", boatLoader, "--frame", "30", "--size", "200x200", "-o", out] + sets.flatMap { ["--set", $0] })
        XCTAssertEqual(result.status, 0, result.err)
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    func testSetChangesTheRenderedPNG() throws {
        let plain = try render("plain", sets: [])
        XCTAssertEqual(try render("again", sets: []), plain, "rendering is deterministic")
        let moved = try render("moved", sets: ["Boat.Transform.Position=417,-800"])
        XCTAssertNotEqual(moved, plain)
        // One number on a 2D property sets both axes; a colour by #RRGGBB through a wildcard.
        XCTAssertNotEqual(try render("scaled", sets: ["Boat.Transform.Scale=50"]), plain)
        XCTAssertNotEqual(try render("red", sets: ["**.Fill 1.Color=#ff0000"]), plain)
        // Several --set: each applies; the last one set wins where they overlap.
        XCTAssertEqual(try render("twice", sets: ["Boat.Transform.Position=0,0", "Boat.Transform.Position=417,-800"]), moved)
    }

    func testSetRefusesWhatItCannotUse() throws {
        let table: [([String], String)] = [
            (["--set", "Nope.Transform.Position=1,2"], "matches no property"),
            (["--set", "Boat.Transform.Position"], "--set"),              // no '='
            (["--set", "Boat.Transform.Position=1,2,3,4,5"], "--set"),    // five numbers
            (["--set", "Boat.Transform.Position=a,b"], "--set"),
            (["--set", "Boat.Transform.Position=#12"], "--set"),
        ]
        for (arguments, message) in table {
            let result = try run(["render", boatLoader, "-o", dir + "/x.png"] + arguments)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.err)")
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/x.png"), "\(arguments)")
        }
    }

    /// --batch renders files as they are: a --set beside it would be silently ignored, so it
    /// is an error (exit 1) and nothing is rendered.
    func testSetWithBatchIsRefused() throws {
        let batch = dir + "/batch.tsv"
        try "\(boatLoader)\t30\t64\t64\t\(dir)/b.png\n".write(toFile: batch, atomically: true, encoding: .utf8)
        let refused = try run(["render", "--batch", batch, "--set", "Boat.Transform.Position=417,-800"])
        XCTAssertEqual(refused.status, 1, refused.err)
        XCTAssertTrue(refused.err.contains("--set cannot be used with --batch"), refused.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/b.png"))
        let plain = try run(["render", "--batch", batch])
        XCTAssertEqual(plain.status, 0, plain.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/b.png"))
    }

    func testKeypathsListsTheBoat() throws {
        let listed = try run(["keypaths", boatLoader])
        XCTAssertEqual(listed.status, 0, listed.err)
        let lines = listed.out.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("Boat.Transform.Position"), listed.out)
        XCTAssertTrue(lines.contains("Boat"))
        let typed = try run(["keypaths", "--types", boatLoader])
        XCTAssertTrue(typed.out.split(separator: "\n").contains("Boat.Transform.Position\tVec2"))
        XCTAssertTrue(typed.out.split(separator: "\n").contains { $0.hasSuffix(".Fill 1.Color\tRGBA") })
    }
}
