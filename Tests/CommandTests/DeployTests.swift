import Foundation
import XCTest

/// deploy/systemd: the units pass `systemd-analyze verify` (pointed at the built buoy), and
/// the boot job is ordered to hand over: it runs to its end before getty and a display
/// manager, does not wait for the network, and the daemon starts after it.
final class DeployTests: XCTestCase {
    let units = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../deploy/systemd").standardized

    var buoy: URL { Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("buoy") }

    func unit(_ name: String) throws -> String {
        try String(contentsOf: units.appendingPathComponent(name), encoding: .utf8)
    }

    /// The values of `key=` lines, split into words.
    func values(_ key: String, in text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix(key + "=") }.flatMap { $0.dropFirst(key.count + 1).split(separator: " ").map(String.init) }
    }

    func testTheUnitsVerify() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else { throw XCTSkip("no systemd-analyze") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-units-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["buoy.service", "buoy-daemon.service", "buoy-psplash.service"]
        for name in names {
            try unit(name).replacingOccurrences(of: "/usr/bin/buoy", with: buoy.path)
                .write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        process.arguments = ["verify", "--man=no"] + names.map { dir.appendingPathComponent($0).path }
        process.currentDirectoryURL = dir
        let err = Pipe()
        process.standardError = err
        process.standardOutput = err
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        // Warnings (unknown keys, bad ordering, missing executables) go to stderr too.
        let warnings = text.split(separator: "\n").filter { $0.contains("buoy") }
        XCTAssertTrue(warnings.isEmpty, text)
    }

    /// Every unit is confined: `systemd-analyze security --offline=yes` rates each at most 3.0
    /// (the old units: 9.5 to 9.6, UNSAFE), and each runs as the buoy user without capabilities.
    func testEveryUnitIsConfinedToAnExposureOfAtMostThree() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else { throw XCTSkip("no systemd-analyze") }
        for name in ["buoy.service", "buoy-daemon.service", "buoy-psplash.service"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
            process.arguments = ["security", "--offline=yes", "--no-pager", units.appendingPathComponent(name).path]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard let line = text.split(separator: "\n").first(where: { $0.contains("Overall exposure level for \(name)") }),
                  let figure = line.split(separator: ":").last?.split(separator: " ").first.flatMap({ Double($0) }) else {
                if text.contains("Unknown command verb") || text.contains("unrecognized option") { throw XCTSkip("systemd-analyze without security --offline") }
                XCTFail("\(name): no exposure level in\n\(text)")
                continue
            }
            XCTAssertLessThanOrEqual(figure, 3.0, "\(name)\n\(text)")
            let unit = try unit(name)
            XCTAssertEqual(values("User", in: unit), ["buoy"], name)
            XCTAssertEqual(values("NoNewPrivileges", in: unit), ["yes"], name)
            XCTAssertEqual(values("ProtectSystem", in: unit), ["strict"], name)
            XCTAssertTrue(unit.contains("\nCapabilityBoundingSet=\n"), name)
        }
    }

    /// The daemon confines socket clients' downloads to a directory of its own, and serves
    /// the socket from its runtime directory (it cannot create files in /run itself).
    func testTheDaemonServesItsSocketFromItsRuntimeDirectoryAndConfinesDownloads() throws {
        let daemon = try unit("buoy-daemon.service")
        let start = values("ExecStart", in: daemon)
        XCTAssertEqual(start.firstIndex(of: "--download-dir").map { start[$0 + 1] }, "/var/lib/buoy/downloads")
        XCTAssertEqual(start.firstIndex(of: "--socket").map { start[$0 + 1] }, "/run/buoy/buoy.sock")
        XCTAssertEqual(values("RuntimeDirectory", in: daemon), ["buoy"])
        XCTAssertEqual(values("StateDirectory", in: daemon), ["buoy", "buoy/downloads"])
    }

    func testTheBootJobHandsOverAndTheDaemonComesAfterIt() throws {
        let boot = try unit("buoy.service"), daemon = try unit("buoy-daemon.service")
        // The start job lasts until buoy exits, so what is ordered after it waits for the hand-over.
        XCTAssertEqual(values("Type", in: boot), ["oneshot"])
        XCTAssertEqual(values("DefaultDependencies", in: boot), ["no"])
        let before = Set(values("Before", in: boot))
        XCTAssertTrue(before.isSuperset(of: ["getty@tty1.service", "display-manager.service", "buoy-daemon.service"]), "\(before)")
        XCTAssertFalse(values("After", in: boot).contains("network-online.target"))
        XCTAssertFalse(values("Wants", in: boot).contains("network-online.target"))
        let start = values("ExecStart", in: boot)
        XCTAssertTrue(start.contains("--on-complete") && start[start.firstIndex(of: "--on-complete")! + 1] == "exit", "\(start)")
        XCTAssertFalse(start.contains("--socket"), "the boot job must exit; the daemon serves the socket")
        XCTAssertTrue(start.contains("--retry-after"))

        XCTAssertTrue(values("After", in: daemon).contains("buoy.service"))
        let daemonStart = values("ExecStart", in: daemon)
        XCTAssertTrue(daemonStart.contains("--socket") && daemonStart.contains("--no-config-downloads"), "\(daemonStart)")
    }
}
