/// The fast path of the non-normal blend modes: one kernel per mode, chosen once per
/// composite, in `Float` SIMD vectors (r, g, b in the first three lanes) with no allocation
/// per pixel. `Blending.blend` (Double, per pixel) stays the reference; a test checks every
/// mode on random pixels agrees with it within 1/255 per channel (`Float` rounding can move
/// a value that lies on a half step to the next byte).
enum BlendKernels {
    typealias Colour = SIMD4<Float>
    /// B(backdrop, source) on straight colours.
    typealias Mix = (Colour, Colour) -> Colour

    /// The mixing function of `mode` (nil for normal and add, which are not mixes).
    static func mix(for mode: BlendMode) -> Mix? {
        switch mode {
        case .normal, .add: return nil
        case .multiply: return { b, s in b * s }
        case .screen: return { b, s in b + s - b * s }
        case .overlay: return { b, s in hardLight(s, b) }
        case .darken: return { b, s in lanesMin(b, s) }
        case .lighten: return { b, s in lanesMax(b, s) }
        case .colorDodge: return { b, s in perChannel(b, s, colorDodge) }
        case .colorBurn: return { b, s in perChannel(b, s, colorBurn) }
        case .hardLight: return { b, s in hardLight(b, s) }
        case .softLight: return { b, s in perChannel(b, s, softLight) }
        case .difference: return { b, s in lanesMax(b - s, s - b) }
        case .exclusion: return { b, s in b + s - 2 * b * s }
        case .hue: return { b, s in setLum(setSat(s, sat(b)), lum(b)) }
        case .saturation: return { b, s in setLum(setSat(b, sat(s)), lum(b)) }
        case .color: return { b, s in setLum(s, lum(b)) }
        case .luminosity: return { b, s in setLum(b, lum(s)) }
        }
    }

    /// Blends one row of premultiplied `src` pixels, scaled by `opacity` and the optional
    /// `mask`, onto `dst` with `mode` (not normal).
    static func blendRow(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, mask: UnsafePointer<UInt8>?,
                         count: Int, opacity o: UInt32, mode: BlendMode, mix: Mix?) {
        for i in 0..<count {
            guard let s = PixelMath.shown(src[i], opacity: o, mask: mask, at: i) else { continue }
            dst[i] = blend(s, dst[i], mix: mix)
        }
    }

    @inline(__always) static func colour(_ p: UInt32) -> Colour {
        Colour(Float((p >> 16) & 0xff), Float((p >> 8) & 0xff), Float(p & 0xff), Float(p >> 24)) / 255
    }

    /// One premultiplied pixel onto another; `mix` nil is add.
    @inline(__always) static func blend(_ source: UInt32, _ backdrop: UInt32, mix: Mix?) -> UInt32 {
        let s = colour(source), b = colour(backdrop)
        let sa = s.w, ba = b.w
        if sa == 0 { return backdrop }
        guard let mix else { return pack(s + b) }
        if ba == 0 { return source }
        let mixed = unit(mix(b / ba, s / sa))
        let kept: Colour = s * (1 - ba) + b * (1 - sa)
        var out: Colour = kept + mixed * (sa * ba)
        out.w = sa + ba - sa * ba
        return pack(out)
    }

    @inline(__always) static func pack(_ c: Colour) -> UInt32 {
        let v: Colour = unit(c) * 255 + 0.5
        let a = UInt32(v.w)
        return a << 24 | min(UInt32(v.x), a) << 16 | min(UInt32(v.y), a) << 8 | min(UInt32(v.z), a)
    }

    /// Swift's generic `pointwiseMin`, `pointwiseMax` and `clamped` on `SIMD4<Float>` are
    /// library calls, not instructions; these are the same choices lane by lane (`minimum`
    /// keeps `a` when `a <= b`, `maximum` keeps `a` when `a > b`), which the compiler inlines:
    /// bit-identical to the generic ones on NaN-free lanes (signed zeros included; a test
    /// checks it). Lanes here are never NaN: bytes / 255 and sums and products of them.
    @inline(__always) static func lanesMin(_ a: Colour, _ b: Colour) -> Colour {
        Colour(a.x <= b.x ? a.x : b.x, a.y <= b.y ? a.y : b.y, a.z <= b.z ? a.z : b.z, a.w <= b.w ? a.w : b.w)
    }

    @inline(__always) static func lanesMax(_ a: Colour, _ b: Colour) -> Colour {
        Colour(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z, a.w > b.w ? a.w : b.w)
    }

    /// Each lane clamped to 0...1, as `c.clamped(lowerBound: .zero, upperBound: 1)`.
    @inline(__always) static func unit(_ c: Colour) -> Colour {
        lanesMin(Colour(repeating: 1), lanesMax(.zero, c))
    }

    @inline(__always) static func perChannel(_ b: Colour, _ s: Colour, _ f: (Float, Float) -> Float) -> Colour {
        Colour(f(b.x, s.x), f(b.y, s.y), f(b.z, s.z), 0)
    }

    static func colorDodge(_ b: Float, _ s: Float) -> Float { b == 0 ? 0 : s >= 1 ? 1 : min(1, b / (1 - s)) }
    static func colorBurn(_ b: Float, _ s: Float) -> Float { b >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / s) }

    static func softLight(_ b: Float, _ s: Float) -> Float {
        if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
        let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
        return b + (2 * s - 1) * (d - b)
    }

    @inline(__always) static func hardLight(_ b: Colour, _ s: Colour) -> Colour {
        let low: Colour = b * 2 * s
        let s2: Colour = 2 * s - 1
        let high: Colour = b + s2 - b * s2
        return high.replacing(with: low, where: s .<= 0.5)
    }

    @inline(__always) static func lum(_ c: Colour) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    @inline(__always) static func rgbMin(_ c: Colour) -> Float { min(c.x, min(c.y, c.z)) }
    @inline(__always) static func rgbMax(_ c: Colour) -> Float { max(c.x, max(c.y, c.z)) }
    @inline(__always) static func sat(_ c: Colour) -> Float { rgbMax(c) - rgbMin(c) }

    static func setLum(_ c: Colour, _ l: Float) -> Colour {
        let moved: Colour = c + (l - lum(c))
        let lm = lum(moved), n = rgbMin(moved), x = rgbMax(moved)
        var v = moved
        if n < 0, lm - n != 0 {
            let k = lm / (lm - n)
            v = (v - lm) * k + lm
        }
        if x > 1, x - lm != 0 {
            let k = (1 - lm) / (x - lm)
            v = (v - lm) * k + lm
        }
        return v
    }

    static func setSat(_ c: Colour, _ s: Float) -> Colour {
        let mx = rgbMax(c), mn = rgbMin(c)
        guard mx > mn else { return .zero }
        return (c - mn) * s / (mx - mn)
    }
}

extension Surface {
    /// One pixel blended by the reference (`Blending`, Double) and by the fast kernel, for
    /// tests and tools that compare them.
    public static func referenceBlend(_ source: UInt32, _ backdrop: UInt32, _ mode: BlendMode) -> UInt32 {
        mode == .normal ? PixelMath.over(source, backdrop) : Blending.blend(source, backdrop, mode)
    }

    public static func fastBlend(_ source: UInt32, _ backdrop: UInt32, _ mode: BlendMode) -> UInt32 {
        mode == .normal ? PixelMath.over(source, backdrop) : BlendKernels.blend(source, backdrop, mix: BlendKernels.mix(for: mode))
    }
}
