import Foundation
import XCTest

/// libcurl is opened only by what downloads (Sources/CCurl): a command that only draws maps
/// neither it nor its TLS chain, and a download without it fails with the loader's reason.
/// The text libraries are opened only when text is drawn from a font (Sources/CTextLibraries).
final class LibraryLoadingTests: CommandTestCase {
    /// Runs buoy with the dynamic linker's log of the files it opens (LD_DEBUG=files); returns
    /// the exit status, stderr and the names of the libraries opened (at start or by dlopen).
    func librariesOpened(by arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, Set<String>) {
        let process = Process()
        process.executableURL = buoy
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let (status, _, err) = try runToEnd(process)
        let pattern = try NSRegularExpression(pattern: #"\bfile=(\S+) +\["#)
        let names = pattern.matches(in: err, range: NSRange(err.startIndex..., in: err)).compactMap {
            Range($0.range(at: 1), in: err).map { URL(fileURLWithPath: String(err[$0])).lastPathComponent }
        }
        return (status, err, Set(names))
    }

    func animation() throws -> String {
        let path = dir + "/square.json"
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":64,"h":64,"layers":[{"ty":4,"ip":0,"op":10,"st":0,"ks":{},"#
            + #""shapes":[{"ty":"rc","p":{"a":0,"k":[32,32]},"s":{"a":0,"k":[20,20]},"r":{"a":0,"k":0}},"#
            + #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}]}"#
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The square with a text layer drawn from a font (whichever fontconfig gives for the name).
    func textAnimation() throws -> String {
        let path = dir + "/text.json"
        let json = #"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":64,"h":64,"layers":["#
            + #"{"ty":5,"ip":0,"op":10,"st":0,"ks":{"p":{"a":0,"k":[4,40]}},"t":{"d":{"k":[{"t":0,"#
            + #""s":{"t":"Hg","f":"DejaVuSans","s":30,"j":0,"fc":[0,0,1]}}]},"p":{},"m":{"g":1,"a":{"a":0,"k":[0,0]}},"a":[]}},"#
            + #"{"ty":4,"ip":0,"op":10,"st":0,"ks":{},"#
            + #""shapes":[{"ty":"rc","p":{"a":0,"k":[32,32]},"s":{"a":0,"k":[20,20]},"r":{"a":0,"k":0}},"#
            + #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}],"#
            + #""fonts":{"list":[{"fName":"DejaVuSans","fFamily":"DejaVu Sans","fStyle":"Book","ascent":75}]}}"#
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let textLibraries = ["libfreetype.so", "libharfbuzz.so", "libfontconfig.so", "libfribidi.so"]

    func testDrawingWithoutTextDoesNotLoadTheTextLibraries() throws {
        let file = try animation()
        for arguments in [["bench", file, "--count", "2", "--threads", "1"], ["render", file, "-o", dir + "/one.png"]] {
            let (status, err, libraries) = try librariesOpened(by: arguments, environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(status, 0, "\(arguments): \(err.suffix(2000))")
            XCTAssertTrue(libraries.contains { $0.hasPrefix("libc.so") }, "the log lists what was opened: \(libraries)")
            let text = libraries.filter { name in Self.textLibraries.contains { name.hasPrefix($0) } }
            XCTAssertTrue(text.isEmpty, "\(arguments) loads \(text.sorted())")
        }
    }

    /// A file with text loads all four and draws the text; without one of them the text is left
    /// undrawn with one warning naming the library, and everything else draws as before.
    func testTextLoadsTheTextLibrariesAndDrawsWithoutThemLeaveTheTextOut() throws {
        let file = try textAnimation(), square = try animation()
        let (status, err, libraries) = try librariesOpened(by: ["render", file, "-o", dir + "/text.png"], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(status, 0, String(err.suffix(2000)))
        for name in Self.textLibraries { XCTAssertTrue(libraries.contains { $0.hasPrefix(name) }, "\(name): \(libraries.sorted())") }
        let (without, warning, _) = try librariesOpened(by: ["render", file, "-o", dir + "/no-text.png"],
                                                        environment: ["BUOY_LIBHARFBUZZ": dir + "/no-such-libharfbuzz.so"])
        XCTAssertEqual(without, 0, warning)
        XCTAssertEqual(warning.components(separatedBy: "libharfbuzz.so.0 could not be loaded").count, 2, warning)
        XCTAssertTrue(warning.contains("no-such-libharfbuzz.so"), warning)
        let (plain, plainErr, _) = try librariesOpened(by: ["render", square, "-o", dir + "/square.png"])
        XCTAssertEqual(plain, 0, plainErr)
        let drawn = try Data(contentsOf: URL(fileURLWithPath: dir + "/text.png"))
        let undrawn = try Data(contentsOf: URL(fileURLWithPath: dir + "/no-text.png"))
        XCTAssertEqual(undrawn, try Data(contentsOf: URL(fileURLWithPath: dir + "/square.png")), "the square draws, the text does not")
        XCTAssertNotEqual(drawn, undrawn, "the text is drawn when the libraries are there")
    }

    func testDrawingCommandsDoNotLoadLibcurl() throws {
        let file = try animation()
        for arguments in [["--version"], ["bench", file, "--count", "2", "--threads", "1"],
                          ["render", file, "--frames", "0:1", "-o", dir + "/frames"]] {
            let (status, err, libraries) = try librariesOpened(by: arguments, environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(status, 0, "\(arguments): \(err.suffix(2000))")
            XCTAssertTrue(libraries.contains { $0.hasPrefix("libc.so") }, "the log lists what was opened: \(libraries)")
            XCTAssertFalse(libraries.contains { $0.hasPrefix("libcurl") || $0.hasPrefix("libgnutls") || $0.hasPrefix("libssl") },
                           "\(arguments) loads \(libraries.sorted())")
        }
    }

    /// No command loads full Foundation (FoundationInternationalization, ICU, CoreFoundation):
    /// buoy's modules use FoundationEssentials, so the static binary holds none of their code,
    /// ICU's 35 MB of data or their conformance records. (In a debug build each is a shared
    /// library of its own, which this test sees by name.)
    func testNoCommandLoadsFullFoundation() throws {
        let file = try animation()
        let config = dir + "/buoy.toml"
        try "[screen]\nrotate = 0\n".write(toFile: config, atomically: true, encoding: .utf8)
        for arguments in [["--version"], ["bench", file, "--count", "1", "--threads", "1"],
                          ["render", file, "-o", dir + "/one.png"], ["run", "--config", config, "--help"]] {
            let (status, err, libraries) = try librariesOpened(by: arguments, environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(status, 0, "\(arguments): \(err.suffix(2000))")
            let full = libraries.filter { name in
                ["libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU", "libCoreFoundation"].contains { name.hasPrefix($0) }
            }
            XCTAssertTrue(full.isEmpty, "\(arguments) loads \(full.sorted())")
        }
    }

    func testADownloadLoadsLibcurlWhenItStarts() throws {
        let (status, err, libraries) = try librariesOpened(
            by: ["fetch", base + "/file/3000", "-o", dir + "/out", "--display", "none", "--socket", dir + "/no.sock"],
            environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(status, 0, String(err.suffix(2000)))
        XCTAssertTrue(libraries.contains("libcurl.so.4"), "\(libraries.sorted())")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/out")).count, 3000)
    }

    func testADownloadWithoutLibcurlFailsNamingItAndLeavesNoFile() throws {
        let (status, err, _) = try librariesOpened(
            by: ["fetch", base + "/file/3000", "-o", dir + "/out", "--display", "none", "--socket", dir + "/no.sock"],
            environment: ["BUOY_LIBCURL": dir + "/no-such-libcurl.so"])
        XCTAssertEqual(status, 5, err)
        XCTAssertTrue(err.contains("libcurl could not be loaded") && err.contains("no-such-libcurl.so"), err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out"))
    }
}
