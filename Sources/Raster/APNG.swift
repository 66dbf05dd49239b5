import FoundationEssentials
import Glibc
import Posix

/// Animated PNG files for previews: each frame is encoded by libpng as an ordinary PNG, and
/// its compressed image data is re-wrapped as an APNG frame (`fcTL` + `fdAT`), so no second
/// compressor is needed.
public struct APNGWriter {
    public let width: Int
    public let height: Int
    /// Frame delay as a fraction: numerator / denominator seconds.
    public let delayNumerator: UInt16
    public let delayDenominator: UInt16
    private var frames: [[UInt8]] = []  // IDAT payloads

    public init(width: Int, height: Int, fps: Int) {
        self.width = width
        self.height = height
        delayNumerator = 1
        delayDenominator = UInt16(max(1, min(fps, 1000)))
    }

    public mutating func add(_ surface: Surface) throws {
        guard surface.width == width, surface.height == height else {
            throw PNGError(path: nil, reason: "APNG frames must all be \(width)x\(height)")
        }
        let png = try PNG.encode(surface)
        var data: [UInt8] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "IDAT" { data += png[(offset + 8)..<(offset + 8 + length)] }
            offset += 12 + length
        }
        frames.append(data)
    }

    public var frameCount: Int { frames.count }

    /// The whole file: loops forever.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }
        func chunk(_ type: String, _ body: [UInt8]) {
            let typed = Array(type.utf8) + body
            out += be32(body.count) + typed + be32(Int(CRC32.checksum(typed)))
        }
        // 8-bit RGBA, deflate, adaptive filtering, no interlace: what libpng wrote per frame.
        chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
        chunk("acTL", be32(frames.count) + be32(0))
        var sequence = 0
        for (i, data) in frames.enumerated() {
            // Built in steps: Swift 6.0's type checker gives up on this as one `+` chain.
            var control = be32(sequence) + be32(width) + be32(height)
            control += be32(0) + be32(0)
            control += be16(delayNumerator) + be16(delayDenominator) + [0, 0]
            chunk("fcTL", control)
            sequence += 1
            if i == 0 {
                chunk("IDAT", data)
            } else {
                chunk("fdAT", be32(sequence) + data)
                sequence += 1
            }
        }
        chunk("IEND", [])
        return out
    }

    /// Writes the file atomically (temporary file, then rename).
    public func write(to path: String) throws {
        do { try Data(encoded()).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw PNGError(path: path, reason: "cannot write: \(SystemError.reason(of: error))")
        }
    }
}

/// CRC-32 (ISO-HDLC), as PNG chunks carry.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xff)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
