import LottieModel
import Raster

/// A layer that needs an offscreen pass only for its masks, and that paints once (a solid,
/// or a shape layer with one fill or stroke), is painted straight onto its target with the
/// masks as a clip mask: its one paint's coverage is scaled by the masks' coverage pixel by
/// pixel. The offscreen pass would clear a buffer of the masks' bounds, paint into it and
/// composite it through the same coverage; with one paint there is nothing for the buffer to
/// hold together, so the picture is the same but for rounding: the coverage and the masks
/// are multiplied before the colour is scaled, not after (at most 1/255 per channel; a test
/// compares both ways on every kind of mask, inverted ones too). Several paints keep the pass: where they
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
        case .shape: return (shapes?.paintingOpCount ?? 0) <= 1
        default: return false
        }
    }

    /// Paints the layer onto `surface` through its masks' coverage, built over the part of
    /// the target both the masks and the layer's one paint can reach (an inverted mask
    /// reaches everywhere: the paint's bounds then limit it, as what the layer painted limits
    /// the offscreen pass). False (nothing drawn) when the paint's bounds are unknown.
    mutating func drawMaskedDirectly(_ layer: Layer, shapes: LayerShapes?, masks: [ModelMask], frame: Double, into surface: inout Surface,
                                     world: Matrix, alpha: Double, clip: Clip?, depth: Int) -> Bool {
        guard let content = Self.paintBounds(layer, shapes: shapes, world: world) else { return false }
        var limit = (clip.map { $0.rect.intersection(surface.bounds) } ?? surface.bounds).intersection(content)
        if let maskBounds = Self.maskBounds(masks, frame: frame, world: world) { limit = limit.intersection(maskBounds) }
        guard !limit.isEmpty else { return true }
        if let runs = Self.maskRuns(masks, frame: frame, world: world, area: limit, pool: renderer.pool, minimumArea: renderer.maskRunsArea) {
            if !runs.isEmpty {
                drawContent(layer, shapes: shapes, frame: frame, into: &surface, world: world, opacity: alpha,
                            clip: Clip(rect: limit, runs: runs), depth: depth)
            }
            return true
        }
        guard var coverage = buildMasks(masks, frame: frame, world: world, area: limit) else { return true }
        defer { coverage.recycle(into: renderer.pool) }
        drawContent(layer, shapes: shapes, frame: frame, into: &surface, world: world, opacity: alpha,
                    clip: Clip(rect: limit, mask: coverage), depth: depth)
        return true
    }

    /// The device pixels outside which a solid or a shape layer's paints cover nothing: their
    /// outlines' bounds, grown for a stroke by the farthest a join or cap reaches (a miter up
    /// to its limit, a square cap √2 half widths); empty when it paints nothing.
    static func paintBounds(_ layer: Layer, shapes: LayerShapes?, world: Matrix) -> PixelRect? {
        switch layer.kind {
        case .solid(_, let width, let height):
            var path = RasterPath()
            path.addRect(Rect(x: 0, y: 0, width: width, height: height))
            return footprint(path, expansion: 0, world: world)
        case .shape:
            guard let shapes else { return nil }
            var bounds = PixelRect.empty
            for index in shapes.paintingOps {
                let op = shapes.ops[index]
                let path = shapes.prepared?.paths[index] ?? shapes.tree.joinedPath(of: op)
                var reach = 0.0
                if case .stroke(_, let style) = op.kind { reach = style.width / 2 * max(style.miterLimit, 1.5) }
                guard reach.isFinite else { return nil }
                let paint = footprint(path, expansion: reach, world: op.matrix.concatenating(world))
                bounds = bounds.isEmpty ? paint : bounds.union(paint)
            }
            return bounds
        default:
            return nil
        }
    }
}

extension LayerShapes {
    /// The indexes of the ops that can paint a pixel: a style with shapes in its scope and a
    /// non-zero opacity (a fill or stroke in a group of no shape, common in exported files,
    /// paints nothing). `draw` skips the others, so only these count when deciding whether a
    /// layer paints once (and may be clipped by its masks directly) or overlaps itself.
    var paintingOps: [Int] {
        let ops = self.ops
        return ops.indices.filter { paints(ops, at: $0) }
    }

    /// `paintingOps.count`, counted without making the list (asked of every layer drawn with
    /// transparency or masks).
    var paintingOpCount: Int {
        let ops = self.ops
        var count = 0
        for index in ops.indices where paints(ops, at: index) { count += 1 }
        return count
    }

    /// Whether op `index` of `ops` (this layer's, fetched once by the caller: `ops` is worked
    /// out on each access) can paint a pixel (see `paintingOps`).
    @inline(__always)
    private func paints(_ ops: [DrawOp], at index: Int) -> Bool {
        guard ops[index].opacity > 0, !ops[index].nodeIDs.isEmpty else { return false }
        return !(prepared?.paths[index].isEmpty ?? false)
    }
}
