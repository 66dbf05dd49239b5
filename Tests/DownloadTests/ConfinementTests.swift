@testable import Download
import Foundation
import XCTest

/// A download directory: DEST resolved beneath it, never through `..`, an absolute path or a
/// symbolic link, with nothing written outside it.
final class ConfinementTests: DownloadTestCase {
    var root: String { dir + "/downloads" }
    var outside: String { dir + "/outside" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    }

    func confinedFetch(_ destination: String, _ path: String = "/file/3000") -> DownloadStatus {
        let request = DownloadRequest(url: url(path), destination: destination, directory: root)
        return DownloadSession(requests: [request], policy: fastPolicy).run()
    }

    func assertRefused(_ status: DownloadStatus, _ why: String, file: StaticString = #filePath, line: UInt = #line) {
        guard case .refused(let path, let reason)? = status.errors.first else {
            return XCTFail("\(why): expected a refusal, got \(status.errors)", file: file, line: line)
        }
        XCTAssertFalse(path.isEmpty || reason.isEmpty, file: file, line: line)
    }

    func testANestedDestinationIsCreatedBeneathTheDirectory() {
        let status = confinedFetch("a/b/out.bin")
        XCTAssertTrue(status.succeeded, "\(status.errors)")
        XCTAssertTrue(contents(root + "/a/b/out.bin") == Self.body(3000), "file content differs")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/a/b/out.bin.part"))
    }

    func testDotDotAbsoluteAndEmptyComponentsAreRefused() {
        for destination in ["../outside/x", "a/../../outside/x", "/etc/buoy-test-x", outside + "/x", "a//x", "a/./x", "", "a/", "."] {
            assertRefused(confinedFetch(destination), destination)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [], "nothing written outside")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/etc/buoy-test-x"))
        XCTAssertEqual(requests(), [], "nothing fetched for a refused path")
    }

    func testASymlinkedIntermediateDirectoryIsRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: outside)
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/real/deeper", withDestinationPath: outside)
        for destination in ["link/x", "real/deeper/x", "real/deeper/new/x"] {
            assertRefused(confinedFetch(destination), destination)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [], "nothing written outside")
        XCTAssertEqual(requests(), [])
    }

    func testASymlinkedDestinationIsRefusedAndItsTargetUntouched() throws {
        let target = outside + "/precious"
        FileManager.default.createFile(atPath: target, contents: Data("precious".utf8))
        try FileManager.default.createSymbolicLink(atPath: root + "/out.bin", withDestinationPath: target)
        let status = DownloadSession(requests: [DownloadRequest(url: url("/file/3000"), destination: "out.bin",
                                                                sha256: Self.sha(Array("precious".utf8)), directory: root)],
                                     policy: fastPolicy).run()
        assertRefused(status, "symlinked DEST")
        XCTAssertTrue(contents(target) == Array("precious".utf8))
        XCTAssertFalse(status.files[0].cached, "a link's target is not hashed (no guessing root files' contents)")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/out.bin"), target)
    }
}

/// The component walk (the path on a kernel without openat2) refuses what openat2 refuses.
final class PlacementWalkTests: XCTestCase {
    func testTheWalkAgreesWithOpenat2() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-walk-\(getpid())-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let root = base + "/root", outside = base + "/outside"
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: root + "/real/deeper", withDestinationPath: outside)
        FileManager.default.createFile(atPath: root + "/file", contents: Data())
        let rootFD = open(root, O_RDONLY | O_DIRECTORY)
        defer { close(rootFD) }
        for useOpenat2 in [true, false] {
            for path in [["link"], ["real", "deeper"], ["real", "deeper", "new"], ["file", "x"]] {
                XCTAssertThrowsError(try Placement.descend(from: rootFD, through: path, shown: path.joined(separator: "/"), useOpenat2: useOpenat2)) { error in
                    guard case .refused? = error as? DownloadError else { return XCTFail("\(path): \(error)") }
                }
            }
            let fd = try Placement.descend(from: rootFD, through: ["real", "made\(useOpenat2)", "here"], shown: "made", useOpenat2: useOpenat2)
            close(fd)
            var isDirectory: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/real/made\(useOpenat2)/here", isDirectory: &isDirectory) && isDirectory.boolValue)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [])
    }
}
