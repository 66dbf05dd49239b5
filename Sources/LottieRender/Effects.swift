import Foundation
import LottieModel
import Raster

/// The layer effects Buoy draws: drop shadow, fill and tint. Others are skipped (the parser
/// keeps them and warns).
enum Effects {
    // After Effects effect type numbers in the Lottie format.
    static let tintType = 20
    static let fillType = 21
    static let dropShadowType = 25

    struct DropShadow {
        var color: Color
        var opacity: Double
        /// Degrees clockwise from straight up.
        var direction: Double
        var distance: Double
        var softness: Double
        var scale: Double
    }

    static func dropShadows(of layer: Layer, at frame: Double) -> [DropShadow] {
        layer.effects.compactMap { effect in
            guard effect.enabled, effect.type == dropShadowType, effect.values.count >= 5 else { return nil }
            let v = effect.values
            return DropShadow(color: v[0].color?.value(at: frame).color ?? .black,
                              opacity: clamp01((v[1].scalar?.value(at: frame) ?? 127.5) / 255),
                              direction: v[2].scalar?.value(at: frame) ?? 135,
                              distance: v[3].scalar?.value(at: frame) ?? 0,
                              softness: v[4].scalar?.value(at: frame) ?? 0,
                              scale: 1)
        }
    }

    /// Content further than this beyond a surface casts no shadow into it: it bounds the
    /// offscreen buffers a hostile distance or softness could otherwise make huge.
    static let maxReach = 512

    /// The shadow's offset in whole device pixels.
    static func offset(of s: DropShadow, deviceScale: Double = 1) -> (dx: Int, dy: Int) {
        let radians = s.direction * degreesToRadians
        func pixels(_ v: Double) -> Int { v.isFinite ? Int(max(-1e6, min(1e6, v)).rounded()) : 0 }
        return (pixels(sin(radians) * s.distance * deviceScale), pixels(-cos(radians) * s.distance * deviceScale))
    }

    /// How far, in device pixels, a shadow lands from the content casting it.
    static func reach(of s: DropShadow, deviceScale: Double = 1) -> Int {
        let (dx, dy) = offset(of: s, deviceScale: deviceScale)
        let radius = s.softness * deviceScale / 2
        let spread = radius.isFinite ? Surface.blurSpread(radius: radius) : 0
        return min(maxReach, max(abs(dx), abs(dy)) + spread + 1)
    }

    /// The shadow of `content`: its alpha in the shadow colour, moved and softened, in a
    /// surface over the same pixels (from `pool`).
    static func shadow(_ s: DropShadow, of content: Surface, deviceScale: Double = 1, pool: BufferPool? = nil) -> Surface {
        var shadow = Surface(bounds: content.bounds, pool: pool)
        let (dx, dy) = offset(of: s, deviceScale: deviceScale)
        let a = max(0, min(1, (s.color.a * s.opacity).isFinite ? s.color.a * s.opacity : 0))
        func channel(_ v: Double) -> UInt32 { UInt32(max(0, min(1, v.isFinite ? v : 0)) * 255 + 0.5) }
        let r = channel(s.color.r), g = channel(s.color.g), b = channel(s.color.b)
        let source = content.painted
        let moved = PixelRect(x0: source.x0 + dx, y0: source.y0 + dy, x1: source.x1 + dx, y1: source.y1 + dy)
            .intersection(content.bounds)
        guard !moved.isEmpty else { return shadow }
        let (w, ox, oy) = (content.width, content.originX, content.originY)
        content.pixels.withUnsafeBufferPointer { src in
            shadow.pixels.withUnsafeMutableBufferPointer { dst in
                for y in moved.y0..<moved.y1 {
                    for x in moved.x0..<moved.x1 {
                        let alpha = UInt32(Double(src[(y - dy - oy) * w + (x - dx - ox)] >> 24) * a + 0.5)
                        if alpha == 0 { continue }
                        dst[(y - oy) * w + (x - ox)] = (alpha << 24) | ((r * alpha / 255) << 16) | ((g * alpha / 255) << 8) | (b * alpha / 255)
                    }
                }
            }
        }
        shadow.markPainted(moved)
        let radius = s.softness * deviceScale / 2
        if radius >= 0.5, radius.isFinite { shadow.blur(radius: min(radius, Double(maxReach)), pool: pool) }
        return shadow
    }

    static func hasColorEffect(_ layer: Layer) -> Bool {
        layer.effects.contains { $0.enabled && ($0.type == fillType || $0.type == tintType) }
    }

    static func applyColorEffects(of layer: Layer, at frame: Double, to surface: inout Surface) {
        for effect in layer.effects where effect.enabled {
            if effect.type == fillType, effect.values.count >= 7 {
                let color = effect.values[2].color?.value(at: frame).color ?? .black
                let opacity = clamp01(effect.values[6].scalar?.value(at: frame) ?? 1)
                recolor(&surface) { r, g, b in
                    (r + (color.r - r) * opacity, g + (color.g - g) * opacity, b + (color.b - b) * opacity)
                }
            } else if effect.type == tintType, effect.values.count >= 3 {
                let black = effect.values[0].color?.value(at: frame).color ?? .black
                let white = effect.values[1].color?.value(at: frame).color ?? .white
                let amount = clamp01((effect.values[2].scalar?.value(at: frame) ?? 100) / 100)
                recolor(&surface) { r, g, b in
                    let l = 0.2126 * r + 0.7152 * g + 0.0722 * b
                    let tr = black.r + (white.r - black.r) * l, tg = black.g + (white.g - black.g) * l, tb = black.b + (white.b - black.b) * l
                    return (r + (tr - r) * amount, g + (tg - g) * amount, b + (tb - b) * amount)
                }
            }
        }
    }

    /// Changes the colour of every pixel, keeping its alpha; the body sees straight colour.
    private static func recolor(_ surface: inout Surface, _ body: (Double, Double, Double) -> (Double, Double, Double)) {
        surface.pixels.withUnsafeMutableBufferPointer { px in
            for i in px.indices {
                let p = px[i]
                let a = p >> 24
                if a == 0 { continue }
                let fa = Double(a)
                let (r, g, b) = body(Double((p >> 16) & 0xff) / fa, Double((p >> 8) & 0xff) / fa, Double(p & 0xff) / fa)
                func channel(_ v: Double) -> UInt32 { UInt32(max(0, min(1, v)) * fa + 0.5) }
                px[i] = (a << 24) | (channel(r) << 16) | (channel(g) << 8) | channel(b)
            }
        }
    }
}
