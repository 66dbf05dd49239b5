/// Pixel layouts of display buffers. Names follow DRM fourcc codes, little-endian.
public enum PixelFormat: String, Sendable, CaseIterable {
    /// 32 bits, B G R A bytes in memory; the surface's own layout.
    case argb8888
    /// 32 bits, B G R X bytes in memory; alpha ignored.
    case xrgb8888
    /// 16 bits, 5 red, 6 green, 5 blue.
    case rgb565

    public var bytesPerPixel: Int {
        switch self {
        case .argb8888, .xrgb8888: return 4
        case .rgb565: return 2
        }
    }
}

extension Surface {
    /// Converts the surface into a display buffer of `stride` bytes per row. Colours are
    /// shown as if composited on black (premultiplied colour is exactly that).
    public func write(to buffer: UnsafeMutableRawPointer, stride: Int, format: PixelFormat) {
        precondition(stride >= width * format.bytesPerPixel, "row stride too small for the surface width")
        guard width > 0, height > 0 else { return }
        pixels.withUnsafeBufferPointer { px in
            for y in 0..<height {
                let row = buffer + y * stride
                let src = px.baseAddress! + y * width
                switch format {
                case .argb8888:
                    row.copyMemory(from: src, byteCount: width * 4)
                case .xrgb8888:
                    let dst = row.assumingMemoryBound(to: UInt32.self)
                    for x in 0..<width { dst[x] = src[x] | 0xff00_0000 }
                case .rgb565:
                    let dst = row.assumingMemoryBound(to: UInt16.self)
                    for x in 0..<width {
                        let p = src[x]
                        // Round each channel to its bit depth.
                        let r = (((p >> 16) & 0xff) * 31 + 127) / 255
                        let g = (((p >> 8) & 0xff) * 63 + 127) / 255
                        let b = ((p & 0xff) * 31 + 127) / 255
                        dst[x] = UInt16(r << 11 | g << 5 | b)
                    }
                }
            }
        }
    }
}
