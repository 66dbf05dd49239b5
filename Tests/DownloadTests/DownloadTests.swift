import Download
import Foundation
import XCTest

/// A real HTTP server on 127.0.0.1 (http_server.py) that throttles, drops, stalls and fails,
/// and a scratch directory, for each test.
class DownloadTestCase: XCTestCase {
    var server: Process!
    var serverInput: Pipe!
    var port = 0
    var logPath = ""
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-dl-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        logPath = dir + "/requests.log"
        server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("http_server.py").path, logPath]
            + (try serverOptions())
        let out = Pipe()
        serverInput = Pipe()
        server.standardOutput = out
        server.standardInput = serverInput
        try server.run()
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        XCTAssertGreaterThan(port, 0, "server did not start")
    }

    /// More arguments for http_server.py (a subclass's `--tls CERT KEY`), made in `dir`.
    func serverOptions() throws -> [String] { [] }

    override func tearDown() {
        try? serverInput.fileHandleForWriting.close()
        server.waitUntilExit()
        try? FileManager.default.removeItem(atPath: dir)
    }

    func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }
    var scheme: String { "http" }

    static func body(_ n: Int) -> [UInt8] { (0..<n).map { UInt8(($0 * 7) % 251) } }

    static func sha(_ bytes: [UInt8]) -> String {
        var h = SHA256()
        h.update(bytes)
        return SHA256.hex(h.finalize())
    }

    var fastPolicy: DownloadPolicy {
        var p = DownloadPolicy()
        p.retryDelay = 0.05
        p.maxAttempts = 4
        p.lowSpeedTime = 1
        p.lowSpeedLimit = 100
        p.connectTimeout = 2
        return p
    }

    func fetch(_ path: String, to name: String = "out.bin", sha256: String? = nil) -> (DownloadStatus, String) {
        let dest = dir + "/" + name
        let session = DownloadSession(requests: [DownloadRequest(url: url(path), destination: dest, sha256: sha256)], policy: fastPolicy)
        return (session.run(), dest)
    }

    func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }
    func requests() -> [String] { ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

}

/// Downloads against the loopback server.
final class DownloadTests: DownloadTestCase {
    func testSHA256KnownVectors() {
        XCTAssertEqual(Self.sha([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(Self.sha(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(Self.sha(Array(String(repeating: "a", count: 1000).utf8)),
                       "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    func testDownloadsVerifiesAndPlacesTheFile() {
        let (status, dest) = fetch("/file/300000", sha256: Self.sha(Self.body(300000)))
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertTrue(contents(dest) == Self.body(300000), "file content differs")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest + ".part"))
        XCTAssertEqual(status.fraction, 1)
    }

    func testHTTPErrorsNeverReplaceAGoodFile() {
        let dest = dir + "/keep.bin"
        FileManager.default.createFile(atPath: dest, contents: Data("good".utf8))
        for path in ["/status/404", "/status/500"] {
            let (status, _) = fetch(path, to: "keep.bin")
            XCTAssertFalse(status.succeeded)
            guard case .http(_, let code)? = status.errors.first else { return XCTFail("\(status.errors)") }
            XCTAssertEqual(code, Int(path.split(separator: "/").last!)!)
            XCTAssertTrue(contents(dest) == Array("good".utf8), "file content differs")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dest + ".part"), "an empty .part is not left behind")
        }
        // 404 is final; 500 is retried.
        XCTAssertEqual(requests().filter { $0.contains("/status/404") }.count, 1)
        XCTAssertEqual(requests().filter { $0.contains("/status/500") }.count, fastPolicy.maxAttempts)
    }

    func testADroppedConnectionResumesWithARange() {
        let (status, dest) = fetch("/drop/200000?after=70000", sha256: Self.sha(Self.body(200000)))
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertTrue(contents(dest) == Self.body(200000), "file content differs")
        let log = requests()
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(log.last, "GET /drop/200000 bytes=70000-")
    }

    func testAServerIgnoringRangeStartsOver() throws {
        // A stale .part exists; the server answers 200 with the whole file.
        let dest = dir + "/out.bin"
        FileManager.default.createFile(atPath: dest + ".part", contents: Data(Self.body(1000)))
        let (status, _) = fetch("/norange/50000", sha256: Self.sha(Self.body(50000)))
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertTrue(contents(dest) == Self.body(50000), "file content differs")
        XCTAssertEqual(requests().first, "GET /norange/50000 bytes=1000-")
    }

    func testAStalledTransferTimesOutAndResumes() {
        let (status, dest) = fetch("/stall/100000?after=5000", sha256: Self.sha(Self.body(100000)))
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertTrue(contents(dest) == Self.body(100000), "file content differs")
        XCTAssertEqual(requests().last, "GET /stall/100000 bytes=5000-")
    }

    func testATruncatedBodyIsRetriedThenFailsCleanly() {
        let dest = dir + "/out.bin"
        FileManager.default.createFile(atPath: dest, contents: Data("old".utf8))
        let (status, _) = fetch("/short/10000")
        XCTAssertFalse(status.succeeded)
        XCTAssertTrue(contents(dest) == Array("old".utf8), "file content differs")
        if case .transfer? = status.errors.first {} else if case .incomplete? = status.errors.first {} else {
            XCTFail("\(status.errors)")
        }
    }

    func testWrongChecksumLeavesTheOldFile() {
        let dest = dir + "/out.bin"
        FileManager.default.createFile(atPath: dest, contents: Data("old".utf8))
        let (status, _) = fetch("/file/5000", sha256: String(repeating: "0", count: 64))
        guard case .checksum(_, _, let actual)? = status.errors.first else { return XCTFail("\(status.errors)") }
        XCTAssertEqual(actual, Self.sha(Self.body(5000)))
        XCTAssertTrue(contents(dest) == Array("old".utf8), "file content differs")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest + ".part"))
    }

    /// Without a Content-Length the fraction is unknown (nil) while bytes arrive, and 1 once
    /// the connection closes on a complete body.
    func testNoContentLengthIsIndeterminateThenDone() {
        let dest = dir + "/out.bin"
        // Throttled, so the transfer spans many steps and its middle can be seen.
        let session = DownloadSession(requests: [DownloadRequest(url: url("/nolength/40000?rate=100000"), destination: dest)], policy: fastPolicy)
        var midway = 0
        var fractionsMidway: [Double?] = []
        let status = session.run { s in
            if s.received > 0 && !s.isFinished {
                midway += 1
                fractionsMidway.append(s.fraction)
            }
        }
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertGreaterThan(midway, 2, "the transfer was seen in progress")
        XCTAssertTrue(fractionsMidway.allSatisfy { $0 == nil }, "indeterminate while the size is unknown: \(fractionsMidway)")
        XCTAssertNil(status.files[0].request.sha256)
        XCTAssertTrue(contents(dest) == Self.body(40000), "file content differs")
        XCTAssertEqual(status.fraction, 1)
        XCTAssertEqual(status.files[0].expected, 40000)
        XCTAssertEqual(requests(), ["GET /nolength/40000 -"])
    }

    /// The frame loop calls `step` once a frame: on a large file with a checksum no step may
    /// take long. DEST exists with other bytes (hashed to see it is not the file) and a
    /// quarter of the file is already in the .part (hashed before it is resumed); the rest is
    /// hashed as it arrives.
    func testNoStepBlocksOnALargeFileWithAChecksum() throws {
        let n = 64 << 20
        let body = Self.body(n)
        let dest = dir + "/large.bin"
        // An older file in place (8 MB: replacing a larger one adds the file system's time to
        // free its blocks to the rename, which is not Buoy's to spread).
        XCTAssertTrue(FileManager.default.createFile(atPath: dest, contents: Data(count: 8 << 20)))
        XCTAssertTrue(FileManager.default.createFile(atPath: dest + ".part", contents: Data(body[0..<(n / 4)])))
        sync()  // as after a reboot: what is there is on disk, not waiting in the page cache
        let session = DownloadSession(requests: [DownloadRequest(url: url("/file/\(n)"), destination: dest, sha256: Self.sha(body))],
                                      policy: fastPolicy)
        // A step's wall time, and whether the scheduler took the CPU away during it (this
        // machine is shared): such a step measures the machine, not the step.
        func involuntarySwitches() -> Int {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return usage.ru_nivcsw
        }
        var longest = 0.0, longestUnpreempted = 0.0, steps = 0, preempted = 0
        let started = DispatchTime.now().uptimeNanoseconds
        while true {
            let switches = involuntarySwitches()
            let before = DispatchTime.now().uptimeNanoseconds
            let more = session.step()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - before) / 1e9
            longest = max(longest, seconds)
            if involuntarySwitches() == switches { longestUnpreempted = max(longestUnpreempted, seconds) } else { preempted += 1 }
            steps += 1
            if !more { break }
            usleep(2000)  // the rest of a frame
        }
        let total = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        print("large download: \(steps) steps in \(String(format: "%.2f", total)) s, longest step \(String(format: "%.1f", longest * 1000)) ms, "
              + "longest not preempted \(String(format: "%.1f", longestUnpreempted * 1000)) ms (\(preempted) steps preempted)")
        XCTAssertTrue(session.status.succeeded, "\(session.status.errors)")
        XCTAssertTrue(contents(dest) == body, "file content differs")
        // (A stall on a busy machine may add a later resume; the first request continues the .part.)
        XCTAssertEqual(requests().first, "GET /file/\(n) bytes=\(n / 4)-", "the .part was resumed")
        XCTAssertLessThan(longestUnpreempted, 0.05, "a step blocked the frame loop")
        XCTAssertLessThan(longest, 0.25, "a step blocked the frame loop (even allowing for a busy machine)")
    }

    /// A wrong checksum is still found when the hash is built across steps, including the
    /// resumed prefix.
    func testIncrementalHashCatchesABadResumedPrefix() {
        let dest = dir + "/out.bin"
        var prefix = Self.body(3000)
        prefix[10] ^= 0xff  // the .part does not match the server's bytes
        FileManager.default.createFile(atPath: dest + ".part", contents: Data(prefix))
        let (status, _) = fetch("/file/20000", sha256: Self.sha(Self.body(20000)))
        guard case .checksum(_, _, let actual)? = status.errors.first else { return XCTFail("\(status.errors)") }
        var spliced = prefix
        spliced += Self.body(20000)[3000...]
        XCTAssertEqual(actual, Self.sha(spliced))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest + ".part"), "wrong bytes are not kept for a resume")
    }

    func testRedirectIsFollowed() {
        let (status, dest) = fetch("/redirect/1234")
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertTrue(contents(dest) == Self.body(1234), "file content differs")
    }

    func testProgressIsMonotonicAndSumsSeveralFiles() {
        let session = DownloadSession(requests: [
            DownloadRequest(url: url("/slow/60000?rate=300000"), destination: dir + "/a.bin"),
            DownloadRequest(url: url("/slow/40000?rate=300000"), destination: dir + "/b.bin"),
        ], policy: fastPolicy)
        var fractions: [Double] = []
        let status = session.run { if let f = $0.fraction { fractions.append(f) } }
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertEqual(status.expected, 100000)
        XCTAssertGreaterThan(fractions.count, 3)
        XCTAssertEqual(fractions, fractions.sorted(), "progress never goes back")
        XCTAssertEqual(fractions.last, 1)
    }

    func testAFileAlreadyInPlaceIsNotFetchedAgain() {
        let dest = dir + "/out.bin"
        FileManager.default.createFile(atPath: dest, contents: Data(Self.body(777)))
        let (status, _) = fetch("/file/777", sha256: Self.sha(Self.body(777)))
        XCTAssertTrue(status.succeeded)
        XCTAssertTrue(status.files[0].cached)
        XCTAssertEqual(requests().count, 0)
    }

    func testAFullDiskKeepsTheOldFileAndSaysWhy() {
        // A file-size limit makes writes past 64 KiB fail as a full disk would.
        let dest = dir + "/out.bin"
        FileManager.default.createFile(atPath: dest, contents: Data("old".utf8))
        signal(SIGXFSZ, SIG_IGN)
        var old = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &old)
        var limit = old
        limit.rlim_cur = 64 * 1024
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
        let (status, _) = fetch("/file/300000")
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &old)
        guard case .disk(let path, let reason, let error)? = status.errors.first else { return XCTFail("\(status.errors)") }
        XCTAssertEqual(path, dest + ".part")
        XCTAssertFalse(reason.isEmpty)
        XCTAssertEqual(error, EFBIG, "the write's errno is kept")
        XCTAssertTrue(contents(dest) == Array("old".utf8), "file content differs")
        XCTAssertEqual(contents(dest + ".part")?.count, 64 * 1024, "what fitted is kept to resume")
    }

    func testChecksumFromASha256URL() throws {
        let sumFile = dir + "/www.sha256"
        try (Self.sha(Self.body(4096)) + "  payload.bin\n").write(toFile: sumFile, atomically: true, encoding: .utf8)
        let dest = dir + "/out.bin"
        let good = DownloadSession(requests: [DownloadRequest(url: url("/file/4096"), destination: dest, checksumURL: "file://" + sumFile, allowsFileScheme: true)],
                                   policy: fastPolicy).run()
        XCTAssertTrue(good.succeeded, "\(good.errors)")
        try (String(repeating: "a", count: 64) + "\n").write(toFile: sumFile, atomically: true, encoding: .utf8)
        let bad = DownloadSession(requests: [DownloadRequest(url: url("/file/4000"), destination: dest, checksumURL: "file://" + sumFile, allowsFileScheme: true)],
                                  policy: fastPolicy).run()
        guard case .checksum? = bad.errors.first else { return XCTFail("\(bad.errors)") }
        XCTAssertTrue(contents(dest) == Self.body(4096), "the good file stays")
    }

    func testUnreachableServerIsATransferError() {
        let session = DownloadSession(requests: [DownloadRequest(url: "http://127.0.0.1:1/x", destination: dir + "/x")], policy: fastPolicy)
        let status = session.run()
        guard case .transfer(let u, _)? = status.errors.first else { return XCTFail("\(status.errors)") }
        XCTAssertEqual(u, "http://127.0.0.1:1/x")
    }
}
