import Download
import Foundation
import XCTest

/// The socket-action mode driven by a small poll() loop, as an epoll loop would drive it.
final class EventLoopTests: DownloadTestCase {
    /// What the session asked for: sockets to watch and when to call `timerFired`.
    final class Driver {
        var watched: [Int32: SocketInterest] = [:]
        var timerDue: Double?
        var timerRequests = 0
        var socketRequests = 0

        static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

        func attach(_ session: DownloadSession) {
            session.useEventLoop(onSocket: { fd, interest in
                self.socketRequests += 1
                if interest == .remove { self.watched[fd] = nil } else { self.watched[fd] = interest }
            }, onTimer: { milliseconds in
                self.timerRequests += 1
                self.timerDue = milliseconds.map { Driver.now() + Double($0) / 1000 }
            })
        }

        /// Polls the watched sockets until the session is finished or `limit` seconds pass.
        func run(_ session: DownloadSession, limit: Double = 30) {
            let end = Driver.now() + limit
            while !session.isFinished && Driver.now() < end {
                var fds = watched.map { fd, interest -> pollfd in
                    let events = (interest == .write ? 0 : Int16(POLLIN)) | (interest == .read ? 0 : Int16(POLLOUT))
                    return pollfd(fd: fd, events: events, revents: 0)
                }
                let wait = timerDue.map { max(0, Int32((($0 - Driver.now()) * 1000).rounded(.up))) } ?? 1000
                _ = poll(&fds, nfds_t(fds.count), min(wait, 1000))
                for p in fds where p.revents != 0 {
                    let readable = p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
                    session.socketAction(fd: p.fd, readable: readable, writable: p.revents & Int16(POLLOUT) != 0)
                }
                if let due = timerDue, Driver.now() >= due {
                    timerDue = nil
                    session.timerFired()
                }
            }
        }
    }

    func testAPollLoopDrivesSeveralTransfersToTheEnd() throws {
        let dest = dir + "/b.bin"
        FileManager.default.createFile(atPath: dest + ".part", contents: Data(Self.body(10_000)))  // resumed
        let session = DownloadSession(requests: [
            DownloadRequest(url: url("/slow/120000?rate=400000"), destination: dir + "/a.bin", sha256: Self.sha(Self.body(120_000))),
            DownloadRequest(url: url("/file/90000"), destination: dest, sha256: Self.sha(Self.body(90_000))),
            DownloadRequest(url: url("/drop/80000?after=30000"), destination: dir + "/c.bin"),
            DownloadRequest(url: url("/busy/5000?fails=1&after=1"), destination: dir + "/d.bin"),
            DownloadRequest(url: url("/status/404"), destination: dir + "/e.bin"),
        ], policy: fastPolicy)
        let driver = Driver()
        driver.attach(session)
        XCTAssertNotNil(driver.timerDue, "asked to be called at once to start")
        let started = Driver.now()
        driver.run(session)
        let elapsed = Driver.now() - started
        XCTAssertTrue(session.isFinished, "\(session.status)")
        XCTAssertEqual(session.status.files.map { $0.state == .done }, [true, true, true, true, false], "\(session.status.errors)")
        guard case .failed(.http(_, 404)) = session.status.files[4].state else { return XCTFail("\(session.status.files[4].state)") }
        XCTAssertTrue(contents(dir + "/a.bin") == Self.body(120_000))
        XCTAssertTrue(contents(dest) == Self.body(90_000))
        XCTAssertTrue(contents(dir + "/c.bin") == Self.body(80_000))
        XCTAssertTrue(contents(dir + "/d.bin") == Self.body(5000))
        XCTAssertTrue(requests().contains("GET /file/90000 bytes=10000-"), "the .part was resumed")
        XCTAssertTrue(requests().contains("GET /drop/80000 bytes=30000-"), "the dropped one resumed")
        XCTAssertGreaterThanOrEqual(elapsed, 0.95, "the Retry-After wait came through the timer")
        XCTAssertTrue(driver.watched.isEmpty, "every socket was handed back: \(driver.watched)")
        XCTAssertNil(driver.timerDue, "no timer once finished")
        XCTAssertGreaterThan(driver.socketRequests, 0)
    }

    /// The same files through `step` and through the event loop end the same.
    func testBothModesAgree() {
        func requests(_ tag: String) -> [DownloadRequest] {
            [DownloadRequest(url: url("/file/30000"), destination: dir + "/\(tag)-1", sha256: Self.sha(Self.body(30000))),
             DownloadRequest(url: url("/file/3000"), destination: dir + "/\(tag)-2", sha256: String(repeating: "0", count: 64)),
             DownloadRequest(url: url("/norange/7000"), destination: dir + "/\(tag)-3")]
        }
        let polled = DownloadSession(requests: requests("step"), policy: fastPolicy).run()
        let evented = DownloadSession(requests: requests("loop"), policy: fastPolicy)
        let driver = Driver()
        driver.attach(evented)
        driver.run(evented)
        XCTAssertEqual(polled.files.map(\.state), evented.status.files.map(\.state).map { state -> FileStatus.State in
            guard case .failed(.checksum(let path, let e, let a)) = state else { return state }
            return .failed(.checksum(path: path.replacingOccurrences(of: "/loop-", with: "/step-"), expected: e, actual: a))
        })
        XCTAssertEqual(polled.received, evented.status.received)
        for i in 1...3 { XCTAssertEqual(contents(dir + "/step-\(i)"), contents(dir + "/loop-\(i)")) }
    }

    /// A `.part` to hash before the request and a file hashed as it arrives: no call of the
    /// event-loop mode takes long (the hashing is bounded per call, as in `step`).
    func testNoCallBlocksOnHashing() {
        let n = 4 << 20
        let dest = dir + "/large.bin"
        FileManager.default.createFile(atPath: dest + ".part", contents: Data(Self.body(n)[0..<(n / 2)]))
        let session = DownloadSession(requests: [DownloadRequest(url: url("/file/\(n)"), destination: dest, sha256: Self.sha(Self.body(n)))],
                                      policy: fastPolicy)
        let driver = Driver()
        driver.attach(session)
        var longest = 0.0, calls = 0
        let end = Driver.now() + 120
        while !session.isFinished && Driver.now() < end {
            var fds = driver.watched.map { pollfd(fd: $0.key, events: Int16(POLLIN | POLLOUT), revents: 0) }
            let wait = driver.timerDue.map { max(0, Int32((($0 - Driver.now()) * 1000).rounded(.up))) } ?? 1000
            _ = poll(&fds, nfds_t(fds.count), min(wait, 1000))
            let before = Driver.now()
            for p in fds where p.revents != 0 {
                session.socketAction(fd: p.fd, readable: p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, writable: p.revents & Int16(POLLOUT) != 0)
            }
            if let due = driver.timerDue, Driver.now() >= due {
                driver.timerDue = nil
                session.timerFired()
            }
            longest = max(longest, Driver.now() - before)
            calls += 1
        }
        print("event loop: \(calls) wakeups, longest \(String(format: "%.1f", longest * 1000)) ms")
        XCTAssertTrue(session.status.succeeded, "\(session.status.errors)")
        XCTAssertTrue(contents(dest) == Self.body(n))
        XCTAssertLessThan(longest, 0.25, "a call blocked the loop")
        XCTAssertGreaterThan(calls, 10, "the hashing was spread over many calls")
    }
}
