import LottieModel

/// A list of layers (the root animation's or a precomp asset's) with its layers found by index,
/// prepared once so that parent and matte look-ups per frame are cheap.
struct Composition {
    /// The precomp asset's id, nil for the animation's own layers.
    let id: String?
    let layers: [Layer]
    /// The position of the first layer with each layer number.
    private let positionByIndex: LayerIndexTable
    /// Its number among the compositions of one renderer (root 0, precomps from 1), by which
    /// the render tree finds its nodes without hashing the id for every layer of every frame;
    /// nil when made on its own.
    let ordinal: Int?

    init(id: String?, layers: [Layer], ordinal: Int? = nil) {
        self.id = id
        self.layers = layers
        self.ordinal = ordinal
        positionByIndex = LayerIndexTable(layers.enumerated().compactMap { position, layer in layer.index.map { ($0, position) } })
    }

    func layer(withIndex index: Int) -> Layer? {
        positionByIndex[index].map { layers[$0] }
    }

    func position(ofIndex index: Int) -> Int? { positionByIndex[index] }

    /// The position of the layer whose alpha or luma mattes the layer at `position`: the one
    /// named by `tp`, or else the one just above it.
    func matteSource(forLayerAt position: Int) -> Int? {
        // The one field read in place (a copied layer retains and releases all its parts).
        let matteParent = layers.withUnsafeBufferPointer { $0[position].matteParent }
        if let parent = matteParent, let p = positionByIndex[parent], p != position { return p }
        return position > 0 ? position - 1 : nil
    }
}
