import LottieModel
import Raster

/// A layer that needs an offscreen pass only for its masks, and that paints once (a solid,
/// or a shape layer with one fill or stroke), is painted straight onto its target with the
/// masks as a clip mask: its one paint's coverage is scaled by the masks' coverage pixel by
/// pixel. The offscreen pass would clear a buffer of the masks' bounds, paint into it and
/// composite it through the same coverage; with one paint there is nothing for the buffer to
/// hold together, so the picture is the same but for rounding: the coverage and the masks
/// are multiplied before the colour is scaled, not after (at most 1/255 per channel; a test
/// compares both ways on every kind of mask). Several paints keep the pass: where they
/// overlap under a soft mask edge, masking each would differ from masking their union.
extension LayerCompositor {
    /// Whether the layer may be drawn by `drawMaskedDirectly`. `direct` false (the reference)
    /// always takes the offscreen pass.
    static func masksClipDirectly(_ layer: Layer, masks: [ModelMask], shapes: LayerShapes?, hasMatte: Bool, effects: EffectPass,
                                  colorEffects: Bool, clip: Clip?, direct: Bool) -> Bool {
        guard direct, !masks.isEmpty, !hasMatte, blendMode(layer.blendMode) == .normal, effects.isEmpty, clip?.mask == nil,
              !(colorEffects && Effects.hasColorEffect(layer)) else { return false }
        switch layer.kind {
        case .solid: return true
        case .shape: return (shapes?.ops.count ?? 0) <= 1
        default: return false
        }
    }

    /// Paints the layer onto `surface` through its masks' coverage, built over the part of
    /// the target the masks can reach. False (nothing drawn) when the masks may reach
    /// anywhere (inverted, or only subtracting): their coverage would span the whole target,
    /// where the offscreen pass spans only what the layer painted.
    mutating func drawMaskedDirectly(_ layer: Layer, shapes: LayerShapes?, masks: [ModelMask], frame: Double, into surface: inout Surface,
                                     world: Matrix, alpha: Double, clip: Clip?, depth: Int) -> Bool {
        guard let maskBounds = Self.maskBounds(masks, frame: frame, world: world) else { return false }
        let limit = (clip.map { $0.rect.intersection(surface.bounds) } ?? surface.bounds).intersection(maskBounds)
        guard !limit.isEmpty, var coverage = buildMasks(masks, frame: frame, world: world, area: limit) else { return true }
        defer { coverage.recycle(into: renderer.pool) }
        drawContent(layer, shapes: shapes, frame: frame, into: &surface, world: world, opacity: alpha,
                    clip: Clip(rect: limit, mask: coverage), depth: depth)
        return true
    }
}
