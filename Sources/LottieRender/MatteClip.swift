import LottieModel
import Raster

/// A layer that needs an offscreen pass only for its matte (and masks), and that paints once
/// (a solid, or a shape layer with one fill or stroke), is painted straight onto its target
/// with the matte's coverage (times its masks') as a clip mask, as `MaskClip` does for masks.
/// The offscreen pass would clear a buffer as large as what the layer may paint, paint into
/// it and composite it through that same coverage: with one paint the buffer holds nothing
/// together, so the picture is the same but for rounding (coverage and matte multiplied before
/// the colour is scaled: at most 1/255 per channel; `MatteClipTests` compares both ways on
/// every matte mode). Only the matte source keeps a buffer of its own.
extension LayerCompositor {
    /// Whether the layer may be drawn by `drawMattedDirectly`. `direct` false (the reference)
    /// always takes the offscreen pass.
    static func matteClipsDirectly(_ layer: Layer, shapes: LayerShapes?, hasMatte: Bool, effects: EffectPass,
                                   colorEffects: Bool, clip: Clip?, direct: Bool) -> Bool {
        guard direct, hasMatte, blendMode(layer.blendMode) == .normal, effects.isEmpty, clip?.mask == nil,
              !(colorEffects && Effects.hasColorEffect(layer)) else { return false }
        switch layer.kind {
        case .solid: return true
        case .shape: return (shapes?.ops.count ?? 0) <= 1
        default: return false
        }
    }

    /// Paints the layer onto `surface` through its matte's and masks' coverage, made over the
    /// part of the target its one paint can reach (and its masks, and for a matte that is not
    /// inverted, what the matte source painted). False (nothing drawn) when the paint's bounds
    /// are unknown.
    mutating func drawMattedDirectly(_ o: Offscreen, frame: Double, into surface: inout Surface, clip: Clip?, depth: Int) -> Bool {
        guard let (source, mode) = o.matte, let content = Self.paintBounds(o.layer, shapes: o.shapes, world: o.world) else { return false }
        let pool = renderer.pool
        var limit = (clip.map { $0.rect.intersection(surface.bounds) } ?? surface.bounds).intersection(content)
        if let maskBounds = Self.maskBounds(o.masks, frame: frame, world: o.world) { limit = limit.intersection(maskBounds) }
        guard !limit.isEmpty else { return true }
        var matte = Surface(bounds: limit, pool: pool)
        defer { matte.recycle(into: pool) }
        let outer = alphaOnly
        alphaOnly = mode == .alpha || mode == .alphaInverted
        drawMatteSource(source, in: o.comp, frame: frame, compMatrix: o.compMatrix, into: &matte, depth: depth)
        alphaOnly = outer
        // Where an alpha or luma matte painted nothing, the layer does not show.
        if mode == .alpha || mode == .luma || mode == .none { limit = limit.intersection(matte.painted) }
        guard !limit.isEmpty, var coverage = layerCoverage(o, matte: matte, clip: nil, area: limit, frame: frame) else { return true }
        defer { coverage.recycle(into: pool) }
        drawContent(o.layer, shapes: o.shapes, frame: frame, into: &surface, world: o.world, opacity: o.alpha,
                    clip: Clip(rect: limit, mask: coverage), depth: depth)
        return true
    }
}
