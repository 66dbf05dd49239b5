import CPixelStores

/// Source-over of a span of premultiplied pixels, eight at a time in SIMD lanes: the fast
/// path of `Surface.compositeRow` (normal mode) and of painting shaded coverage. The lanes do
/// the integer arithmetic of `PixelMath` exactly, without its branches (scaling by 255 and
/// by 0 come out right by themselves), so the result is the scalar reference's to the bit;
/// a test compares the two on random spans.
enum SpanKernels {
    typealias Lanes = SIMD8<UInt32>

    typealias HalfLanes = SIMD16<UInt16>

    /// Each 16-bit half of every lane times the same half of `y`. Where every product fits in
    /// 16 bits (channels and alphas up to 255) this is the 32-bit lane product, but the
    /// baseline x86-64 target has a 16-bit lane multiply and no 32-bit one (which it builds
    /// from several shuffles and two multiplies).
    @inline(__always) static func multiplyHalves(_ x: Lanes, _ y: Lanes) -> Lanes {
        unsafeBitCast(unsafeBitCast(x, to: HalfLanes.self) &* unsafeBitCast(y, to: HalfLanes.self), to: Lanes.self)
    }

    /// Every channel of each lane times the lane's `a`/255 (`a` at most 255), rounded:
    /// `PixelMath.scale`.
    ///
    /// Worked in 16-bit lanes, one channel each (blue and red, then green and alpha shifted
    /// down): the products `c·a + 128` fit in 16 bits, and `(v + v >> 8) >> 8` there needs
    /// no masks, where 32-bit shifts carry bits from one channel into the next and need
    /// four. Each lane holds what `PixelMath.scale` computes in its half of a word, so the
    /// result is the same to the bit (`scaleReference`, the 32-bit form, in the tests).
    @inline(__always) static func scale(_ p: Lanes, _ a: Lanes) -> Lanes {
        let both = unsafeBitCast(a | (a &<< 16), to: HalfLanes.self)
        let q = unsafeBitCast(p, to: HalfLanes.self), half = HalfLanes(repeating: 0x80)
        var rb = (q & HalfLanes(repeating: 0xff)) &* both &+ half
        rb = (rb &+ (rb &>> 8)) &>> 8
        var ag = (q &>> 8) &* both &+ half
        ag = (ag &+ (ag &>> 8)) & HalfLanes(repeating: 0xff00)
        return unsafeBitCast(rb | ag, to: Lanes.self)
    }

    /// `scale` in 32-bit lanes, two channels to a lane as `PixelMath.scale` works: the reference.
    static func scaleReference(_ p: Lanes, _ a: Lanes) -> Lanes {
        let half = Lanes(repeating: 0x0080_0080), low = Lanes(repeating: 0x00ff_00ff)
        let both = a | (a &<< 16)
        var rb = multiplyHalves(p & low, both) &+ half
        rb = ((rb &+ ((rb &>> 8) & low)) &>> 8) & low
        var ag = multiplyHalves((p &>> 8) & low, both) &+ half
        ag = (ag &+ ((ag &>> 8) & low)) & Lanes(repeating: 0xff00_ff00)
        return rb | ag
    }

    /// `PixelMath.over` in every lane: a source with no alpha leaves the backdrop. (The lanes
    /// are chosen with masks made by arithmetic: SIMD comparisons and `replacing` compile to a
    /// loop over the lanes.)
    @inline(__always) static func over(_ s: Lanes, _ d: Lanes) -> Lanes {
        let sa = s &>> 24
        let blended = s &+ scale(d, Lanes(repeating: 255) &- sa)
        // All ones where sa is 0: sa − 1 wraps to have its top bit set only then.
        let keep = Lanes.zero &- ((sa &- 1) &>> 31)
        return (blended & ~keep) | (d & keep)
    }

    /// Eight coverage bytes (as loaded from memory) widened to lanes, the first byte in lane 0.
    /// Built from byte lanes moved next to zero ones, which the compiler recognises as the
    /// unpacking instructions (two per half on SSE2); shifting each byte out of a 64-bit word
    /// and inserting it made some forty scalar instructions per eight pixels.
    @inline(__always) static func widen(_ loaded: UInt64) -> Lanes {
        let v = unsafeBitCast(SIMD2<UInt64>(loaded, 0), to: SIMD16<UInt8>.self)
        let low = SIMD16<UInt8>(v[0], 0, 0, 0, v[1], 0, 0, 0, v[2], 0, 0, 0, v[3], 0, 0, 0)
        let high = SIMD16<UInt8>(v[4], 0, 0, 0, v[5], 0, 0, 0, v[6], 0, 0, 0, v[7], 0, 0, 0)
        return Lanes(lowHalf: unsafeBitCast(low, to: SIMD4<UInt32>.self), highHalf: unsafeBitCast(high, to: SIMD4<UInt32>.self))
    }

    /// `widen` by shifts, byte by byte: the reference (`SolidSpanTests`).
    static func widenReference(_ loaded: UInt64) -> Lanes {
        let b = UInt64(littleEndian: loaded)
        let low = UInt32(truncatingIfNeeded: b), high = UInt32(truncatingIfNeeded: b >> 32)
        let lanes = Lanes(low, low >> 8, low >> 16, low >> 24, high, high >> 8, high >> 16, high >> 24)
        return lanes & Lanes(repeating: 0xff)
    }

    /// Whether eight pixels all have alpha 255.
    @inline(__always) static func allOpaque(_ p: UnsafePointer<UInt32>) -> Bool {
        let raw = UnsafeRawPointer(p)
        let both = raw.loadUnaligned(as: UInt64.self) & raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            & raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) & raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        // Two native pixels per word; the alpha bits of each are 24...31 of its own 32 bits.
        let low = UInt32(truncatingIfNeeded: both), high = UInt32(truncatingIfNeeded: both >> 32)
        return (low & high) >> 24 == 255
    }

    /// Whether eight pixels are all zero (one scalar test, not a lane comparison).
    @inline(__always) static func allZero(_ p: UnsafePointer<UInt32>) -> Bool {
        let raw = UnsafeRawPointer(p)
        return raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == 0
    }

    /// (x·y + 127) / 255 for x, y in 0...255 (their upper halves zero), as (v + 128 +
    /// (v + 128) >> 8) >> 8, which is the same for every product up to 255·255 (no division).
    @inline(__always) static func mul255(_ x: Lanes, _ y: Lanes) -> Lanes {
        let v = multiplyHalves(x, y) &+ 128
        return (v &+ (v &>> 8)) &>> 8
    }

    // What painting calls. An unoptimized (debug) build runs every lane operation as a
    // generic call, many times slower than the scalar loop, so there painting takes the
    // reference, whose pixels are the same; the tests call the lane kernels themselves.

    @inline(__always)
    static func paint(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>?,
                      opacity o: UInt32, count: Int) {
        #if DEBUG
        blendReference(dst, src, coverage: coverage, opacity: o, count: count)
        #else
        blend(dst, src, coverage: coverage, opacity: o, count: count)
        #endif
    }

    /// Runs shorter than the eight lanes (most edge runs of a kept coverage are one or two
    /// pixels) go pixel by pixel right here, as `blendSolid` paints the rest of any span: the
    /// call, the lanes' setup and the tail's loop cost more than the pixels.
    @inline(__always)
    static func paintSolid(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, coverage: UnsafePointer<UInt8>, count: Int) {
        #if DEBUG
        blendSolidReference(dst, color: color, coverage: coverage, count: count)
        #else
        if count < 8 {
            blendSolidReference(dst, color: color, coverage: coverage, count: count)
        } else {
            blendSolid(dst, color: color, coverage: coverage, count: count)
        }
        #endif
    }

    /// `dst[i]` = `src[i]` scaled by `opacity`·`coverage[i]`/255 (coverage nil: 255) over `dst[i]`,
    /// the last pixels of a span of eight or more as one block over its last eight.
    static func blend(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>?,
                      opacity o: UInt32, count: Int) {
        var i = 0
        let opacity = Lanes(repeating: o)
        while i + 8 <= count {
            // `full`: coverage and opacity are all 255, so scaling leaves the source (the
            // inside of a mask, a layer composited whole); at opacity 255 the coverage is
            // the scale itself. Both are what the arithmetic gives, without doing it.
            var a = opacity, full = o == 255
            if let coverage {
                let bytes = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt64.self)
                if bytes == 0 { i += 8; continue }
                if bytes != UInt64.max {
                    a = o == 255 ? widen(bytes) : mul255(opacity, widen(bytes))
                    full = false
                }
            }
            if allZero(src + i) {
                // A transparent source leaves the backdrop.
            } else if full, allOpaque(src + i) {
                // Opaque source at full coverage: a copy, with no read of the backdrop.
                (dst + i).update(from: src + i, count: 8)
            } else {
                let s = UnsafeRawPointer(src + i).loadUnaligned(as: Lanes.self)
                let d = UnsafeRawPointer(dst + i).loadUnaligned(as: Lanes.self)
                UnsafeMutableRawPointer(dst + i).storeBytes(of: over(full ? s : scale(s, a), d), as: Lanes.self)
            }
            i += 8
        }
        if i == count { return }
        if count < 8 { return blendReference(dst + i, src + i, coverage: coverage.map { $0 + i }, opacity: o, count: count - i) }
        // The last pixels as one more block of lanes ending at the span's end: its lanes
        // before `i` were painted already and get no alpha, which leaves a pixel as it is.
        let start = count &- 8, fresh = untouchedLanes(painted: i &- start)
        var a = opacity & widen(fresh)
        if let coverage {
            let bytes = UnsafeRawPointer(coverage + start).loadUnaligned(as: UInt64.self) & fresh
            a = o == 255 ? widen(bytes) : mul255(opacity, widen(bytes))
        }
        let s = UnsafeRawPointer(src + start).loadUnaligned(as: Lanes.self)
        let d = UnsafeRawPointer(dst + start).loadUnaligned(as: Lanes.self)
        UnsafeMutableRawPointer(dst + start).storeBytes(of: over(scale(s, a), d), as: Lanes.self)
    }

    /// Eight bytes as loaded from memory (`widen`'s order): zero in the first `painted` (0...7),
    /// 0xff in the rest. A tail block's mask: lanes with no coverage or opacity are left as
    /// they are, to the bit (scaling by 0 gives 0, and source-over of 0 is the backdrop).
    @inline(__always) static func untouchedLanes(painted: Int) -> UInt64 {
        (UInt64.max &<< UInt64(truncatingIfNeeded: 8 &* painted)).littleEndian
    }

    /// `blend`, one pixel at a time with `PixelMath` (as `Surface.compositeRow` does): the reference.
    @inline(__always)
    static func blendReference(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>?,
                               opacity o: UInt32, count: Int) {
        for i in 0..<count {
            guard let s = PixelMath.shown(src[i], opacity: o, mask: coverage, at: i) else { continue }
            dst[i] = PixelMath.over(s, dst[i])
        }
    }

    /// One colour (premultiplied) through a row of coverage: `dst[i]` = `color` scaled by
    /// `coverage[i]`/255 over `dst[i]`. Eight coverage bytes that are all zero are skipped and
    /// eight full ones under an opaque colour are a plain store.
    static func blendSolid(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, coverage: UnsafePointer<UInt8>, count: Int) {
        let i = blendSolidBlocks(dst, color: color, coverage: coverage, count: count)
        // The tail pixel by pixel: its bytes are mostly 0 or 255 (an edge's ends), which the
        // reference paints for less than a block of lanes costs (measured: a block over the
        // last eight cost 6 % more here).
        if i < count { blendSolidReference(dst + i, color: color, coverage: coverage + i, count: count - i) }
    }

    /// `blendSolid` with the shades of a colour that `isPremultiplied` at hand (`SolidShades`):
    /// a tail of two pixels or more is one short run in lanes (`blendShortPremultiplied`), a
    /// last single pixel blends its shade with no branch (`blendPremultipliedShades`): the
    /// same pixels as the reference's.
    static func blendSolid(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, premultipliedShades shades: UnsafePointer<UInt32>,
                           coverage: UnsafePointer<UInt8>, count: Int) {
        let i = blendSolidBlocks(dst, color: color, coverage: coverage, count: count)
        if count &- i >= 2 { return blendShortPremultiplied(dst + i, color: color, coverage: coverage + i, count: count &- i) }
        if i < count { blendPremultipliedShades(dst + i, shades: shades, coverage: coverage + i, count: count &- i) }
    }

    /// The blocks of eight pixels of `blendSolid`, from the span's start; returns where its tail starts.
    @inline(__always)
    static func blendSolidBlocks(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, coverage: UnsafePointer<UInt8>, count: Int) -> Int {
        let opaque = color >> 24 == 255
        let c = Lanes(repeating: color)
        var i = 0
        while i + 8 <= count {
            let bytes = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt64.self)
            if bytes == 0 { i += 8; continue }
            if opaque, bytes == UInt64.max {
                // A whole stretch of full coverage (a clipped or masked fill's inside) is
                // found first and stored in one go, a loop the compiler widens further.
                let end = fullStretchEnd(coverage, from: i + 8, count: count)
                PixelStores.fill(dst + i, with: color, count: end - i)
                i = end
                continue
            } else {
                let d = UnsafeRawPointer(dst + i).loadUnaligned(as: Lanes.self)
                UnsafeMutableRawPointer(dst + i).storeBytes(of: over(scale(c, widen(bytes)), d), as: Lanes.self)
            }
            i += 8
        }
        return i
    }

    /// The end of the eight-byte groups of full coverage from `i` (a multiple of eight past
    /// the first group, at most `count`).
    @inline(__always) static func fullStretchEnd(_ coverage: UnsafePointer<UInt8>, from i: Int, count: Int) -> Int {
        // Wrapping steps (no overflow check in the loop): `end` stays within `count`.
        var end = i
        while end &+ 8 <= count, UnsafeRawPointer(coverage + end).loadUnaligned(as: UInt64.self) == UInt64.max { end &+= 8 }
        return end
    }

    /// One premultiplied colour over every pixel of a span (a run of constant coverage, the
    /// coverage already in the colour): eight lanes at a time, and a span of eight or more
    /// ends with one more block over its last eight pixels (a shorter one goes pixel by
    /// pixel). An opaque colour is a plain store; a transparent one leaves the span.
    static func overSolid(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, count: Int) {
        let inverse = 255 - color >> 24
        if inverse == 0 { PixelStores.fill(dst, with: color, count: count); return }
        if inverse == 255 { return }
        let c = Lanes(repeating: color), k = Lanes(repeating: inverse)
        var i = 0
        while i + 8 <= count {
            let d = UnsafeRawPointer(dst + i).loadUnaligned(as: Lanes.self)
            UnsafeMutableRawPointer(dst + i).storeBytes(of: c &+ scale(d, k), as: Lanes.self)
            i += 8
        }
        if i == count { return }
        if count < 8 {
            while i < count { dst[i] = color &+ PixelMath.scale(dst[i], inverse); i += 1 }
            return
        }
        // The tail as one more block ending at the span's end: its painted lanes take no colour
        // and keep all of the backdrop (scaling by 255 leaves a pixel as it is).
        let start = count &- 8, fresh = widen(untouchedLanes(painted: i &- start))
        let doubled = fresh | fresh &<< 8, lanes = doubled | doubled &<< 16
        let d = UnsafeRawPointer(dst + start).loadUnaligned(as: Lanes.self)
        let kept = (k & fresh) | (fresh ^ Lanes(repeating: 255))
        UnsafeMutableRawPointer(dst + start).storeBytes(of: (c & lanes) &+ scale(d, kept), as: Lanes.self)
    }

    /// `overSolid` pixel by pixel with `PixelMath.over`: the reference.
    static func overSolidReference(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, count: Int) {
        for i in 0..<count { dst[i] = PixelMath.over(color, dst[i]) }
    }

    /// What a run of constant coverage calls (see `paint`): lanes in release builds only.
    @inline(__always)
    static func paintOverSolid(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, count: Int) {
        #if DEBUG
        overSolidReference(dst, color: color, count: count)
        #else
        overSolid(dst, color: color, count: count)
        #endif
    }

    /// `blendSolid` pixel by pixel: the reference.
    @inline(__always)
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
