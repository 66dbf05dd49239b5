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
    mutating func opaqueBackdrop(of comp: Composition, frame: Double, matrix: Matrix, clip: Clip?) -> PixelRect? {
        guard clip?.mask == nil, frame.isFinite else { return nil }
        // Layers are listed top-most first: the last drawable one is drawn first.
        guard let position = comp.layers.indices.last(where: { position in
            let layer = comp.layers[position]
            if case .null = layer.kind { return false }
            return !layer.isMatteSource && !layer.hidden && isVisible(layer, at: frame)
        }) else { return nil }
        let layer = comp.layers[position]
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
            let tree = renderer.layerShapes(of: comp, at: position, items: items, frame: frame, counted: false).tree
            guard let op = tree.ops.last, op.opacity >= 1, op.nodeIDs.count == 1,
                  case .fill(.solid(let color), _) = op.kind, color.premultiplied >> 24 == 255 else { return nil }
            let node = tree.nodes[op.nodeIDs[0]]
            guard node.matrix == op.matrix, let r = node.path.axisAlignedRectangle else { return nil }
            rect = r
            toDevice = op.matrix.concatenating(world)
        default:
            return nil
        }
        guard toDevice.b == 0, toDevice.c == 0 else { return nil }
        let a = toDevice.apply(Point(rect.x, rect.y)), b = toDevice.apply(Point(rect.maxX, rect.maxY))
        let bounds = [min(a.x, b.x).rounded(.up), min(a.y, b.y).rounded(.up), max(a.x, b.x).rounded(.down), max(a.y, b.y).rounded(.down)]
        guard bounds.allSatisfy(\.isFinite) else { return nil }
        let pixel = bounds.map { Int(max(-1e8, min(1e8, $0))) }
        var inside = PixelRect(x0: pixel[0], y0: pixel[1], x1: pixel[2], y1: pixel[3])
        if let clip { inside = inside.intersection(clip.rect) }
        return inside.isEmpty ? nil : inside
    }
}
