import Foundation
import XCTest

/// The daemon against hostile local users, with real unprivileged users (created here when
/// missing: CI runs as root) and the built `buoy`. The daemon runs as root, as the old unit did,
/// so that the checks are shown to hold even then: a member of the socket group cannot write
/// outside the download directory or fetch a local file, a non-member is refused, a flood of
/// connections does not end it, its socket path is not a way to delete files, and a client's
/// text reaches the log escaped.
final class DaemonSecurityTests: CommandTestCase {
    static let group = "buoytest"
    static let member = "buoytestop"
    static let outsider = "buoytestout"

    var socket: String { dir + "/buoy.sock" }
    var downloads: String { dir + "/downloads" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Self.ensureUsers()
    }

    /// The group and the two users, created once (idempotent: an existing one is kept, the
    /// member is added to the group if it is not in it).
    static func ensureUsers() throws {
        guard getuid() == 0 else { throw XCTSkip("creating test users and switching to them needs root") }
        for tool in ["/usr/sbin/groupadd", "/usr/sbin/useradd", "/usr/sbin/usermod", "/usr/bin/setpriv"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("no \(tool)")
        }
        if getgrnam(group) == nil { _ = try tool("/usr/sbin/groupadd", ["--system", group]) }
        for user in [member, outsider] where getpwnam(user) == nil {
            _ = try tool("/usr/sbin/useradd", ["--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", user])
        }
        _ = try tool("/usr/sbin/usermod", ["-a", "-G", group, member])
        XCTAssertNotNil(getgrnam(group))
        XCTAssertNotNil(getpwnam(member))
        XCTAssertNotNil(getpwnam(outsider))
    }

    @discardableResult
    static func tool(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The built buoy as `user` (its own uid and gid, its groups from the group database).
    func runAs(_ user: String, _ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--init-groups", "--", buoy.path] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]
        return try runToEnd(process)
    }

    /// One request line sent to the socket as `user` (Debian's python3, not the code under
    /// test); returns the reply line.
    func askAs(_ user: String, _ request: [String: Any]) throws -> String {
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(10)
            s.connect(sys.argv[1])
            s.sendall(sys.argv[2].encode() + b"\\n")
            print(s.makefile().readline(), end="")
            """
        let line = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--init-groups", "--", "/usr/bin/python3", "-c", script, socket, line]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// The root daemon, as the old unit ran it: socket group, download directory; `limit`
    /// starts it under a lower open-file limit (prlimit) to show the cap, not the limit, protects.
    func startDaemon(fileLimit: Int? = nil) throws -> Process {
        let arguments = ["run", "--socket", socket, "--socket-group", Self.group, "--download-dir", downloads,
                         "--display", "headless:\(dir)/frames", "--size", "32x18", "--every", "1000", "--on-complete", "hold"]
        let process = Process()
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--nofile=\(fileLimit):\(fileLimit)", buoy.path] + arguments
        } else {
            process.executableURL = buoy
            process.arguments = arguments
        }
        FileManager.default.createFile(atPath: dir + "/daemon.out", contents: nil)
        FileManager.default.createFile(atPath: dir + "/daemon.err", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: dir + "/daemon.out")
        process.standardError = FileHandle(forWritingAtPath: dir + "/daemon.err")
        try process.run()
        XCTAssertTrue(waitUntil(20) { ControlProbe.connects(self.socket) }, errors(of: "daemon"))
        return process
    }

    func stop(_ daemon: Process) {
        if daemon.isRunning { daemon.terminate() }
        daemon.waitUntilExit()
    }

    func testAGroupMemberCannotWriteOutsideTheDownloadDirectoryNorFetchALocalFile() throws {
        let daemon = try startDaemon()
        defer { stop(daemon) }
        for target in ["/etc/buoy-pwned", "/etc/x"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: target), "\(target) exists before the test")
        }
        let sum = String(repeating: "0", count: 64)
        let attempts: [(String, [String])] = [
            ("/etc/buoy-pwned", ["\(base)/file/100", "-o", "/etc/buoy-pwned"]),
            ("../../etc/x", ["\(base)/file/100", "-o", "../../etc/x"]),
            ("../../../../../../etc/x", ["\(base)/file/100", "-o", "../../../../../../etc/x"]),
            ("an absolute path through ..", ["\(base)/file/100", "-o", downloads + "/../../../etc/x"]),
            ("a checksum test of /etc/shadow", ["\(base)/file/100", "-o", "/etc/shadow", "--sha256", sum]),
            ("ftp://", ["ftp://127.0.0.1:\(port)/x", "-o", "ftp"]),
        ]
        for (what, arguments) in attempts {
            let (status, out, err) = try runAs(Self.member, ["fetch"] + arguments + ["--json", "--socket", socket])
            XCTAssertEqual(status, 5, "\(what): \(out) \(err)")
            XCTAssertTrue(out.contains("refused"), "\(what): \(out) \(err)")
        }
        // `buoy fetch file://…` copies as the user itself and never asks the daemon, so the
        // request goes to the socket directly, as a hostile client would send it.
        for url in ["file:///etc/shadow", "FILE:///etc/shadow", "file://localhost/etc/shadow"] {
            let reply = try askAs(Self.member, ["cmd": "fetch", "url": url, "output": "shadow"])
            XCTAssertTrue(reply.contains("\"error\"") && reply.contains("only http:\\/\\/ and https:\\/\\/"), "\(url): \(reply)")
        }
        for path in ["/etc/buoy-pwned", "/etc/x", dir + "/etc/x", downloads + "/shadow", downloads + "/shadow.part", downloads + "/ftp"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "\(path) was created")
        }
        XCTAssertTrue(requests().isEmpty, "a refused fetch reached the server: \(requests())")
        // Each refusal is in the daemon's log with the asker's uid.
        let uid = getpwnam(Self.member)!.pointee.pw_uid
        XCTAssertTrue(waitUntil(2) { self.errors(of: "daemon").contains("control: refused fetch from uid \(uid): refused: output: /etc/buoy-pwned") },
                      errors(of: "daemon"))

        // The same member may fetch into the download directory, and the daemon is still up.
        let (status, out, err) = try runAs(Self.member, ["fetch", "\(base)/file/3000", "-o", "ok.bin", "--json", "--socket", socket])
        XCTAssertEqual(status, 0, out + err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: downloads + "/ok.bin")).count, 3000)
        XCTAssertTrue(daemon.isRunning)
    }

    /// Symlinks planted in the download directory (by anyone who could) lead nowhere: not to a
    /// directory outside it, and not to a root-only file whose content a checksum would test.
    func testSymlinksInTheDownloadDirectoryAreNotFollowed() throws {
        let daemon = try startDaemon()
        defer { stop(daemon) }
        let outside = dir + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let secret = dir + "/secret"
        try "s3cret\n".write(toFile: secret, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(secret, 0o600), 0)
        XCTAssertEqual(symlink(outside, downloads + "/out"), 0)
        XCTAssertEqual(symlink(secret, downloads + "/leak"), 0)

        let (status, out, err) = try runAs(Self.member, ["fetch", "\(base)/file/100", "-o", "out/pwned", "--json", "--socket", socket])
        XCTAssertEqual(status, 5, out + err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside + "/pwned"))

        let (guessed, guessOut, guessErr) = try runAs(Self.member, ["fetch", "\(base)/file/100", "-o", "leak", "--sha256", try sha256(of: secret),
                                                                   "--json", "--socket", socket])
        XCTAssertNotEqual(guessed, 0, "a checksum of a root-only file was confirmed through a symlink: \(guessOut)")
        XCTAssertFalse(guessOut.contains("\"cached\""), guessOut + guessErr)
        XCTAssertEqual(try String(contentsOfFile: secret, encoding: .utf8), "s3cret\n")
        XCTAssertTrue(guessOut.contains("symbolic link"), guessOut)
        XCTAssertTrue(daemon.isRunning)
    }

    /// Twice over: the socket's mode (0660, the group's) keeps a non-member from connecting,
    /// and, with the mode opened up by mistake, the peer-credential check refuses them.
    func testANonMemberIsRefused() throws {
        let daemon = try startDaemon()
        defer { stop(daemon) }
        let (blocked, blockedOut, blockedErr) = try runAs(Self.outsider, ["status", "--socket", socket])
        XCTAssertEqual(blocked, 4, blockedOut + blockedErr)
        XCTAssertTrue(blockedErr.contains("Permission denied"), blockedErr)

        XCTAssertEqual(chmod(socket, 0o666), 0)
        let (status, out, err) = try runAs(Self.outsider, ["fetch", "\(base)/file/100", "-o", "x.bin", "--json", "--socket", socket])
        XCTAssertEqual(status, 5, out + err)
        XCTAssertTrue((out + err).contains("permission denied"), out + err)
        let (statusCode, statusOut, statusErr) = try runAs(Self.outsider, ["status", "--socket", socket])
        XCTAssertEqual(statusCode, 4, statusOut + statusErr)
        XCTAssertTrue(statusErr.contains("permission denied"), statusErr)
        XCTAssertFalse(statusOut.contains("\"state\""), statusOut + statusErr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: downloads + "/x.bin"))
        XCTAssertTrue(requests().isEmpty)
        XCTAssertTrue(waitUntil(2) { self.errors(of: "daemon").contains("not root, the daemon's user or in the socket's group") }, errors(of: "daemon"))
        // The member, for comparison, is answered.
        let (memberStatus, memberOut, memberErr) = try runAs(Self.member, ["status", "--socket", socket])
        XCTAssertEqual(memberStatus, 0, memberOut + memberErr)
        XCTAssertTrue(memberOut.contains("\"idle\""), memberOut)
    }

    /// 1,100 connections held open at once, against a daemon whose descriptor limit (256) is
    /// below that: the cap turns the surplus away, the daemon stays up and answers afterwards.
    func testElevenHundredConnectionsDoNotEndTheDaemon() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else { throw XCTSkip("no prlimit") }
        // This process holds the 1,100 client ends: room for them, whatever the shell gave.
        var limit = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
        guard limit.rlim_max >= 1400 else { throw XCTSkip("the hard open-file limit \(limit.rlim_max) is below 1,400") }
        if limit.rlim_cur < 1400 {
            limit.rlim_cur = 1400
            XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
        }
        let daemon = try startDaemon(fileLimit: 256)
        defer { stop(daemon) }
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for _ in 0..<1100 {
            let fd = ControlProbe.connect(socket)
            XCTAssertGreaterThanOrEqual(fd, 0, "connect: \(String(cString: strerror(errno)))")
            if fd < 0 { break }
            flood.append(fd)
        }
        XCTAssertEqual(flood.count, 1100)
        // All but the first 64 are told and closed.
        var toldTooMany = 0
        XCTAssertTrue(waitUntil(20) {
            toldTooMany = flood.filter { ControlProbe.readAll($0).contains("too many connections") }.count
            return toldTooMany >= 1100 - 64
        }, "\(toldTooMany) told")
        XCTAssertEqual(toldTooMany, 1100 - 64)
        XCTAssertTrue(daemon.isRunning, errors(of: "daemon"))
        flood.forEach { close($0) }
        flood = []
        XCTAssertTrue(waitUntil(5) { (try? self.runCapturing(["status", "--socket", self.socket]))?.0 == 0 })
        let (status, out, err) = try runCapturing(["status", "--socket", socket])
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(out.contains("\"idle\""), out)
        XCTAssertTrue(errors(of: "daemon").contains("64 clients already connected"), errors(of: "daemon"))
    }

    /// A client that asks for thousands of replies and reads none, beside a watcher that never
    /// reads: the daemon drops the first once 256 KiB wait for it, and another client's
    /// download runs to its end meanwhile.
    func testClientsThatDoNotReadDoNotStallTheDaemon() throws {
        let daemon = try startDaemon()
        defer { stop(daemon) }
        let watcher = ControlProbe.connect(socket), greedy = ControlProbe.connect(socket)
        defer { close(watcher); close(greedy) }
        let watch = Array("{\"cmd\":\"watch\"}\n".utf8)
        XCTAssertEqual(watch.withUnsafeBytes { send(watcher, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }, watch.count)
        let burst = Array(String(repeating: "{\"cmd\":\"status\"}\n", count: 3500).utf8)
        XCTAssertEqual(burst.withUnsafeBytes { send(greedy, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }, burst.count)

        let started = Date()
        let (status, out, err) = try runCapturing(["fetch", "\(base)/slow/200000?rate=100000", "-o", "steady.bin", "--json", "--socket", socket])
        XCTAssertEqual(status, 0, out + err)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: downloads + "/steady.bin")).count, 200000)
        XCTAssertTrue(waitUntil(5) { self.errors(of: "daemon").contains("that does not read") }, errors(of: "daemon"))
        XCTAssertTrue(daemon.isRunning)
    }

    func testARegularFileAtTheSocketPathIsNotDeleted() throws {
        let precious = dir + "/precious"
        try "precious data\n".write(toFile: precious, atomically: false, encoding: .utf8)
        let (status, err) = try run(["run", "--socket", precious, "--download-dir", downloads, "--display", "headless:\(dir)/frames",
                                     "--size", "32x18", "--on-complete", "hold"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(err.contains("regular file"), err)
        XCTAssertEqual(try String(contentsOfFile: precious, encoding: .utf8), "precious data\n")
    }

    func testAMessageWithEscapesAndNewlinesIsLoggedEscaped() throws {
        let daemon = try startDaemon()
        defer { stop(daemon) }
        let text = "hello\u{1B}[2J\u{1B}]0;owned\u{7}\nbuoy: forged line\r"
        let reply = try XCTUnwrap(ControlProbe.ask(socket, ["cmd": "message", "text": text]))
        XCTAssertTrue(reply.contains("\"ok\""), reply)
        XCTAssertTrue(waitUntil(5) { self.errors(of: "daemon").contains("forged line") }, errors(of: "daemon"))
        let log = errors(of: "daemon")
        XCTAssertTrue(log.contains("hello\\x1B[2J\\x1B]0;owned\\x07\\nbuoy: forged line\\r"), log)
        XCTAssertFalse(log.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x0D }, log)
        XCTAssertFalse(log.split(separator: "\n").contains { $0.hasPrefix("buoy: forged") }, log)
    }
}

/// Raw connections to the socket, without the code under test.
enum ControlProbe {
    static func connect(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if ok != 0 { close(fd); return -1 }
        return fd
    }

    static func connects(_ path: String) -> Bool {
        let fd = connect(path)
        if fd >= 0 { close(fd) }
        return fd >= 0
    }

    /// What has arrived on `fd` so far (without waiting).
    static func readAll(_ fd: Int32) -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK)) }
            if n <= 0 || n == data.count { break }
            data = Array(buffer[0..<n])
            if n < buffer.count { break }
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// One request line, one reply line.
    static func ask(_ path: String, _ request: [String: Any]) throws -> String? {
        let fd = connect(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let line = try JSONSerialization.data(withJSONObject: request) + Data([0x0A])
        guard line.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == line.count else { return nil }
        var reply = [UInt8]()
        var byte: UInt8 = 0
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&pfd, 1, 5000) > 0, read(fd, &byte, 1) == 1, byte != 0x0A { reply.append(byte) }
        return String(decoding: reply, as: UTF8.self)
    }
}
