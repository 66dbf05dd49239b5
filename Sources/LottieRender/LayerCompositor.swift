import Glibc
import LottieModel
import Raster

/// Draws the layers of a composition at one frame: parenting, visibility, precomps, and the
/// offscreen passes that masks, mattes, blend modes and group opacity need.
struct LayerCompositor {
    let renderer: AnimationRenderer
    /// This frame's work so far, against the renderer's budget.
    var work: FrameWork
    /// How far beyond a target, in pixels, content may cast a shadow into it.
    var maxReach = Effects.maxReach
    /// The coverage slots of the band drawn (nil: the render tree's first).
    var slots: CoverageSlots?
    /// The width and height of the composition being drawn (a shape or text layer's rectangle).
    var compSize: (width: Double, height: Double)
    /// Set while drawing the source of an alpha matte: only alpha is read from what is
    /// drawn, so colour effects (which keep alpha) are left out.
    var alphaOnly = false

    init(renderer: AnimationRenderer) {
        self.renderer = renderer
        work = FrameWork(budget: renderer.budget)
        compSize = (renderer.animation.width, renderer.animation.height)
    }

    /// Precomps nest; beyond this depth (only reachable through a malformed file that slipped
    /// past the parser's cycle check) nothing more is drawn.
    static let maxDepth = 32

    mutating func drawComposition(_ comp: Composition, frame: Double, into surface: inout Surface, matrix: Matrix,
                                  opacity: Double, clip: Clip?, depth: Int) {
        guard depth < Self.maxDepth else { return }
        // Layers are listed top-most first: draw from the end.
        for position in comp.layers.indices.reversed() {
            // Read in place, not copied: a copy takes a reference to each part of the layer,
            // which the bands of a threaded frame, walking the same layers, contend for (read
            // through the array's subscript, the whole layer was still copied and destroyed).
            let (shown, mode) = comp.layers.withUnsafeBufferPointer { layers in
                (Self.isDrawn(layers.baseAddress! + position, at: frame), layers[position].matteMode)
            }
            guard shown else { continue }
            let matte = mode == .none ? nil : (comp.matteSource(forLayerAt: position), mode)
            drawLayer(at: position, in: comp, frame: frame, into: &surface, compMatrix: matrix, opacity: opacity,
                      matte: matte, clip: clip, depth: depth)
        }
    }

    /// Whether `drawComposition` draws the layer at `frame`: not a matte source, not hidden,
    /// within its in and out points, and not a null layer.
    static func isDrawn(_ layer: UnsafePointer<Layer>, at frame: Double) -> Bool {
        guard !layer.pointee.isMatteSource, !layer.pointee.hidden, layer.pointee.inPoint <= frame, frame <= layer.pointee.outPoint
        else { return false }
        if case .null = layer.pointee.kind { return false }
        return true
    }

    /// lottie-ios shows a layer while in-point <= frame <= out-point, both ends included.
    func isVisible(_ layer: Layer, at frame: Double) -> Bool {
        layer.inPoint <= frame && frame <= layer.outPoint
    }

    /// The layer's matrix to its composition's space, through its parents.
    func layerMatrix(_ layer: Layer, in comp: Composition, frame: Double) -> Matrix {
        var matrix = layer.transform.matrix(at: frame, autoOrient: layer.autoOrient)
        // Parents are read in place, by position: a copied layer retains and releases each of its parts.
        var parentIndex = layer.parent
        var hops = 0
        comp.layers.withUnsafeBufferPointer { layers in
            while let index = parentIndex, let position = comp.position(ofIndex: index), layers.indices.contains(position), hops < 64 {
                let parent = layers.baseAddress! + position
                matrix = matrix.concatenating(parent.pointee.transform.matrix(at: frame, autoOrient: parent.pointee.autoOrient))
                parentIndex = parent.pointee.parent
                hops += 1
            }
        }
        return matrix
    }

    /// Draws the layer at `position` in `comp`; `matte` is the position of its matte source
    /// (nil when the file names none) and the matte mode.
    mutating func drawLayer(at position: Int, in comp: Composition, frame: Double, into surface: inout Surface, compMatrix: Matrix,
                            opacity: Double, matte: (Int?, MatteMode)?, clip: Clip?, depth: Int) {
        guard comp.layers.indices.contains(position), work.takeLayer() else { return }
        // The layer is lent from the array's buffer, not copied: taken by subscript, every
        // drawn layer of every frame was copied and destroyed, a retain and release for each
        // of its parts (transform, masks, effects, shapes).
        comp.layers.withUnsafeBufferPointer { layers in
            drawLayer(layers[position], at: position, in: comp, frame: frame, into: &surface, compMatrix: compMatrix, opacity: opacity,
                      matte: matte, clip: clip, depth: depth)
        }
    }

    private mutating func drawLayer(_ layer: Layer, at position: Int, in comp: Composition, frame: Double, into surface: inout Surface,
                                    compMatrix: Matrix, opacity: Double, matte: (Int?, MatteMode)?, clip: Clip?, depth: Int) {
        let own = renderer.renderTree?.layerMatrix(in: comp, at: position, frame: frame) ?? layerMatrix(layer, in: comp, frame: frame)
        let world = own.concatenating(compMatrix)
        let alpha = opacity * layer.transform.opacityFraction(at: frame)
        guard alpha > 0 else { return }
        let shapes: LayerShapes?
        if case .shape(let items) = layer.kind {
            let layerShapes = renderer.layerShapes(of: comp, at: position, items: items, frame: frame)
            work.pathElements += layerShapes.elementCount
            work.paints += layerShapes.opCount
            if layerShapes.exhausted {
                renderer.notes.note("a shape layer has more than \(renderer.budget.maxPathElementsPerLayer) path elements "
                                    + "or \(renderer.budget.maxPaints) fills and strokes; the rest are skipped")
            }
            shapes = layerShapes
        } else {
            shapes = nil
        }
        let masks = Self.masksThatCut(layer.masks.filter { $0.mode != .none }, layer: layer, shapes: shapes, world: world, frame: frame,
                                      direct: renderer.masksClipDirectly)
        let effects = EffectPass(layer: layer, frame: frame, compMatrix: compMatrix)
        let groupOpacity = alpha < 1 && contentOverlaps(layer, shapes: shapes)
        let blend = Self.blendMode(layer.blendMode)

        if Self.masksClipDirectly(layer, masks: masks, shapes: shapes, hasMatte: matte != nil, effects: effects, colorEffects: !alphaOnly,
                                  clip: clip, direct: renderer.masksClipDirectly),
           drawMaskedDirectly(layer, shapes: shapes, masks: masks, frame: frame, into: &surface, world: world, alpha: alpha, clip: clip,
                              depth: depth) {
            return
        }
        if !Self.paintsOffscreen(layer, masks: masks, hasMatte: matte != nil, effects: effects, groupOpacity: groupOpacity,
                                 colorEffects: !alphaOnly) {
            drawContent(layer, shapes: shapes, frame: frame, into: &surface, world: world, opacity: alpha, clip: clip, depth: depth)
            return
        }
        let offscreen = Offscreen(layer: layer, position: position, comp: comp, shapes: shapes, world: world, compMatrix: compMatrix,
                                  alpha: alpha, blend: blend, masks: masks, matte: matte, effects: effects)
        if Self.matteClipsDirectly(layer, shapes: shapes, hasMatte: matte != nil, effects: effects, colorEffects: !alphaOnly, clip: clip,
                                   direct: renderer.masksClipDirectly),
           drawMattedDirectly(offscreen, frame: frame, into: &surface, clip: clip, depth: depth) {
            return
        }
        drawOffscreen(offscreen, frame: frame, into: &surface, clip: clip, depth: depth)
    }

    /// What `drawOffscreen` needs to know of a layer.
    struct Offscreen {
        let layer: Layer
        let position: Int
        let comp: Composition
        let shapes: LayerShapes?
        let world: Matrix
        let compMatrix: Matrix
        let alpha: Double
        let blend: RasterBlend
        let masks: [ModelMask]
        let matte: (Int?, MatteMode)?
        let effects: EffectPass
    }

    /// Draws a layer into a surface of its own that covers only the device pixels it can
    /// reach: the clip's rectangle narrowed by its masks' and matte's bounds, grown by its
    /// shadows' reach (content just outside the target may cast a shadow into it). Its masks,
    /// matte and clip mask become one coverage over what the content painted, applied by the
    /// pass that composites it. Buffers come from the renderer's pool.
    mutating func drawOffscreen(_ o: Offscreen, frame: Double, into surface: inout Surface, clip: Clip?, depth: Int) {
        let pool = renderer.pool
        let reach = min(maxReach, o.effects.reach)
        let reachable = surface.bounds.grown(by: reach)
        var limit = clip.map { $0.rect.intersection(reachable) } ?? reachable
        if let maskBounds = Self.maskBounds(o.masks, frame: frame, world: o.world) { limit = limit.intersection(maskBounds) }
        guard !limit.isEmpty else { return }
        let bytes = Self.offscreenBytes(o, area: limit.grown(by: reach).intersection(reachable))
        guard work.takeSurface(bytes: bytes) else {
            drawOverSurfaceBudget(o, frame: frame, into: &surface, clip: clip, depth: depth)
            return
        }
        defer { work.releaseSurface(bytes: bytes) }
        var matteSurface: Surface?
        if let (source, mode) = o.matte {
            var m = Surface(bounds: limit, pool: pool)
            let outer = alphaOnly
            alphaOnly = mode == .alpha || mode == .alphaInverted
            drawMatteSource(source, in: o.comp, frame: frame, compMatrix: o.compMatrix, into: &m, depth: depth)
            alphaOnly = outer
            // Where an alpha or luma matte painted nothing, the layer does not show.
            if mode == .alpha || mode == .luma || mode == .none { limit = limit.intersection(m.painted) }
            matteSurface = m
        }
        defer { matteSurface?.recycle(into: pool) }
        guard !limit.isEmpty else { return }
        var content = Surface(bounds: limit.grown(by: reach).intersection(reachable), pool: pool)
        defer { content.recycle(into: pool) }
        // The clip's rectangle bounds the content; its mask (rare) joins the coverage below.
        drawContent(o.layer, shapes: o.shapes, frame: frame, into: &content, world: o.world, opacity: 1,
                    clip: Clip(rect: limit), depth: depth)
        let area = content.painted
        guard !area.isEmpty else { return }
        if !alphaOnly { Effects.applyColorEffects(of: o.layer, at: frame, to: &content) }
        if !o.effects.isEmpty {
            // Masks come before effects (a blur softens a mask's edge, a shadow is cast by the
            // masked layer); the matte and the clip come after (they cut the shadow too).
            if var masks = buildMasks(o.masks, frame: frame, world: o.world, area: area) {
                content.applyMask(masks)
                masks.recycle(into: pool)
            }
            o.effects.blur(&content, keep: clip?.rect, edges: repeatedEdges(o, clip: clip, reachable: reachable), pool: pool)
        }
        let reached = content.painted.grown(by: o.effects.reach)
        var coverage = layerCoverage(o, masks: o.effects.isEmpty, matte: matteSurface, clip: clip, area: reached, frame: frame)
        defer { coverage?.recycle(into: pool) }
        o.effects.composite(&content, onto: &surface, keep: clip?.rect, blend: o.blend, opacity: o.alpha, mask: coverage, pool: pool)
    }

    /// An upper bound of the bytes `drawOffscreen` holds at once for `o` over `area`: the content
    /// (4 a pixel), the matte (4), masks being combined (3: result, mask, expansion band) and
    /// a shadow and a blur's scratch (8).
    static func offscreenBytes(_ o: Offscreen, area: PixelRect) -> Int {
        let perPixel = 4 + (o.matte == nil ? 0 : 4) + 3 + (o.effects.isEmpty ? 0 : 8)
        return area.width * area.height * perPixel
    }

    /// A layer whose offscreen pass would pass the surface budget: drawn straight onto the
    /// target when only group opacity asked for the pass (parts that overlap then show through
    /// each other, nothing more), else skipped; either way the renderer warns once.
    mutating func drawOverSurfaceBudget(_ o: Offscreen, frame: Double, into surface: inout Surface, clip: Clip?, depth: Int) {
        let onlyGroupOpacity = o.masks.isEmpty && o.matte == nil && o.effects.isEmpty && o.blend == .normal
            && !Effects.hasColorEffect(o.layer)
        let megabytes = renderer.budget.maxSurfaceBytes / (1024 * 1024)
        if onlyGroupOpacity {
            renderer.notes.note("offscreen surfaces would pass \(megabytes) MiB; layers with group opacity are drawn without one")
            drawContent(o.layer, shapes: o.shapes, frame: frame, into: &surface, world: o.world, opacity: o.alpha, clip: clip, depth: depth)
        } else {
            renderer.notes.note("offscreen surfaces would pass \(megabytes) MiB; layers with masks, mattes, blend modes or effects "
                                + "past it are skipped")
        }
    }

    /// The coverage of a layer's masks (unless `masks` is false: already applied), matte and
    /// clip mask over `area`, or nil when it has none of them.
    func layerCoverage(_ o: Offscreen, masks: Bool = true, matte: Surface?, clip: Clip?, area: PixelRect, frame: Double) -> CoverageMask? {
        let pool = renderer.pool
        var coverage = masks ? buildMasks(o.masks, frame: frame, world: o.world, area: area) : nil
        func intersect(_ m: inout CoverageMask) {
            if coverage == nil { coverage = m; return }
            coverage!.combine(m, .intersect)
            m.recycle(into: pool)
        }
        if let matte, let mode = o.matte?.1 {
            var m: CoverageMask
            switch mode {
            case .alpha, .none, .alphaInverted: m = matte.alphaMask(in: area, pool: pool)
            case .luma, .lumaInverted: m = matte.lumaMask(in: area, pool: pool)
            }
            if mode == .alphaInverted || mode == .lumaInverted { m.invert() }
            intersect(&m)
        }
        if let clip, clip.mask != nil {
            var m = clip.coverage(in: area, pool: pool)
            intersect(&m)
        }
        return coverage
    }

    /// The device pixels outside which a layer's masks leave nothing, or nil when they may
    /// leave something anywhere (an inverted mask, or only subtracting ones).
    static func maskBounds(_ masks: [ModelMask], frame: Double, world: Matrix) -> PixelRect? {
        guard let first = masks.first else { return nil }
        // nil: unbounded. Adding starts from nothing; subtracting or intersecting from everything.
        var bounds: PixelRect? = first.mode == .subtract || first.mode == .intersect || first.mode == .darken ? nil : .empty
        for mask in masks where !changesNothing(mask, frame: frame) {
            var footprint: PixelRect?
            if !mask.inverted {
                footprint = Self.footprint(ShapeGeometry.path(mask.path.value(at: frame)), expansion: mask.expansion.value(at: frame),
                                           world: world)
            }
            switch mask.mode {
            case .add, .none, .lighten, .difference:
                if let b = bounds, let f = footprint { bounds = b.union(f) } else { bounds = nil }
            case .intersect, .darken:
                if let f = footprint { bounds = bounds.map { $0.intersection(f) } ?? f }
            case .subtract:
                break
            }
        }
        return bounds
    }

    /// The device pixels outside which a mask path (not inverted), grown by its expansion,
    /// covers nothing. The growth uses the largest stretch `world` can give a length (the
    /// root of the sum of its squared coefficients bounds it).
    static func footprint(_ path: RasterPath, expansion: Double, world: Matrix) -> PixelRect {
        let stretch = (world.a * world.a + world.b * world.b + world.c * world.c + world.d * world.d).squareRoot()
        let grown = expansion * stretch
        let grow = grown.isFinite && grown > 0 ? Int(min(grown, 1e6).rounded(.up)) : 0
        let device = path.transformed(by: world)
        return device.bounds.map { PixelRect(enclosing: $0).grown(by: grow + 1) } ?? .empty
    }

    /// Whether the layer is drawn into a surface of its own and composited (masks, a matte, a
    /// blend mode, group opacity, effects) rather than painted straight onto the target.
    static func paintsOffscreen(_ layer: Layer, masks: [ModelMask], hasMatte: Bool, effects: EffectPass,
                                groupOpacity: Bool, colorEffects: Bool = true) -> Bool {
        !masks.isEmpty || hasMatte || blendMode(layer.blendMode) != .normal || groupOpacity || !effects.isEmpty
            || (colorEffects && Effects.hasColorEffect(layer))
    }

    /// Group opacity needs an offscreen pass only when parts of the layer may overlap.
    private func contentOverlaps(_ layer: Layer, shapes: LayerShapes?) -> Bool {
        switch layer.kind {
        case .shape: return (shapes?.paintingOpCount ?? 0) > 1
        case .precomp, .text: return true
        default: return false
        }
    }

    mutating func drawContent(_ layer: Layer, shapes: LayerShapes?, frame: Double, into surface: inout Surface, world: Matrix,
                              opacity: Double, clip: Clip?, depth: Int) {
        switch layer.kind {
        case .shape:
            shapes?.draw(into: &surface, layerMatrix: world, opacity: opacity, clip: clip, renderer: renderer, slots: slots)
        case .solid(let color, let width, let height):
            var path = RasterPath()
            path.addRect(Rect(x: 0, y: 0, width: width, height: height))
            surface.fill(path, transform: world, rule: .nonZero, paint: .solid(color.color), opacity: opacity, clip: clip,
                         cache: renderer.coverageCache)
        case .image(let refId):
            guard let drawn = renderer.images.drawable(refId, world: world) else { return }
            surface.draw(drawn.image, transform: drawn.transform, opacity: opacity, clip: clip)
        case .precomp(let refId, let width, let height):
            guard let comp = renderer.precomps[refId] else { return }
            let localFrame = self.localFrame(of: layer, at: frame)
            // A precomp shows only what lies inside its own width and height.
            let target = clip.map { $0.rect.intersection(surface.bounds) } ?? surface.bounds
            var bounds = Self.clipRegion(width: width, height: height, matrix: world, target: target, pool: renderer.pool)
            if let clip {
                bounds = bounds.map { $0.intersection(clip) } ?? clip
            }
            let outer = compSize
            compSize = (width, height)
            drawComposition(comp, frame: localFrame, into: &surface, matrix: world, opacity: opacity, clip: bounds, depth: depth + 1)
            compSize = outer
        case .text(let data):
            renderer.text.draw(data, frame: frame, into: &surface, matrix: world, opacity: opacity, clip: clip,
                               cache: renderer.coverageCache)
        case .null, .unsupported:
            break
        }
    }

    /// The frame inside a precomp layer's composition at `frame` of the outer one.
    func localFrame(of layer: Layer, at frame: Double) -> Double {
        Self.localFrame(of: layer, at: frame, frameRate: renderer.animation.frameRate)
    }

    /// `localFrame(of:at:)` for an animation of `frameRate`, with no compositor at hand.
    static func localFrame(of layer: borrowing Layer, at frame: Double, frameRate: Double) -> Double {
        if let remap = layer.timeRemap { return remap.value(at: frame) * frameRate }
        return (frame - layer.startTime) / (layer.timeStretch == 0 ? 1 : layer.timeStretch)
    }

    /// Combines a layer's masks in order into one coverage mask. With `bounded`, a mask that
    /// is not inverted is rasterized over its footprint only (outside it, it is zero, which
    /// is what combining takes outside a mask's rectangle); without, every mask spans the
    /// whole area: the reference a test compares with.
    func buildMasks(_ masks: [ModelMask], frame: Double, world: Matrix, area: PixelRect, bounded: Bool = true) -> CoverageMask? {
        guard let first = masks.first else { return nil }
        let pool = renderer.pool
        // Adding starts from nothing; subtracting or intersecting starts from everything.
        let startsFull = first.mode == .subtract || first.mode == .intersect || first.mode == .darken
        // Made when a mask combines into it; the first mask, when it spans the area, becomes it.
        var result: CoverageMask?
        for mask in masks {
            // (MaskOperations.swift: masks at zero opacity, and ones combined from their path's runs.)
            if bounded, Self.changesNothing(mask, frame: frame) { continue }
            let path = ShapeGeometry.path(mask.path.value(at: frame))
            let expansion = mask.expansion.value(at: frame)
            if bounded, !Self.unitesDirectly(mask, expansion: expansion, frame: frame),
               let scale = Self.directScale(mask, expansion: expansion, frame: frame) {
                if result == nil { result = CoverageMask(rect: area, value: startsFull ? 255 : 0, pool: pool) }
                result!.combine(path, transform: world, Self.operation(mask.mode), scale: scale, pool: pool)
                continue
            }
            if Self.unitesDirectly(mask, expansion: expansion, frame: frame) {
                // The same values as filling a mask of its own and adding it, without the
                // mask or the pass over the area.
                if result == nil { result = CoverageMask(rect: area, value: startsFull ? 255 : 0, pool: pool) }
                result!.fill(path, transform: world, rule: .nonZero, pool: pool)
                continue
            }
            let own = bounded && !mask.inverted ? Self.footprint(path, expansion: expansion, world: world).intersection(area) : area
            var m = CoverageMask(rect: own, pool: pool)
            m.fill(path, transform: world, rule: .nonZero, pool: pool)
            if expansion.isFinite, expansion != 0 { expand(&m, path: path, by: expansion, world: world) }
            // Combined into the start value (nothing for adding, everything for subtracting),
            // a first mask gives its own coverage, inverted when it subtracts: then it is the
            // result, without a buffer of the start value or a pass combining into it.
            let becomesResult = result == nil && bounded && own == area
            let invertsAfter = becomesResult && mask.mode == .subtract
            let o = clamp01(mask.opacity.value(at: frame) / 100)
            if o < 1 {
                if mask.inverted { m.invert() }
                m.scale(by: o)
                if invertsAfter { m.invert() }
            } else if mask.inverted != invertsAfter {
                m.invert()
            }
            if becomesResult {
                result = m
                continue
            }
            if result == nil { result = CoverageMask(rect: area, value: startsFull ? 255 : 0, pool: pool) }
            switch mask.mode {
            case .add, .none: result!.combine(m, .add)
            case .subtract: result!.combine(m, .subtract)
            case .intersect: result!.combine(m, .intersect)
            case .lighten: result!.combine(m, .lighten)
            case .darken: result!.combine(m, .darken)
            case .difference: result!.combine(m, .difference)
            }
            m.recycle(into: pool)
        }
        // Every mask changed nothing: the start value.
        return result ?? CoverageMask(rect: area, value: startsFull ? 255 : 0, pool: pool)
    }

    /// Grows (`expansion` > 0) or shrinks a mask's coverage by its expansion, a stroke of
    /// twice that width with round joins along its path.
    func expand(_ m: inout CoverageMask, path: RasterPath, by expansion: Double, world: Matrix) {
        let pool = renderer.pool
        var style = StrokeStyle()
        style.width = abs(expansion) * 2
        style.join = .round
        let outline = strokeOutline(path, style: style, tolerance: 0.25 / max(world.scaleFactor, 1e-6))
        if expansion > 0 {
            m.fill(outline, transform: world, rule: .nonZero, pool: pool)
        } else {
            var band = CoverageMask(rect: m.rect, pool: pool)
            band.fill(outline, transform: world, rule: .nonZero, pool: pool)
            m.combine(band, .subtract)
            band.recycle(into: pool)
        }
    }

    /// Whether a mask only adds its path's coverage, at full opacity: it can be filled
    /// straight into the masks before it.
    static func unitesDirectly(_ mask: ModelMask, expansion: Double, frame: Double) -> Bool {
        (mask.mode == .add || mask.mode == .none) && !mask.inverted && !(expansion.isFinite && expansion != 0)
            && clamp01(mask.opacity.value(at: frame) / 100) >= 1
    }

    /// Draws a matte source layer (when it is there and visible at `frame`) into `target`.
    mutating func drawMatteSource(_ matteSource: Int?, in comp: Composition, frame: Double, compMatrix: Matrix,
                                  into target: inout Surface, depth: Int) {
        guard let matteSource, case let matteLayer = comp.layers[matteSource],
              !matteLayer.hidden || matteLayer.isMatteSource, isVisible(matteLayer, at: frame) else { return }
        drawLayer(at: matteSource, in: comp, frame: frame, into: &target, compMatrix: compMatrix, opacity: 1,
                  matte: nil, clip: nil, depth: depth)
    }

    /// The region of the rectangle (0, 0, width, height) mapped by `matrix`: a pixel
    /// rectangle when it stays axis-aligned (edges rounded to whole pixels), else a mask over
    /// the part of `target` it may cover; nil when it covers all of `target` anyway.
    static func clipRegion(width: Double, height: Double, matrix: Matrix, target: PixelRect, pool: BufferPool? = nil) -> Clip? {
        guard width > 0, height > 0 else { return nil }
        // Four corners as plain values, not arrays: this runs for every precomp layer of every frame.
        let c0 = matrix.apply(Point(0, 0)), c1 = matrix.apply(Point(width, 0))
        let c2 = matrix.apply(Point(width, height)), c3 = matrix.apply(Point(0, height))
        let axisAligned = (abs(c0.y - c1.y) < 1e-9 && abs(c1.x - c2.x) < 1e-9) || (abs(c0.x - c1.x) < 1e-9 && abs(c1.y - c2.y) < 1e-9)
        guard c0.x.isFinite, c1.x.isFinite, c2.x.isFinite, c3.x.isFinite, c0.y.isFinite, c1.y.isFinite, c2.y.isFinite, c3.y.isFinite
        else { return nil }
        let minX = PaintReach.least(c0.x, c1.x, c2.x, c3.x), maxX = PaintReach.most(c0.x, c1.x, c2.x, c3.x)
        let minY = PaintReach.least(c0.y, c1.y, c2.y, c3.y), maxY = PaintReach.most(c0.y, c1.y, c2.y, c3.y)
        func pixel(_ v: Double) -> Int { Int(max(-1e8, min(1e8, v)).rounded()) }
        let rect = PixelRect(x0: pixel(minX), y0: pixel(minY), x1: pixel(maxX), y1: pixel(maxY))
        if axisAligned {
            if rect.contains(target) { return nil }
            return Clip(rect: rect)
        }
        // A turned rectangle that holds all of the target clips nothing there: its mask would
        // be opaque over the whole target (a precomp made far larger than the frame, turned).
        if RectangleCover.holds(width: width, height: height, matrix: matrix, target: target) { return nil }
        func clamped(_ v: Double) -> Int { Int(max(-1e8, min(1e8, v))) }
        let outer = PixelRect(x0: clamped(minX.rounded(.down)), y0: clamped(minY.rounded(.down)),
                              x1: clamped(maxX.rounded(.up)), y1: clamped(maxY.rounded(.up)))
        var mask = CoverageMask(rect: outer.intersection(target))
        var path = RasterPath()
        path.addRect(Rect(x: 0, y: 0, width: width, height: height))
        mask.fill(path, transform: matrix, rule: .nonZero, pool: pool)
        return Clip(rect: outer, mask: mask)
    }

    static func blendMode(_ mode: ModelBlend) -> RasterBlend {
        switch mode {
        case .normal: return .normal
        case .multiply: return .multiply
        case .screen: return .screen
        case .overlay: return .overlay
        case .darken: return .darken
        case .lighten: return .lighten
        case .colorDodge: return .colorDodge
        case .colorBurn: return .colorBurn
        case .hardLight: return .hardLight
        case .softLight: return .softLight
        case .difference: return .difference
        case .exclusion: return .exclusion
        case .hue: return .hue
        case .saturation: return .saturation
        case .color: return .color
        case .luminosity: return .luminosity
        case .add: return .add
        case .hardMix: return .normal
        }
    }
}
