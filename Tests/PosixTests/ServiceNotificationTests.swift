import Foundation
import Glibc
import Posix
import XCTest

/// sd_notify's protocol spoken without libsystemd: a real datagram socket receives what a
/// Type=notify unit's manager would.
final class ServiceNotificationTests: XCTestCase {
    /// A bound AF_UNIX datagram socket at `address` (a path, or "@name" for an abstract one).
    func listener(_ address: String) throws -> Descriptor {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let owned = Descriptor(taking: fd, name: address)
        var to = sockaddr_un()
        to.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(address.utf8)
        withUnsafeMutableBytes(of: &to.sun_path) { path in
            for (i, b) in bytes.enumerated() { path[i] = b }
            if bytes.first == UInt8(ascii: "@") { path[0] = 0 }
        }
        let length = MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == UInt8(ascii: "/") ? 1 : 0)
        let bound = withUnsafePointer(to: &to) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        if bound != 0 { throw SystemError("bind", path: address) }
        return owned
    }

    func received(_ socket: Descriptor) throws -> String {
        XCTAssertTrue(try socket.wait(for: Int16(POLLIN), timeout: 5))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(socket.rawValue, $0.baseAddress, $0.count, 0) }
        return String(decoding: buffer[0..<max(0, n)], as: UTF8.self)
    }

    func testStateReachesTheSocketANotifyUnitNames() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("buoy-notify-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("notify").path
        let socket = try listener(path)
        try ServiceNotification.send("READY=1\nSTATUS=showing on headless", socket: path)
        XCTAssertEqual(try received(socket), "READY=1\nSTATUS=showing on headless")
    }

    func testAnAbstractSocketIsNamedWithAnAt() throws {
        let name = "@buoy-notify-test-\(getpid())"
        let socket = try listener(name)
        try ServiceNotification.send("STOPPING=1", socket: name)
        XCTAssertEqual(try received(socket), "STOPPING=1")
    }

    func testNoSocketMeansNothingToSend() throws {
        try ServiceNotification.send("READY=1", socket: nil)
        try ServiceNotification.send("READY=1", socket: "")
    }

    func testASocketNobodyListensOnIsAnErrorNamingIt() {
        XCTAssertThrowsError(try ServiceNotification.send("READY=1", socket: "/nonexistent/buoy-notify")) { error in
            XCTAssertEqual((error as? SystemError)?.path, "/nonexistent/buoy-notify")
            XCTAssertEqual((error as? SystemError)?.errno, ENOENT)
        }
        XCTAssertThrowsError(try ServiceNotification.send("READY=1", socket: "relative/path")) { error in
            XCTAssertEqual((error as? SystemError)?.errno, EINVAL)
        }
    }
}
