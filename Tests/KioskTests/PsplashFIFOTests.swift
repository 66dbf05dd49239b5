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
