/// One span kernel per blend mode, chosen once per composite: `kernel(for:)` returns a row
/// function in which the mode's mixing is a static call the compiler inlines (a generic
/// specialized per mode), not a closure called per pixel. Normal is `SpanKernels`' source-over
/// lanes; add has no mix at all. Each pixel is blended in `Float` lanes (r, g, b, a) as
/// `BlendKernels.blend` does; `Surface.compositeRow` (`Blending`, `Double`) is the reference, and
/// a test runs every mode's kernel on random spans against it: within 1/255 per channel.
enum BlendSpans {
    typealias Colour = BlendKernels.Colour
    /// dst, src (premultiplied), mask (nil: none), count, opacity (0...255).
    typealias Row = (UnsafeMutablePointer<UInt32>, UnsafePointer<UInt32>, UnsafePointer<UInt8>?, Int, UInt32) -> Void

    static func kernel(for mode: BlendMode) -> Row {
        switch mode {
        case .normal: return { d, s, m, n, o in SpanKernels.paint(d, s, coverage: m, opacity: o, count: n) }
        case .add: return { d, s, m, n, o in row(d, s, m, n, o, AddMix.self) }
        case .multiply: return { d, s, m, n, o in row(d, s, m, n, o, MultiplyMix.self) }
        case .screen: return { d, s, m, n, o in row(d, s, m, n, o, ScreenMix.self) }
        case .overlay: return { d, s, m, n, o in row(d, s, m, n, o, OverlayMix.self) }
        case .darken: return { d, s, m, n, o in row(d, s, m, n, o, DarkenMix.self) }
        case .lighten: return { d, s, m, n, o in row(d, s, m, n, o, LightenMix.self) }
        case .hardLight: return { d, s, m, n, o in row(d, s, m, n, o, HardLightMix.self) }
        case .difference: return { d, s, m, n, o in row(d, s, m, n, o, DifferenceMix.self) }
        case .exclusion: return { d, s, m, n, o in row(d, s, m, n, o, ExclusionMix.self) }
        case .colorDodge, .colorBurn, .softLight, .hue, .saturation, .color, .luminosity:
            // Branchy per channel or across channels: the closure's call is not what costs.
            let mix = BlendKernels.mix(for: mode)
            return { d, s, m, n, o in BlendKernels.blendRow(d, s, mask: m, count: n, opacity: o, mode: mode, mix: mix) }
        }
    }

    /// `src` scaled by opacity and mask, blended onto `dst` with `M`.
    @inline(__always)
    static func row<M: BlendMix>(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ mask: UnsafePointer<UInt8>?,
                                 _ count: Int, _ o: UInt32, _ mode: M.Type) {
        for i in 0..<count {
            guard let s = PixelMath.shown(src[i], opacity: o, mask: mask, at: i) else { continue }
            let b = dst[i]
            // Over a transparent backdrop every mode but add leaves the source (one with no
            // alpha leaves the backdrop, as in the reference, whatever its other bits).
            if b == 0, !M.isAdd, s >> 24 != 0 { dst[i] = s; continue }
            dst[i] = blend(s, b, M.self)
        }
    }

    /// `BlendKernels.blend` with the mix known statically.
    @inline(__always) static func blend<M: BlendMix>(_ source: UInt32, _ backdrop: UInt32, _ mode: M.Type) -> UInt32 {
        let s = BlendKernels.colour(source), b = BlendKernels.colour(backdrop)
        let sa = s.w, ba = b.w
        if sa == 0 { return backdrop }
        if M.isAdd { return BlendKernels.pack(s + b) }
        if ba == 0 { return source }
        let mixed = BlendKernels.unit(M.mix(b / ba, s / sa))
        let kept: Colour = s * (1 - ba) + b * (1 - sa)
        var out: Colour = kept + mixed * (sa * ba)
        out.w = sa + ba - sa * ba
        return BlendKernels.pack(out)
    }
}

/// B(backdrop, source) of one separable mode, on straight colours.
protocol BlendMix {
    static var isAdd: Bool { get }
    static func mix(_ b: BlendKernels.Colour, _ s: BlendKernels.Colour) -> BlendKernels.Colour
}

extension BlendMix {
    static var isAdd: Bool { false }
}

enum AddMix: BlendMix {
    static var isAdd: Bool { true }
    @inline(__always) static func mix(_ b: BlendKernels.Colour, _ s: BlendKernels.Colour) -> BlendKernels.Colour { b + s }
}

enum MultiplyMix: BlendMix {
    @inline(__always) static func mix(_ b: BlendKernels.Colour, _ s: BlendKernels.Colour) -> BlendKernels.Colour { b * s }
}

enum ScreenMix: BlendMix {
    @inline(__always) static func mix(_ b: BlendKernels.Colour, _ s: BlendKernels.Colour) -> BlendKernels.Colour { b + s - b * s }
}

enum OverlayMix: BlendMix {
    @inline(__always) static func mix(_ b: BlendKernels.Colour, _ s: BlendKernels.Colour) -> BlendKernels.Colour {
        BlendKernels.hardLight(s, b)
    }
}

enum HardLightMix: BlendMix {
    @inline(__always) static func mix(_ b: BlendKernels.Colour, _ s: BlendKernels.Colour) -> BlendKernels.Colour {
        BlendKernels.hardLight(b, s)
    }
}

enum DarkenMix: BlendMix {
    @inline(__always) static func mix(_ b: BlendKernels.Colour, _ s: BlendKernels.Colour) -> BlendKernels.Colour { BlendKernels.lanesMin(b, s) }
}

enum LightenMix: BlendMix {
    @inline(__always) static func mix(_ b: BlendKernels.Colour, _ s: BlendKernels.Colour) -> BlendKernels.Colour { BlendKernels.lanesMax(b, s) }
}

enum DifferenceMix: BlendMix {
    @inline(__always) static func mix(_ b: BlendKernels.Colour, _ s: BlendKernels.Colour) -> BlendKernels.Colour {
        BlendKernels.lanesMax(b - s, s - b)
    }
}

enum ExclusionMix: BlendMix {
    @inline(__always) static func mix(_ b: BlendKernels.Colour, _ s: BlendKernels.Colour) -> BlendKernels.Colour { b + s - 2 * b * s }
}
