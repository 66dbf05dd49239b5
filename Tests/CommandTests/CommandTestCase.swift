import Foundation
import XCTest

/// Starts the download tests' loopback HTTP server (Tests/DownloadTests/http_server.py), which
/// logs the requests it gets to `log`: the process, its standard input (closing it stops the
/// server) and the port it listens on (0 when it did not start).
func startLoopbackServer(log: String, extraArguments: [String] = []) throws -> (Process, Pipe, Int) {
    let server = Process()
    server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../DownloadTests/http_server.py").standardized.path
    server.arguments = ["python3", script, log] + extraArguments
    let out = Pipe()
    let input = Pipe()
    server.standardOutput = out
    server.standardInput = input
    try server.run()
    let port = Int(String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    return (server, input, port)
}

/// What the command tests share: the loopback HTTP server of the download tests, a scratch
/// directory, and the `buoy` built beside this test bundle.
class CommandTestCase: XCTestCase {
    var server: Process!
    var serverInput: Pipe!
    var port = 0
    var dir = ""

    /// The `buoy` built beside this test bundle (swift build and swift test build both).
    var buoy: URL {
        Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("buoy")
    }

    var base: String { "http://127.0.0.1:\(port)" }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-cmd-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        (server, serverInput, port) = try startLoopbackServer(log: dir + "/requests.log")
        XCTAssertGreaterThan(port, 0, "server did not start")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: buoy.path), "no buoy binary at \(buoy.path): build it first")
    }

    override func tearDown() {
        try? serverInput.fileHandleForWriting.close()
        server.waitUntilExit()
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Runs buoy with `arguments` to the end; returns its exit status and what it wrote to stderr.
    func run(_ arguments: [String]) throws -> (Int32, String) {
        let (status, _, err) = try runCapturing(arguments)
        return (status, err)
    }

    /// Runs buoy with `arguments` to the end; returns its exit status, stdout and stderr.
    func runCapturing(_ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = buoy
        process.arguments = arguments
        return try runToEnd(process)
    }

    /// Runs a prepared process to the end; returns its exit status, stdout and stderr.
    func runToEnd(_ process: Process) throws -> (Int32, String, String) {
        // Files, not pipes: neither stream can fill up and block the other.
        let out = dir + "/stdout-\(UUID().uuidString.prefix(6))", err = dir + "/stderr-\(UUID().uuidString.prefix(6))"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// Starts buoy in the background with stdout and stderr going to files in the scratch directory.
    func start(_ arguments: [String], name: String) throws -> Process {
        let process = Process()
        process.executableURL = buoy
        process.arguments = arguments
        FileManager.default.createFile(atPath: "\(dir)/\(name).out", contents: nil)
        FileManager.default.createFile(atPath: "\(dir)/\(name).err", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: "\(dir)/\(name).out")
        process.standardError = FileHandle(forWritingAtPath: "\(dir)/\(name).err")
        try process.run()
        return process
    }

    func output(of name: String) -> String { (try? String(contentsOfFile: "\(dir)/\(name).out", encoding: .utf8)) ?? "" }
    func errors(of name: String) -> String { (try? String(contentsOfFile: "\(dir)/\(name).err", encoding: .utf8)) ?? "" }

    /// JSON lines of a text, one object each.
    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0)) }
    }

    func requests() -> [String] {
        ((try? String(contentsOfFile: dir + "/requests.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits up to `seconds` for `condition`.
    func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// The SHA-256 of the server's body of `n` bytes (byte i = i*7 % 251), by sha256sum.
    func sha256OfServerBody(_ n: Int) throws -> String {
        let path = dir + "/body-\(n)"
        try Data((0..<n).map { UInt8(($0 * 7) % 251) }).write(to: URL(fileURLWithPath: path))
        return try sha256(of: path)
    }

    /// A file's SHA-256, by sha256sum (not by the code under test).
    func sha256(of path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
