import Download
import Foundation
import XCTest

/// The `.part`: never through a planted link, one writer at a time, complete ones installed
/// without a request, kept when the disk is full.
final class PartFileTests: DownloadTestCase {
    func session(_ path: String, _ dest: String, sha256: String? = nil) -> DownloadSession {
        DownloadSession(requests: [DownloadRequest(url: url(path), destination: dest, sha256: sha256)], policy: fastPolicy)
    }

    func testAPlantedPartSymlinkIsNeverFollowed() throws {
        let target = dir + "/victim"
        FileManager.default.createFile(atPath: target, contents: Data("victim".utf8))
        let dest = dir + "/out.bin"
        try FileManager.default.createSymbolicLink(atPath: dest + ".part", withDestinationPath: target)
        let status = session("/file/5000", dest, sha256: Self.sha(Self.body(5000))).run()
        guard case .refused(let path, let reason)? = status.errors.first else { return XCTFail("\(status.errors)") }
        XCTAssertEqual(path, dest + ".part")
        XCTAssertTrue(reason.contains("symbolic link"), reason)
        XCTAssertTrue(contents(target) == Array("victim".utf8), "the link's target is untouched")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dest + ".part"), target, "the link is left as it is")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest))
        // A dangling link is not created through either.
        try FileManager.default.removeItem(atPath: dest + ".part")
        try FileManager.default.createSymbolicLink(atPath: dest + ".part", withDestinationPath: dir + "/created-through-link")
        guard case .refused? = session("/file/5000", dest).run().errors.first else { return XCTFail("dangling link") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/created-through-link"))
    }

    func testAPartHardLinkedToAnotherFileIsRefused() throws {
        let target = dir + "/victim"
        FileManager.default.createFile(atPath: target, contents: Data("victim".utf8))
        let dest = dir + "/out.bin"
        try FileManager.default.linkItem(atPath: target, toPath: dest + ".part")
        let status = session("/file/5000", dest).run()
        guard case .refused? = status.errors.first else { return XCTFail("\(status.errors)") }
        XCTAssertTrue(contents(target) == Array("victim".utf8))
    }

    func testAPartThatIsAFIFOIsRefused() {
        let dest = dir + "/out.bin"
        XCTAssertEqual(mkfifo(dest + ".part", 0o644), 0)
        guard case .refused? = session("/file/5000", dest).run().errors.first else { return XCTFail("a FIFO .part") }
    }

    /// Two sessions (two open file descriptions, as two processes have) fetch one DEST: the
    /// second is told at once; the file installed is the right one.
    func testTwoFetchesToOneDestinationNeverMixBytes() {
        let dest = dir + "/out.bin"
        let n = 200_000
        let first = session("/slow/\(n)?rate=400000", dest, sha256: Self.sha(Self.body(n)))
        let second = session("/file/\(n)", dest, sha256: Self.sha(Self.body(n)))
        while first.status.files[0].received == 0 && first.step(timeout: 0.05) {}
        let secondStatus = second.run()
        guard case .busy(let path)? = secondStatus.errors.first else { return XCTFail("\(secondStatus.errors)") }
        XCTAssertEqual(path, dest)
        XCTAssertTrue("\(secondStatus.errors[0])".contains("being downloaded by another process"))
        let firstStatus = first.run()
        XCTAssertTrue(firstStatus.succeeded, "\(firstStatus.errors)")
        XCTAssertTrue(contents(dest) == Self.body(n), "file content differs")
        XCTAssertFalse(requests().contains { $0.hasPrefix("GET /file/") }, "the second never asked the server")
        // Once the first is done, the same fetch finds the file in place.
        let again = session("/file/\(n)", dest, sha256: Self.sha(Self.body(n))).run()
        XCTAssertTrue(again.succeeded && again.files[0].cached, "\(again.errors)")
    }

    /// Another process (python, holding flock on the .part) is downloading: refused, and its
    /// bytes are left alone.
    func testAPartLockedByAnotherProcessIsLeftAlone() throws {
        let dest = dir + "/out.bin"
        FileManager.default.createFile(atPath: dest + ".part", contents: Data("theirs".utf8))
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", "import fcntl,sys; f=open(sys.argv[1],'ab'); fcntl.flock(f, fcntl.LOCK_EX); print('locked', flush=True); sys.stdin.read()", dest + ".part"]
        let out = Pipe(), input = Pipe()
        holder.standardOutput = out
        holder.standardInput = input
        try holder.run()
        defer { try? input.fileHandleForWriting.close(); holder.waitUntilExit() }
        XCTAssertTrue(String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("locked"))
        let status = session("/file/5000", dest).run()
        guard case .busy? = status.errors.first else { return XCTFail("\(status.errors)") }
        XCTAssertTrue(contents(dest + ".part") == Array("theirs".utf8), "the other process's .part is untouched")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest))
    }

    /// A complete `.part` and a server that ignores Range: with a checksum it is verified and
    /// installed before any request; without one the 200 restarts it and it finishes.
    func testACompletePartWithARangeIgnoringServerFinishes() {
        let n = 50_000
        let dest = dir + "/out.bin"
        FileManager.default.createFile(atPath: dest + ".part", contents: Data(Self.body(n)))
        let verified = session("/norange/\(n)", dest, sha256: Self.sha(Self.body(n))).run()
        XCTAssertTrue(verified.succeeded, "\(verified.errors)")
        XCTAssertTrue(contents(dest) == Self.body(n))
        XCTAssertEqual(requests(), [], "verified before any request")
        try? FileManager.default.removeItem(atPath: dest)
        FileManager.default.createFile(atPath: dest + ".part", contents: Data(Self.body(n)))
        let unverified = session("/norange/\(n)", dest).run()
        XCTAssertTrue(unverified.succeeded, "\(unverified.errors)")
        XCTAssertTrue(contents(dest) == Self.body(n))
        XCTAssertEqual(requests(), ["GET /norange/\(n) bytes=\(n)-"])
    }

    /// A complete `.part` and a server that honours Range (416 with the size): installed.
    func testACompletePartAndA416Finishes() {
        let n = 40_000
        let dest = dir + "/out.bin"
        FileManager.default.createFile(atPath: dest + ".part", contents: Data(Self.body(n)))
        let status = session("/file/\(n)", dest).run()
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertTrue(contents(dest) == Self.body(n))
        XCTAssertEqual(requests(), ["GET /file/\(n) bytes=\(n)-"], "no second download")
    }

    /// A small tmpfs fills up: the error says so, the `.part` stays, and once there is room the
    /// same fetch resumes from it.
    func testAFullDiskKeepsAResumablePart() throws {
        let mountPoint = dir + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        guard mount("tmpfs", mountPoint, "tmpfs", 0, "size=256k") == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (\(String(cString: strerror(errno)))); needs root")
        }
        defer { umount(mountPoint) }
        let n = 600_000
        let dest = mountPoint + "/out.bin"
        let full = session("/file/\(n)", dest, sha256: Self.sha(Self.body(n))).run()
        guard case .disk(let path, let reason, let error)? = full.errors.first else { return XCTFail("\(full.errors)") }
        XCTAssertEqual(path, dest + ".part")
        XCTAssertEqual(error, ENOSPC)
        XCTAssertTrue(reason.contains("kept"), reason)
        XCTAssertTrue("\(full.errors[0])".contains("No space left"), "\(full.errors[0])")
        let kept = contents(dest + ".part") ?? []
        XCTAssertGreaterThan(kept.count, 100_000)
        XCTAssertTrue(kept == Array(Self.body(n)[0..<kept.count]), "the kept bytes are the file's start")
        XCTAssertEqual(mount("tmpfs", mountPoint, "tmpfs", UInt(MS_REMOUNT), "size=2m"), 0)
        let resumed = session("/file/\(n)", dest, sha256: Self.sha(Self.body(n))).run()
        XCTAssertTrue(resumed.succeeded, "\(resumed.errors)")
        XCTAssertTrue(contents(dest) == Self.body(n))
        XCTAssertEqual(requests().last, "GET /file/\(n) bytes=\(kept.count)-", "resumed from the kept .part")
    }
}
