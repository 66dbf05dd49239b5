/// One colour scaled by every coverage value 0...255, worked out once for a paint: the edge
/// pixels of its short runs (mostly one or two pixels each, painted one by one) then take their
/// shade from the table instead of multiplying the colour again, which was a third of what
/// each such pixel cost. The table is 1 KB on the stack, filled eight shades at a time with
/// `SpanKernels.scale`; a paint of few runs does without it (`table`). The shades are
/// `PixelMath.scale`'s to the bit, and `shades[255]` is the colour (`SolidShadeTests`).
enum SolidShades {
    /// The table's size: one shade per coverage byte.
    static let count = 256
    /// Below this many runs in a paint, working out 256 shades costs more than it saves.
    static let worthFrom = 64

    /// Fills `table` (`count` entries) for a paint of `runs` runs of `color` and returns it, or
    /// nil (leaving it untouched) when there are too few runs to pay for it.
    @inline(__always)
    static func table(_ table: UnsafeMutablePointer<UInt32>, color: UInt32, runs: Int) -> UnsafePointer<UInt32>? {
        guard runs >= worthFrom else { return nil }
        fill(table, color: color)
        return UnsafePointer(table)
    }

    /// `table[a]` = `PixelMath.scale(color, a)` for every a in 0...255.
    static func fill(_ table: UnsafeMutablePointer<UInt32>, color: UInt32) {
        #if DEBUG
        // Lanes are generic calls in a debug build: the scalar form, the same values.
        for a in 0..<count { table[a] = PixelMath.scale(color, UInt32(a)) }
        #else
        let c = SpanKernels.Lanes(repeating: color)
        var a = SpanKernels.Lanes(0, 1, 2, 3, 4, 5, 6, 7)
        for block in 0..<count / 8 {
            UnsafeMutableRawPointer(table + block &* 8).storeBytes(of: SpanKernels.scale(c, a), as: SpanKernels.Lanes.self)
            a &+= SpanKernels.Lanes(repeating: 8)
        }
        #endif
    }
}

extension SpanKernels {
    /// `paintSolid`, with the shades of a paint's colour at hand (`SolidShades`, nil: none):
    /// a run shorter than the lanes takes each pixel's shade from the table.
    @inline(__always)
    static func paintSolid(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, shades: UnsafePointer<UInt32>?,
                           coverage: UnsafePointer<UInt8>, count: Int) {
        if count < 8, let shades { return blendShades(dst, color: color, shades: shades, coverage: coverage, count: count) }
        paintSolid(dst, color: color, coverage: coverage, count: count)
    }

    /// `blendSolidReference` with each shade `PixelMath.scale(color, a)` read from `shades`:
    /// the same pixels (a full byte under an opaque colour stores it; `shades[255]` is the colour).
    @inline(__always)
    static func blendShades(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, shades: UnsafePointer<UInt32>,
                            coverage: UnsafePointer<UInt8>, count: Int) {
        let opaque = color >> 24 == 255
        for i in 0..<count {
            let a = Int(coverage[i])
            if a == 0 { continue }
            dst[i] = a == 255 && opaque ? color : PixelMath.over(shades[a], dst[i])
        }
    }
}

extension SpanKernels {
    /// Whether every channel of a premultiplied pixel is at most its alpha, as every colour
    /// `Color.premultiplied` makes is (and so every shade of it, `PixelMath.scale` being monotonic).
    @inline(__always) static func isPremultiplied(_ p: UInt32) -> Bool {
        let a = p >> 24
        return (p >> 16) & 0xff <= a && (p >> 8) & 0xff <= a && p & 0xff <= a
    }

    /// `blendShades` with no branch per pixel, for a colour that `isPremultiplied`: each pixel
    /// becomes `shade + scale(pixel, 255 − shade alpha)`. That is `PixelMath.over` without its
    /// two shortcuts, which its arithmetic gives by itself here: a shade of alpha 255 keeps
    /// nothing of the pixel (scaling by 0 gives 0), and a shade of alpha 0 is 0 (its channels
    /// are at most its alpha) and keeps all of it (scaling by 255 is exact), coverage 0
    /// included (`shades[0]` is 0). The pixels are the reference's (`SolidRunPainterTests`).
    @inline(__always)
    static func blendPremultipliedShades(_ dst: UnsafeMutablePointer<UInt32>, shades: UnsafePointer<UInt32>,
                                         coverage: UnsafePointer<UInt8>, count: Int) {
        for i in 0..<count {
            let s = shades[Int(coverage[i])]
            dst[i] = s &+ PixelMath.scale(dst[i], 255 &- s >> 24)
        }
    }

    /// `blendPremultipliedShades` for a single pixel of coverage `a`, its shade taken from
    /// `shades` or, with no table, `PixelMath.scale(color, a)` (the table's value to the bit).
    @inline(__always)
    static func blendPremultipliedPixel(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, shades: UnsafePointer<UInt32>?,
                                        coverage a: UInt8) {
        // The shade from the table when there is one, else worked out: the same value.
        let s = shades?[Int(a)] ?? PixelMath.scale(color, UInt32(a))
        dst.pointee = s &+ PixelMath.scale(dst.pointee, 255 &- s >> 24)
    }
}
