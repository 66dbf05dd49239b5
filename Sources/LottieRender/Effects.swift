import Glibc
import LottieModel
import Raster

/// The layer effects and styles Buoy draws, evaluated at a frame: fill and tint (colour),
/// Gaussian blur, drop shadows, and the drop shadow, inner shadow and outer glow layer styles.
/// Others are skipped (the parser keeps them and warns). `EffectPass` draws them.
enum Effects {
    // After Effects effect type numbers in the Lottie format.
    static let tintType = 20
    static let fillType = 21
    static let dropShadowType = 25
    static let gaussianBlurType = 29

    /// lottie-ios draws a shadow as a Core Animation layer shadow whose `shadowRadius` is the
    /// effect's softness / 5 or the style's size / 2, in the space of the layer's composition
    /// (the layer's own transform does not scale it). Core Animation blurs a radius r with a
    /// Gaussian of standard deviation close to 0.93 r (measured on lottie-ios's snapshots: the
    /// edge profiles of shadows of radius 4, 12 and 20 pixels).
    static let shadowRadiusToSigma = 0.93
    /// After Effects' blurriness to the Gaussian's standard deviation (as lottie-web converts it).
    static let blurrinessToSigma = 0.3

    /// Content further than this beyond a surface casts no shadow into it, and no blur or
    /// shadow spreads further: it bounds the offscreen buffers a hostile distance, softness
    /// or blurriness could otherwise make huge.
    static let maxReach = 512

    /// A shadow or glow a layer casts from its own alpha: drop shadows and outer glows go
    /// under the layer, inner shadows and glows over it, inside its alpha. Lengths are in the
    /// units of the layer's composition.
    struct Cast: Equatable {
        enum Kind {
            case dropShadow, innerShadow, outerGlow, innerGlowFromEdges, innerGlowFromCentre

            /// Drawn over the layer, inside its alpha.
            var isInside: Bool { self != .dropShadow && self != .outerGlow }
            /// Cast by what lies outside the layer (the inverse of its alpha).
            var castByOutside: Bool { self == .innerShadow || self == .innerGlowFromEdges }
        }
        var kind: Kind
        var color: Color
        /// 0...1.
        var opacity: Double
        /// The direction the shadow moves, radians clockwise from +x (y points down).
        var angle: Double
        var distance: Double
        /// The blur's standard deviation.
        var sigma: Double
        /// 0...1: how much the blurred edge is made solid (a style's spread or choke).
        var spread: Double
    }

    /// A Gaussian blur of the layer's pixels; `sigma` in composition units.
    struct Blur: Equatable {
        var sigma: Double
        var horizontal: Bool
        var vertical: Bool
        /// "Repeat Edge Pixels": the layer's edge pixels continue outward under the blur (the
        /// edges of a full-frame layer keep their colour instead of fading into transparency),
        /// and nothing is blurred beyond the layer's bounds.
        var repeatEdges: Bool = false
    }

    /// The layer's shadows and glows at `frame`: its drop shadow effects, then its styles.
    static func casts(of layer: Layer, at frame: Double) -> [Cast] {
        let effects = layer.effects.compactMap { effect -> Cast? in
            guard effect.enabled, effect.type == dropShadowType, effect.values.count >= 5 else { return nil }
            let v = effect.values
            func scalar(_ i: Int, _ fallback: Double) -> Double { finite(v[i].scalar?.value(at: frame), fallback) }
            // Opacity runs to 255; the direction is clockwise from straight up.
            return Cast(kind: .dropShadow, color: v[0].color?.value(at: frame).color ?? .black,
                        opacity: clamp01(scalar(1, 127.5) / 255), angle: (scalar(2, 135) - 90) * degreesToRadians,
                        distance: scalar(3, 0), sigma: max(0, scalar(4, 0)) / 5 * shadowRadiusToSigma, spread: 0)
        }
        return effects + layer.styles.compactMap { cast(of: $0, at: frame) }
    }

    /// A layer style's shadow or glow, nil for the kinds Buoy does not draw.
    static func cast(of style: LayerStyle, at frame: Double) -> Cast? {
        let kind: Cast.Kind
        switch style.kind {
        case .dropShadow?: kind = .dropShadow
        case .innerShadow?: kind = .innerShadow
        case .outerGlow?: kind = .outerGlow
        case .innerGlow?: kind = finite(style.source?.value(at: frame), 2) < 1.5 ? .innerGlowFromCentre : .innerGlowFromEdges
        default: return nil
        }
        func value(_ p: Animated<Double>?, _ fallback: Double) -> Double { finite(p?.value(at: frame), fallback) }
        // A glow has no direction; a shadow's angle is measured from +x, clockwise.
        let moves = kind == .dropShadow || kind == .innerShadow
        return Cast(kind: kind, color: style.color?.value(at: frame).color ?? (moves ? .black : .white),
                    opacity: clamp01(value(style.opacity, 75) / 100), angle: moves ? value(style.angle, 90) * degreesToRadians : 0,
                    distance: moves ? value(style.distance, 5) : 0, sigma: max(0, value(style.size, 5)) / 2 * shadowRadiusToSigma,
                    spread: clamp01(value(style.spread, 0) / 100))
    }

    /// The layer's enabled Gaussian blurs at `frame` (blur dimensions: 1 both, 2 across, 3 down;
    /// repeat edge pixels: a checkbox, on when not 0).
    static func blurs(of layer: Layer, at frame: Double) -> [Blur] {
        layer.effects.compactMap { effect -> Blur? in
            guard effect.enabled, effect.type == gaussianBlurType, let first = effect.values.first else { return nil }
            let v = effect.values
            let blurriness = max(0, finite(first.scalar?.value(at: frame), 0))
            let dimensions = v.count > 1 ? Int(max(-9, min(9, finite(v[1].scalar?.value(at: frame), 1))).rounded()) : 1
            let repeats = v.count > 2 && finite(v[2].scalar?.value(at: frame), 0) != 0
            guard blurriness > 0 else { return nil }
            return Blur(sigma: min(blurriness, 1e6) * blurrinessToSigma, horizontal: dimensions != 3, vertical: dimensions != 2,
                        repeatEdges: repeats)
        }
    }

    private static func finite(_ v: Double?, _ fallback: Double) -> Double {
        guard let v, v.isFinite else { return fallback }
        return v
    }

    static func hasColorEffect(_ layer: Layer) -> Bool {
        layer.effects.contains { $0.enabled && ($0.type == fillType || $0.type == tintType) }
    }

    /// The layer's fill and tint effects at `frame`, in order, as colour transforms.
    static func colorTransforms(of layer: Layer, at frame: Double) -> [ColorTransform] {
        layer.effects.compactMap { effect -> ColorTransform? in
            guard effect.enabled else { return nil }
            if effect.type == fillType, effect.values.count >= 7 {
                let color = effect.values[2].color?.value(at: frame).color ?? .black
                return .fill(color, amount: clamp01(effect.values[6].scalar?.value(at: frame) ?? 1))
            }
            if effect.type == tintType, effect.values.count >= 3 {
                let black = effect.values[0].color?.value(at: frame).color ?? .black
                let white = effect.values[1].color?.value(at: frame).color ?? .white
                return .tint(black: black, white: white, amount: clamp01((effect.values[2].scalar?.value(at: frame) ?? 100) / 100))
            }
            return nil
        }
    }

    /// Recolours what `surface` painted by the layer's fill and tint effects, keeping alpha
    /// (`Surface.apply`: eight pixels at a time; `applyReference` is the per-pixel definition).
    static func applyColorEffects(of layer: Layer, at frame: Double, to surface: inout Surface) {
        for transform in colorTransforms(of: layer, at: frame) { surface.apply(transform) }
    }
}
