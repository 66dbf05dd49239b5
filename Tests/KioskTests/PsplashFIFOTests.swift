import Foundation
import Kiosk
import Raster
import XCTest

final class PsplashFIFOTests: XCTestCase {
    func testCommandsAsPsplashWriteSendsThem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-fifo-\(getpid())").path
        unlink(path)
        defer { unlink(path) }
        let fifo = try PsplashFIFO(path: path)
        XCTAssertEqual(fifo.poll(), [])
        let writer = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        // psplash-write terminates each command with NUL; scripts often use newlines.
        writer.write(Data("PROGRESS 25\0MSG Installing update\0PROG".utf8))
        XCTAssertEqual(fifo.poll(), [.progress(0.25), .message("Installing update")])
        writer.write(Data("RESS 150\nBOGUS\nQUIT\0".utf8))
        XCTAssertEqual(fifo.poll(), [.progress(1), .quit])
        try writer.close()
        XCTAssertEqual(fifo.poll(), [], "no end-of-file spin when the writer goes away")
        XCTAssertEqual(fifo.takeMessages(), ["psplash: PROGRESS 150 is outside 0…100; shown as 100", "psplash: unknown command BOGUS; ignored"])
    }

    /// psplash itself shows a negative value as 0: Buoy does too, and says so, once in a row.
    func testOutOfRangeAndMalformedProgressIsReportedNotClampedSilently() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-fifo-range-\(getpid())").path
        unlink(path)
        let fifo = try PsplashFIFO(path: path)
        defer { fifo.remove() }
        let writer = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        defer { try? writer.close() }
        writer.write(Data("PROGRESS -5\0PROGRESS -5\0PROGRESS 100\0PROGRESS 0\0PROGRESS nan\0PROGRESS 1e400\0PROGRESS \u{1B}[2J\0\0\n".utf8))
        XCTAssertEqual(fifo.poll(), [.progress(0), .progress(0), .progress(1), .progress(0), .progress(1)])
        XCTAssertEqual(fifo.takeMessages(), [
            "psplash: PROGRESS -5 is outside 0…100; shown as 0",
            "psplash: PROGRESS nan is not a number; ignored",
            "psplash: PROGRESS 1e400 is outside 0…100; shown as 100",
            "psplash: PROGRESS \\x1B[2J is not a number; ignored",
        ])
        XCTAssertEqual(fifo.takeMessages(), [])
    }

    /// The FIFO Buoy made goes on exit, and only that one: one it found stays, and a FIFO put
    /// in its place meanwhile (another inode) is left alone.
    func testOnlyTheFIFOItMadeIsRemoved() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-fifo-own-\(getpid())").path
        unlink(path)
        defer { unlink(path) }
        let mask = umask(0o027)
        let made = try PsplashFIFO(path: path)
        umask(mask)
        XCTAssertTrue(made.madeHere)
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o660, "the group may write, whatever the umask")
        XCTAssertTrue(made.remove())
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertFalse(made.remove(), "removed once")

        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let found = try PsplashFIFO(path: path)
        XCTAssertFalse(found.madeHere)
        XCTAssertFalse(found.remove())
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "a FIFO it did not make stays")
        unlink(path)

        let replaced = try PsplashFIFO(path: path)
        unlink(path)
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertFalse(replaced.remove(), "another FIFO in its place is not its own")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }

    /// A symbolic link is refused, to a FIFO or not, and what it points to is left as it was.
    func testASymbolicLinkIsRefusedAndNotFollowed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-fifo-link-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertEqual(mkfifo(dir + "/real", 0o600), 0)
        XCTAssertEqual(symlink(dir + "/real", dir + "/link"), 0)
        XCTAssertThrowsError(try PsplashFIFO(path: dir + "/link")) { XCTAssertTrue("\($0)".contains("symbolic link"), "\($0)") }
        XCTAssertEqual(symlink(dir + "/missing", dir + "/dangling"), 0)
        XCTAssertThrowsError(try PsplashFIFO(path: dir + "/dangling")) { XCTAssertTrue("\($0)".contains("symbolic link"), "\($0)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/missing"), "nothing made through the link")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/real"))
    }

    func testAnExistingRegularFileIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-notfifo-\(getpid())").path
        FileManager.default.createFile(atPath: path, contents: Data())
        defer { unlink(path) }
        XCTAssertThrowsError(try PsplashFIFO(path: path)) { XCTAssertTrue("\($0)".contains("not a FIFO")) }
    }
}

final class StatusLineTests: XCTestCase {
    func testTextIsDrawnInABandAtTheBottom() {
        var surface = Surface(width: 320, height: 180, clearColor: .black)
        StatusLine(text: "Installing \"update\" 1.4", width: 320, height: 180).draw(into: &surface)
        let top = surface.pixels[0..<(320 * 150)]
        XCTAssertTrue(top.allSatisfy { $0 == 0xff00_0000 }, "nothing above the band")
        let band = surface.pixels[(320 * 165)..<(320 * 175)]
        XCTAssertTrue(band.contains { ($0 >> 16) & 0xff > 200 && ($0 & 0xff) > 200 }, "white text in the band")
        // The band is what a touch must hit with --touch prompt: exactly the rows drawn on.
        let line = StatusLine(text: "Touch here", width: 320, height: 180)
        let drawn = (0..<180).filter { y in surface.pixels[(y * 320)..<(y * 320 + 320)].contains { $0 != 0xff00_0000 } }
        XCTAssertEqual(line.band, drawn.first!..<(drawn.last! + 1))
        XCTAssertTrue(line.contains(x: 10, y: 179.5))
        XCTAssertTrue(line.contains(x: 300, y: Double(drawn.first!)))
        XCTAssertFalse(line.contains(x: 160, y: Double(drawn.first! - 1)))
        XCTAssertFalse(line.contains(x: 160, y: 90))
        XCTAssertFalse(StatusLine(text: "", width: 320, height: 180).contains(x: 160, y: 179))
        var empty = Surface(width: 32, height: 18, clearColor: .black)
        StatusLine(text: "", width: 32, height: 18).draw(into: &empty)
        XCTAssertTrue(empty.pixels.allSatisfy { $0 == 0xff00_0000 })
    }
}
