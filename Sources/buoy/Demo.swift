import ArgumentParser
import FoundationEssentials
import Glibc
import Download
import Posix
import Raster

/// `buoy demo`: the whole download screen with nothing but this machine: a throttled HTTP
/// server on 127.0.0.1, the default animation headless, and an animated PNG to look at.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the download screen against a throttled local server; write frames, a trace and an animated PNG preview.",
        discussion: "Writes OUT/frames/frame-*.png, OUT/trace.jsonl, OUT/preview.png (APNG) and OUT/payload.bin."
    )

    @Option(name: .shortAndLong, help: "Output directory.")
    var output: String = "buoy-demo"

    @Option(help: "Preview size WxH.")
    var size: Size = Size(width: 480, height: 270)

    @Option(help: "Bytes the local server sends.")
    var bytes: Int = 3_000_000

    @Option(help: "Server speed in bytes per second.")
    var rate: Int = 1_000_000

    @Option(help: "Frames per second of the preview.")
    var fps: Int = 20

    @Option(help: "The screen's language (en, de, fr, es, zh, ja, ar; default: the locale's).")
    var language: String?

    func validate() throws {
        guard bytes > 0, rate > 0, fps > 0, fps <= 60 else { throw ValidationError("--bytes, --rate and --fps must be positive (fps ≤ 60)") }
    }

    func run() throws {
        let server = try ThrottledServer(size: bytes, rate: rate)
        let frames = PathName.join(output, "frames")
        try? FileManager.default.removeItem(atPath: frames)
        do { try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true) } catch {
            throw CommandFailure.output("cannot create \(frames): \(SystemError.reason(of: error))")
        }
        let payload = PathName.join(output, "payload.bin")
        try? FileManager.default.removeItem(atPath: payload)
        printStatus("serving \(bytes) bytes at \(rate) bytes/s on http://127.0.0.1:\(server.port)/payload.bin")
        let run = try Run.parse(["--url", "http://127.0.0.1:\(server.port)/payload.bin", "--output", payload,
                                 "--sha256", server.sha256, "--display", "headless:\(frames)", "--size", "\(size.width)x\(size.height)",
                                 "--fps", String(fps), "--trace", PathName.join(output, "trace.jsonl")]
                                + (language.map { ["--language", $0] } ?? []))
        try run.run()
        var apng = APNGWriter(width: size.width, height: size.height, fps: fps)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: frames)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
        for name in names {
            let image = try PNG.read(path: PathName.join(frames, name))
            try apng.add(Surface(image: image))
        }
        let preview = PathName.join(output, "preview.png")
        do { try apng.write(to: preview) } catch { throw CommandFailure.output("\(error)") }
        printStatus("\(names.count) frames; animated preview: \(preview) (open it in a web browser)")
    }
}

/// A one-file HTTP server on 127.0.0.1 that sends its body at a fixed rate, on its own thread.
final class ThrottledServer: @unchecked Sendable {
    let port: Int
    let sha256: String
    private let listener: Int32
    private let body: [UInt8]
    private let rate: Int

    init(size: Int, rate: Int, port requested: Int = 0) throws {
        body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }
        var hasher = SHA256()
        hasher.update(body)
        sha256 = SHA256.hex(hasher.finalize())
        self.rate = rate
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(requested).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sp in
                bind(fd, sp, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, sp, &length) == 0
            }
        }
        guard fd >= 0, ok else { throw CommandFailure.output("cannot listen on 127.0.0.1:\(requested)") }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        _ = try PosixThread(name: "buoy-demo-http") { [self] in self.serve() }
    }

    private func serve() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 { return }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = request.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            let header = "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n"
            _ = Array(header.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            let chunk = max(1, rate / 20)
            var sent = 0
            while sent < body.count {
                let n = min(chunk, body.count - sent)
                let w = body.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, n, Int32(MSG_NOSIGNAL)) }
                if w <= 0 { break }
                sent += w
                usleep(useconds_t(Double(w) / Double(rate) * 1e6))
            }
            close(fd)
        }
    }
}

/// `buoy serve`: the demo's throttled server on its own, for trying the screen by hand and
/// for the QEMU board (busybox httpd cannot throttle).
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve generated bytes at a fixed rate on 127.0.0.1 (for trying the download screen).",
        shouldDisplay: false
    )

    @Option(help: "Port (0: any free one).")
    var port: Int = 0

    @Option(help: "Bytes to send.")
    var bytes: Int = 3_000_000

    @Option(help: "Bytes per second.")
    var rate: Int = 500_000

    func run() throws {
        let server = try ThrottledServer(size: bytes, rate: rate, port: port)
        print("serving http://127.0.0.1:\(server.port)/payload.bin sha256=\(server.sha256)")
        fflush(nil)  // every stream: naming `stdout` (a C global) is not concurrency-safe
        while true { sleep(3600) }
    }
}
