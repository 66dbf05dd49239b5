/// Source-over of a span of premultiplied pixels, eight at a time in SIMD lanes: the fast
/// path of `Surface.compositeRow` (normal mode) and of painting shaded coverage. The lanes do
/// the integer arithmetic of `PixelMath` exactly, without its branches (scaling by 255 and
/// by 0 come out right by themselves), so the result is the scalar reference's to the bit;
/// a test compares the two on random spans.
enum SpanKernels {
    typealias Lanes = SIMD8<UInt32>

    /// Every channel of each lane times the lane's `a`/255, rounded: `PixelMath.scale`.
    @inline(__always) static func scale(_ p: Lanes, _ a: Lanes) -> Lanes {
        let half = Lanes(repeating: 0x0080_0080), low = Lanes(repeating: 0x00ff_00ff)
        var rb = (p & low) &* a &+ half
        rb = ((rb &+ ((rb &>> 8) & low)) &>> 8) & low
        var ag = ((p &>> 8) & low) &* a &+ half
        ag = (ag &+ ((ag &>> 8) & low)) & Lanes(repeating: 0xff00_ff00)
        return rb | ag
    }

    /// `PixelMath.over` in every lane: a source with no alpha leaves the backdrop.
    @inline(__always) static func over(_ s: Lanes, _ d: Lanes) -> Lanes {
        let sa = s &>> 24
        let blended = s &+ scale(d, Lanes(repeating: 255) &- sa)
        return blended.replacing(with: d, where: sa .== 0)
    }

    /// (x·y + 127) / 255 for x, y in 0...255, as (v + 128 + (v + 128) >> 8) >> 8, which is
    /// the same for every product up to 255·255 (no division in the lanes).
    @inline(__always) static func mul255(_ x: Lanes, _ y: Lanes) -> Lanes {
        let v = x &* y &+ 128
        return (v &+ (v &>> 8)) &>> 8
    }

    /// `dst[i]` = `src[i]` scaled by `opacity`·`coverage[i]`/255 (coverage nil: 255) over `dst[i]`.
    static func blend(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>?,
                      opacity o: UInt32, count: Int) {
        var i = 0
        let opacity = Lanes(repeating: o)
        while i + 8 <= count {
            let s = UnsafeRawPointer(src + i).loadUnaligned(as: Lanes.self)
            var a = opacity
            if let coverage {
                let bytes = UnsafeRawPointer(coverage + i).loadUnaligned(as: SIMD8<UInt8>.self)
                if bytes == .zero { i += 8; continue }
                a = mul255(opacity, Lanes(truncatingIfNeeded: bytes))
            }
            if s != .zero {
                let d = UnsafeRawPointer(dst + i).loadUnaligned(as: Lanes.self)
                UnsafeMutableRawPointer(dst + i).storeBytes(of: over(scale(s, a), d), as: Lanes.self)
            }
            i += 8
        }
        if i < count { blendReference(dst + i, src + i, coverage: coverage.map { $0 + i }, opacity: o, count: count - i) }
    }

    /// `blend`, one pixel at a time with `PixelMath` (as `Surface.compositeRow` does): the reference.
    static func blendReference(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>?,
                               opacity o: UInt32, count: Int) {
        for i in 0..<count {
            var s = src[i]
            if s == 0 { continue }
            var a = o
            if let coverage { a = (a * UInt32(coverage[i]) + 127) / 255 }
            if a == 0 { continue }
            if a != 255 { s = PixelMath.scale(s, a) }
            dst[i] = PixelMath.over(s, dst[i])
        }
    }

    /// One colour (premultiplied) through a row of coverage: `dst[i]` = `color` scaled by
    /// `coverage[i]`/255 over `dst[i]`. Eight coverage bytes that are all zero are skipped and
    /// eight full ones under an opaque colour are a plain store.
    static func blendSolid(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, coverage: UnsafePointer<UInt8>, count: Int) {
        let opaque = color >> 24 == 255
        let c = Lanes(repeating: color)
        var i = 0
        while i + 8 <= count {
            let bytes = UnsafeRawPointer(coverage + i).loadUnaligned(as: SIMD8<UInt8>.self)
            if bytes == .zero { i += 8; continue }
            if opaque, bytes == SIMD8<UInt8>(repeating: 255) {
                (dst + i).update(repeating: color, count: 8)
            } else {
                let d = UnsafeRawPointer(dst + i).loadUnaligned(as: Lanes.self)
                UnsafeMutableRawPointer(dst + i).storeBytes(of: over(scale(c, Lanes(truncatingIfNeeded: bytes)), d), as: Lanes.self)
            }
            i += 8
        }
        if i < count { blendSolidReference(dst + i, color: color, coverage: coverage + i, count: count - i) }
    }

    /// `blendSolid` pixel by pixel: the reference.
    static func blendSolidReference(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, coverage: UnsafePointer<UInt8>, count: Int) {
        let opaque = color >> 24 == 255
        for i in 0..<count {
            let a = UInt32(coverage[i])
            if a == 255 {
                dst[i] = opaque ? color : PixelMath.over(color, dst[i])
            } else if a != 0 {
                dst[i] = PixelMath.over(PixelMath.scale(color, a), dst[i])
            }
        }
    }
}
