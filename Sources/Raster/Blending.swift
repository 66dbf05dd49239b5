import Glibc

/// The blend modes of After Effects layers (the W3C compositing set plus add).
public enum BlendMode: Sendable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight
    case difference, exclusion, hue, saturation, color, luminosity, add
}

/// Blending of one premultiplied pixel onto another: result = source·(1-αb) + backdrop·(1-αs)
/// + αs·αb·B(backdrop, source), with B on straight colour.
enum Blending {
    static func blend(_ source: UInt32, _ backdrop: UInt32, _ mode: BlendMode) -> UInt32 {
        let sa = Double(source >> 24) / 255, ba = Double(backdrop >> 24) / 255
        if sa == 0 { return backdrop }
        let s = channels(source), b = channels(backdrop)
        if mode == .add {
            let r = (0..<3).map { min(1, s[$0] + b[$0]) }
            return pack(r[0], r[1], r[2], min(1, sa + ba))
        }
        if ba == 0 { return source }
        // Straight colours.
        let cs = s.map { $0 / sa }, cb = b.map { $0 / ba }
        let mixed = mix(cb, cs, mode)
        var out = [0.0, 0.0, 0.0]
        for k in 0..<3 {
            out[k] = s[k] * (1 - ba) + b[k] * (1 - sa) + sa * ba * min(1, max(0, mixed[k]))
        }
        return pack(out[0], out[1], out[2], sa + ba - sa * ba)
    }

    private static func channels(_ p: UInt32) -> [Double] {
        [Double((p >> 16) & 0xff) / 255, Double((p >> 8) & 0xff) / 255, Double(p & 0xff) / 255]
    }

    private static func pack(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> UInt32 {
        func byte(_ v: Double) -> UInt32 { UInt32(min(1, max(0, v)) * 255 + 0.5) }
        let a8 = byte(a)
        return a8 << 24 | min(byte(r), a8) << 16 | min(byte(g), a8) << 8 | min(byte(b), a8)
    }

    private static func mix(_ cb: [Double], _ cs: [Double], _ mode: BlendMode) -> [Double] {
        switch mode {
        case .hue: return setLum(setSat(cs, sat(cb)), lum(cb))
        case .saturation: return setLum(setSat(cb, sat(cs)), lum(cb))
        case .color: return setLum(cs, lum(cb))
        case .luminosity: return setLum(cb, lum(cs))
        default: return (0..<3).map { separable(cb[$0], cs[$0], mode) }
        }
    }

    private static func separable(_ b: Double, _ s: Double, _ mode: BlendMode) -> Double {
        switch mode {
        case .normal: return s
        case .multiply: return b * s
        case .screen: return b + s - b * s
        case .overlay: return separable(s, b, .hardLight)
        case .darken: return min(b, s)
        case .lighten: return max(b, s)
        case .colorDodge: return b == 0 ? 0 : s >= 1 ? 1 : min(1, b / (1 - s))
        case .colorBurn: return b >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / s)
        case .hardLight: return s <= 0.5 ? b * 2 * s : separable(b, 2 * s - 1, .screen)
        case .softLight:
            if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
            let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
            return b + (2 * s - 1) * (d - b)
        case .difference: return abs(b - s)
        case .exclusion: return b + s - 2 * b * s
        case .add: return min(1, b + s)
        case .hue, .saturation, .color, .luminosity: return s
        }
    }

    private static func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }

    private static func setLum(_ c: [Double], _ l: Double) -> [Double] {
        let d = l - lum(c)
        let moved = c.map { $0 + d }
        let lm = lum(moved), n = moved.min()!, x = moved.max()!
        return moved.map { v in
            var v = v
            if n < 0, lm - n != 0 { v = lm + (v - lm) * lm / (lm - n) }
            if x > 1, x - lm != 0 { v = lm + (v - lm) * (1 - lm) / (x - lm) }
            return v
        }
    }

    private static func sat(_ c: [Double]) -> Double { c.max()! - c.min()! }

    private static func setSat(_ c: [Double], _ s: Double) -> [Double] {
        let mx = c.max()!, mn = c.min()!
        guard mx > mn else { return [0, 0, 0] }
        return c.map { ($0 - mn) * s / (mx - mn) }
    }
}
