import Foundation
import LottieModel
import Raster

/// Draws the layers of a composition at one frame: parenting, visibility, precomps, and the
/// offscreen passes that masks, mattes, blend modes and group opacity need.
struct LayerCompositor {
    let renderer: AnimationRenderer
    let surfaceWidth: Int
    let surfaceHeight: Int
    /// This frame's work so far, against the renderer's budget.
    var work: FrameWork

    init(renderer: AnimationRenderer, surfaceWidth: Int, surfaceHeight: Int) {
        self.renderer = renderer
        self.surfaceWidth = surfaceWidth
        self.surfaceHeight = surfaceHeight
        work = FrameWork(budget: renderer.budget)
    }

    /// Precomps nest; beyond this depth (only reachable through a malformed file that slipped
    /// past the parser's cycle check) nothing more is drawn.
    static let maxDepth = 32

    mutating func drawComposition(_ comp: Composition, frame: Double, into surface: inout Surface, matrix: Matrix,
                                  opacity: Double, clip: Clip?, depth: Int) {
        guard depth < Self.maxDepth else { return }
        // Layers are listed top-most first: draw from the end.
        for position in comp.layers.indices.reversed() {
            let layer = comp.layers[position]
            guard !layer.isMatteSource, !layer.hidden, isVisible(layer, at: frame) else { continue }
            if case .null = layer.kind { continue }
            let matte = layer.matteMode == .none ? nil : (comp.matteSource(forLayerAt: position), layer.matteMode)
            drawLayer(at: position, in: comp, frame: frame, into: &surface, compMatrix: matrix, opacity: opacity,
                      matte: matte, clip: clip, depth: depth)
        }
    }

    /// lottie-ios shows a layer while in-point <= frame <= out-point, both ends included.
    func isVisible(_ layer: Layer, at frame: Double) -> Bool {
        layer.inPoint <= frame && frame <= layer.outPoint
    }

    /// The layer's matrix to its composition's space, through its parents.
    func layerMatrix(_ layer: Layer, in comp: Composition, frame: Double) -> Matrix {
        var matrix = layer.transform.matrix(at: frame, autoOrient: layer.autoOrient)
        var current = layer
        var hops = 0
        while let parentIndex = current.parent, let parent = comp.layer(withIndex: parentIndex), hops < 64 {
            matrix = matrix.concatenating(parent.transform.matrix(at: frame, autoOrient: parent.autoOrient))
            current = parent
            hops += 1
        }
        return matrix
    }

    /// Draws the layer at `position` in `comp`; `matte` is the position of its matte source
    /// (nil when the file names none) and the matte mode.
    mutating func drawLayer(at position: Int, in comp: Composition, frame: Double, into surface: inout Surface, compMatrix: Matrix,
                            opacity: Double, matte: (Int?, MatteMode)?, clip: Clip?, depth: Int) {
        guard work.takeLayer() else { return }
        let layer = comp.layers[position]
        let world = layerMatrix(layer, in: comp, frame: frame).concatenating(compMatrix)
        let alpha = opacity * layer.transform.opacityFraction(at: frame)
        guard alpha > 0 else { return }
        let masks = layer.masks.filter { $0.mode != .none }
        let shapes: ShapeTree?
        if case .shape(let items) = layer.kind {
            let tree = renderer.shapeCache.shapes(of: comp, at: position, items: items, frame: frame, budget: renderer.budget)
            work.pathElements += tree.elementCount
            if tree.exhausted { renderer.notes.note("a shape layer has more than \(renderer.budget.maxPathElementsPerLayer) path elements; the rest are skipped") }
            shapes = tree
        } else {
            shapes = nil
        }
        let shadows = Effects.dropShadows(of: layer, at: frame)
        let groupOpacity = alpha < 1 && contentOverlaps(layer, shapes: shapes)
        let blend = Self.blendMode(layer.blendMode)

        if !Self.paintsOffscreen(layer, masks: masks, hasMatte: matte != nil, shadows: shadows, groupOpacity: groupOpacity) {
            drawContent(layer, shapes: shapes, frame: frame, into: &surface, world: world, opacity: alpha, clip: clip, depth: depth)
            return
        }
        var content = Surface(width: surfaceWidth, height: surfaceHeight)
        // The clip's rectangle bounds the offscreen work; its mask (rare) is applied below.
        drawContent(layer, shapes: shapes, frame: frame, into: &content, world: world, opacity: 1,
                    clip: clip.map { Clip(rect: $0.rect) }, depth: depth)
        Effects.applyColorEffects(of: layer, at: frame, to: &content)
        var coverage = buildMasks(masks, frame: frame, world: world)
        if let (matteSource, mode) = matte {
            let matteMask = renderMatte(matteSource, mode: mode, in: comp, frame: frame, compMatrix: compMatrix, depth: depth)
            if coverage == nil { coverage = matteMask } else { coverage!.combine(matteMask, .intersect) }
        }
        if let clip, clip.mask != nil {
            let clipCoverage = clip.coverage(width: surfaceWidth, height: surfaceHeight)
            if coverage == nil { coverage = clipCoverage } else { coverage!.combine(clipCoverage, .intersect) }
        }
        if let coverage { content.applyMask(coverage) }
        for shadow in shadows {
            surface.composite(Effects.shadow(shadow, of: content), blend: .normal, opacity: alpha, mask: nil)
        }
        surface.composite(content, blend: blend, opacity: alpha, mask: nil)
    }

    /// Whether the layer is drawn into a surface of its own and composited (masks, a matte, a
    /// blend mode, group opacity, effects) rather than painted straight onto the target.
    static func paintsOffscreen(_ layer: Layer, masks: [ModelMask], hasMatte: Bool, shadows: [Effects.DropShadow],
                                groupOpacity: Bool) -> Bool {
        !masks.isEmpty || hasMatte || blendMode(layer.blendMode) != .normal || groupOpacity || !shadows.isEmpty
            || Effects.hasColorEffect(layer)
    }

    /// Group opacity needs an offscreen pass only when parts of the layer may overlap.
    private func contentOverlaps(_ layer: Layer, shapes: ShapeTree?) -> Bool {
        switch layer.kind {
        case .shape: return (shapes?.ops.count ?? 0) > 1
        case .precomp, .text: return true
        default: return false
        }
    }

    mutating func drawContent(_ layer: Layer, shapes: ShapeTree?, frame: Double, into surface: inout Surface, world: Matrix,
                              opacity: Double, clip: Clip?, depth: Int) {
        switch layer.kind {
        case .shape:
            shapes?.draw(into: &surface, layerMatrix: world, opacity: opacity, clip: clip, cache: renderer.coverageCache)
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
            var bounds = Self.clipRegion(width: width, height: height, matrix: world, surfaceWidth: surface.width,
                                         surfaceHeight: surface.height)
            if let clip {
                bounds = bounds.map { $0.intersection(clip) } ?? clip
            }
            drawComposition(comp, frame: localFrame, into: &surface, matrix: world, opacity: opacity, clip: bounds, depth: depth + 1)
        case .text(let data):
            renderer.text.draw(data, frame: frame, into: &surface, matrix: world, opacity: opacity, clip: clip)
        case .null, .unsupported:
            break
        }
    }

    /// The frame inside a precomp layer's composition at `frame` of the outer one.
    func localFrame(of layer: Layer, at frame: Double) -> Double {
        if let remap = layer.timeRemap { return remap.value(at: frame) * renderer.animation.frameRate }
        return (frame - layer.startTime) / (layer.timeStretch == 0 ? 1 : layer.timeStretch)
    }

    /// Combines a layer's masks in order into one coverage mask.
    func buildMasks(_ masks: [ModelMask], frame: Double, world: Matrix) -> CoverageMask? {
        guard let first = masks.first else { return nil }
        // Adding starts from nothing; subtracting or intersecting starts from everything.
        let startsFull = first.mode == .subtract || first.mode == .intersect || first.mode == .darken
        var result = CoverageMask(width: surfaceWidth, height: surfaceHeight, value: startsFull ? 255 : 0)
        for mask in masks {
            var m = CoverageMask(width: surfaceWidth, height: surfaceHeight)
            let path = ShapeGeometry.path(mask.path.value(at: frame))
            m.fill(path, transform: world, rule: .nonZero)
            let expansion = mask.expansion.value(at: frame)
            if expansion.isFinite, expansion != 0 {
                var style = StrokeStyle()
                style.width = abs(expansion) * 2
                style.join = .round
                let outline = strokeOutline(path, style: style, tolerance: 0.25 / max(world.scaleFactor, 1e-6))
                if expansion > 0 {
                    m.fill(outline, transform: world, rule: .nonZero)
                } else {
                    var band = CoverageMask(width: surfaceWidth, height: surfaceHeight)
                    band.fill(outline, transform: world, rule: .nonZero)
                    m.combine(band, .subtract)
                }
            }
            if mask.inverted { m = m.inverted() }
            let o = clamp01(mask.opacity.value(at: frame) / 100)
            if o < 1 { m.scale(by: o) }
            switch mask.mode {
            case .add, .none: result.combine(m, .add)
            case .subtract: result.combine(m, .subtract)
            case .intersect: result.combine(m, .intersect)
            case .lighten: result.combine(m, .lighten)
            case .darken: result.combine(m, .darken)
            case .difference: result.combine(m, .difference)
            }
        }
        return result
    }

    /// Renders the matte layer offscreen and turns it into coverage by alpha or luma.
    mutating func renderMatte(_ matteSource: Int?, mode: MatteMode, in comp: Composition, frame: Double, compMatrix: Matrix,
                              depth: Int) -> CoverageMask {
        var matteSurface = Surface(width: surfaceWidth, height: surfaceHeight)
        if let matteSource, case let matteLayer = comp.layers[matteSource],
           !matteLayer.hidden || matteLayer.isMatteSource, isVisible(matteLayer, at: frame) {
            drawLayer(at: matteSource, in: comp, frame: frame, into: &matteSurface, compMatrix: compMatrix, opacity: 1,
                      matte: nil, clip: nil, depth: depth)
        }
        switch mode {
        case .alpha, .none: return matteSurface.alphaMask()
        case .alphaInverted: return matteSurface.alphaMask().inverted()
        case .luma: return matteSurface.lumaMask()
        case .lumaInverted: return matteSurface.lumaMask().inverted()
        }
    }

    /// The region of the rectangle (0, 0, width, height) mapped by `matrix`: a pixel
    /// rectangle when it stays axis-aligned (edges rounded to whole pixels), else a mask; nil
    /// when it covers the whole surface anyway.
    static func clipRegion(width: Double, height: Double, matrix: Matrix, surfaceWidth: Int, surfaceHeight: Int) -> Clip? {
        guard width > 0, height > 0 else { return nil }
        let corners = [Point(0, 0), Point(width, 0), Point(width, height), Point(0, height)].map { matrix.apply($0) }
        let xs = corners.map { $0.x }, ys = corners.map { $0.y }
        let axisAligned = (abs(corners[0].y - corners[1].y) < 1e-9 && abs(corners[1].x - corners[2].x) < 1e-9)
            || (abs(corners[0].x - corners[1].x) < 1e-9 && abs(corners[1].y - corners[2].y) < 1e-9)
        guard xs.allSatisfy(\.isFinite), ys.allSatisfy(\.isFinite) else { return nil }
        func pixel(_ v: Double) -> Int { Int(max(-1e8, min(1e8, v)).rounded()) }
        let rect = PixelRect(x0: pixel(xs.min()!), y0: pixel(ys.min()!), x1: pixel(xs.max()!), y1: pixel(ys.max()!))
        if axisAligned {
            if rect.x0 <= 0, rect.y0 <= 0, rect.x1 >= surfaceWidth, rect.y1 >= surfaceHeight { return nil }
            return Clip(rect: rect)
        }
        var mask = CoverageMask(width: surfaceWidth, height: surfaceHeight)
        var path = RasterPath()
        path.addRect(Rect(x: 0, y: 0, width: width, height: height))
        mask.fill(path, transform: matrix, rule: .nonZero)
        func clamped(_ v: Double) -> Int { Int(max(-1e8, min(1e8, v))) }
        let outer = PixelRect(x0: clamped(xs.min()!.rounded(.down)), y0: clamped(ys.min()!.rounded(.down)),
                              x1: clamped(xs.max()!.rounded(.up)), y1: clamped(ys.max()!.rounded(.up)))
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
