import LottieModel
import Raster
import Synchronization

/// Frame-to-frame damage: the pixels where one frame's picture may differ from another's, so
/// that a surface already holding the one is brought to the other by drawing only those.
/// Most animations change only part of the picture between frames (a still background, the
/// letterbox of a fitted viewport, layers idle after their keyframes), and a kiosk screen's
/// surface holds the frame before.
///
/// Compositing is per pixel: a layer's pixels depend on its own content there and on what
/// lies beneath (blend modes, mattes, masks and group opacity included), and only blurs and
/// shadows spread content, by at most their reach. So the picture can differ only where a
/// layer that may differ draws at either frame: its bounds at the one joined with its bounds
/// at the other, grown by its effects' reach. A layer may differ when it enters or leaves, or
/// when a property of it, of a parent, of its matte source or (for a precomp) of what it
/// shows is not held between the two frames: a precomp whose own properties hold is looked
/// into, its layers' damage clipped to its rectangle. A property holds when both frames give
/// the same keyframe's value verbatim (both before the first, both after the last, or both in
/// one hold): no interpolation is compared, so the judgement is exact, never approximate.
/// Anything this cannot bound (text, an auto-oriented layer, a blur repeating its edges)
/// takes its whole clip; too many layers, or a provider reading the frame, take the frame.
extension AnimationRenderer {
    /// Beyond this many layer instances looked at, the damage is the whole frame: working it
    /// out must stay far cheaper than drawing.
    static let maxDamageLayers = 2048

    /// The device pixels of a viewport-sized surface where frame `to` may differ from frame
    /// `from`, both drawn by this renderer with the same viewport, background and provider
    /// values: empty when they are the same picture, nil when that is not known (the whole
    /// frame may differ). Never smaller than the truth.
    public func damage(from a: Double, to b: Double, viewport: Viewport) -> PixelRect? {
        let target = PixelRect(x0: 0, y0: 0, x1: viewport.width, y1: viewport.height)
        guard a.isFinite, b.isFinite, !framedProviderBound else { return nil }
        if a == b { return .empty }
        let matrix = viewport.transform(animationWidth: animation.width, animationHeight: animation.height)
        let clip = LayerCompositor.clipRegion(width: animation.width, height: animation.height, matrix: matrix, target: target)
        var walk = DamageWalk(renderer: self, memo: damageMemo.begin(context: damageContext), current: b)
        defer { damageMemo.end(walk.memo) }
        let area = clip.map { $0.rect.intersection(target) } ?? target
        walk.rootArea = area
        guard walk.composition(root, a: a, b: b, matrix: matrix, clip: area, depth: 0) else { return nil }
        return walk.damage.intersection(target)
    }

    /// What the damage memo's bounds were found under: bounds kept under other providers
    /// are not used.
    var damageContext: [UInt64] { [bindingsGeneration, providersVersion] }
}

/// Works out the damage of one pair of frames (`AnimationRenderer.damage(from:to:viewport:)`).
struct DamageWalk {
    let renderer: AnimationRenderer
    let compositor: LayerCompositor
    /// Shape layers' device bounds found at earlier frames, and those found now.
    var memo: DamageMemo.Entries
    /// The root frame being drawn: shapes evaluated for it are kept for its drawing.
    let current: Double
    var budget = AnimationRenderer.maxDamageLayers
    private(set) var damage = PixelRect.empty
    /// The root composition's clip: once the damage spans all its rows, the frame is drawn whole.
    var rootArea = PixelRect.empty

    init(renderer: AnimationRenderer, memo: DamageMemo.Entries, current: Double) {
        self.renderer = renderer
        self.compositor = LayerCompositor(renderer: renderer)
        self.memo = memo
        self.current = current
    }

    /// Adds the pixels where `comp`'s layers may differ between its frames `a` and `b`
    /// (drawn through `matrix`, within `clip`); false when that is not known.
    mutating func composition(_ comp: Composition, a: Double, b: Double, matrix: Matrix, clip: PixelRect, depth: Int) -> Bool {
        // Nothing is drawn that deep; at one frame, nothing differs.
        guard depth < LayerCompositor.maxDepth, a != b, !clip.isEmpty else { return true }
        // Layers are read in place: a copy retains and releases every part of the layer.
        return comp.layers.withUnsafeBufferPointer { layers in
            for position in layers.indices {
                budget -= 1
                guard budget > 0, layerDamage(layers[position], at: position, in: comp, a: a, b: b, matrix: matrix, clip: clip, depth: depth),
                      !damage.isEmpty ? !(damage.y0 <= rootArea.y0 && damage.y1 >= rootArea.y1) : true else { return false }
            }
            return true
        }
    }

    /// Adds the damage of one layer of `comp`; false when it is not known.
    private mutating func layerDamage(_ layer: Layer, at position: Int, in comp: Composition, a: Double, b: Double, matrix: Matrix,
                                      clip: PixelRect, depth: Int) -> Bool {
        let shownA = Self.drawn(layer, at: a), shownB = Self.drawn(layer, at: b)
        guard shownA || shownB else { return true }
        if shownA && shownB {
            guard let held = holds(layer, at: position, in: comp, a: a, b: b, depth: depth, hops: 0) else { return false }
            if held { return true }
            if case .precomp(let refId, let width, let height) = layer.kind, let child = renderer.precomps[refId],
               let own = ownHolds(layer, at: position, in: comp, a: a, b: b, depth: depth), own {
                let world = layerMatrix(layer, at: position, in: comp, frame: b).concatenating(matrix)
                var inner = Self.rectBounds(width: width, height: height, world: world)?.intersection(clip) ?? clip
                if let masks = LayerCompositor.maskBounds(layer.masks.filter { $0.mode != .none }, frame: b, world: world) {
                    inner = inner.intersection(masks)
                }
                return composition(child, a: compositor.localFrame(of: layer, at: a), b: compositor.localFrame(of: layer, at: b),
                                   matrix: world, clip: inner, depth: depth + 1)
            }
        }
        if shownA {
            damage = damage.union(bounds(layer, at: position, in: comp, frame: a, matrix: matrix, clip: clip, depth: depth, drawing: false))
        }
        if shownB {
            damage = damage.union(bounds(layer, at: position, in: comp, frame: b, matrix: matrix, clip: clip, depth: depth, drawing: true))
        }
        return true
    }

    /// Whether `LayerCompositor.drawComposition` draws the layer at `frame`.
    /// (`LayerCompositor.isDrawn`'s test, on a borrowed layer.)
    static func drawn(_ layer: Layer, at frame: Double) -> Bool {
        guard !layer.isMatteSource, !layer.hidden, layer.inPoint <= frame, frame <= layer.outPoint else { return false }
        if case .null = layer.kind { return false }
        return true
    }

    /// Whether a layer shown at both frames draws the same pixels at both: every property of
    /// it, of its parents and of its matte source held, and what a precomp shows the same.
    /// Nil when that is not known (too many layers).
    mutating func holds(_ layer: Layer, at position: Int, in comp: Composition, a: Double, b: Double, depth: Int,
                        hops: Int) -> Bool? {
        guard let own = ownHolds(layer, at: position, in: comp, a: a, b: b, depth: depth, hops: hops) else { return nil }
        guard own else { return false }
        var judge = HeldJudge(a: a, b: b)
        switch layer.kind {
        case .shape(let items): judge.note(items, depth: 0)
        case .text: return false
        case .precomp(let refId, _, _):
            guard let child = renderer.precomps[refId] else { return true }
            let la = compositor.localFrame(of: layer, at: a), lb = compositor.localFrame(of: layer, at: b)
            guard la.isFinite, lb.isFinite else { return false }
            return compositionHolds(child, a: la, b: lb, depth: depth + 1)
        case .solid, .image, .null, .unsupported: break
        }
        return judge.held
    }

    /// Whether every layer `comp` draws draws the same pixels at its frames `a` and `b`.
    mutating func compositionHolds(_ comp: Composition, a: Double, b: Double, depth: Int) -> Bool? {
        guard depth < LayerCompositor.maxDepth, a != b else { return true }
        return comp.layers.withUnsafeBufferPointer { layers -> Bool? in
            for position in layers.indices {
                budget -= 1
                guard budget > 0 else { return nil }
                let shownA = Self.drawn(layers[position], at: a), shownB = Self.drawn(layers[position], at: b)
                guard shownA == shownB else { return false }
                guard shownA else { continue }
                guard let held = holds(layers[position], at: position, in: comp, a: a, b: b, depth: depth, hops: 0) else { return nil }
                if !held { return false }
            }
            return true
        }
    }

    /// Whether what a layer does with its content holds: its transform and its parents',
    /// masks, effects and styles, time remapping, and its matte source. Nil: not known.
    mutating func ownHolds(_ layer: Layer, at position: Int, in comp: Composition, a: Double, b: Double, depth: Int,
                           hops: Int = 0) -> Bool? {
        // An auto-oriented layer turns with its path's tangent, which a held position does not hold.
        if layer.autoOrient { return false }
        var judge = HeldJudge(a: a, b: b)
        judge.noteOwn(layer)
        return comp.layers.withUnsafeBufferPointer { layers -> Bool? in
            // Parents, read in place, as `LayerCompositor.layerMatrix` follows them.
            var parentIndex = layer.parent
            var parentHops = 0
            while judge.held, let index = parentIndex, let p = comp.position(ofIndex: index), parentHops < 64 {
                if layers[p].autoOrient { return false }
                judge.note(layers[p].transform)
                parentIndex = layers[p].parent
                parentHops += 1
            }
            guard judge.held else { return false }
            guard layer.matteMode != .none, let source = comp.matteSource(forLayerAt: position) else { return true }
            // A matte cycle (`tp` naming each other) is not followed far.
            guard hops < 8 else { return nil }
            let shownA = Self.matteShown(layers[source], at: a), shownB = Self.matteShown(layers[source], at: b)
            guard shownA == shownB else { return false }
            guard shownA else { return true }
            return holds(layers[source], at: source, in: comp, a: a, b: b, depth: depth, hops: hops + 1)
        }
    }

    /// Whether `LayerCompositor.drawMatteSource` draws the matte source at `frame`.
    static func matteShown(_ layer: Layer, at frame: Double) -> Bool {
        (!layer.hidden || layer.isMatteSource) && layer.inPoint <= frame && frame <= layer.outPoint
    }
}
