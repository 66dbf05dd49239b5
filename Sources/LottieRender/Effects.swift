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

    /// The shadow of `content`: its alpha in the shadow colour, moved and softened.
    static func shadow(_ s: DropShadow, of content: Surface, deviceScale: Double = 1) -> Surface {
        var shadow = Surface(width: content.width, height: content.height)
        let radians = s.direction * degreesToRadians
        let w = content.width, h = content.height
        // An offset past the surface moves the shadow wholly off it; clamped there, it stays an Int
        // and the ranges below stay empty instead of inverted.
        func pixels(_ v: Double) -> Int { v.isFinite ? Int(max(-Double(w + h + 1), min(Double(w + h + 1), v)).rounded()) : w + h + 1 }
        let dx = pixels(sin(radians) * s.distance * deviceScale)
        let dy = pixels(-cos(radians) * s.distance * deviceScale)
        let a = max(0, min(1, (s.color.a * s.opacity).isFinite ? s.color.a * s.opacity : 0))
        func channel(_ v: Double) -> UInt32 { UInt32(max(0, min(1, v.isFinite ? v : 0)) * 255 + 0.5) }
        let r = channel(s.color.r), g = channel(s.color.g), b = channel(s.color.b)
        content.pixels.withUnsafeBufferPointer { src in
            shadow.pixels.withUnsafeMutableBufferPointer { dst in
                guard max(0, dy) < min(h, h + dy), max(0, dx) < min(w, w + dx) else { return }
                for y in max(0, dy)..<min(h, h + dy) {
                    let sy = y - dy
                    for x in max(0, dx)..<min(w, w + dx) {
                        let alpha = UInt32(Double(src[sy * w + (x - dx)] >> 24) * a + 0.5)
                        if alpha == 0 { continue }
                        dst[y * w + x] = (alpha << 24) | ((r * alpha / 255) << 16) | ((g * alpha / 255) << 8) | (b * alpha / 255)
                    }
                }
            }
        }
        let radius = s.softness * deviceScale / 2
        return radius >= 0.5 ? shadow.blurred(radius: radius) : shadow
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
