import CZlib

/// Why a zip container was refused.
public struct ZipError: Error, CustomStringConvertible, Equatable {
    /// The entry concerned, when the problem is one entry's.
    public var entry: String?
    public var reason: String

    public init(entry: String? = nil, _ reason: String) {
        self.entry = entry
        self.reason = reason
    }

    public var description: String { entry.map { "entry \"\($0)\": \(reason)" } ?? reason }
}

/// A read-only zip archive held in memory (a dotLottie file). Every field is checked before
/// use: a bounded entry count, stored or deflated entries only, no Zip64 or encryption,
/// decompressed sizes bounded and equal to the declared ones (no zip bombs), CRC-32 checked.
/// Names that are absolute or contain `..` are ignored, so no entry can name a path outside.
public struct ZipArchive {
    public struct Limits: Sendable {
        public var maxEntries = 1000
        public var maxEntryBytes = 64 * 1024 * 1024
        public init() {}
    }

    struct Entry {
        var method: Int
        var crc: UInt32
        var compressedSize: Int
        var size: Int
        var localHeader: Int
    }

    private let bytes: [UInt8]
    private let entries: [String: Entry]
    /// Entry names in the archive's order (safe names only).
    public let names: [String]
    public let limits: Limits

    /// True when `bytes` begin like a zip file (a local file header), whatever the file's name.
    public static func isZip(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    public init(_ bytes: [UInt8], limits: Limits = Limits()) throws {
        self.bytes = bytes
        self.limits = limits
        let end = try Self.endOfCentralDirectory(bytes)
        let count = Self.u16(bytes, end + 10), directorySize = Self.u32(bytes, end + 12), start = Self.u32(bytes, end + 16)
        guard count <= limits.maxEntries else { throw ZipError("\(count) entries; the limit is \(limits.maxEntries)") }
        guard start <= end, directorySize <= end - start else { throw ZipError("the central directory lies outside the file") }
        var entries: [String: Entry] = [:], names: [String] = [], offset = start
        for _ in 0..<count {
            guard offset + 46 <= end, Self.u32(bytes, offset) == 0x0201_4B50 else { throw ZipError("a central directory record is damaged") }
            let nameLength = Self.u16(bytes, offset + 28)
            let next = offset + 46 + nameLength + Self.u16(bytes, offset + 30) + Self.u16(bytes, offset + 32)
            guard next <= end else { throw ZipError("a central directory record runs past its end") }
            let name = String(decoding: bytes[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
            let entry = Entry(method: Self.u16(bytes, offset + 10), crc: UInt32(Self.u32(bytes, offset + 16)),
                              compressedSize: Self.u32(bytes, offset + 20), size: Self.u32(bytes, offset + 24),
                              localHeader: Self.u32(bytes, offset + 42))
            if Self.u16(bytes, offset + 8) & 1 != 0 { throw ZipError(entry: name, "is encrypted") }
            if let safe = Self.safeName(name), entries[safe] == nil {
                entries[safe] = entry
                names.append(safe)
            }
            offset = next
        }
        self.entries = entries
        self.names = names
    }

    /// The entry's name without a leading `./`, or nil for one that is absolute, has `..`, a
    /// backslash or NUL, or names a folder.
    static func safeName(_ name: String) -> String? {
        if name.hasPrefix("/") || name.hasSuffix("/") || name.contains("\\") || name.utf8.contains(0) { return nil }
        let parts = name.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if parts.isEmpty || parts.contains("..") { return nil }
        return parts.joined(separator: "/")
    }

    /// The decompressed contents of entry `name`, or nil when there is no such (safe) entry.
    public func contents(of name: String, maxBytes: Int? = nil) throws -> [UInt8]? {
        guard let entry = entries[name] else { return nil }
        let limit = min(maxBytes ?? limits.maxEntryBytes, limits.maxEntryBytes)
        guard entry.size <= limit else { throw ZipError(entry: name, "is \(entry.size) bytes; the limit is \(limit)") }
        let header = entry.localHeader
        guard header + 30 <= bytes.count, Self.u32(bytes, header) == 0x0403_4B50 else {
            throw ZipError(entry: name, "its local header is damaged")
        }
        let data = header + 30 + Self.u16(bytes, header + 26) + Self.u16(bytes, header + 28)
        guard data <= bytes.count, entry.compressedSize <= bytes.count - data else {
            throw ZipError(entry: name, "its data runs past the end of the file")
        }
        let packed = bytes[data..<(data + entry.compressedSize)]
        let output: [UInt8]
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.size else { throw ZipError(entry: name, "stored sizes disagree") }
            output = Array(packed)
        case 8:
            output = try Self.inflate(packed, size: entry.size, name: name)
        default:
            throw ZipError(entry: name, "compression method \(entry.method) is not supported (only stored and deflate)")
        }
        let crc = output.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        guard crc == entry.crc else { throw ZipError(entry: name, "CRC mismatch (damaged data)") }
        return output
    }

    /// Raw deflate into a buffer of exactly the declared size: more output than declared is
    /// an error, not a larger allocation.
    static func inflate(_ packed: ArraySlice<UInt8>, size: Int, name: String) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size + 1)
        var stream = z_stream()
        guard buoy_inflate_init_raw(&stream) == Z_OK else { throw ZipError(entry: name, "cannot start inflating") }
        defer { inflateEnd(&stream) }
        let status: Int32 = packed.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else {
            throw ZipError(entry: name, "deflate data is damaged or not of its declared size \(size)")
        }
        output.removeLast()
        return output
    }

    static func endOfCentralDirectory(_ bytes: [UInt8]) throws -> Int {
        guard bytes.count >= 22 else { throw ZipError("too short for a zip file") }
        let lowest = max(0, bytes.count - 22 - 65535)
        var offset = bytes.count - 22
        while offset >= lowest {
            if u32(bytes, offset) == 0x0605_4B50 { return offset }
            offset -= 1
        }
        throw ZipError("no end of central directory record (not a zip file, or truncated)")
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ at: Int) -> Int { u16(bytes, at) | u16(bytes, at + 2) << 16 }
}
