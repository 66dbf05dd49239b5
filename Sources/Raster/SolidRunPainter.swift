/// One premultiplied colour (opacity applied) painted run by run: what `paintRuns`, the paint
/// over a pending clear and the swept paint of one colour do with each run of coverage, held
/// in one place so that they paint the same pixels. It is a few plain values (no shader, no
/// clip, nothing counted by reference), so a closure called for every run the sweep finds
/// captures it for nothing: the general swept paint goes through `blendRow` with the whole
/// shader and an optional clip row for every run, and the shader's checks and the clip
/// tuple's destruction (through its type's metadata) cost more than the one or two edge
/// pixels most runs of a stroke hold.
///
/// A constant run of full coverage under an opaque colour is a store; another constant run is
/// its shade over the run (`SpanKernels.overSolid`), taken from the paint's shade table when
/// there is one (`SolidShades`: the same values as `PixelMath.scale`); a run of coverage bytes
/// is `SpanKernels.paintSolid`. `SolidRunPainterTests` compares every path with `blendRow`.
struct SolidRunPainter {
    let color: UInt32
    let opaque: Bool
    /// `PixelMath.scale(color, a)` for every coverage byte a, or nil (a paint of few runs).
    let shades: UnsafePointer<UInt32>?
    /// Whether short runs blend their shades with no branch per pixel (`blendPremultipliedShades`).
    let premultiplied: Bool

    @inline(__always)
    init(color: UInt32, shades: UnsafePointer<UInt32>?) {
        self.color = color
        opaque = color >> 24 == 255
        self.shades = shades
        premultiplied = SpanKernels.isPremultiplied(color)
    }

    /// A run of `count` pixels, every one of coverage `a`.
    @inline(__always)
    func constant(_ row: UnsafeMutablePointer<UInt32>, count: Int, coverage a: UInt8) {
        if a == 255 && opaque { return ShortStores.fill(row, with: color, count: count) }
        if a == 0 { return }
        let source: UInt32
        if a == 255 {
            source = color
        } else if let shades {
            source = shades[Int(a)]
        } else {
            source = PixelMath.scale(color, UInt32(a))
        }
        SpanKernels.paintOverSolid(row, color: source, count: count)
    }

    /// A run of `count` pixels whose coverage bytes are `coverage`.
    @inline(__always)
    func varying(_ row: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int) {
        // Most runs of coverage bytes are a stroke's or a shape's edge: one to three pixels.
        if premultiplied {
            // One pixel (the commonest edge run) with no loop and no branch on its byte; a paint
            // of few runs has no shade table and took the reference's loop, whose end and whose
            // tests of 0 and 255 cost more than the pixel.
            if count == 1 { return SpanKernels.blendPremultipliedPixel(row, color: color, shades: shades, coverage: coverage.pointee) }
            #if !DEBUG
            // Two to seven pixels in one go (`blendShortPremultiplied`), in release builds only
            // (lanes: see `SpanKernels.paint`); the debug build takes the reference.
            if count >= 2 && count < 8 { return SpanKernels.blendShortPremultiplied(row, color: color, coverage: coverage, count: count) }
            #endif
            if let shades {
                if count < 8 { return SpanKernels.blendPremultipliedShades(row, shades: shades, coverage: coverage, count: count) }
                #if !DEBUG
                return SpanKernels.blendSolid(row, color: color, premultipliedShades: shades, coverage: coverage, count: count)
                #endif
            }
        }
        SpanKernels.paintSolid(row, color: color, shades: shades, coverage: coverage, count: count)
    }
}

/// `PixelStores.fill` with the short stretches (the inside of a thin stroke's row, a few
/// pixels to some tens) stored in overlapping blocks: a block of four pixels at a time and
/// one more ending at the stretch's end, or two overlapping pairs for two or three pixels,
/// where the compiler's loop stores blocks of eight and then the rest pixel by pixel. The
/// pixels are the same (`ShortStoreTests`); long stretches go to `PixelStores` as before.
enum ShortStores {
    typealias Quad = SIMD4<UInt32>

    @inline(__always)
    static func fill(_ dst: UnsafeMutablePointer<UInt32>, with value: UInt32, count: Int) {
        #if DEBUG
        // Lanes are generic calls in a debug build: the reference, the same pixels.
        PixelStores.fill(dst, with: value, count: count)
        #else
        if count >= PixelStores.callThreshold { return PixelStores.fillLong(dst, with: value, count: count) }
        blocks(dst, with: value, count: count)
        #endif
    }

    /// The stores of `fill` below `PixelStores.callThreshold` (any count works; 0 stores nothing).
    @inline(__always)
    static func blocks(_ dst: UnsafeMutablePointer<UInt32>, with value: UInt32, count: Int) {
        let raw = UnsafeMutableRawPointer(dst)
        if count >= 4 {
            let quad = Quad(repeating: value)
            var i = 0
            while i &+ 4 < count {
                raw.storeBytes(of: quad, toByteOffset: i &* 4, as: Quad.self)
                i &+= 4
            }
            raw.storeBytes(of: quad, toByteOffset: (count &- 4) &* 4, as: Quad.self)
        } else if count >= 2 {
            let pair = UInt64(value) | UInt64(value) << 32
            raw.storeBytes(of: pair, as: UInt64.self)
            raw.storeBytes(of: pair, toByteOffset: (count &- 2) &* 4, as: UInt64.self)
        } else if count == 1 {
            dst.pointee = value
        }
    }
}
