import Glibc
import LottieModel
import Raster

extension LayerCompositor {
    /// The pixels that the first paint of a frame covers with one opaque colour, so that
    /// clearing them first is wasted work: the bottom-most visible layer, when it is drawn
    /// straight onto the surface (no mask, matte, blend mode, effect or transparency) and is a
    /// solid layer or an opaque fill of one unrotated rectangle — the background most
    /// animations start with. Only pixels wholly inside it count (an edge pixel is blended
    /// with what lies below it). Nil when there is no such cover.
    func opaqueBackdrop(of comp: Composition, frame: Double, matrix: Matrix, clip: Clip?) -> PixelRect? {
        guard clip?.mask == nil, frame.isFinite else { return nil }
        // Layers are listed top-most first: the last drawable one is drawn first.
        // Layers are read in place: a copied layer retains and releases each of its parts, for
        // every frame drawn.
        return comp.layers.withUnsafeBufferPointer { layers -> PixelRect? in
            guard let position = layers.indices.last(where: { Self.isDrawn(layers.baseAddress! + $0, at: frame) }) else { return nil }
            return opaqueBackdrop(of: layers[position], at: position, in: comp, frame: frame, matrix: matrix, clip: clip)
        }
    }

    /// `opaqueBackdrop(of:…)` for `layer`, the bottom-most drawn layer, at `position` in `comp`.
    private func opaqueBackdrop(of layer: Layer, at position: Int, in comp: Composition, frame: Double, matrix: Matrix,
                                         clip: Clip?) -> PixelRect? {
        // Drawn as `drawLayer` would: fully opaque and straight onto the surface.
        guard layer.transform.opacityFraction(at: frame) >= 1,
              !Self.paintsOffscreen(layer, masks: layer.masks.filter { $0.mode != .none }, hasMatte: layer.matteMode != .none,
                                    effects: EffectPass(layer: layer, frame: frame, compMatrix: matrix), groupOpacity: false) else { return nil }
        let world = layerMatrix(layer, in: comp, frame: frame).concatenating(matrix)
        let rect: Rect
        let toDevice: Matrix
        switch layer.kind {
        case .solid(let color, let width, let height):
            guard color.color.premultiplied >> 24 == 255 else { return nil }
            rect = Rect(x: 0, y: 0, width: width, height: height)
            toDevice = world
        case .shape(let items):
            // The tree is the one the draw that follows uses (its render-tree node or the shape cache keeps it).
            let shapes = renderer.layerShapes(of: comp, at: position, items: items, frame: frame, counted: false)
            guard let found = Self.opaqueRectangle(shapes.tree) else { return nil }
            rect = found.rect
            toDevice = found.matrix.concatenating(world)
        default:
            return nil
        }
        guard toDevice.b == 0, toDevice.c == 0 else { return nil }
        let a = toDevice.apply(Point(rect.x, rect.y)), b = toDevice.apply(Point(rect.maxX, rect.maxY))
        // Four values, not arrays: this runs for every frame drawn.
        let x0 = min(a.x, b.x).rounded(.up), y0 = min(a.y, b.y).rounded(.up)
        let x1 = max(a.x, b.x).rounded(.down), y1 = max(a.y, b.y).rounded(.down)
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return nil }
        func pixel(_ v: Double) -> Int { Int(max(-1e8, min(1e8, v))) }
        var inside = PixelRect(x0: pixel(x0), y0: pixel(y0), x1: pixel(x1), y1: pixel(y1))
        if let clip { inside = inside.intersection(clip.rect) }
        return inside.isEmpty ? nil : inside
    }

    /// The rectangle the bottom-most paint of `tree` fills with one opaque colour, in the
    /// paint's space, or nil. The tree is borrowed: its last op and node are read in place.
    private static func opaqueRectangle(_ tree: ShapeTree) -> (rect: Rect, matrix: Matrix)? {
        guard let last = tree.ops.indices.last else { return nil }
        return tree.ops.withUnsafeBufferPointer { ops -> (rect: Rect, matrix: Matrix)? in
            let op = ops.baseAddress! + last
            guard op.pointee.opacity >= 1, op.pointee.nodeIDs.count == 1,
                  case .fill(.solid(let color), _) = op.pointee.kind, color.premultiplied >> 24 == 255 else { return nil }
            let id = op.pointee.nodeIDs[0]
            guard tree.nodes.indices.contains(id), tree.nodes[id].matrix == op.pointee.matrix,
                  let r = tree.nodes[id].path.axisAlignedRectangle else { return nil }
            return (r, op.pointee.matrix)
        }
    }
}
