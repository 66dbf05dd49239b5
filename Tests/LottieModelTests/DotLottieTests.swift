import Foundation
import XCTest
@testable import LottieModel

/// dotLottie containers (issue 11): built here with Python's zipfile from corpus JSON, in the
/// version 1 and version 2 layouts; hostile containers refused with a clear error.
final class DotLottieTests: XCTestCase {
    var root = ""

    static var samples: String {
        let base = ProcessInfo.processInfo.environment["BUOY_SHARED"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared").path
        return base + "/corpus/lottie-ios/samples"
    }

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "buoy-dotlottie-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    /// Writes a zip at `path` with `entries` (name → file to copy, or `=text` for literal text).
    func zip(_ path: String, _ entries: [(String, String)], compression: String = "ZIP_DEFLATED") throws {
        let spec = root + "/spec-\(UInt32.random(in: 0...UInt32.max)).json"
        let pairs = entries.map { [$0.0, $0.1] }
        try JSONSerialization.data(withJSONObject: pairs).write(to: URL(fileURLWithPath: spec))
        let script = """
        import json, sys, zipfile
        with zipfile.ZipFile(sys.argv[1], "w", zipfile.\(compression)) as z:
            for name, source in json.load(open(sys.argv[2])):
                z.writestr(name, source[1:].encode() if source.startswith("=") else open(source, "rb").read())
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path, spec]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func imageBytes(_ animation: Animation) -> [UInt8]? {
        for (_, asset) in animation.assets {
            if case .image(let image) = asset, case .embedded(let bytes) = image.source { return bytes }
        }
        return nil
    }

    func testVersion1LayoutWithManifestAndImage() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.samples + "/Boat_Loader.json"))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        try Data(png).write(to: URL(fileURLWithPath: root + "/img.png"))
        let withImage = #"={"v":"5","fr":30,"ip":0,"op":10,"w":10,"h":10,"assets":[{"id":"i0","w":4,"h":4,"u":"/images/","p":"img_0.png","e":0}],"layers":[{"ty":2,"refId":"i0","ks":{}}]}"#
        let path = root + "/v1.bin"   // no extension: told by its content
        let animation = try Animation.load(path: path, ifZipOf: [
            ("manifest.json", #"={"version":"1","activeAnimationId":"second","animations":[{"id":"first"},{"id":"second"}]}"#),
            ("animations/first.json", Self.samples + "/Boat_Loader.json"),
            ("animations/second.json", withImage),
            ("images/img_0.png", root + "/img.png"),
        ], test: self)
        XCTAssertEqual(imageBytes(animation), png, "the image asset is read from the container")
        XCTAssertEqual(animation.width, 10, "the manifest's active animation is chosen")
    }

    func testVersion2LayoutTakesTheInitialAnimation() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.samples + "/Boat_Loader.json"))
        let boat = try Animation.load(path: Self.samples + "/Boat_Loader.json")
        let animation = try Animation.load(path: root + "/v2.lottie", ifZipOf: [
            ("manifest.json", #"={"version":"2","initial":{"animation":"boat"},"animations":[{"id":"a0"},{"id":"boat"}]}"#),
            ("a/a0.json", #"={"v":"5","fr":30,"ip":0,"op":10,"w":10,"h":10,"layers":[{"ty":3,"ks":{}}]}"#),
            ("a/boat.json", Self.samples + "/Boat_Loader.json"),
        ], test: self)
        XCTAssertEqual(animation.layers.count, boat.layers.count)
        XCTAssertEqual(animation.width, boat.width)
    }

    func testWithoutManifestTheFirstAnimationIsTaken() throws {
        let animation = try Animation.load(path: root + "/plain.lottie", ifZipOf: [
            ("a/x.json", #"={"v":"5","fr":30,"ip":0,"op":10,"w":12,"h":34,"layers":[{"ty":3,"ks":{}}]}"#),
        ], test: self)
        XCTAssertEqual(animation.width, 12)
        XCTAssertEqual(animation.height, 34)
    }

    func testTheCorpusContainersOpen() throws {
        let dir = Self.samples + "/DotLottie"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: dir + "/animation_inline_image.lottie"))
        for name in ["animation", "animation_inline_image", "animation_external_image", "multiple_animations"] {
            let animation = try Animation.load(path: dir + "/\(name).lottie")
            XCTAssertGreaterThan(animation.layers.count, 0, name)
        }
        XCTAssertNotNil(imageBytes(try Animation.load(path: dir + "/animation_external_image.lottie")))
    }

    func testHostileContainersAreRefusedClearly() throws {
        let small = #"={"v":"5","fr":30,"ip":0,"op":10,"w":10,"h":10,"layers":[{"ty":3,"ks":{}}]}"#
        // Only a name that climbs out: ignored, so there is no animation.
        try zip(root + "/climb.lottie", [("a/../../etc/x.json", small), ("/a/abs.json", small)])
        XCTAssertThrowsError(try Animation.load(path: root + "/climb.lottie")) { error in
            XCTAssertTrue("\(error)".contains("no animation"), "\(error)")
        }
        // A zip bomb: 80 MB of zeros deflate to a few kilobytes; refused from the declared size.
        let zeros = root + "/zeros"
        XCTAssertTrue(FileManager.default.createFile(atPath: zeros, contents: Data(count: 80 << 20)))
        try zip(root + "/bomb.lottie", [("a/x.json", zeros)])
        XCTAssertThrowsError(try Animation.load(path: root + "/bomb.lottie")) { error in
            XCTAssertTrue("\(error)".contains("limit"), "\(error)")
        }
        // A flipped byte in stored data: the CRC says so.
        try zip(root + "/crc.lottie", [("a/x.json", small)], compression: "ZIP_STORED")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/crc.lottie")))
        let at = try XCTUnwrap(bytes.firstIndex(of: UInt8(ascii: "{")))
        bytes[at + 2] = UInt8(ascii: "w")
        XCTAssertThrowsError(try ZipArchive(bytes).contents(of: "a/x.json")) { error in
            XCTAssertEqual((error as? ZipError)?.reason, "CRC mismatch (damaged data)")
        }
        // Too many entries, and truncated files.
        var limits = ZipArchive.Limits()
        limits.maxEntries = 3
        try zip(root + "/many.lottie", (0..<5).map { ("a/\($0).json", small) })
        let many = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/many.lottie")))
        XCTAssertThrowsError(try ZipArchive(many, limits: limits))
        for cut in [4, 30, many.count / 2, many.count - 1] {
            XCTAssertThrowsError(try DotLottie.parse(Array(many.prefix(cut)), name: "t", file: "t"))
        }
    }
}

extension Animation {
    static func load(path: String, ifZipOf entries: [(String, String)], test: DotLottieTests) throws -> Animation {
        try test.zip(path, entries)
        return try Animation.load(path: path)
    }
}
