import LottieModel
import Synchronization

/// The render-tree nodes a frame draws, each with the frame its shapes are evaluated at, in
/// the order the frame draws them: what the bands of a threaded frame evaluate once between
/// them before they draw.
///
/// Every band walks the whole frame and asks each node for its shapes. A node evaluates at
/// most once per frame, but two bands that reach it at the same moment both evaluated it,
/// and the model's shared storage then moved between the cores at every reference count
/// touched: the bands of a 0.4 ms frame each took 80 % of the whole frame's time. So the
/// threads first take the plan's nodes in turn (`Cursor`) and evaluate them, each node on
/// one thread, and then draw their bands from what the nodes keep.
///
/// The plan changes no pixel: a band asks its nodes for the same frame as before and gets
/// shapes evaluated by the same code; the plan only decides on which thread, and earlier.
/// A node shown at two different frames in one frame (a precomp placed twice, offset in
/// time) is left out, as the node keeps one evaluation: the bands evaluate it as they draw.
struct FramePlan {
    struct Entry {
        let node: ShapeLayerNode
        let frame: Double
    }

    /// In drawing order.
    private(set) var entries: [Entry] = []

    /// Which entries have been taken, shared by the threads of one frame. Entries are taken
    /// from both ends: the thread taking from the front evaluates the nodes drawn first, the
    /// others those drawn last. Two threads evaluating neighbouring nodes (layers of one
    /// precomp, reading the same parents and keyframes) moved the shared storage's reference
    /// counts between the cores at every node: taken from opposite ends, the evaluation phase
    /// of a 0.3 ms 1080p frame ended 5–8 µs sooner.
    final class Cursor: Sendable {
        /// Entries taken from the front (low 32 bits) and from the back (high 32 bits).
        private let ends = Atomic<UInt64>(0)

        init() {}

        /// The index of the next entry of `count` no thread has taken, counted from the back
        /// when `fromBack`; nil once every entry is taken.
        func take(of count: Int, fromBack: Bool) -> Int? {
            var s = ends.load(ordering: .relaxed)
            while true {
                let front = Int(s & 0xFFFF_FFFF), back = Int(s >> 32)
                guard front + back < count else { return nil }
                let (exchanged, found) = ends.compareExchange(expected: s, desired: fromBack ? s &+ (1 << 32) : s &+ 1, ordering: .relaxed)
                if exchanged { return fromBack ? count - 1 - back : front }
                s = found
            }
        }
    }

    /// The plan of `frame` as `renderer` draws it (empty when it draws without a render tree).
    init(renderer: AnimationRenderer, frame: Double) {
        guard frame.isFinite, let tree = renderer.renderTree else { return }
        var walk = Walk(precomps: renderer.precomps, tree: tree, frameRate: renderer.animation.frameRate,
                        maxLayerDraws: renderer.budget.maxLayerDraws)
        walk.visit(renderer.root, frame: frame, opacity: 1, depth: 0)
        entries = walk.found.compactMap { found in found.frame.map { Entry(node: found.node, frame: $0) } }
    }

    /// Evaluates the entries no other thread has taken yet, taking them one by one from
    /// `cursor` (from its back when `fromBack`), until none is left or `seconds` have passed
    /// (nil: no limit). Entries left are evaluated by the threads that draw them (a node
    /// evaluates at most once per frame, whoever asks), so stopping early changes no pixel.
    /// Returns the seconds spent.
    @discardableResult
    func evaluate(taking cursor: Cursor, budget: RenderBudget, fromBack: Bool = false, seconds limit: Double? = nil) -> Double {
        let start = BandWorkers.now()
        let deadline = limit.map { start &+ UInt64(($0.isFinite ? min(max($0, 0), 1) : 0) * 1e9) }
        while deadline.map({ BandWorkers.now() < $0 }) ?? true, let index = cursor.take(of: entries.count, fromBack: fromBack) {
            _ = entries[index].node.shapes(at: entries[index].frame, budget: budget, counted: false, sharing: true)
        }
        return Double(BandWorkers.now() &- start) * 1e-9
    }

    /// The walk `LayerCompositor.drawComposition` makes, reduced to what decides which nodes
    /// are drawn at which frame.
    ///
    /// It holds only the few parts of the renderer it reads, not a copy of the renderer (nor
    /// of a compositor, which holds one): copying the renderer retains each of its dozens of
    /// references, objects every band's thread retains too, so each retain moved a cache line
    /// between the cores.
    private struct Walk {
        let precomps: [String: Composition]
        let tree: RenderTree
        let frameRate: Double
        let maxLayerDraws: Int
        /// Each node once, with its frame, or nil when it is drawn at two frames.
        var found: [(node: ShapeLayerNode, frame: Double?)] = []
        /// Sized once for a frame's worth of nodes: grown insert by insert, it was a third of
        /// the walk's time (the walk runs on one thread while the others wait).
        var indexOf = [ObjectIdentifier: Int](minimumCapacity: 64)
        /// Layers visited, bounded as the layers a frame may draw are.
        var visits = 0

        /// The layers are read in place: a copied layer retains each of its parts.
        mutating func visit(_ comp: Composition, frame: Double, opacity: Double, depth: Int) {
            guard depth < LayerCompositor.maxDepth else { return }
            for position in comp.layers.indices.reversed() {
                guard !comp.layers[position].isMatteSource, !comp.layers[position].hidden, shows(comp.layers[position], at: frame)
                else { continue }
                if comp.layers[position].matteMode != .none, let source = comp.matteSource(forLayerAt: position),
                   !comp.layers[source].hidden || comp.layers[source].isMatteSource, shows(comp.layers[source], at: frame) {
                    add(at: source, in: comp, frame: frame, opacity: 1, depth: depth)
                }
                add(at: position, in: comp, frame: frame, opacity: opacity, depth: depth)
            }
        }

        /// `LayerCompositor.isVisible`, read in place.
        private func shows(_ layer: borrowing Layer, at frame: Double) -> Bool {
            layer.inPoint <= frame && frame <= layer.outPoint
        }

        private mutating func add(at position: Int, in comp: Composition, frame: Double, opacity: Double, depth: Int) {
            visits += 1
            guard visits <= maxLayerDraws else { return }
            switch comp.layers[position].kind {
            case .shape:
                // A layer the frame draws with no opacity is not drawn, nor evaluated.
                // The opacity is read in place: `opacityFraction` on the layer's transform
                // copied the whole transform (a reference count per animated property).
                guard opacity * clamp01(comp.layers[position].transform.opacity.value(at: frame) / 100) > 0,
                      let node = tree.node(in: comp, at: position) else { return }
                let key = ObjectIdentifier(node)
                if let index = indexOf[key] {
                    if found[index].frame != frame { found[index].frame = nil }
                } else {
                    indexOf[key] = found.count
                    found.append((node, frame))
                }
            case .precomp(let refId, _, _):
                let layer = comp.layers[position]
                let alpha = opacity * layer.transform.opacityFraction(at: frame)
                guard alpha > 0, let inner = precomps[refId] else { return }
                visit(inner, frame: LayerCompositor.localFrame(of: layer, at: frame, frameRate: frameRate), opacity: alpha, depth: depth + 1)
            default:
                return
            }
        }
    }
}
