import Foundation
import XCTest

/// psplash parity with the built `buoy`, a real FIFO and real writers: psplash-write's byte
/// format, SWUpdate with its own progress client (`swupdate-progress -p`), systemd's readiness
/// protocol on a real datagram socket. QUIT ends the run within 100 ms and the FIFO is gone.
final class PsplashTests: CommandTestCase {
    var fifo: String { dir + "/psplash_fifo" }

    /// Starts `buoy run` on the FIFO, headless, with the given extra arguments and environment.
    func startScreen(_ extra: [String] = [], environment: [String: String] = [:], name: String = "screen") throws -> Process {
        let process = Process()
        process.executableURL = buoy
        process.arguments = ["run", "--psplash-fifo", fifo, "--display", "headless:\(dir)/frames",
                             "--size", "48x27", "--trace", "\(dir)/\(name).trace"] + extra
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        FileManager.default.createFile(atPath: "\(dir)/\(name).err", contents: nil)
        process.standardError = FileHandle(forWritingAtPath: "\(dir)/\(name).err")
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// One command as psplash-write sends it: the text and a NUL, in one write, on a
    /// descriptor opened without blocking (a FIFO nobody reads fails at once).
    func psplashWrite(_ command: String) throws {
        let fd = open(fifo, O_WRONLY | O_NONBLOCK)
        guard fd >= 0 else { throw NSError(domain: "psplash-write", code: Int(errno)) }
        defer { close(fd) }
        let bytes = Array(command.utf8) + [0]
        XCTAssertEqual(write(fd, bytes, bytes.count), bytes.count)
    }

    func traceLines(_ name: String = "screen") throws -> [[String: Any]] {
        try jsonLines((try? String(contentsOfFile: "\(dir)/\(name).trace", encoding: .utf8)) ?? "")
    }

    /// Seconds until `process` exits (polled every millisecond), at most `limit`.
    func secondsToExit(_ process: Process, limit: Double) -> Double {
        let start = Date()
        while process.isRunning && Date().timeIntervalSince(start) < limit { usleep(1000) }
        return Date().timeIntervalSince(start)
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    func testPsplashWriteBytesDriveTheWaterAndQuitExitsWithin100msLeavingNoFIFO() throws {
        let screen = try startScreen()
        XCTAssertTrue(waitUntil(20) { FileManager.default.fileExists(atPath: self.fifo) }, errors(of: "screen"))
        // As an update script does: the same MSG with every step, then PROGRESS.
        for step in 1...40 {
            try psplashWrite("MSG Installing update")
            try psplashWrite("PROGRESS \(step)")
        }
        XCTAssertTrue(waitUntil(20) { ((try? self.traceLines()) ?? []).contains { ($0["download"] as? Double ?? 0) >= 0.4 } },
                      "PROGRESS 40 reached the water: \(errors(of: "screen"))")
        try psplashWrite("PROGRESS -5")
        try psplashWrite("PROGRESS 250")
        try psplashWrite("PROGRESS 250")
        try psplashWrite("SPLASH")
        XCTAssertTrue(waitUntil(10) { self.errors(of: "screen").contains("unknown command SPLASH") }, errors(of: "screen"))
        try psplashWrite("QUIT")
        let seconds = secondsToExit(screen, limit: 5)
        XCTAssertFalse(screen.isRunning)
        XCTAssertLessThan(seconds, 0.1, "QUIT to exit")
        print("psplash QUIT to exit: \(String(format: "%.1f", seconds * 1000)) ms")
        XCTAssertEqual(screen.terminationStatus, 0, errors(of: "screen"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fifo), "the FIFO Buoy made is gone")
        let log = errors(of: "screen")
        XCTAssertEqual(count("Installing update", in: log), 1, "MSG logged when it changes:\n\(log)")
        XCTAssertEqual(count("PROGRESS -5 is outside 0…100; shown as 0", in: log), 1, log)
        XCTAssertEqual(count("PROGRESS 250 is outside 0…100; shown as 100", in: log), 1, "once in a row:\n\(log)")
        XCTAssertTrue(log.contains("psplash: QUIT"), log)
        let states = Set(try traceLines().compactMap { $0["state"] as? String })
        XCTAssertFalse(states.contains("success"), "no success segment by default: \(states)")
    }

    func testQuitPlaysTheSuccessSegmentOnlyWhenAskedFor() throws {
        let screen = try startScreen(["--psplash-quit", "success", "--fps", "30"])
        XCTAssertTrue(waitUntil(20) { FileManager.default.fileExists(atPath: self.fifo) }, errors(of: "screen"))
        try psplashWrite("PROGRESS 100")
        try psplashWrite("QUIT")
        _ = secondsToExit(screen, limit: 60)
        XCTAssertEqual(screen.terminationStatus, 0, errors(of: "screen"))
        let states = try traceLines().compactMap { $0["state"] as? String }
        XCTAssertTrue(states.contains("success"), "the success segment played: \(Set(states))")
        XCTAssertEqual(states.last, "done")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fifo))
    }

    /// systemd stops the unit with SIGTERM: the FIFO goes then too.
    func testSIGTERMEndsTheRunAndRemovesTheFIFO() throws {
        let screen = try startScreen()
        XCTAssertTrue(waitUntil(20) { FileManager.default.fileExists(atPath: self.fifo) }, errors(of: "screen"))
        kill(screen.processIdentifier, SIGTERM)
        _ = secondsToExit(screen, limit: 10)
        XCTAssertFalse(screen.isRunning)
        XCTAssertEqual(screen.terminationStatus, 143, errors(of: "screen"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fifo), "the FIFO is gone")
    }

    /// retain ends as exit does (headless there is nothing to leave on a panel): at once on
    /// QUIT, and after the success segment for --on-complete; a wrong value names the choices.
    func testRetainEndsTheRunAsExitDoes() throws {
        let screen = try startScreen(["--psplash-quit", "retain"])
        XCTAssertTrue(waitUntil(20) { FileManager.default.fileExists(atPath: self.fifo) }, errors(of: "screen"))
        try psplashWrite("QUIT")
        XCTAssertLessThan(secondsToExit(screen, limit: 5), 0.1)
        XCTAssertEqual(screen.terminationStatus, 0, errors(of: "screen"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fifo))

        let (done, doneErr) = try run(["run", "--url", "\(base)/file/3000", "--output", dir + "/f.bin", "--on-complete", "retain",
                                       "--display", "headless:\(dir)/frames2", "--size", "32x18"])
        XCTAssertEqual(done, 0, doneErr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/f.bin")).count, 3000)
        let (bad, badErr) = try run(["run", "--psplash-fifo", fifo, "--psplash-quit", "linger", "--display", "headless:\(dir)/frames3"])
        XCTAssertEqual(bad, 1, badErr)
        XCTAssertTrue(badErr.contains("exit") && badErr.contains("success") && badErr.contains("retain"), badErr)
        let (badComplete, why) = try run(["run", "--psplash-fifo", fifo, "--on-complete", "linger", "--display", "headless:\(dir)/frames3"])
        XCTAssertEqual(badComplete, 1, why)
        XCTAssertTrue(why.contains("retain"), why)
    }

    /// A FIFO that was there before Buoy (made by the system) stays; a symbolic link in its
    /// place is refused and neither followed nor removed.
    func testAFIFOItDidNotMakeStaysAndALinkIsRefused() throws {
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let screen = try startScreen()
        XCTAssertTrue(waitUntil(20) { self.errors(of: "screen").isEmpty == false || ((try? self.traceLines()) ?? []).count > 0 })
        try psplashWrite("QUIT")
        _ = secondsToExit(screen, limit: 10)
        XCTAssertEqual(screen.terminationStatus, 0, errors(of: "screen"))
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0, "the system's FIFO stays")
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO)
        unlink(fifo)

        XCTAssertEqual(mkfifo(dir + "/elsewhere", 0o600), 0)
        XCTAssertEqual(symlink(dir + "/elsewhere", fifo), 0)
        let linked = try startScreen(name: "linked")
        _ = secondsToExit(linked, limit: 20)
        XCTAssertEqual(linked.terminationStatus, 1)
        XCTAssertTrue(errors(of: "linked").contains("is a symbolic link"), errors(of: "linked"))
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFLNK, "the link is left alone")
        XCTAssertEqual(lstat(dir + "/elsewhere", &st), 0, "and what it points to")
    }

    /// sd_notify on a real datagram socket: READY=1 comes once the FIFO can be written to,
    /// STOPPING=1 when QUIT ends the run.
    func testReadinessReachesSystemdOnceTheFIFOIsOpen() throws {
        let path = dir + "/notify.sock"
        let socket = try NotifySocket(path: path)
        defer { socket.close() }
        let screen = try startScreen(environment: ["NOTIFY_SOCKET": path])
        let ready = try XCTUnwrap(socket.receive(timeout: 30), "no READY=1: \(errors(of: "screen"))")
        XCTAssertTrue(ready.split(separator: "\n").contains("READY=1"), ready)
        XCTAssertTrue(ready.contains("STATUS=showing on headless:"), ready)
        // Ready means ready: a writer that opens the FIFO without blocking succeeds now.
        try psplashWrite("MSG ready")
        try psplashWrite("QUIT")
        XCTAssertEqual(socket.receive(timeout: 10), "STOPPING=1")
        _ = secondsToExit(screen, limit: 10)
        XCTAssertEqual(screen.terminationStatus, 0, errors(of: "screen"))
    }

    /// SWUpdate installs a signed update image while Debian's own progress client,
    /// `swupdate-progress -p`, drives Buoy through the FIFO exactly as it drives psplash.
    func testSWUpdateProgressDrivesBuoyUnchanged() throws {
        for tool in ["/usr/bin/swupdate", "/usr/bin/swupdate-progress", "/usr/bin/openssl", "/usr/bin/cpio"] {
            guard FileManager.default.isExecutableFile(atPath: tool) else { throw XCTSkip("\(tool) missing (deploy/install-build-deps.sh installs it)") }
        }
        let image = try SWUpdateImage(directory: dir, payloadBytes: 32_000_000)
        let screen = try startScreen()
        defer { if screen.isRunning { screen.terminate(); screen.waitUntilExit() } }
        XCTAssertTrue(waitUntil(20) { FileManager.default.fileExists(atPath: self.fifo) }, errors(of: "screen"))
        // SWUpdate as a device runs it: a daemon with its progress socket; the image comes
        // through its IPC (swupdate-client), once the progress client is listening.
        let swupdate = try image.startDaemon()
        defer { swupdate.terminate(); swupdate.waitUntilExit() }
        XCTAssertTrue(waitUntil(20) { FileManager.default.fileExists(atPath: self.dir + "/swupdateprog") }, "SWUpdate's progress socket")
        let progress = Process()
        progress.executableURL = URL(fileURLWithPath: "/usr/bin/swupdate-progress")
        progress.arguments = ["-p", "-s", dir + "/swupdateprog"]
        progress.environment = ["PSPLASH_FIFO_DIR": dir, "PATH": "/usr/bin:/bin"]
        progress.standardOutput = FileHandle.nullDevice
        progress.standardError = FileHandle.nullDevice
        try progress.run()
        defer { if progress.isRunning { progress.terminate() }; progress.waitUntilExit() }
        usleep(500_000)
        // SWUpdate cleans up names like the payload's in its TMPDIR: the hash is taken first.
        let expected = try sha256(of: image.payload)
        let (status, log) = try image.send()
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(try sha256(of: image.installed), expected, "SWUpdate installed the payload")
        // swupdate-progress says SUCCESS, waits 5 s, then sends QUIT.
        _ = secondsToExit(screen, limit: 30)
        guard !screen.isRunning else { return XCTFail("QUIT did not end the run: \(errors(of: "screen"))\n\(log)") }
        XCTAssertEqual(screen.terminationStatus, 0, errors(of: "screen"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fifo), "the FIFO is gone")
        let err = errors(of: "screen")
        XCTAssertEqual(count("buoy: SUCCESS", in: err), 1, err)
        // SWUpdate sends "MSG step 1 of 1" before every PROGRESS (about a hundred times here).
        XCTAssertEqual(count("buoy: step 1 of 1", in: err), 1, err)
        // Every PROGRESS it sent was taken (none reported as malformed or out of range). Which
        // levels reach a frame depends on how its bursts fall between frames (a whole burst is
        // one frame's worth): the water following PROGRESS is the byte-format test's to check.
        XCTAssertEqual(err.split(separator: "\n").filter { $0.contains("psplash:") }, ["buoy: psplash: QUIT"], err)
        let levels = try traceLines().compactMap { $0["download"] as? Double }
        print("swupdate-progress: water levels shown \(Set(levels.map { ($0 * 100).rounded() }).sorted())")
        XCTAssertTrue(err.contains("psplash: QUIT"), err)
        // Every status line is logged once in a row, however often SWUpdate repeats it.
        let lines = err.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, Set(lines).count, "no line twice:\n\(err)")
        print("swupdate-progress: \(lines.count) log lines: \(lines)")
    }
}

/// A datagram socket in systemd's place: what `sd_notify` sends arrives here.
final class NotifySocket {
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw NSError(domain: "socket", code: Int(errno)) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw NSError(domain: "socket path too long", code: 0) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw NSError(domain: "bind", code: Int(errno)) }
    }

    /// The next datagram's text, or nil after `timeout` seconds.
    func receive(timeout: Double) -> String? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }

    func close() { _ = Glibc.close(fd) }
}

/// A signed SWUpdate image (CMS, a self-signed certificate) holding one file for the
/// `rawfile` handler, and the command that installs it with the progress socket in `directory`.
struct SWUpdateImage {
    let directory: String
    var payload: String { directory + "/payload.bin" }
    var installed: String { directory + "/installed/payload.bin" }

    init(directory: String, payloadBytes: Int) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory + "/installed", withIntermediateDirectories: true)
        try shell("""
            set -e
            head -c \(payloadBytes) /dev/urandom > payload.bin
            openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 -subj /CN=buoy-test \
                -addext extendedKeyUsage=emailProtection -addext keyUsage=digitalSignature 2>/dev/null
            sum=$(sha256sum payload.bin | cut -d' ' -f1)
            printf '{"software": {"version": "1.0.0", "hardware-compatibility": ["1.0"], "images": [{"filename": "payload.bin", "type": "rawfile", "path": "%s", "sha256": "%s"}]}}\\n' "$PWD/installed/payload.bin" "$sum" > sw-description
            openssl cms -sign -in sw-description -out sw-description.sig -signer cert.pem -inkey key.pem -outform DER -nosmimecap -binary
            printf 'sw-description\\nsw-description.sig\\npayload.bin\\n' | cpio -o -H crc > update.swu 2>/dev/null
            """)
    }

    /// SWUpdate's daemon, its sockets (control and progress) in `directory`.
    func startDaemon() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/swupdate")
        process.arguments = ["-H", "buoy:1.0", "-k", directory + "/cert.pem"]
        process.environment = ["TMPDIR": directory, "PATH": "/usr/bin:/bin"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        FileManager.default.createFile(atPath: directory + "/swupdate.log", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: directory + "/swupdate.log")
        process.standardError = process.standardOutput
        try process.run()
        return process
    }

    /// Sends the image to the daemon (swupdate-client) and waits for the update's end.
    func send() throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/swupdate-client")
        process.arguments = [directory + "/update.swu"]
        process.environment = ["TMPDIR": directory, "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    private func shell(_ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw NSError(domain: "making the .swu failed", code: Int(process.terminationStatus)) }
    }
}
