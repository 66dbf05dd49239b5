import Foundation
import Glibc
import Posix
import XCTest

/// The system-call layer on real descriptors: pipes, a socket pair, epoll, eventfd.
final class PosixTests: XCTestCase {
    func pipe() throws -> (read: Descriptor, write: Descriptor) { try Descriptor.pipe() }

    func testOpenKeepsErrnoAndPath() {
        XCTAssertThrowsError(try Descriptor.open("/nonexistent/buoy", flags: O_RDONLY)) { error in
            let e = error as? SystemError
            XCTAssertEqual(e?.errno, ENOENT)
            XCTAssertEqual(e?.path, "/nonexistent/buoy")
            XCTAssertTrue("\(error)".contains("No such file"), "\(error)")
        }
    }

    func testAWriteLargerThanThePipeIsFinishedWhileTheReaderDrainsIt() throws {
        let (r, w) = try pipe()
        let total = 1 << 20  // far more than a pipe's 64 kB
        let bytes = (0..<total).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let fd = r.rawValue  // the number crosses to the thread; `r` keeps owning it
        let reader = Thread {
            var got: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while got.count < total {
                _ = try? Descriptor.waitReadable(fd, timeout: 5)
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n > 0 { got += buffer[0..<n] }
            }
            XCTAssertEqual(got, bytes)
        }
        reader.start()
        try w.writeAll(bytes, timeout: 10)
        while !reader.isFinished { usleep(1000) }
    }

    func testAWriteNobodyReadsTimesOutWithETIMEDOUT() throws {
        let (r, w) = try pipe()
        defer { r.close() }  // kept open: a pipe with no reader is EPIPE, not a full pipe
        XCTAssertThrowsError(try w.writeAll([UInt8](repeating: 1, count: 1 << 20), timeout: 0.1)) { error in
            XCTAssertEqual((error as? SystemError)?.errno, ETIMEDOUT)
        }
    }

    func testReadSeesEndOfFileAndWouldBlock() throws {
        let (r, w) = try pipe()
        XCTAssertEqual(try r.read(), .wouldBlock)
        try w.writeAll([1, 2, 3])
        XCTAssertEqual(try r.read(), .bytes([1, 2, 3]))
        w.close()
        XCTAssertEqual(try r.read(), .endOfFile)
        w.close()  // closing twice is harmless: the number is not closed again
    }

    func testTheLoopWakesForAReadyDescriptorAndSleepsUntilItsDeadline() throws {
        let loop = try EventLoop()
        let (r, w) = try pipe()
        try loop.watch(r.rawValue)
        let start = Monotonic.now()
        XCTAssertEqual(try loop.wait(until: start + 0.05), [])
        XCTAssertGreaterThanOrEqual(Monotonic.now() - start, 0.049)
        try w.writeAll([7])
        let ready = try loop.wait(until: nil)
        XCTAssertEqual(ready.map(\.fd), [r.rawValue])
        XCTAssertTrue(ready[0].readable)
        loop.unwatch(r.rawValue)
        XCTAssertEqual(try loop.wait(until: Monotonic.now()), [])
    }

    func testAWakerWakesTheLoopFromAnotherThread() throws {
        let loop = try EventLoop()
        let waker = try Waker()
        try loop.watch(waker.fd)
        let thread = Thread { usleep(20_000); waker.wake() }
        thread.start()
        let ready = try loop.wait(until: Monotonic.now() + 5)
        XCTAssertEqual(ready.map(\.fd), [waker.fd])
        waker.drain()
        XCTAssertEqual(try loop.wait(until: Monotonic.now()), [])
    }

    func testTimersComeDueInOrder() {
        var timers = Timers<String>()
        timers.set("retry", at: 5)
        timers.set("frame", at: 2)
        timers.set("publish", at: 9)
        XCTAssertEqual(timers.next, 2)
        XCTAssertEqual(timers.takeDue(at: 6), ["frame", "retry"])
        XCTAssertEqual(timers.next, 9)
        timers.cancel("publish")
        XCTAssertNil(timers.next)
    }
}
