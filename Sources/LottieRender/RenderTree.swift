import Glibc
import LottieModel
import Posix
import Raster
import Synchronization

/// The part of a frame's work that the model decides once, built when the renderer is made
/// (and again when value providers are rebound): one node per shape layer of every
/// composition, which knows what its shapes depend on (`ShapeDependence`) and keeps them
/// evaluated, and a coverage slot per fill and stroke, which keeps what each painted last.
///
/// Each frame then re-evaluates only what changes: a node whose items have keyframes is
/// evaluated once per frame; one driven only by providers, when a provider's version moves
/// (a provider change dirties its own node and no other); one with neither, never again. A
/// paint whose outline and transform are those of the frame before is painted from its
/// slot. The per-frame walk (`ShapeCache`, `CoverageCache`) stays as the reference that
/// `AnimationRenderer.usesRenderTree = false` selects; tests compare the two byte for byte.
final class RenderTree: @unchecked Sendable {
    private let rootNodes: [ShapeLayerNode?]
    private let precompNodes: [String: [ShapeLayerNode?]]
    private let rootChains: [LayerChain]
    private let precompChains: [String: [LayerChain]]
    /// The last coverage of every fill and stroke of every node, as one thread draws them
    /// (and the first band of a threaded frame).
    let slots = CoverageSlots()
    /// The slots of the other bands of threaded frames, one store per band: a band keeps
    /// its own coverage (its rows only) and finds it with no lock another thread takes, and
    /// each paint's record of how its shape changes is that of one band, as with one thread.
    /// They share the slots' byte limit evenly, so that all bands hold about what one would;
    /// a frame cut into another number of bands starts them anew.
    private let bandSlots = Mutex<(stores: [CoverageSlots], bytes: Int)>(([], 8 << 20))

    init(root: Composition, precomps: [String: Composition]) {
        var nextSlot = 0
        func nodes(_ comp: Composition) -> [ShapeLayerNode?] {
            comp.layers.map { layer in
                guard case .shape(let items) = layer.kind else { return nil }
                let node = ShapeLayerNode(items: items, firstSlot: nextSlot)
                nextSlot += node.slotCount
                return node
            }
        }
        rootNodes = nodes(root)
        rootChains = LayerChain.chains(of: root)
        var byID: [String: [ShapeLayerNode?]] = [:]
        var chainsByID: [String: [LayerChain]] = [:]
        for id in precomps.keys.sorted() {
            byID[id] = nodes(precomps[id]!)
            chainsByID[id] = LayerChain.chains(of: precomps[id]!)
        }
        precompNodes = byID
        precompChains = chainsByID
        var ordinals: [CompositionParts?] = []
        for comp in [root] + precomps.values {
            guard let ordinal = comp.ordinal, ordinal >= 0, ordinal <= precomps.count else { continue }
            if ordinals.count <= ordinal { ordinals += Array(repeating: nil, count: ordinal + 1 - ordinals.count) }
            ordinals[ordinal] = comp.id.map { CompositionParts(id: $0, nodes: byID[$0] ?? [], chains: chainsByID[$0] ?? []) }
                ?? CompositionParts(id: nil, nodes: rootNodes, chains: rootChains)
        }
        byOrdinal = ordinals
    }

    /// The nodes and chains of each composition by its `ordinal` (with its id, checked on use).
    private let byOrdinal: [CompositionParts?]

    /// The nodes and chains of `comp`: by its ordinal, or else by its id. One reference: as
    /// a tuple of the two lists (and the id), each of a frame's layers retained and released
    /// them all twice.
    private func parts(of comp: Composition) -> CompositionParts {
        if let ordinal = comp.ordinal, ordinal >= 0, ordinal < byOrdinal.count, let found = byOrdinal[ordinal], found.id == comp.id {
            return found
        }
        guard let id = comp.id else { return CompositionParts(id: nil, nodes: rootNodes, chains: rootChains) }
        return CompositionParts(id: id, nodes: precompNodes[id] ?? [], chains: precompChains[id] ?? [])
    }

    /// The matrix of the layer at `position` in `comp` to the composition's space, through
    /// its parents, as `LayerCompositor.layerMatrix` computes it: kept when no transform on
    /// the way varies, else computed from the parents' positions found once.
    func layerMatrix(in comp: Composition, at position: Int, frame: Double) -> Matrix? {
        let parts = parts(of: comp)
        guard position < parts.chains.count else { return nil }
        // The chain is read in place (taken by subscript, it was copied: its two lists retained).
        return parts.chains.withUnsafeBufferPointer { chains in
            let chain = chains.baseAddress! + position
            if let still = chain.pointee.still { return still }
            return LayerChain.matrix(of: chain, in: comp, frame: frame)
        }
    }

    /// The node of the shape layer at `position` in `comp`.
    func node(in comp: Composition, at position: Int) -> ShapeLayerNode? {
        let parts = parts(of: comp)
        return position < parts.nodes.count ? parts.nodes[position] : nil
    }

    /// The slots band `band` of `count` draws with (band 0: `slots`).
    func slots(band: Int, of count: Int) -> CoverageSlots {
        guard band > 0, band < count else { return slots }
        return bandSlots.withLock { bands in
            if bands.stores.count != count - 1 {
                let limit = bands.bytes / count
                bands.stores = (1..<count).map { _ in CoverageSlots(byteLimit: limit) }
                slots.startFrame(byteLimit: limit)
            }
            return bands.stores[band - 1]
        }
    }

    /// Starts a frame whose slots keep at most `bytes` in all (`CoverageSlots.startFrame`),
    /// shared evenly by the bands last drawn.
    func startFrame(slotBytes bytes: Int) {
        bandSlots.withLock { bands in
            bands.bytes = bytes
            let share = bytes / (bands.stores.count + 1)
            slots.startFrame(byteLimit: share)
            for store in bands.stores { store.startFrame(byteLimit: share) }
        }
    }

    /// Every slot store, the first band's first.
    var allSlots: [CoverageSlots] { [slots] + bandSlots.withLock { $0.stores } }

    /// Every node, root composition first (for statistics and tests).
    var allNodes: [ShapeLayerNode] {
        (rootNodes + precompNodes.keys.sorted().flatMap { precompNodes[$0]! }).compactMap { $0 }
    }
}

/// The nodes and chains of one composition (`RenderTree`).
final class CompositionParts: @unchecked Sendable {
    let id: String?
    let nodes: [ShapeLayerNode?]
    let chains: [LayerChain]

    init(id: String?, nodes: [ShapeLayerNode?], chains: [LayerChain]) {
        self.id = id
        self.nodes = nodes
        self.chains = chains
    }
}

/// A layer and its parents, found once: their positions, and the layer's matrix when no
/// transform among them varies.
struct LayerChain {
    /// The layer's position, then its parent's, and so on (at most 64 hops, as
    /// `LayerCompositor.layerMatrix` follows them).
    let positions: [Int]
    /// The matrix, when every transform of the chain is constant.
    private(set) var still: Matrix?
    /// For each of `positions`, its layer's own matrix when its transform is constant (nil when
    /// it varies): a moving layer's still parents (null layers that place a group of layers)
    /// were evaluated again for every child at every frame. Multiplied in the same order, the
    /// product is the same to the bit.
    private var fixed: [Matrix?] = []

    init(position: Int, in comp: Composition) {
        var positions = [position]
        // Followed by position: a copied `Layer` retains and releases every part of it.
        var current = position
        var hops = 0
        while let parentIndex = comp.layers[current].parent, let parent = comp.position(ofIndex: parentIndex), hops < 64 {
            positions.append(parent)
            current = parent
            hops += 1
        }
        self.positions = positions
        let constant = positions.allSatisfy { Self.isConstant(comp.layers[$0].transform) }
        still = nil
        if constant {
            still = matrix(in: comp, frame: 0)
        } else {
            fixed = positions.map { p in
                Self.isConstant(comp.layers[p].transform) ? comp.layers[p].transform.matrix(at: 0, autoOrient: comp.layers[p].autoOrient) : nil
            }
        }
    }

    static func chains(of comp: Composition) -> [LayerChain] {
        comp.layers.indices.map { LayerChain(position: $0, in: comp) }
    }

    /// The same product as `LayerCompositor.layerMatrix`, in the same order.
    func matrix(in comp: Composition, frame: Double) -> Matrix {
        withUnsafePointer(to: self) { Self.matrix(of: $0, in: comp, frame: frame) }
    }

    /// `matrix(in:frame:)` of the chain at `chain`, read in place.
    static func matrix(of chain: UnsafePointer<LayerChain>, in comp: Composition, frame: Double) -> Matrix {
        // Each layer's transform is read in place, through the array's buffer (a copied layer
        // or transform retains all its parts, which the bands of a threaded frame contend for;
        // read through the array's subscript, each transform was still copied and destroyed).
        comp.layers.withUnsafeBufferPointer { layers in
            var matrix = own(chain, 0, layers, frame: frame)
            for i in chain.pointee.positions.indices.dropFirst() {
                matrix = matrix.concatenating(own(chain, i, layers, frame: frame))
            }
            return matrix
        }
    }

    /// The own matrix of the `i`th layer of the chain at `chain`: kept when constant, else evaluated.
    private static func own(_ chain: UnsafePointer<LayerChain>, _ i: Int, _ layers: UnsafeBufferPointer<Layer>, frame: Double) -> Matrix {
        if i < chain.pointee.fixed.count, let kept = chain.pointee.fixed[i] { return kept }
        return ownMatrix(layers, chain.pointee.positions[i], frame: frame)
    }

    /// The matrix of the transform of `layers[position]`, read in place.
    private static func ownMatrix(_ layers: UnsafeBufferPointer<Layer>, _ position: Int, frame: Double) -> Matrix {
        let autoOrient = layers[position].autoOrient
        return withUnsafePointer(to: layers[position].transform) { ModelTransform.matrix(of: $0, at: frame, autoOrient: autoOrient) }
    }

    /// No keyframes and no provider on any of the transform's properties.
    static func isConstant(_ t: LottieModel.Transform) -> Bool {
        func still<V>(_ p: Animated<V>) -> Bool { p.keyframes.count <= 1 && p.provider == nil }
        return !t.position.isAnimated && still(t.anchor) && still(t.scale) && still(t.rotation) && still(t.opacity)
            && still(t.skew) && still(t.skewAxis)
    }
}

/// One shape layer of the render tree: its shapes as last evaluated, and what they depend on.
final class ShapeLayerNode: @unchecked Sendable {
    let items: [ShapeItem]
    let dependence: ShapeDependence
    /// The coverage slots of its fills and strokes: `firstSlot ..< firstSlot + slotCount`, one
    /// per style item of the file (paints past them, made by a repeater's copies, have none).
    let firstSlot: Int
    let slotCount: Int

    /// Merges and offsets of the last evaluation, reused when their inputs held still.
    let memo = GeometryMemo()
    private let lock = AdaptiveLock()
    private var last: (frame: Double, versions: [UInt64], shapes: PreparedShapes)?
    /// The shapes `last` held before, evaluated into anew when nothing holds them any more
    /// (a layer evaluated at every frame then reuses two sets of lists, turn about).
    private var spare: PreparedShapes?
    /// The evaluation under way on some thread, numbered by `evaluationsStarted`.
    private var pending: (frame: Double, versions: [UInt64], ticket: UInt64)?
    private var evaluationsStarted: UInt64 = 0
    /// The number of the latest evaluation stored in `last`.
    private let evaluationsStored = Atomic<UInt64>(0)
    /// Counts as `ShapeCache` keeps them: a look-ahead's evaluation is counted at the first
    /// counted use.
    private var counts = (evaluated: 0, reused: 0)
    private var uncounted = false
    /// Evaluations made into the storage of an earlier one (`PreparedShapes.refill`).
    private var refills = 0

    /// How many evaluations reused the lists of an earlier one rather than allocating their own.
    var refilledEvaluations: Int {
        lock.lock(); defer { lock.unlock() }
        return refills
    }

    init(items: [ShapeItem], firstSlot: Int) {
        self.items = items
        dependence = ShapeDependence(items: items)
        self.firstSlot = firstSlot
        slotCount = Self.styleCount(items, depth: 0)
    }

    /// How many times its shapes were evaluated, and how many times they were reused.
    var statistics: (evaluated: Int, reused: Int) {
        lock.lock(); defer { lock.unlock() }
        return counts
    }

    /// The shapes at `frame`: those evaluated before when nothing they depend on changed
    /// since. A look-ahead (`counted: false`) is left out of the statistics. While another
    /// thread evaluates the same shapes (the bands of a frame), this one waits a while for
    /// its result rather than evaluate them too.
    /// With `sharing`, the shapes made here share their paints' device paths among the bands
    /// that draw them (`DevicePaths`).
    func shapes(at frame: Double, budget: RenderBudget, counted: Bool = true, sharing: Bool = false) -> PreparedShapes {
        // Versions are read before evaluating: a provider changed meanwhile leaves an older
        // version, which the next frame evaluates again.
        let versions = dependence.providers.map(\.version)
        var waited = false
        while true {
            lock.lock()
            if let last, last.versions == versions, !dependence.frame || last.frame == frame {
                if counted {
                    if uncounted { counts.evaluated += 1 } else { counts.reused += 1 }
                    uncounted = false
                }
                lock.unlock()
                return last.shapes
            }
            guard !waited, let pending, pending.versions == versions, pending.frame == frame || !dependence.frame else { break }
            lock.unlock()
            waited = true
            waitForEvaluation(after: pending.ticket)
        }
        let ticket = evaluationsStarted &+ 1
        evaluationsStarted = ticket
        pending = (frame, versions, ticket)
        var recycled = spare
        spare = nil
        lock.unlock()
        let shapes: PreparedShapes
        let reuses = isKnownUniquelyReferenced(&recycled)
        if reuses, let recycled {
            recycled.refill(items: items, frame: frame, budget: budget, memo: memo, sharing: sharing)
            shapes = recycled
        } else {
            shapes = PreparedShapes(tree: ShapeTree(items: items, frame: frame, budget: budget, memo: memo), node: self, sharing: sharing)
        }
        lock.lock()
        // The shapes replaced are kept to evaluate into next time, once every draw let go of them.
        spare = last?.shapes
        last = (frame, versions, shapes)
        if pending?.ticket == ticket { pending = nil }
        if counted { counts.evaluated += 1 }
        if reuses { refills += 1 }
        uncounted = !counted
        lock.unlock()
        evaluationsStored.max(ticket, ordering: .releasing)
        return shapes
    }

    /// Spins until the evaluation `ticket` (or a later one) is stored, for at most
    /// `waitNanoseconds`: an evaluation takes microseconds, but the thread making it may
    /// be preempted, and then evaluating here is quicker than waiting.
    private func waitForEvaluation(after ticket: UInt64) {
        let deadline = BandWorkers.now() &+ Self.waitNanoseconds
        var spins = 0
        while evaluationsStored.load(ordering: .acquiring) < ticket {
            spins += 1
            if spins & 63 == 0, BandWorkers.now() > deadline { return }
        }
    }

    /// How long a thread waits for another's evaluation of the same shapes.
    static let waitNanoseconds: UInt64 = 200_000

    /// Fills and strokes among `items`, at any depth.
    private static func styleCount(_ items: [ShapeItem], depth: Int) -> Int {
        guard depth < 64 else { return 0 }
        return items.reduce(0) { count, item in
            switch item.kind {
            case .group(let children): return count + styleCount(children, depth: depth + 1)
            case .fill, .stroke, .gradientFill, .gradientStroke: return count + 1
            default: return count
            }
        }
    }
}

/// A shape layer's shapes evaluated at one frame, with each paint's shapes joined into the
/// one path it fills or strokes: kept by a node, they are joined once, not every frame. A
/// class, so that each band of a threaded frame takes one reference to it, not one to each
/// of its arrays (the bands contend for every count they both change). Never changed while
/// anything but its node holds it: the node refills one only it holds (`refill`). Its fields
/// are therefore read without the dynamic exclusivity checks of a class's `var`s (a check per
/// read of every paint of every frame): no write can overlap a read.
final class PreparedShapes: @unchecked Sendable {
    @exclusivity(unchecked) private(set) var tree: ShapeTree
    /// For each of `tree.ops`, its shapes in its own space.
    @exclusivity(unchecked) private(set) var paths: [RasterPath] = []
    /// For each of `paths`, its bounds (nil: empty), for `PaintReach`.
    @exclusivity(unchecked) private(set) var bounds: [Rect?] = []
    /// The node whose slots keep the paints' coverage.
    let node: ShapeLayerNode
    /// Each paint's path in device space, made once for all the bands of a threaded frame
    /// (nil on one thread, where nothing would share it).
    @exclusivity(unchecked) private(set) var devicePaths: DevicePaths?

    /// Where the dashed strokes drawn solid are (`ShapeTree.dashedStrokesDrawnSolid`): found
    /// once for the evaluation, not at each of its draws.
    @exclusivity(unchecked) private(set) var dashesDrawnSolid: [String] = []

    init(tree: ShapeTree, node: ShapeLayerNode, sharing: Bool = false) {
        self.tree = tree
        self.node = node
        prepare(sharing: sharing)
    }

    /// Evaluates the node's items at `frame` into this one, as a new one made from a new tree
    /// would be, keeping the storage of its lists. Only for one nothing else holds.
    func refill(items: [ShapeItem], frame: Double, budget: RenderBudget, memo: GeometryMemo?, sharing: Bool) {
        // The joined paths go first: one shape's path is its own join, and held twice it
        // would be copied when evaluated anew.
        paths.removeAll(keepingCapacity: true)
        tree.reevaluate(items: items, frame: frame, budget: budget, memo: memo)
        prepare(sharing: sharing)
    }

    /// Joins each op's shapes and finds what drawing reads from them.
    private func prepare(sharing: Bool) {
        paths.removeAll(keepingCapacity: true)
        bounds.removeAll(keepingCapacity: true)
        // One call on the tree, not one per op: a method called on a class's stored struct
        // works on a copy of it (retaining each of its lists), made at each call.
        dashesDrawnSolid = tree.appendJoinedPaths(to: &paths, bounds: &bounds)
        devicePaths = sharing ? DevicePaths(count: paths.count) : nil
    }

    /// Paints the shapes as `ShapeTree.draw` does, each paint through its slot; coverage a
    /// slot must make is looked up in the shared `cache` first (another instance of a
    /// precomp, or an earlier turn of a loop, may have drawn it).
    func draw(into surface: inout Surface, layerMatrix: Matrix, opacity: Double, clip: Clip?, slots: CoverageSlots,
              cache: CoverageCache?) {
        // Each op is read in place (a copied op retains its paint, stroke style, shape ids and
        // JSON path, and releases them again, for every paint of every frame).
        tree.ops.withUnsafeBufferPointer { ops in
            for index in ops.indices.reversed() {
                draw(ops.baseAddress! + index, index: index, into: &surface, layerMatrix: layerMatrix, opacity: opacity, clip: clip,
                     slots: slots, cache: cache)
            }
        }
    }

    /// Paints op `index` (`op`) as `draw(into:…)` does.
    private func draw(_ op: UnsafePointer<DrawOp>, index: Int, into surface: inout Surface, layerMatrix: Matrix, opacity: Double,
                      clip: Clip?, slots: CoverageSlots, cache: CoverageCache?) {
        let alpha = op.pointee.opacity * opacity
        guard alpha > 0, !op.pointee.nodeIDs.isEmpty, !paths[index].isEmpty else { return }
        let toDevice = op.pointee.matrix.concatenating(layerMatrix)
        // A paint wholly outside the target (another band's rows) is not outlined or looked up.
        // The stroke's size is read in place: the paint passed whole was copied for every paint of every frame.
        let stroke = PaintReach.stroke(of: op.pointee.kind)
        let reach = bounds[index].flatMap { PaintReach.pixels(of: $0, stroke: stroke, toDevice: toDevice) }
        if !PaintReach.mayPaint(reach, surface: surface, clip: clip) { return }
        // Paints beyond the file's style items (a repeater's copies) have no slot of their own.
        let slot = index < node.slotCount ? node.firstSlot + index : -1
        let shared = devicePaths.map { (paths: $0, index: index) }
        switch op.pointee.kind {
        case .fill(let paint, let rule):
            surface.fill(paths[index], transform: toDevice, rule: rule, paint: paint, opacity: alpha, clip: clip, slots: slots,
                         slot: slot, cache: cache, shared: shared, reach: reach)
        case .stroke(let paint, let style):
            surface.stroke(paths[index], transform: toDevice, style: style, paint: paint, opacity: alpha, clip: clip, slots: slots,
                           slot: slot, cache: cache, shared: shared, reach: reach)
        }
    }
}

/// A shape layer's shapes as `LayerCompositor` passes them around: the evaluated tree and,
/// on the render tree's path, the prepared paints that draw it.
struct LayerShapes {
    let prepared: PreparedShapes?
    /// The tree evaluated through the shape cache (nil on the render tree's path: `prepared`
    /// holds it). Boxed, so that a `LayerShapes` is two references: holding a whole tree, it
    /// was copied and destroyed through its type's metadata, for every shape layer of every frame.
    private let evaluated: EvaluatedTree?

    init(prepared: PreparedShapes) {
        self.prepared = prepared
        evaluated = nil
    }

    init(tree: ShapeTree) {
        prepared = nil
        evaluated = EvaluatedTree(tree)
    }

    /// The evaluated tree, as a copy (a retain and release of each of its lists): what is
    /// read for every shape layer of every frame is read in place below.
    var tree: ShapeTree { prepared?.tree ?? evaluated?.tree ?? ShapeTree(items: [], frame: 0) }

    var ops: [DrawOp] { prepared?.tree.ops ?? evaluated?.tree.ops ?? [] }
    /// The tree's `elementCount`, `ops.count` and `exhausted`.
    var elementCount: Int { prepared?.tree.elementCount ?? evaluated?.tree.elementCount ?? 0 }
    var opCount: Int { prepared?.tree.ops.count ?? evaluated?.tree.ops.count ?? 0 }
    var exhausted: Bool { prepared?.tree.exhausted ?? evaluated?.tree.exhausted ?? false }

    func draw(into surface: inout Surface, layerMatrix: Matrix, opacity: Double, clip: Clip?, renderer: AnimationRenderer,
              slots: CoverageSlots? = nil) {
        if let prepared {
            for place in prepared.dashesDrawnSolid { Self.noteDashDrawnSolid(at: place, renderer.notes) }
        } else {
            noteDashesDrawnSolid(renderer.notes)
        }
        if let prepared, let renderTree = renderer.renderTree {
            prepared.draw(into: &surface, layerMatrix: layerMatrix, opacity: opacity, clip: clip, slots: slots ?? renderTree.slots,
                          cache: renderer.coverageCache)
        } else {
            tree.draw(into: &surface, layerMatrix: layerMatrix, opacity: opacity, clip: clip, cache: renderer.coverageCache)
        }
    }
}

/// A shape tree held by reference (`LayerShapes`).
final class EvaluatedTree: @unchecked Sendable {
    let tree: ShapeTree

    init(_ tree: ShapeTree) {
        self.tree = tree
    }
}

extension AnimationRenderer {
    /// The shapes of the shape layer at `position` in `comp` at `frame`: from its render-tree
    /// node, or evaluated through the shape cache when the tree is off (the reference).
    func layerShapes(of comp: Composition, at position: Int, items: [ShapeItem], frame: Double, counted: Bool = true) -> LayerShapes {
        if let renderTree, let node = renderTree.node(in: comp, at: position) {
            let prepared = node.shapes(at: frame, budget: budget, counted: counted, sharing: threads > 1)
            return LayerShapes(prepared: prepared)
        }
        let tree = shapeCache.shapes(of: comp, at: position, items: items, frame: frame, counted: counted, budget: budget)
        return LayerShapes(tree: tree)
    }

    /// How many times the render tree's nodes evaluated their shapes, node by node (root
    /// composition first, then precomps by id); empty when the tree is off.
    var renderTreeEvaluations: [Int] { renderTree?.allNodes.map(\.statistics.evaluated) ?? [] }

    /// Evaluations and reuses of shapes, summed over the render tree's nodes.
    var renderTreeStatistics: (evaluated: Int, reused: Int) {
        (renderTree?.allNodes ?? []).reduce((0, 0)) { sum, node in
            let s = node.statistics
            return (sum.0 + s.evaluated, sum.1 + s.reused)
        }
    }

    /// Makes the render tree anew from the compositions (after providers were rebound), or
    /// drops it when `usesRenderTree` is off.
    mutating func rebuildRenderTree() {
        renderTree = usesRenderTree ? RenderTree(root: root, precomps: precomps) : nil
    }

    /// How many paints of the render tree reused their slot's coverage, and how many did not.
    public var slotReuse: (hits: Int, misses: Int) {
        (renderTree?.allSlots ?? []).reduce((0, 0)) { sum, slots in
            let s = slots.statistics
            return (sum.0 + s.hits, sum.1 + s.misses)
        }
    }
}
