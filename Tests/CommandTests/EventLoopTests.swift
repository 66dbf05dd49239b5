import Foundation
import XCTest

/// The kiosk's event loop from outside, the built `buoy` with real sockets, pipes and the
/// loopback server: a request is answered while frames take long to render, and a held
/// screen costs no CPU.
final class EventLoopTests: CommandTestCase {
    var socket: String { dir + "/buoy.sock" }

    /// One request over a fresh connection; returns the reply line and the round trip in seconds.
    func ask(_ request: String) throws -> (String, Double) {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in socket.utf8.enumerated() { raw[i] = b } }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(connected, 0, "connect: \(String(cString: strerror(errno)))")
        let start = Date()
        let line = Array((request + "\n").utf8)
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !reply.contains(0x0A) {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 5000) > 0 else { break }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            reply += buffer[0..<n]
        }
        return (String(decoding: reply, as: UTF8.self), Date().timeIntervalSince(start))
    }

    func traceLines(_ path: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// CPU time (user + system) of a process from /proc, in seconds.
    func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.index(after: try XCTUnwrap(stat.lastIndex(of: ")")))...].split(separator: " ")
        // After "pid (comm)": utime is field 14, stime 15 (indices 11 and 12 here).
        let ticks = try XCTUnwrap(Double(fields[11])) + XCTUnwrap(Double(fields[12]))
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func testStatusIsAnsweredWithinTenMillisecondsWhileFramesTakeLonger() throws {
        let trace = dir + "/trace.jsonl"
        // A large screen: every frame renders the animation over 2 million pixels and writes a PNG.
        let daemon = try start(["run", "--socket", socket, "--display", "headless:\(dir)/frames", "--size", "1920x1080", "--fps", "60",
                                "--url", "\(base)/slow/400000?rate=40000", "--output", dir + "/payload.bin",
                                "--on-complete", "hold", "--trace", trace], name: "daemon")
        defer { daemon.terminate(); daemon.waitUntilExit() }
        XCTAssertTrue(waitUntil(30) { self.traceLines(trace).count >= 3 }, errors(of: "daemon"))
        let firstFrames = traceLines(trace).count, since = Date()
        var latencies: [Double] = []
        for i in 0..<5 {
            usleep(useconds_t(37_000 + i * 11_000))  // at different points of a frame
            let (reply, seconds) = try ask(#"{"cmd":"status"}"#)
            XCTAssertTrue(reply.contains("\"downloading\""), reply)
            latencies.append(seconds)
        }
        let frames = traceLines(trace).count - firstFrames
        let perFrame = Date().timeIntervalSince(since) / Double(max(frames, 1))
        latencies.sort()
        print("figure: status answered in \(latencies.map { String(format: "%.2f ms", $0 * 1000) }) (median "
              + String(format: "%.2f", latencies[2] * 1000) + String(format: " ms) while frames took %.1f ms each", perFrame * 1000))
        XCTAssertGreaterThanOrEqual(perFrame, 0.030, "frames must be slow for this test to mean anything")
        XCTAssertLessThan(latencies[2], 0.010, "median status round trip \(latencies)")
    }

    func testAHeldScreenUsesNoCPUAfterDone() throws {
        let trace = dir + "/trace.jsonl"
        let held = try start(["run", "--url", "\(base)/file/20000", "--output", dir + "/payload.bin", "--display", "headless:\(dir)/frames",
                              "--size", "320x180", "--every", "1000", "--on-complete", "hold", "--trace", trace], name: "held")
        defer { held.terminate(); held.waitUntilExit() }
        XCTAssertTrue(waitUntil(60) { self.traceLines(trace).last?["state"] as? String == "done" }, errors(of: "held"))
        usleep(200_000)
        let frames = traceLines(trace).count
        let before = try cpuSeconds(of: held.processIdentifier)
        sleep(10)
        let used = try cpuSeconds(of: held.processIdentifier) - before
        print(String(format: "figure: held screen after done: %.3f s CPU in 10 s, %d frames", used, traceLines(trace).count - frames))
        XCTAssertTrue(held.isRunning, "--on-complete hold keeps the screen")
        XCTAssertLessThanOrEqual(used, 0.05)
        XCTAssertEqual(traceLines(trace).count, frames, "no frame after done")
    }
}
