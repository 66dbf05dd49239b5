import Raster

/// Copies a rendered surface into a panel buffer: pixel format conversion and rotation in
/// one pass. The surface is the logical (rotated) picture; the buffer is the panel's own.
public enum PanelConversion {
    /// The panel's buffer for `surface` as a surface of its own (premultiplied ARGB): what a
    /// panel turned by `rotation` scans out. Headless frames and video are written from it,
    /// so they show what the panel shows.
    public static func panelSurface(_ surface: Surface, rotation: Rotation) -> Surface {
        guard rotation != .none else { return surface }
        var panel = Surface(width: rotation.swapsAxes ? surface.height : surface.width,
                            height: rotation.swapsAxes ? surface.width : surface.height)
        let stride = panel.width * 4
        panel.pixels.withUnsafeMutableBytes { write(surface, rotation: rotation, to: $0.baseAddress!, stride: stride, format: .argb8888) }
        return panel
    }

    public static func write(_ surface: Surface, rotation: Rotation, to buffer: UnsafeMutableRawPointer, stride: Int,
                             format: PixelFormat) {
        if rotation == .none {
            surface.write(to: buffer, stride: stride, format: format)
            return
        }
        // Panel size.
        let pw = rotation.swapsAxes ? surface.height : surface.width
        let ph = rotation.swapsAxes ? surface.width : surface.height
        let w = surface.width, h = surface.height
        surface.pixels.withUnsafeBufferPointer { src in
            for py in 0..<ph {
                let row = buffer + py * stride
                for px in 0..<pw {
                    // Which surface pixel lands on panel pixel (px, py).
                    let sx: Int, sy: Int
                    switch rotation {
                    case .none: sx = px; sy = py
                    case .quarter: sx = py; sy = h - 1 - px
                    case .half: sx = w - 1 - px; sy = h - 1 - py
                    case .threeQuarters: sx = w - 1 - py; sy = px
                    }
                    let p = src[sy * w + sx]
                    switch format {
                    case .argb8888: row.storeBytes(of: p, toByteOffset: px * 4, as: UInt32.self)
                    case .xrgb8888: row.storeBytes(of: p | 0xff00_0000, toByteOffset: px * 4, as: UInt32.self)
                    case .rgb565:
                        let r = (((p >> 16) & 0xff) * 31 + 127) / 255, g = (((p >> 8) & 0xff) * 63 + 127) / 255, b = ((p & 0xff) * 31 + 127) / 255
                        row.storeBytes(of: UInt16(r << 11 | g << 5 | b), toByteOffset: px * 2, as: UInt16.self)
                    }
                }
            }
        }
    }
}
