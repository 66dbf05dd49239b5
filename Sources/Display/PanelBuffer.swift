import Raster

extension Rotation {
    /// Where the logical pixels of `rect` land in the panel's buffer, for a logical picture
    /// of `width` × `height` (the inverse of the mapping `PanelConversion.write` samples with).
    public func panelRect(of rect: PixelRect, width w: Int, height h: Int) -> PixelRect {
        switch self {
        case .none: return rect
        case .quarter: return PixelRect(x0: h - rect.y1, y0: rect.x0, x1: h - rect.y0, y1: rect.x1)
        case .half: return PixelRect(x0: w - rect.x1, y0: h - rect.y1, x1: w - rect.x0, y1: h - rect.y0)
        case .threeQuarters: return PixelRect(x0: rect.y0, y0: w - rect.x1, x1: rect.y1, y1: w - rect.x0)
        }
    }
}

extension PanelConversion {
    /// Converts the pixels of `region` (logical, device coordinates of `surface`) into the
    /// panel buffer `view`, turned by `rotation`, in the view's format and with its pitch:
    /// conversion and rotation in the one pass that writes the display's memory, and nothing
    /// outside the region touched. The same pixels as `write(_:rotation:to:stride:format:)`
    /// (the whole-frame reference) gives there; a test compares them.
    public static func write(_ surface: Surface, region: PixelRegion, rotation: Rotation, into view: PixelBufferView) {
        let (w, h) = (surface.width, surface.height)
        let panelW = rotation.swapsAxes ? h : w, panelH = rotation.swapsAxes ? w : h
        guard view.width == panelW, view.height == panelH, w > 0, h > 0 else { return }
        surface.pixels.withUnsafeBufferPointer { px in
            guard let pixels = px.baseAddress, px.count >= w * h else { return }
            for i in 0..<region.count {
                let r = region[i].intersection(surface.bounds)
                guard !r.isEmpty else { continue }
                let local = PixelRect(x0: r.x0 - surface.originX, y0: r.y0 - surface.originY,
                                      x1: r.x1 - surface.originX, y1: r.y1 - surface.originY)
                writeRect(pixels, width: w, height: h, rotation.panelRect(of: local, width: w, height: h), rotation: rotation, into: view)
            }
        }
    }

    /// One panel rectangle, row by row of the panel: each row's source pixels are a row of
    /// the surface (no turn, half turn) or a column of it (quarter turns).
    private static func writeRect(_ src: UnsafePointer<UInt32>, width w: Int, height h: Int, _ rect: PixelRect, rotation: Rotation,
                                  into view: PixelBufferView) {
        let bpp = view.format.bytesPerPixel
        for py in rect.y0..<rect.y1 {
            // The surface pixel that lands on panel pixel (rect.x0, py), and the step to the next.
            let px = rect.x0
            let (sx, sy, step): (Int, Int, Int)
            switch rotation {
            case .none: (sx, sy, step) = (px, py, 1)
            case .quarter: (sx, sy, step) = (py, h - 1 - px, -w)
            case .half: (sx, sy, step) = (w - 1 - px, h - 1 - py, -1)
            case .threeQuarters: (sx, sy, step) = (w - 1 - py, px, w)
            }
            PixelBufferView.convert(src + sy * w + sx, step: step, count: rect.width,
                                    to: view.base + py * view.bytesPerRow + px * bpp, format: view.format)
        }
    }
}

/// One display buffer (a DRM dumb buffer, a page of a framebuffer) and what it holds: the
/// picture of a surface, known as its clear colour and the region drawn over it. The next
/// picture differs from it only where either drew, so `show` rewrites just those rectangles
/// (from the surface, converted with the buffer's pitch and format), not the frame. With two
/// buffers flipped in turn, each catches up on the pictures it missed: what it held (two
/// frames ago) and what the new one drew.
public struct PanelBuffer {
    public let view: PixelBufferView
    private var held: Held?
    /// Panel pixels the last `show` wrote (0 when the buffer already held the picture).
    public private(set) var pixelsWritten = 0

    private struct Held {
        var version: UInt64
        var clearValue: UInt32
        var drawn: PixelRegion
        var bounds: PixelRect
        var rotation: Rotation
    }

    public init(view: PixelBufferView) {
        self.view = view
    }

    /// Makes the buffer hold `surface`'s picture turned by `rotation`. `version` identifies
    /// the picture (`.max`: unknown): a buffer already holding that version is left as it is.
    public mutating func show(_ surface: Surface, version: UInt64, rotation: Rotation) {
        let turnedW = rotation.swapsAxes ? surface.height : surface.width
        let turnedH = rotation.swapsAxes ? surface.width : surface.height
        guard turnedW == view.width, turnedH == view.height else { pixelsWritten = 0; return }
        if let held, version != .max, held.version == version, held.bounds == surface.bounds, held.rotation == rotation {
            pixelsWritten = 0
            return
        }
        var region = surface.drawnRegion
        if let held, held.clearValue == surface.clearValue, held.bounds == surface.bounds, held.rotation == rotation {
            // Outside both drawn regions both pictures are the clear colour: already right.
            region.add(held.drawn)
        } else {
            region = PixelRegion(surface.bounds)
        }
        PanelConversion.write(surface, region: region, rotation: rotation, into: view)
        pixelsWritten = region.intersection(surface.bounds).area
        held = Held(version: version, clearValue: surface.clearValue, drawn: surface.drawnRegion, bounds: surface.bounds, rotation: rotation)
    }

    /// Whether a picture was shown in it yet (a new buffer holds zeros).
    public var holdsPicture: Bool { held != nil }

    /// Forgets what the buffer holds (its memory was written some other way): the next
    /// `show` writes the whole picture.
    public mutating func invalidate() {
        held = nil
    }
}
