import LottieModel
import Raster
import Synchronization

extension DamageWalk {
    /// The device pixels, within `clip`, that `layer` (at `position` in `comp`, whose frame
    /// is `frame`) may change when drawn through `matrix`: its content's bounds, cut by its
    /// masks, grown by its blurs' and shadows' reach. What cannot be bounded takes `clip`.
    /// `drawing`: `frame` is the one about to be drawn (shapes evaluated for it are kept).
    mutating func bounds(_ layer: Layer, at position: Int, in comp: Composition, frame: Double, matrix: Matrix, clip: PixelRect,
                         depth: Int, drawing: Bool) -> PixelRect {
        // A shape layer's bounds found before (at the frame the surface holds) are found by the
        // layer, frame and composition matrix, which decide its matrix: nothing is evaluated.
        let key = DamageMemo.Key(comp: comp.ordinal ?? -1, position: position, frame: frame, matrix: matrix)
        if case .shape = layer.kind, let kept = memo.find(key) { return (kept ?? clip).intersection(clip) }
        let world = layerMatrix(layer, at: position, in: comp, frame: frame).concatenating(matrix)
        var rect: PixelRect
        switch layer.kind {
        case .shape(let items):
            let reach = shapeBounds(comp, position: position, items: items, frame: frame, world: world, drawing: drawing)
            let found = reach.flatMap { Self.cut($0, layer, frame: frame, world: world, matrix: matrix) }
            memo.keep(key, found)
            return (found ?? clip).intersection(clip)
        case .solid(_, let width, let height):
            rect = Self.rectBounds(width: width, height: height, world: world) ?? clip
        case .image(let refId):
            rect = clip
            if case .image(let asset)? = renderer.animation.assets[refId], asset.width > 0, asset.height > 0 {
                rect = Self.rectBounds(width: asset.width, height: asset.height, world: world) ?? clip
            }
        case .precomp(let refId, let width, let height):
            rect = Self.rectBounds(width: width, height: height, world: world)?.intersection(clip) ?? clip
            if let child = renderer.precomps[refId] {
                rect = contentBounds(child, frame: compositor.localFrame(of: layer, at: frame), matrix: world, clip: rect,
                                     depth: depth + 1, drawing: drawing)
            }
        case .text:
            rect = clip
        case .null, .unsupported:
            return .empty
        }
        return (Self.cut(rect, layer, frame: frame, world: world, matrix: matrix, clip: clip) ?? clip).intersection(clip)
    }

    /// The layer's matrix to its composition, as the compositor finds it (the render tree's
    /// kept chain, else through the parents).
    func layerMatrix(_ layer: Layer, at position: Int, in comp: Composition, frame: Double) -> Matrix {
        renderer.renderTree?.layerMatrix(in: comp, at: position, frame: frame) ?? compositor.layerMatrix(layer, in: comp, frame: frame)
    }

    /// `content` (the device pixels a layer's content may reach) cut by its masks and grown by
    /// its blurs' and shadows' reach; a blur that repeats its edges takes `clip` (nil: unbounded).
    static func cut(_ content: PixelRect, _ layer: Layer, frame: Double, world: Matrix, matrix: Matrix, clip: PixelRect? = nil) -> PixelRect? {
        var rect = content
        if !layer.masks.isEmpty, let masks = LayerCompositor.maskBounds(layer.masks.filter { $0.mode != .none }, frame: frame, world: world) {
            rect = rect.intersection(masks)
        }
        guard !rect.isEmpty else { return .empty }
        if !layer.effects.isEmpty || !layer.styles.isEmpty {
            let pass = EffectPass(layer: layer, frame: frame, compMatrix: matrix)
            if pass.repeatsEdges { return clip }
            rect = rect.grown(by: pass.reach)
        }
        return rect
    }

    /// The union of the bounds of the layers `comp` draws at `frame`, within `clip`.
    mutating func contentBounds(_ comp: Composition, frame: Double, matrix: Matrix, clip: PixelRect, depth: Int,
                                drawing: Bool) -> PixelRect {
        guard depth < LayerCompositor.maxDepth, !clip.isEmpty else { return .empty }
        guard frame.isFinite else { return clip }
        return comp.layers.withUnsafeBufferPointer { layers in
            var union = PixelRect.empty
            for position in layers.indices {
                budget -= 1
                guard budget > 0 else { return clip }
                guard Self.drawn(layers[position], at: frame) else { continue }
                union = union.union(bounds(layers[position], at: position, in: comp, frame: frame, matrix: matrix, clip: clip, depth: depth,
                                           drawing: drawing))
            }
            return union
        }
    }

    /// Where a shape layer's fills and strokes reach on the device (`PaintReach`), nil when
    /// not known. Found once per layer, frame and matrix: the bounds found for the frame
    /// drawn are kept for the next frame's damage, whose earlier frame it is.
    mutating func shapeBounds(_ comp: Composition, position: Int, items: [ShapeItem], frame: Double, world: Matrix,
                              drawing: Bool) -> PixelRect? {
        var result: PixelRect? = .empty
        if drawing, renderer.renderTree != nil {
            // Evaluated through the render tree, which keeps it for the drawing that follows.
            let shapes = renderer.layerShapes(of: comp, at: position, items: items, frame: frame, counted: false)
            let bounds = shapes.prepared?.bounds ?? shapes.ops.indices.map { shapes.tree.joinedPath(ofOpAt: $0).bounds }
            result = Self.reach(of: shapes.ops, bounds: bounds, world: world)
        } else {
            // An earlier frame, evaluated apart: the render tree keeps the frame to be drawn.
            let tree = ShapeTree(items: items, frame: frame, budget: renderer.budget)
            result = Self.reach(of: tree.ops, bounds: tree.ops.indices.map { tree.joinedPath(ofOpAt: $0).bounds }, world: world)
        }
        return result
    }

    /// The union of the paints' reach; nil when one is not known.
    static func reach(of ops: [DrawOp], bounds: [Rect?], world: Matrix) -> PixelRect? {
        var union = PixelRect.empty
        for (op, rect) in zip(ops, bounds) {
            guard let rect else { continue }
            guard let reach = PaintReach.pixels(of: rect, kind: op.kind, toDevice: op.matrix.concatenating(world)) else { return nil }
            union = union.union(reach)
        }
        return union
    }

    /// The device pixels the rectangle (0, 0, width, height) may touch through `world`
    /// (anti-aliased edges and image filtering included); nil when not finite.
    static func rectBounds(width: Double, height: Double, world: Matrix) -> PixelRect? {
        guard width.isFinite, height.isFinite else { return nil }
        let c0 = world.apply(Point(0, 0)), c1 = world.apply(Point(width, 0))
        let c2 = world.apply(Point(0, height)), c3 = world.apply(Point(width, height))
        let minX = PaintReach.least(c0.x, c1.x, c2.x, c3.x), maxX = PaintReach.most(c0.x, c1.x, c2.x, c3.x)
        let minY = PaintReach.least(c0.y, c1.y, c2.y, c3.y), maxY = PaintReach.most(c0.y, c1.y, c2.y, c3.y)
        func usable(_ v: Double) -> Bool { v.isFinite && abs(v) < 1e8 }
        guard usable(minX), usable(maxX), usable(minY), usable(maxY) else { return nil }
        return PixelRect(enclosing: Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)).grown(by: 2)
    }
}

/// Whether every property noted gives the same value at frames `a` and `b`: both take one
/// keyframe's value as it stands (before the first, after the last, or in a hold), or a
/// provider that does not read the frame gives it. Exact: nothing interpolated is compared.
struct HeldJudge: AnimatedPropertyWalk {
    let a: Double, b: Double
    private(set) var held = true

    init(a: Double, b: Double) {
        self.a = a
        self.b = b
    }

    mutating func note<V>(_ property: Animated<V>) {
        guard held else { return }
        if let provider = property.provider {
            if provider.dependsOnFrame { held = false }
            return
        }
        guard property.keyframes.count > 1 else { return }
        let i = Self.keyframeShown(property.keyframes, at: a)
        if i == nil || i != Self.keyframeShown(property.keyframes, at: b) { held = false }
    }

    /// The keyframe whose value `Animated.keyframedValue(at:)` gives unchanged at `frame`;
    /// nil when it interpolates.
    static func keyframeShown<V>(_ keyframes: [Keyframe<V>], at frame: Double) -> Int? {
        let last = keyframes.count - 1
        if last == 0 || !(frame > keyframes[0].time) { return 0 }
        if frame >= keyframes[last].time { return last }
        var lo = 0, hi = last
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if keyframes[mid].time <= frame { lo = mid } else { hi = mid }
        }
        return keyframes[lo].hold ? lo : nil
    }

    /// A layer's own properties: transform, masks, effects, styles and time remapping.
    mutating func noteOwn(_ layer: Layer) {
        note(layer.transform)
        note(layer.masks)
        note(layer.effects)
        note(layer.styles)
        note(layer.timeRemap)
    }

    mutating func note(_ masks: [LottieModel.Mask]) {
        for i in masks.indices {
            note(masks[i].path)
            note(masks[i].opacity)
            note(masks[i].expansion)
        }
    }

    mutating func note(_ effects: [Effect]) {
        for i in effects.indices {
            for j in effects[i].values.indices {
                note(effects[i].values[j].scalar)
                note(effects[i].values[j].color)
                note(effects[i].values[j].point)
            }
        }
    }

    mutating func note(_ styles: [LayerStyle]) {
        for i in styles.indices {
            note(styles[i].color); note(styles[i].opacity); note(styles[i].angle); note(styles[i].size)
            note(styles[i].distance); note(styles[i].spread); note(styles[i].source)
        }
    }

    mutating func noteTooDeep() { held = false }

    var keepsLooking: Bool { held }
}

/// Shape layers' device bounds found by the damage of earlier frames, so that the frame a
/// surface holds is not evaluated again: the bounds found for the frame drawn are those of
/// the next damage's earlier frame. Kept only under the providers they were found with.
final class DamageMemo: @unchecked Sendable {
    struct Key: Hashable {
        let comp: Int, position: Int, frame: Double
        let a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

        /// `matrix`: the composition's, which with the layer and frame decides the layer's.
        init(comp: Int, position: Int, frame: Double, matrix: Matrix) {
            (self.comp, self.position, self.frame) = (comp, position, frame)
            (a, b, c, d, tx, ty) = (matrix.a, matrix.b, matrix.c, matrix.d, matrix.tx, matrix.ty)
        }
    }

    struct Entries {
        var context: [UInt64] = []
        var earlier: [Key: PixelRect?] = [:]
        var now: [Key: PixelRect?] = [:]

        func find(_ key: Key) -> PixelRect?? {
            if let found = now[key] { return found }
            if let found = earlier[key] { return found }
            return nil
        }

        mutating func keep(_ key: Key, _ value: PixelRect?) {
            now[key] = .some(value)
        }
    }

    private let state = Mutex(Entries())
    /// Damages in a row that spanned the whole frame, and frames left to draw whole without
    /// working the damage out: an animation that changes everywhere pays little for looking.
    private let wholeRun = Mutex((run: 0, skip: 0))
    /// The most frames drawn whole without looking.
    static let maxSkipped = 8

    init() {}

    /// Whether the next frame's damage is worth working out (false: draw it whole).
    func looks() -> Bool {
        wholeRun.withLock { state in
            guard state.skip > 0 else { return true }
            state.skip -= 1
            return false
        }
    }

    /// Records whether the damage worked out spanned the whole frame (or too much of it to pay).
    func record(whole: Bool) {
        wholeRun.withLock { state in
            state.run = whole ? state.run + 1 : 0
            state.skip = min(state.run, Self.maxSkipped)
        }
    }

    /// The entries a damage starts from: those the last one found, when found under `context`.
    func begin(context: [UInt64]) -> Entries {
        state.withLock { kept in
            Entries(context: context, earlier: kept.context == context ? kept.now : [:], now: [:])
        }
    }

    /// Keeps what a damage found, for the next.
    func end(_ entries: Entries) {
        state.withLock { $0 = entries }
    }
}
