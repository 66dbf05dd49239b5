import LottieModel

/// A list of layers (the root animation's or a precomp asset's) with its layers found by index,
/// prepared once so that parent and matte look-ups per frame are cheap.
struct Composition {
    let layers: [Layer]
    private let positionByIndex: [Int: Int]

    init(layers: [Layer]) {
        self.layers = layers
        var positions: [Int: Int] = [:]
        for (position, layer) in layers.enumerated() {
            if let index = layer.index, positions[index] == nil { positions[index] = position }
        }
        positionByIndex = positions
    }

    func layer(withIndex index: Int) -> Layer? {
        positionByIndex[index].map { layers[$0] }
    }

    func position(ofIndex index: Int) -> Int? { positionByIndex[index] }

    /// The layer whose alpha or luma mattes the layer at `position`: the one named by `tp`, or
    /// else the one just above it.
    func matteSource(forLayerAt position: Int) -> Layer? {
        let layer = layers[position]
        if let parent = layer.matteParent, let p = positionByIndex[parent], p != position { return layers[p] }
        return position > 0 ? layers[position - 1] : nil
    }
}
