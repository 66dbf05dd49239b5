/// A short run of coverage bytes (two to seven pixels: the edge of a shape or a stroke on
/// one row) under one colour that `SpanKernels.isPremultiplied`, blended in lanes in one go:
/// the run's first pixels and its last ones, as two blocks that overlap when the run is
/// shorter than both (four lanes for two or three pixels, eight for four to seven). Both
/// blocks are worked out from the pixels as they were before being stored, so a pixel that
/// lies in both gets the same value twice. Pixel by pixel, such a run cost a loop whose end
/// the branch predictor misses on most runs (their lengths vary) and some twenty
/// instructions a pixel; here it is one block of lanes and a choice of two sizes.
///
/// Each pixel becomes `scale(color, a) + scale(pixel, 255 − that alpha)`, the arithmetic of
/// `blendPremultipliedShades` (the shade is `SolidShades`' value, worked out in the lanes
/// instead of read from a table), so the pixels are the reference's (`ShortRunLaneTests`).
extension SpanKernels {
    typealias Quad = SIMD4<UInt32>

    /// Not inlined: the sweep's run closure is inlined at several places in the rasterizer,
    /// and with the lanes in its body the compiler kept it out of line at more of them (a call
    /// with a long prologue for every run, measured: more instructions than the lanes saved).
    @inline(never)
    static func blendShortPremultiplied(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, coverage: UnsafePointer<UInt8>, count: Int) {
        let raw = UnsafeMutableRawPointer(dst), bytes = UnsafeRawPointer(coverage)
        if count < 4 {
            // Pixels 0, 1 and count − 2, count − 1.
            let tail = (count &- 2) &* 4
            let d = unsafeBitCast(SIMD2<UInt64>(raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: tail, as: UInt64.self)),
                                  to: Quad.self)
            let a = UInt32(bytes.loadUnaligned(as: UInt16.self)) | UInt32(bytes.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)) << 16
            let out = unsafeBitCast(overPremultiplied(Quad(repeating: color), coverage: widen(a), d), to: SIMD2<UInt64>.self)
            raw.storeBytes(of: out[1], toByteOffset: tail, as: UInt64.self)
            raw.storeBytes(of: out[0], as: UInt64.self)
            return
        }
        // Pixels 0...3 and count − 4...count − 1.
        let tail = (count &- 4) &* 4
        let d = Lanes(lowHalf: raw.loadUnaligned(as: Quad.self), highHalf: raw.loadUnaligned(fromByteOffset: tail, as: Quad.self))
        let a = UInt64(bytes.loadUnaligned(as: UInt32.self)) | UInt64(bytes.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)) << 32
        let out = overPremultiplied(Lanes(repeating: color), coverage: widen(a), d)
        raw.storeBytes(of: out.highHalf, toByteOffset: tail, as: Quad.self)
        raw.storeBytes(of: out.lowHalf, as: Quad.self)
    }

    /// `color` scaled by each lane's coverage, over each lane's pixel, for a colour that
    /// `isPremultiplied` (see `blendPremultipliedShades`): with no branch per lane.
    @inline(__always) static func overPremultiplied(_ color: Lanes, coverage a: Lanes, _ d: Lanes) -> Lanes {
        let s = scale(color, a)
        return s &+ scale(d, Lanes(repeating: 255) &- (s &>> 24))
    }

    /// `overPremultiplied` in four lanes.
    @inline(__always) static func overPremultiplied(_ color: Quad, coverage a: Quad, _ d: Quad) -> Quad {
        let s = scale(color, a)
        return s &+ scale(d, Quad(repeating: 255) &- (s &>> 24))
    }

    /// `scale` in four lanes (the same 16-bit arithmetic, so the same values as `PixelMath.scale`).
    @inline(__always) static func scale(_ p: Quad, _ a: Quad) -> Quad {
        typealias Halves = SIMD8<UInt16>
        let both = unsafeBitCast(a | (a &<< 16), to: Halves.self)
        let q = unsafeBitCast(p, to: Halves.self), half = Halves(repeating: 0x80)
        var rb = (q & Halves(repeating: 0xff)) &* both &+ half
        rb = (rb &+ (rb &>> 8)) &>> 8
        var ag = (q &>> 8) &* both &+ half
        ag = (ag &+ (ag &>> 8)) & Halves(repeating: 0xff00)
        return unsafeBitCast(rb | ag, to: Quad.self)
    }

    /// Four coverage bytes (as loaded from memory) widened to four lanes, the first in lane 0
    /// (as `widen` does eight: byte lanes moved next to zero ones).
    @inline(__always) static func widen(_ loaded: UInt32) -> Quad {
        let v = unsafeBitCast(Quad(loaded, 0, 0, 0), to: SIMD16<UInt8>.self)
        return unsafeBitCast(SIMD16<UInt8>(v[0], 0, 0, 0, v[1], 0, 0, 0, v[2], 0, 0, 0, v[3], 0, 0, 0), to: Quad.self)
    }
}

/// A short run (one to seven pixels: the edge of a gradient's shape on one row) of colours
/// that are all premultiplied (a gradient's table), through coverage bytes at an opacity,
/// blended in lanes in one go, as `blendShortPremultiplied` blends one colour: each pixel
/// becomes `s + scale(pixel, 255 − s alpha)` with s the colour scaled by the coverage times
/// the opacity (`mul255`). `blendReference` takes the same values with its shortcuts (a
/// transparent colour, no weight, full alpha), which this arithmetic gives by itself for
/// premultiplied colours (see `blendPremultipliedShades`); pixel by pixel, such a run cost
/// some seventy instructions a pixel and a missed loop end on most runs
/// (`ShortShadedLaneTests` compares the two).
extension SpanKernels {
    /// Not inlined, as `blendShortPremultiplied`: one call per run from the paint loops.
    @inline(never)
    static func blendShortPremultipliedColors(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>,
                                              coverage: UnsafePointer<UInt8>, opacity o: UInt32, count: Int) {
        let raw = UnsafeMutableRawPointer(dst), colors = UnsafeRawPointer(src), bytes = UnsafeRawPointer(coverage)
        if count < 2 {
            guard count == 1 else { return }
            let m = UInt32(coverage.pointee)
            let s = PixelMath.scale(src.pointee, o == 255 ? m : (o &* m &+ 127) / 255)
            dst.pointee = s &+ PixelMath.scale(dst.pointee, 255 &- s >> 24)
            return
        }
        if count < 4 {
            // Pixels 0, 1 and count − 2, count − 1.
            let tail = (count &- 2) &* 4
            let d = unsafeBitCast(SIMD2<UInt64>(raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: tail, as: UInt64.self)),
                                  to: Quad.self)
            let s = unsafeBitCast(SIMD2<UInt64>(colors.loadUnaligned(as: UInt64.self), colors.loadUnaligned(fromByteOffset: tail, as: UInt64.self)),
                                  to: Quad.self)
            var a = widen(UInt32(bytes.loadUnaligned(as: UInt16.self)) | UInt32(bytes.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)) << 16)
            if o != 255 { a = mul255(Quad(repeating: o), a) }
            let out = unsafeBitCast(overPremultiplied(scale(s, a), d), to: SIMD2<UInt64>.self)
            raw.storeBytes(of: out[1], toByteOffset: tail, as: UInt64.self)
            raw.storeBytes(of: out[0], as: UInt64.self)
            return
        }
        // Pixels 0...3 and count − 4...count − 1.
        let tail = (count &- 4) &* 4
        let d = Lanes(lowHalf: raw.loadUnaligned(as: Quad.self), highHalf: raw.loadUnaligned(fromByteOffset: tail, as: Quad.self))
        let s = Lanes(lowHalf: colors.loadUnaligned(as: Quad.self), highHalf: colors.loadUnaligned(fromByteOffset: tail, as: Quad.self))
        var a = widen(UInt64(bytes.loadUnaligned(as: UInt32.self)) | UInt64(bytes.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)) << 32)
        if o != 255 { a = mul255(Lanes(repeating: o), a) }
        let out = overPremultiplied(scale(s, a), d)
        raw.storeBytes(of: out.highHalf, toByteOffset: tail, as: Quad.self)
        raw.storeBytes(of: out.lowHalf, as: Quad.self)
    }

    /// A premultiplied colour in each lane (already scaled) over each lane's pixel, with no branch.
    @inline(__always) static func overPremultiplied(_ s: Lanes, _ d: Lanes) -> Lanes {
        s &+ scale(d, Lanes(repeating: 255) &- (s &>> 24))
    }

    /// `overPremultiplied` in four lanes.
    @inline(__always) static func overPremultiplied(_ s: Quad, _ d: Quad) -> Quad {
        s &+ scale(d, Quad(repeating: 255) &- (s &>> 24))
    }

    /// `mul255` in four lanes (16-bit products, as `multiplyHalves`).
    @inline(__always) static func mul255(_ x: Quad, _ y: Quad) -> Quad {
        let v = unsafeBitCast(unsafeBitCast(x, to: SIMD8<UInt16>.self) &* unsafeBitCast(y, to: SIMD8<UInt16>.self), to: Quad.self) &+ 128
        return (v &+ (v &>> 8)) &>> 8
    }
}
