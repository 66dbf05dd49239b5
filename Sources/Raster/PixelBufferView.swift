/// Pixels in memory that Buoy does not own as a `Surface`: a DRM dumb buffer or a
/// framebuffer mapping, with the driver's row pitch (which may be wider than a row's pixels)
/// and the display's pixel format. Conversions write into it row by row, never past
/// `bytesPerRow * height` bytes from `base`.
public struct PixelBufferView: @unchecked Sendable {
    public let base: UnsafeMutableRawPointer
    /// Bytes from the start of one row to the next (the DRM pitch, fbdev line_length).
    public let bytesPerRow: Int
    public let width: Int
    public let height: Int
    public let format: PixelFormat

    /// Nil when the sizes cannot describe a buffer: a negative size, or rows that do not hold
    /// `width` pixels of `format`, or more bytes than `byteCount` when it is given (the mapping's size).
    public init?(base: UnsafeMutableRawPointer, bytesPerRow: Int, width: Int, height: Int, format: PixelFormat, byteCount: Int? = nil) {
        guard width >= 0, height >= 0, bytesPerRow >= width * format.bytesPerPixel else { return nil }
        let (needed, overflow) = bytesPerRow.multipliedReportingOverflow(by: height)
        guard !overflow else { return nil }
        if let byteCount, needed > byteCount { return nil }
        self.base = base
        self.bytesPerRow = bytesPerRow
        self.width = width
        self.height = height
        self.format = format
    }

    public var bounds: PixelRect { PixelRect(x0: 0, y0: 0, x1: width, y1: height) }

    /// The first byte of pixel (x, y).
    @inline(__always)
    public func address(x: Int, y: Int) -> UnsafeMutableRawPointer {
        base + y * bytesPerRow + x * format.bytesPerPixel
    }

    /// Converts `count` premultiplied pixels, `step` apart in memory (1: a row; ±width: a
    /// column, for a turned panel), into this buffer's format at `dst`. Colours are shown as
    /// over black (premultiplied colour is exactly that); the same arithmetic as
    /// `Surface.write(to:stride:format:)`, the whole-frame reference.
    @inline(__always)
    public static func convert(_ src: UnsafePointer<UInt32>, step: Int, count: Int, to dst: UnsafeMutableRawPointer, format: PixelFormat) {
        switch format {
        case .argb8888:
            if step == 1 { dst.copyMemory(from: src, byteCount: count * 4); return }
            let out = dst.assumingMemoryBound(to: UInt32.self)
            for i in 0..<count { out[i] = src[i * step] }
        case .xrgb8888:
            let out = dst.assumingMemoryBound(to: UInt32.self)
            if step == 1 {
                for i in 0..<count { out[i] = src[i] | 0xff00_0000 }
            } else {
                for i in 0..<count { out[i] = src[i * step] | 0xff00_0000 }
            }
        case .rgb565:
            let out = dst.assumingMemoryBound(to: UInt16.self)
            if step == 1 {
                for i in 0..<count { out[i] = rgb565(src[i]) }
            } else {
                for i in 0..<count { out[i] = rgb565(src[i * step]) }
            }
        }
    }

    /// Each channel rounded to its bit depth.
    @inline(__always)
    static func rgb565(_ p: UInt32) -> UInt16 {
        let r = (((p >> 16) & 0xff) &* 31 &+ 127) / 255
        let g = (((p >> 8) & 0xff) &* 63 &+ 127) / 255
        let b = ((p & 0xff) &* 31 &+ 127) / 255
        return UInt16(truncatingIfNeeded: r << 11 | g << 5 | b)
    }
}

/// A few rectangles of device pixels (at most `DirtyRegion.capacity`; past that a rectangle joins the one it
/// grows least): what a surface drew since it was cleared, or what a display buffer must
/// rewrite. Fixed storage, no allocation.
public struct PixelRegion: Equatable, Sendable {
    private var region: DirtyRegion

    public init() { region = DirtyRegion() }

    public init(_ rect: PixelRect) { region = DirtyRegion(rect) }

    init(_ region: DirtyRegion) { self.region = region }

    public var count: Int { region.count }
    public var isEmpty: Bool { region.count == 0 }
    /// The smallest rectangle holding them all.
    public var union: PixelRect { region.union }
    public subscript(i: Int) -> PixelRect { region[i] }
    /// Pixels covered, counting twice those of rectangles that overlap.
    public var area: Int { (0..<count).reduce(0) { $0 + self[$1].width * self[$1].height } }

    public mutating func add(_ rect: PixelRect) { region.add(rect) }
    public mutating func add(_ other: PixelRegion) { region.add(other.region) }
    public func intersection(_ rect: PixelRect) -> PixelRegion { PixelRegion(region.intersection(rect)) }

    public static func == (a: PixelRegion, b: PixelRegion) -> Bool {
        a.count == b.count && (0..<a.count).allSatisfy { a[$0] == b[$0] }
    }
}
