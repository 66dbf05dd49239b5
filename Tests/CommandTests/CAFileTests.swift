import Foundation
import XCTest

/// `--ca-file`, the config key `ca_file`, and $SSL_CERT_FILE / $CURL_CA_BUNDLE, against an
/// https server on loopback whose certificate is made for the test.
final class CAFileTests: XCTestCase {
    var server: Process!
    var serverInput: Pipe!
    var port = 0
    var dir = ""
    var ca: String { dir + "/ca.pem" }
    var buoy: URL { Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("buoy") }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-ca-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let (status, _) = try launch(URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                                     "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", dir + "/key.pem", "-out", ca])
        guard status == 0 else { throw XCTSkip("openssl could not make a certificate") }
        (server, serverInput, port) = try startLoopbackServer(log: dir + "/requests.log", extraArguments: ["--tls", ca, dir + "/key.pem"])
        XCTAssertGreaterThan(port, 0, "server did not start")
    }

    override func tearDown() {
        try? serverInput?.fileHandleForWriting.close()
        server?.waitUntilExit()
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Runs a program to the end with `environment` added to a copy without the CA variables.
    func launch(_ program: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["SSL_CERT_FILE"] = nil
        env["CURL_CA_BUNDLE"] = nil
        process.environment = env.merging(environment) { $1 }
        let err = dir + "/stderr-\(UUID().uuidString.prefix(6))"
        FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    func fetch(_ extra: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
        let output = dir + "/out-\(UUID().uuidString.prefix(6))"
        let (status, log) = try launch(buoy, ["fetch", "https://127.0.0.1:\(port)/file/3000", "-o", output, "--display", "none",
                                              "--socket", dir + "/no.sock", "--retries", "1"] + extra, environment: environment)
        return (status, log, output)
    }

    func testFetchTrustsTheCAFileFromTheFlagOrTheEnvironment() throws {
        let body = Data((0..<3000).map { UInt8(($0 * 7) % 251) })
        let (refused, log, _) = try fetch([])
        XCTAssertEqual(refused, 5, log)
        XCTAssertTrue(log.lowercased().contains("certificate"), log)
        for (extra, environment) in [(["--ca-file", ca], [:]), ([], ["SSL_CERT_FILE": ca]), ([], ["CURL_CA_BUNDLE": ca])] {
            let (status, log, output) = try fetch(extra, environment: environment)
            XCTAssertEqual(status, 0, "\(extra) \(environment): \(log)")
            XCTAssertEqual(FileManager.default.contents(atPath: output), body)
        }
        let (missing, missingLog, _) = try fetch(["--ca-file", dir + "/none.pem"])
        XCTAssertEqual(missing, 1, missingLog)
        XCTAssertTrue(missingLog.contains("none.pem"), missingLog)
    }

    func testRunReadsCAFileFromTheConfigFile() throws {
        let config = dir + "/buoy.toml"
        try "ca_file = \"\(ca)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let output = dir + "/run.out"
        let (status, log) = try launch(buoy, ["run", "--config", config, "--url", "https://127.0.0.1:\(port)/file/4000", "--output", output,
                                              "--display", "headless:\(dir)/frames", "--size", "64x36", "--every", "1000", "--on-complete", "exit"])
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(FileManager.default.contents(atPath: output)?.count, 4000)
    }

    func testFetchAcceptsAFileURLOnItsOwnCommandLine() throws {
        let source = dir + "/source.bin"
        FileManager.default.createFile(atPath: source, contents: Data("local bytes".utf8))
        let output = dir + "/copy.bin"
        let (status, log) = try launch(buoy, ["fetch", "file://" + source, "-o", output, "--display", "none", "--socket", dir + "/no.sock"])
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(FileManager.default.contents(atPath: output), Data("local bytes".utf8))
    }
}
