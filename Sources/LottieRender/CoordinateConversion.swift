import LottieModel
import Raster

extension AnimationRenderer {
    /// The matrix from the space of the first layer whose names match `keypath` (a layer
    /// keypath such as `Boat` or `**.Boat`) to the output surface, at `frame`; nil when no
    /// layer matches or the layer is not shown in a precomp at that frame.
    public func layerToSurface(_ keypath: Keypath, frame: Double, viewport: Viewport) -> Raster.Transform? {
        let surface = viewport.transform(animationWidth: animation.width, animationHeight: animation.height)
        return find(keypath, in: root, prefix: [], frame: frame, parentMatrix: surface, depth: 0)
    }

    /// Converts a point on the output surface (pixels, after fit/fill) into the coordinate
    /// space of the layer at `keypath`, at `frame`.
    public func convert(_ point: Point, toLayerAt keypath: Keypath, frame: Double, viewport: Viewport) -> Point? {
        layerToSurface(keypath, frame: frame, viewport: viewport)?.inverted()?.apply(point)
    }

    /// Converts a point in the layer's own space to the output surface.
    public func convert(_ point: Point, fromLayerAt keypath: Keypath, frame: Double, viewport: Viewport) -> Point? {
        layerToSurface(keypath, frame: frame, viewport: viewport)?.apply(point)
    }

    private func find(_ keypath: Keypath, in comp: Composition, prefix: [String], frame: Double, parentMatrix: Raster.Transform,
                      depth: Int) -> Raster.Transform? {
        guard depth < LayerCompositor.maxDepth else { return nil }
        let compositor = LayerCompositor(renderer: self)
        for layer in comp.layers {
            let names = prefix + [layer.name]
            guard keypath.couldMatch(prefix: names) else { continue }
            let world = compositor.layerMatrix(layer, in: comp, frame: frame).concatenating(parentMatrix)
            if keypath.matches(names) { return world }
            if case .precomp(let refId, _, _) = layer.kind, let child = precomps[refId],
               let found = find(keypath, in: child, prefix: names, frame: compositor.localFrame(of: layer, at: frame),
                                parentMatrix: world, depth: depth + 1) {
                return found
            }
        }
        return nil
    }
}
