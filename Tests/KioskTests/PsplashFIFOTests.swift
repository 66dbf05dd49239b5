import Foundation
import Kiosk
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
    }

    func testAnExistingRegularFileIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-notfifo-\(getpid())").path
        FileManager.default.createFile(atPath: path, contents: Data())
        defer { unlink(path) }
        XCTAssertThrowsError(try PsplashFIFO(path: path)) { XCTAssertTrue("\($0)".contains("not a FIFO")) }
    }
}
