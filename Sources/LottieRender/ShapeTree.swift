import Glibc
import LottieModel
import Raster

/// One evaluated shape of a shape layer: its geometry in its own group's space, and the
/// matrix from that space to the layer.
struct ShapeNode {
    var path: RasterPath
    var matrix: Matrix
}

/// What a fill or stroke paints with, evaluated at one frame.
enum StyleKind {
    case fill(Paint, FillRule)
    case stroke(Paint, StrokeStyle)
}

/// A fill or stroke applied to the shapes above it, evaluated at one frame.
struct DrawOp {
    var kind: StyleKind
    var opacity: Double
    /// Indexes into `ShapeTree.nodes` of the shapes this style paints.
    var nodeIDs: [Int]
    /// From the style's own group space to the layer (stroke widths and gradients live here).
    var matrix: Matrix
    /// The style item's place in the file, for warnings (kept for dashed strokes only).
    var jsonPath = ""
}

/// The shapes of a shape layer evaluated at one frame, following the Lottie model: a style
/// paints every shape above it in its group and in the groups nested above it; modifiers
/// (trim, rounded corners, …) change every shape above them, for every style that paints it;
/// items earlier in a list are drawn on top of later ones.
struct ShapeTree {
    private(set) var nodes: [ShapeNode] = []
    /// Top-most first.
    private(set) var ops: [DrawOp] = []
    private(set) var frame: Double
    private(set) var budget: RenderBudget
    /// Path elements and style references evaluated, against `budget.maxPathElementsPerLayer`.
    private(set) var elementCount = 0
    /// Set when the budget stopped the evaluation: the rest of the items were skipped.
    private(set) var exhausted = false

    /// Costly steps kept from the layer's last evaluation (the render tree's nodes have one);
    /// nil computes every step, the reference.
    private var memo: GeometryMemo?
    /// The paths of the shapes of the evaluation before (`reevaluate`), last shape first.
    private var sparePaths: [RasterPath] = []
    /// Memoized steps met so far: each one's place in `memo`.
    private var memoPlaces = 0
    /// The path measures of the last trim, to measure the next one's shapes into.
    private var spareMeasures: [PathMeasure] = []

    init(items: [ShapeItem], frame: Double, budget: RenderBudget = RenderBudget(), memo: GeometryMemo? = nil) {
        self.frame = frame
        self.budget = budget
        self.memo = memo
        _ = process(items, matrix: .identity, opacity: 1, depth: 0)
    }

    /// Evaluates `items` at `frame` into this tree anew, as `init` does, keeping the storage
    /// of its node and op lists: a render-tree node evaluates into a tree it made before, so
    /// that a layer evaluated at every frame does not allocate and free them each time.
    mutating func reevaluate(items: [ShapeItem], frame: Double, budget: RenderBudget, memo: GeometryMemo?) {
        // The shapes' paths are kept to build the new ones in, the first shape's taken first.
        sparePaths.removeAll(keepingCapacity: true)
        while let node = nodes.popLast() { sparePaths.append(node.path) }
        ops.removeAll(keepingCapacity: true)
        self.frame = frame
        self.budget = budget
        self.memo = memo
        memoPlaces = 0
        paintCount = 0
        elementCount = 0
        exhausted = false
        _ = process(items, matrix: .identity, opacity: 1, depth: 0)
    }

    /// `make()`, or its result from the memo when `input` is what it was made from last time at this place.
    private mutating func memoized<Input: Equatable>(_ input: @autoclosure () -> Input, _ make: () -> RasterPath?) -> RasterPath? {
        guard let memo else { return make() }
        memoPlaces += 1
        return memo.result(at: memoPlaces - 1, input: input(), make: make)
    }

    /// Fills and strokes made so far, against `budget.maxPaints` (`ops` is split while repeating).
    private var paintCount = 0

    /// Counts one more fill or stroke; false (and exhausted from then on) past the budget.
    private mutating func spendPaint() -> Bool {
        guard !exhausted, paintCount < budget.maxPaints else {
            exhausted = true
            return false
        }
        paintCount += 1
        return true
    }

    /// Counts `n` more elements; false (and exhausted from then on) past the budget.
    private mutating func spend(_ n: Int) -> Bool {
        guard !exhausted, elementCount + n <= budget.maxPathElementsPerLayer else {
            exhausted = true
            return false
        }
        elementCount += n
        return true
    }

    /// Paints the tree, bottom-most style first; shapes unchanged since an earlier frame are
    /// painted from the coverage `cache` kept of them.
    func draw(into surface: inout Surface, layerMatrix: Matrix, opacity: Double, clip: Clip?, cache: CoverageCache?) {
        for op in ops.reversed() {
            let alpha = op.opacity * opacity
            guard alpha > 0, !op.nodeIDs.isEmpty else { continue }
            let toDevice = op.matrix.concatenating(layerMatrix)
            let path = joinedPath(of: op)
            guard !path.isEmpty else { continue }
            switch op.kind {
            case .fill(let paint, let rule):
                surface.fill(path, transform: toDevice, rule: rule, paint: paint, opacity: alpha, clip: clip, cache: cache)
            case .stroke(let paint, let style):
                surface.stroke(path, transform: toDevice, style: style, paint: paint, opacity: alpha, clip: clip, cache: cache)
            }
        }
    }

    /// The shapes `op` paints joined into one path in the op's space (the render tree keeps it
    /// between frames; `draw` joins it anew).
    func joinedPath(of op: DrawOp) -> RasterPath { joinedPath(of: op.nodeIDs, in: op.matrix) }

    /// `joinedPath(of: ops[index])`, the op read in place (a copied op retains and releases
    /// its paint, style, ids and JSON path).
    func joinedPath(ofOpAt index: Int) -> RasterPath { joinedPath(of: ops[index].nodeIDs, in: ops[index].matrix) }

    /// `joinedPath(ofOpAt:)` of every op in order, appended to `paths` (empty on entry), and
    /// each one's bounds to `bounds`. Returns `dashedStrokesDrawnSolid` of those paths.
    func appendJoinedPaths(to paths: inout [RasterPath], bounds: inout [Rect?]) -> [String] {
        for index in ops.indices {
            let path = joinedPath(ofOpAt: index)
            paths.append(path)
            bounds.append(path.bounds)
        }
        let joined = paths
        return dashedStrokesDrawnSolid(path: { joined[$0] })
    }

    /// The shapes `ids` joined into one path in the space of `matrix`.
    private func joinedPath(of ids: [Int], in matrix: Matrix) -> RasterPath {
        // One shape already in the op's space is its own join (appended to an empty path it
        // gives the same value), kept without copying its elements into a new path.
        if ids.count == 1, nodes[ids[0]].matrix == matrix { return nodes[ids[0]].path }
        var path = RasterPath()
        for id in ids {
            let node = nodes[id]
            if node.matrix == matrix {
                path.append(node.path)
            } else if let inverse = matrix.inverted() {
                path.append(node.path.transformed(by: node.matrix.concatenating(inverse)))
            }
        }
        return path
    }

    /// Evaluates one group's items. Returns the ids of the shapes it contributes to the styles
    /// and modifiers of the enclosing group.
    ///
    /// Items are read in place through the array's buffer: walked as values, each item (its
    /// name, match name, JSON path and every animated property of its kind) was copied and
    /// destroyed again on every evaluation, a retain and release per reference it holds.
    private mutating func process(_ items: [ShapeItem], matrix parent: Matrix, opacity parentOpacity: Double, depth: Int) -> [Int] {
        guard depth < 64 else { return [] }
        return items.withUnsafeBufferPointer { process($0, matrix: parent, opacity: parentOpacity, depth: depth) }
    }

    private mutating func process(_ items: UnsafeBufferPointer<ShapeItem>, matrix parent: Matrix, opacity parentOpacity: Double,
                                  depth: Int) -> [Int] {
        var matrix = parent
        var opacity = parentOpacity
        // The group's transform item applies to the whole group wherever it stands in the list.
        for i in items.indices where !items[i].hidden {
            if Self.role(of: items.baseAddress! + i) == .transform,
               let own = Self.groupTransform(of: items.baseAddress! + i, at: frame) {
                matrix = own.matrix.concatenating(parent)
                opacity *= own.opacity
                break
            }
        }
        if let repeaterIndex = items.indices.first(where: { i in !items[i].hidden && Self.role(of: items.baseAddress! + i) == .repeater }),
           case .repeater(let repeater) = items[repeaterIndex].kind {
            var scope = repeatItems(UnsafeBufferPointer(rebasing: items[..<repeaterIndex]), repeater, matrix: matrix, opacity: opacity,
                                    depth: depth)
            scope += processItems(UnsafeBufferPointer(rebasing: items[(repeaterIndex + 1)...]), matrix: matrix, opacity: opacity,
                                  depth: depth, inherited: scope)
            return scope
        }
        return processItems(items, matrix: matrix, opacity: opacity, depth: depth, inherited: [])
    }

    private mutating func processItems(_ items: UnsafeBufferPointer<ShapeItem>, matrix: Matrix, opacity: Double, depth: Int,
                                       inherited: [Int]) -> [Int] {
        var scope = inherited
        for i in items.indices where !items[i].hidden {
            if exhausted { break }
            let item = items.baseAddress! + i
            // Told apart by role alone; each item's values are bound by the static readers
            // below: bound here, beside the changes to `self`, each item's whole kind was
            // copied first (a retain and release for each keyframe array and provider), and
            // even a switch on the kind in place copied it, to hold it across those changes.
            switch Self.role(of: item) {
            case .group:
                scope += process(Self.children(of: item), matrix: matrix, opacity: opacity, depth: depth + 1)
            case .shape:
                var path = takeSparePath()
                Self.geometry(of: item, at: frame, into: &path)
                addNode(path, matrix: matrix, to: &scope)
            case .style:
                if spendPaint(), spend(1 + scope.count),
                   var op = StyleEvaluation.drawOp(for: item, at: frame, nodeIDs: scope, matrix: matrix, opacity: opacity) {
                    op.jsonPath = item.pointee.jsonPath
                    ops.append(op)
                }
            case .trim:
                if let t = Self.trim(of: item, at: frame) {
                    applyTrim(start: t.start, end: t.end, offset: t.offset, individually: t.individually, to: scope)
                }
            case .transform, .repeater, .inert:
                // The group transform was applied by `process`; a second repeater is handled by recursion.
                break
            case .modifier:
                scope = modifyItem(item.pointee.kind, scope: scope, matrix: matrix)
            }
        }
        return scope
    }

    /// What an item does in `processItems`, told apart without its values.
    private enum Role {
        case group, shape, style, trim, transform, repeater, modifier, inert
    }

    /// The role of the item at `item`: a switch with nothing bound and nothing changed while
    /// it runs, so that the kind is read in place, not copied.
    private static func role(of item: UnsafePointer<ShapeItem>) -> Role {
        switch item.pointee.kind {
        case .group: return .group
        case .path, .rectangle, .ellipse, .polystar: return .shape
        case .fill, .stroke, .gradientFill, .gradientStroke: return .style
        case .trim: return .trim
        case .transform: return .transform
        case .repeater: return .repeater
        case .roundedCorners, .puckerBloat, .zigZag, .offsetPath, .merge: return .modifier
        case .twist, .unsupported: return .inert
        }
    }

    /// The items of the group item at `item`.
    private static func children(of item: UnsafePointer<ShapeItem>) -> [ShapeItem] {
        if case .group(let children) = item.pointee.kind { return children }
        return []
    }

    /// The outline of the shape item (path, rectangle, ellipse or polystar) at `item` at `frame`,
    /// built into `path` (emptied first), whose storage it reuses.
    private static func geometry(of item: UnsafePointer<ShapeItem>, at frame: Double, into path: inout RasterPath) {
        switch item.pointee.kind {
        case .path(let shape, _):
            // Keyframed outlines are mixed straight into the path: no interpolated shape (three
            // arrays) made and freed for every animated path of every frame.
            switch shape.provider == nil ? shape.keyframedSpan(at: frame) : nil {
            case .value(let bezier): ShapeGeometry.build(bezier, into: &path)
            case .between(let a, let b, let t): ShapeGeometry.build(between: a, b, t, into: &path)
            case nil: ShapeGeometry.build(shape.value(at: frame), into: &path)
            }
        case .rectangle(let position, let size, let roundness, let reversed):
            ShapeGeometry.build(rectangleAt: position.value(at: frame), size: size.value(at: frame),
                                roundness: roundness.value(at: frame), reversed: reversed, into: &path)
        case .ellipse(let position, let size, let reversed):
            ShapeGeometry.build(ellipseAt: position.value(at: frame), size: size.value(at: frame), reversed: reversed, into: &path)
        case .polystar(let star):
            path = ShapeGeometry.polystar(star, at: frame)
        default:
            path.removeAll(keepingCapacity: true)
        }
    }

    /// A path to build a shape in: the storage of a shape of the tree's last evaluation.
    private mutating func takeSparePath() -> RasterPath {
        guard var path = sparePaths.popLast() else { return RasterPath() }
        path.removeAll(keepingCapacity: true)
        return path
    }

    /// The values of the trim item at `item` at `frame`.
    private static func trim(of item: UnsafePointer<ShapeItem>, at frame: Double)
        -> (start: Double, end: Double, offset: Double, individually: Bool)? {
        guard case .trim(let start, let end, let offset, let individually) = item.pointee.kind else { return nil }
        return (start.value(at: frame), end.value(at: frame), offset.value(at: frame), individually)
    }

    /// The matrix and opacity of the group transform item at `item` at `frame`.
    private static func groupTransform(of item: UnsafePointer<ShapeItem>, at frame: Double) -> (matrix: Matrix, opacity: Double)? {
        guard case .transform(let t) = item.pointee.kind else { return nil }
        return (t.transform.matrix(at: frame), t.transform.opacityFraction(at: frame))
    }

    /// The path modifiers besides trim (rounded corners, pucker and bloat, zig-zag, offset,
    /// merge) applied to the shapes of `scope`; the scope after it (a merge makes one shape).
    private mutating func modifyItem(_ kind: ShapeKind, scope: [Int], matrix: Matrix) -> [Int] {
        switch kind {
        case .roundedCorners(let radius):
            let r = radius.value(at: frame)
            if r > 0 { modify(scope, in: matrix) { PathModifiers.roundCorners($0, radius: r) } }
        case .puckerBloat(let amount):
            let a = amount.value(at: frame)
            if a != 0 { modify(scope, in: matrix) { PathModifiers.puckerBloat($0, amount: a / 100) } }
        case .zigZag(let size, let ridges, let smooth):
            let s = size.value(at: frame), n = ridges.value(at: frame)
            if s != 0 && n >= 0 { modify(scope, in: matrix) { PathModifiers.zigZag($0, amplitude: s, ridges: Int(min(n, 10_000).rounded()), smooth: smooth) } }
        case .offsetPath(let amount, let join, let miterLimit):
            let a = amount.value(at: frame)
            if a != 0 {
                let ml = miterLimit.value(at: frame)
                modifyMemoized(scope, in: matrix) { path in
                    (OffsetInput(path: path, amount: a, join: join, miterLimit: ml), { PathModifiers.offset(path, by: a, join: join, miterLimit: ml) })
                }
            }
        case .merge(let mode):
            return merge(scope, mode: mode, in: matrix)
        default:
            break
        }
        return scope
    }

    /// Draws the items before a repeater `copies` times, each copy moved by the repeater's
    /// transform applied once more.
    private mutating func repeatItems(_ items: UnsafeBufferPointer<ShapeItem>, _ repeater: Repeater, matrix: Matrix, opacity: Double,
                                      depth: Int) -> [Int] {
        let copies = repeater.copies.value(at: frame)
        guard copies.isFinite, copies >= 1 else { return [] }
        let count = Int(min(copies.rounded(.up), Double(budget.maxRepeaterCopies)))
        let offset = repeater.offset.value(at: frame)
        let t = repeater.transform
        let anchor = t.anchor.value(at: frame), position = t.position.value(at: frame)
        let scale = t.scale.value(at: frame), rotation = t.rotation.value(at: frame)
        let startOpacity = clamp01(repeater.startOpacity.value(at: frame) / 100)
        let endOpacity = clamp01(repeater.endOpacity.value(at: frame) / 100)
        var scope: [Int] = []
        var blocks: [[DrawOp]] = []
        let outerOps = ops
        for i in 0..<count where !exhausted {
            let k = Double(i) + offset
            let step = Matrix.translation(-anchor.x, -anchor.y)
                .concatenating(.scale(pow(scale.x / 100, k), pow(scale.y / 100, k)))
                .concatenating(.rotation(radians: rotation * k * degreesToRadians))
                .concatenating(.translation(position.x * k + anchor.x, position.y * k + anchor.y))
            let copyOpacity = count > 1 ? startOpacity + (endOpacity - startOpacity) * Double(i) / Double(count - 1) : startOpacity
            ops = []
            scope += processItems(items, matrix: step.concatenating(matrix), opacity: opacity * copyOpacity, depth: depth + 1, inherited: [])
            blocks.append(ops)
        }
        // Composite 1 (above): each copy is drawn over the previous one; ops are top-most first.
        ops = outerOps
        if repeater.composite == 2 {
            for block in blocks { ops += block }
        } else {
            for block in blocks.reversed() { ops += block }
        }
        return scope
    }

    private mutating func addNode(_ path: RasterPath, matrix: Matrix, to scope: inout [Int]) {
        guard spend(path.elements.count + 1) else { return }
        nodes.append(ShapeNode(path: path, matrix: matrix))
        scope.append(nodes.count - 1)
    }

    /// Runs a modifier on each shape, in the modifier's group space.
    private mutating func modify(_ ids: [Int], in matrix: Matrix, _ body: (RasterPath) -> RasterPath) {
        for id in ids where !exhausted {
            bringToSpace(id, matrix)
            let modified = body(nodes[id].path)
            guard spend(max(0, modified.elements.count - nodes[id].path.elements.count)) else { return }
            nodes[id].path = modified
        }
    }

    /// `modify` for a costly modifier: `step` gives, for a shape, what the result is made
    /// from and how to make it; the memo may hold the result.
    private mutating func modifyMemoized<Input: Equatable>(_ ids: [Int], in matrix: Matrix,
                                                           _ step: (RasterPath) -> (Input, () -> RasterPath)) {
        for id in ids where !exhausted {
            bringToSpace(id, matrix)
            let (input, make) = step(nodes[id].path)
            let modified = memoized(input, make) ?? RasterPath()
            guard spend(max(0, modified.elements.count - nodes[id].path.elements.count)) else { return }
            nodes[id].path = modified
        }
    }

    /// Merge paths: the shapes above become one, in the merge's group space: all their
    /// contours (mode 1, merge), or the regions they enclose combined in order (2 add,
    /// 3 subtract, 4 intersect, 5 exclude intersections). Shapes too large to combine within
    /// the budget are kept as they are.
    private mutating func merge(_ ids: [Int], mode: Int, in matrix: Matrix) -> [Int] {
        guard !ids.isEmpty, !exhausted else { return ids }
        for id in ids { bringToSpace(id, matrix) }
        let paths = ids.map { nodes[$0].path }
        let merged = (2...5).contains(mode) ? memoized(MergeInput(paths: paths, mode: mode)) { Self.merged(paths, mode: mode) }
            : Self.merged(paths, mode: mode)
        guard let merged, spend(merged.elements.count + 1) else { return ids }
        nodes.append(ShapeNode(path: merged, matrix: matrix))
        return [nodes.count - 1]
    }

    /// The shapes merged by `mode` (nil: too large to combine).
    static func merged(_ paths: [RasterPath], mode: Int) -> RasterPath? {
        switch mode {
        case 2: return PathBoolean.combine(paths, .union, tolerance: Self.mergeTolerance(paths))
        case 3: return PathBoolean.combine(paths, .subtract, tolerance: Self.mergeTolerance(paths))
        case 4: return PathBoolean.combine(paths, .intersect, tolerance: Self.mergeTolerance(paths))
        case 5: return PathBoolean.combine(paths, .exclude, tolerance: Self.mergeTolerance(paths))
        default: return paths.reduce(into: RasterPath()) { $0.append($1) }
        }
    }

    /// Curves are flattened to a thousandth of the shapes' extent before they are combined.
    static func mergeTolerance(_ paths: [RasterPath]) -> Double {
        let extent = paths.compactMap(\.bounds).map { max($0.width, $0.height) }.max() ?? 1
        return extent.isFinite && extent > 0 ? max(extent / 4000, 1e-4) : 0.1
    }

    private mutating func bringToSpace(_ id: Int, _ matrix: Matrix) {
        guard nodes[id].matrix != matrix, let inverse = matrix.inverted() else { return }
        nodes[id].path = nodes[id].path.transformed(by: nodes[id].matrix.concatenating(inverse))
        nodes[id].matrix = matrix
    }

    /// Trim paths: keeps the part of the shapes between start and end (percent) shifted by
    /// offset (degrees, 360 = one whole length); "simultaneously" treats the shapes as one
    /// path end to end, "individually" trims each shape on its own.
    private mutating func applyTrim(start: Double, end: Double, offset: Double, individually: Bool, to ids: [Int]) {
        guard !ids.isEmpty, start.isFinite, end.isFinite, offset.isFinite else { return }
        var s = clamp01(start / 100), e = clamp01(end / 100)
        if s > e { swap(&s, &e) }
        if s <= 0 && e >= 1 { return }
        let shift = (offset / 360).truncatingRemainder(dividingBy: 1)
        s += shift; e += shift
        if e - s <= 1e-9 {
            for id in ids { nodes[id].path = RasterPath() }
            return
        }
        // The measures of the last trim are measured into, and each shape's trimmed part is
        // written over its outline, keeping their storage: made anew, a trim evaluated at every
        // frame allocated and freed a measure's lists and a path for each of its shapes.
        var measures = spareMeasures
        spareMeasures = []
        defer { spareMeasures = measures }
        if individually {
            if measures.isEmpty { measures.append(PathMeasure()) }
            for id in ids {
                measures[0].remeasure(nodes[id].path)
                PathModifiers.trim(measures[0], from: s, to: e, into: &nodes[id].path)
            }
            return
        }
        // Simultaneous: one length over every shape in order; each keeps its own part.
        while measures.count < ids.count { measures.append(PathMeasure()) }
        for (i, id) in ids.enumerated() { measures[i].remeasure(nodes[id].path) }
        let total = measures[..<ids.count].reduce(0) { $0 + $1.length }
        guard total > 0 else { return }
        // One range, or two when it wraps past the end: held as a pair, not an array per trim.
        let a = s - s.rounded(.down), b = a + (e - s)
        let ranges = b <= 1 ? ((a, b), nil) : ((a, 1), (0, b - 1)) as ((Double, Double), (Double, Double)?)
        var before = 0.0
        for (i, id) in ids.enumerated() {
            let length = measures[i].length
            nodes[id].path.removeAll(keepingCapacity: true)
            if length > 0 {
                for part in 0..<2 {
                    guard let (ra, rb) = part == 0 ? ranges.0 : ranges.1 else { continue }
                    let from = max(ra * total - before, 0), to = min(rb * total - before, length)
                    // A first part is written as it is (a segment is its elements appended to an empty path).
                    if to > from {
                        if nodes[id].path.isEmpty {
                            measures[i].segment(from: from, to: to, appendingTo: &nodes[id].path)
                        } else {
                            nodes[id].path.append(measures[i].segment(from: from, to: to))
                        }
                    }
                }
            }
            before += length
        }
    }
}
