import Glibc
import LottieModel
import Raster

/// Draws frames of one animation. Everything that does not change from frame to frame
/// (decoded images, layer look-ups, fonts) is prepared once here.
public struct AnimationRenderer {
    /// The animation as drawn: the file's model with the value providers bound in.
    public private(set) var animation: Animation
    /// The animation as loaded, before any provider.
    public let original: Animation
    /// Problems found while preparing or drawing (an image that would not decode, a missing font).
    public var warnings: [String] { prepared + images.warnings + notes.all }
    private let prepared: [String]
    /// The limits of work and memory this renderer keeps to.
    public let budget: RenderBudget
    /// Budgets exceeded while drawing, each noted once.
    let notes = RenderNotes()

    private(set) var root: Composition
    private(set) var precomps: [String: Composition]
    /// Image assets, decoded when first drawn.
    let images: ImageStore
    let text: TextRenderer
    /// Providers in the order they were set; a later one wins where keypaths overlap.
    private var bindings: [(keypath: Keypath, provider: AnyObject)] = []
    /// Bumped by every set and remove: the count of bindings and the sum of their versions
    /// can come back to the same figures with different providers (remove one, set a fresh
    /// one at version 0), so neither tells that the bindings changed.
    private(set) var bindingsGeneration: UInt64 = 0
    /// Shape layers evaluated by earlier renders; replaced whenever providers are rebound.
    private(set) var shapeCache = ShapeCache()
    /// Shape layers' evaluated shapes and paints' coverage kept from frame to frame, each
    /// re-evaluated only when what it depends on changes (`RenderTree`); nil when
    /// `usesRenderTree` is off.
    var renderTree: RenderTree?
    /// Whether frames are drawn through the render tree (the default) or by evaluating the
    /// model anew each frame through the shape and coverage caches (the reference): both
    /// draw the same pixels.
    public var usesRenderTree = true { didSet { rebuildRenderTree() } }
    /// Layers with masks that paint once are painted through their masks' coverage
    /// (`LayerCompositor.drawMaskedDirectly`); false takes the offscreen pass, the reference.
    public var masksClipDirectly = true
    /// The frame's clear waits for its first paint (`Surface.clearDeferred`), which stores
    /// its inside over the clear colour instead of clearing and blending it; false clears
    /// first, the reference. Both draw the same pixels.
    public var defersClear = true
    /// A layer clipped by one mask over at least this many pixels gets it as runs of coverage
    /// (`MaskRuns`), else as a buffer (`Int.max`: always a buffer, the reference).
    public var maskRunsArea = LayerCompositor.runsArea
    /// Coverage of the shapes drawn by earlier renders, found by content: a shape that has
    /// not moved since is painted without being rasterized again.
    let coverageCache = CoverageCache()
    /// Buffers of offscreen layers, masks and mattes, kept from frame to frame.
    let pool = BufferPool()
    /// How many threads `render(frame:viewport:background:into:)` draws with (1: the calling
    /// thread only). The frame is cut into that many horizontal bands drawn in parallel, with
    /// the same pixels as one thread. Value providers are then read from several threads at
    /// once, so they must be safe to read concurrently.
    public var threads = 1
    /// The threads besides the caller's that draw bands, kept from frame to frame.
    let bandWorkers = BandWorkers()
    /// Where frames are cut into bands, balanced from frame to frame.
    let bandLayout = BandLayout()
    /// What the last `renderIfChanged` drew.
    private var lastDrawn: (content: ContentKey, version: UInt64, generation: UInt64, viewport: Viewport, background: Color, frame: Double)?
    /// `renderIfChanged` draws only the pixels that differ from the frame it drew last
    /// (`damage(from:to:viewport:)`); false draws every frame whole, the reference. Both
    /// leave the same pixels.
    public var drawsDamageOnly = true
    /// Shape layers' bounds found by the last damage, for the next (`FrameDamage.swift`).
    let damageMemo = DamageMemo()

    /// `fontDirectories` are searched for the fonts text layers name before the system's
    /// font folders (configuration is passed in: the library reads no environment).
    public init(animation: Animation, budget: RenderBudget = RenderBudget(), fontDirectories: [String] = []) {
        self.budget = budget
        self.animation = animation
        original = animation
        (root, precomps) = Self.compositions(of: animation)
        images = ImageStore(animation: animation, byteBudget: budget.maxImageBytes)
        text = TextRenderer(animation: animation, fontDirectories: TextRenderer.defaultFontDirectories(first: fontDirectories), budget: budget,
                            notes: notes)
        prepared = text.warnings
        renderTree = RenderTree(root: root, precomps: precomps)
    }

    private static func compositions(of animation: Animation) -> (Composition, [String: Composition]) {
        var precomps: [String: Composition] = [:]
        for (id, asset) in animation.assets {
            if case .precomp(_, let layers, _) = asset { precomps[id] = Composition(id: id, layers: layers, ordinal: precomps.count + 1) }
        }
        return (Composition(id: nil, layers: animation.layers, ordinal: 0), precomps)
    }

    // MARK: Dynamic properties

    /// Makes every property matching `keypath` (and of the provider's value type) take its
    /// value from `provider`. Returns how many properties it matched. Keypaths are resolved
    /// here, once, not per frame.
    @discardableResult
    public mutating func setValueProvider<Value>(_ provider: some ValueProvider<Value>, keypath: Keypath) -> Int {
        bindings.append((keypath, provider))
        bindingsGeneration &+= 1
        var binder = ProviderBinder(keypath: keypath, provider: provider)
        PropertyTree.walk(&animation, &binder)
        (root, precomps) = Self.compositions(of: animation)
        shapeCache = ShapeCache()
        rebuildRenderTree()
        return binder.matched
    }

    /// Removes the providers set for exactly this keypath; the properties they drove go back
    /// to the file's keyframes (or to an earlier provider that also matches).
    public mutating func removeValueProviders(keypath: Keypath) {
        bindings.removeAll { $0.keypath == keypath }
        bindingsGeneration &+= 1
        animation = original
        for binding in bindings {
            var binder = ProviderBinder(keypath: binding.keypath, provider: binding.provider)
            PropertyTree.walk(&animation, &binder)
        }
        (root, precomps) = Self.compositions(of: animation)
        shapeCache = ShapeCache()
        rebuildRenderTree()
    }

    /// Sum of the versions of all bound providers: it changes whenever any provided value
    /// may have changed, so a caller can skip redrawing an unchanged frame.
    public var providersVersion: UInt64 {
        bindings.reduce(0) { sum, binding in sum &+ ((binding.provider as? any ValueProvider)?.version ?? 0) }
    }

    /// A provider bound that may give another value at another frame.
    var framedProviderBound: Bool {
        bindings.contains { binding in (binding.provider as? any ValueProvider)?.dependsOnFrame ?? true }
    }

    /// How many times renders evaluated a shape layer's shapes, and how many times they
    /// reused the shapes an earlier render evaluated because neither the frame nor any
    /// provider bound inside them had changed (a provider marks only its own layer dirty).
    public var shapeEvaluations: (evaluated: Int, reused: Int) { renderTree == nil ? shapeCache.statistics : renderTreeStatistics }

    /// How many buffers offscreen work had to allocate (or grow) since the renderer was made:
    /// it stops growing once every frame's needs have been met once.
    public var bufferAllocations: Int { pool.allocations }

    /// The most bytes of offscreen surfaces and masks one frame (or one band of a threaded
    /// frame) held at once since the renderer was made; at most `budget.maxSurfaceBytes`
    /// (a band: its share of it).
    public var peakSurfaceBytes: Int { notes.peakSurfaceBytes }

    /// Bytes of decoded image pixels the renderer holds (at most `budget.maxImageBytes`).
    public var decodedImageBytes: Int { images.bytesHeld }

    /// The shape coverage the renderer keeps from frame to frame: the shared cache's, and the
    /// render tree's slots' (every band's).
    public var keptCoverage: (cache: KeptCoverage, slots: KeptCoverage) {
        (coverageCache.held, (renderTree?.allSlots ?? []).reduce(KeptCoverage()) { $0 + $1.held })
    }

    /// Bytes of shape coverage kept from frame to frame at a frame size (`RenderBudget.keptCoverageBytes`).
    public func keptCoverageBytes(width: Int, height: Int) -> Int { budget.keptCoverageBytes(width: width, height: height) }

    /// Bytes of shape coverage the renderer holds now: the shared cache's and the render tree's slots'.
    public var coverageBytesHeld: Int { coverageCache.held.bytes + (renderTree?.allSlots ?? []).reduce(0) { $0 + $1.bytesHeld } }

    /// Sets the byte limits of the coverage kept for a frame of `width` x `height` and starts
    /// a frame of the slots (`CoverageSlots.startFrame`): three quarters for the shared cache,
    /// which serves any paint (a slot's shape found again, a precomp's other instances, a
    /// loop), a quarter for the slots (the frame's own shapes, found again next frame). Both
    /// keep coverage packed, and a coverage the cache made and a slot kept is the same bytes.
    private func startKeptCoverage(width: Int, height: Int) {
        let bytes = budget.keptCoverageBytes(width: width, height: height)
        let cache = bytes * 3 / 4
        if coverageCache.byteLimit != cache { coverageCache.setByteLimit(cache) }
        renderTree?.startFrame(slotBytes: bytes - cache)
    }

    /// How many shape paints reused the coverage of an earlier render, and how many rasterized.
    public var coverageReuse: (hits: Int, misses: Int) { coverageCache.statistics }

    /// Every addressable keypath in file order: layers and groups (type nil), and each
    /// animatable property with its value type (Double, Vec2, RGBA, BezierPath, GradientColors).
    public static func keypaths(of animation: Animation) -> [(keypath: String, type: String?)] {
        var copy = animation
        var lister = PropertyLister()
        PropertyTree.walk(&copy, &lister)
        return lister.found
    }

    /// Renders `frame` into a new surface of the viewport's size.
    public func render(frame: Double, viewport: Viewport, background: Color = .clear) -> Surface {
        // Made in the background colour: the frame's clear then has nothing to fill again.
        var surface = Surface(width: viewport.width, height: viewport.height, clearColor: background)
        render(frame: frame, viewport: viewport, background: background, into: &surface)
        return surface
    }

    /// Renders `frame` into an existing surface of the viewport's size (no allocation per frame).
    /// Pixels that the frame's opaque background layer will cover are not cleared first.
    /// With `threads` above 1 the frame is cut into horizontal bands drawn in parallel.
    public func render(frame: Double, viewport: Viewport, background: Color = .clear, into surface: inout Surface) {
        let matrix = viewport.transform(animationWidth: animation.width, animationHeight: animation.height)
        guard threads > 1, surface.bounds.height >= 2 * BandLayout.minimumRows else {
            // One compositor for the backdrop test and the draw: each takes a copy of the
            // renderer, a retain and release of each of its references.
            var compositor = LayerCompositor(renderer: self)
            let covered = backdrop(frame: frame, viewport: viewport, compositor: compositor)
            drawCleared(frame: frame, into: &surface, matrix: matrix, background: background, covered: covered, whole: surface.bounds,
                        compositor: &compositor)
            return
        }
        let covered = backdrop(frame: frame, viewport: viewport)
        drawBands(frame: frame, into: &surface, matrix: matrix, background: background, covered: covered)
    }

    /// `budgetRows`: the rows whose share of the surface budget the draw gets (nil: the surface's).
    func drawCleared(frame: Double, into surface: inout Surface, matrix: Raster.Transform, background: Color, covered: PixelRect?,
                     whole: PixelRect, band: (index: Int, count: Int) = (0, 1), budgetRows: Int? = nil) {
        var compositor = LayerCompositor(renderer: self)
        drawCleared(frame: frame, into: &surface, matrix: matrix, background: background, covered: covered, whole: whole, band: band,
                    budgetRows: budgetRows, compositor: &compositor)
    }

    /// `drawCleared` with `compositor`, a fresh one made from this renderer.
    private func drawCleared(frame: Double, into surface: inout Surface, matrix: Raster.Transform, background: Color, covered: PixelRect?,
                             whole: PixelRect, band: (index: Int, count: Int) = (0, 1), budgetRows: Int? = nil,
                             compositor: inout LayerCompositor) {
        if let covered {
            surface.clear(background, except: covered)
        } else if defersClear {
            surface.clearDeferred(background)
        } else {
            surface.clear(background)
        }
        draw(frame: frame, into: &surface, matrix: matrix, whole: whole, band: band, budgetRows: budgetRows, compositor: &compositor)
        surface.settleClear()
    }

    /// The pixels of a viewport-sized surface that the first layer drawn at `frame` covers
    /// with one opaque colour (a background solid or rectangle), or nil: what `render(into:)`
    /// need not clear.
    public func backdrop(frame: Double, viewport: Viewport) -> PixelRect? {
        backdrop(frame: frame, viewport: viewport, compositor: LayerCompositor(renderer: self))
    }

    /// `backdrop(frame:viewport:)` found by `compositor` (one made from this renderer).
    func backdrop(frame: Double, viewport: Viewport, compositor: LayerCompositor) -> PixelRect? {
        let matrix = viewport.transform(animationWidth: animation.width, animationHeight: animation.height)
        let clip = LayerCompositor.clipRegion(width: animation.width, height: animation.height, matrix: matrix,
                                              target: PixelRect(x0: 0, y0: 0, x1: viewport.width, y1: viewport.height))
        return compositor.opaqueBackdrop(of: root, frame: frame, matrix: matrix, clip: clip)
    }

    /// Redraws only when something visible changed since the last call (the frame, a
    /// provider's value, the providers bound, the viewport or background): a paused screen
    /// or a held frame costs nothing. Returns whether it drew.
    /// The surface must hold what the last call drew, apart from `overdrawn`: pixels the
    /// caller painted over since (a status line), drawn anew with the next frame drawn.
    @discardableResult
    public mutating func renderIfChanged(frame: Double, viewport: Viewport, background: Color = .clear, into surface: inout Surface,
                                         overdrawn: PixelRect = .empty) -> Bool {
        let version = providersVersion
        // Two frame numbers may be the same picture (nothing in the file varies between them).
        let content = contentKey(at: frame)
        if let last = lastDrawn, last.version == version, last.generation == bindingsGeneration,
           last.viewport == viewport, last.background == background, surface.width == viewport.width, surface.height == viewport.height {
            if last.content == content { return false }
            if drawsDamageOnly {
                render(frame: frame, after: last.frame, viewport: viewport, background: background, into: &surface, overdrawn: overdrawn)
                lastDrawn = (content, version, bindingsGeneration, viewport, background, frame)
                return true
            }
        }
        render(frame: frame, viewport: viewport, background: background, into: &surface)
        lastDrawn = (content, version, bindingsGeneration, viewport, background, frame)
        return true
    }

    /// Draws `frame` over whatever the surface holds, with `matrix` mapping animation
    /// coordinates to surface pixels. The animation is clipped to its own bounds.
    public func draw(frame: Double, into surface: inout Surface, matrix: Raster.Transform) {
        draw(frame: frame, into: &surface, matrix: matrix, whole: surface.bounds)
    }

    /// `draw` into a surface that holds `whole` or one band of it (`band`: which of how many).
    func draw(frame: Double, into surface: inout Surface, matrix: Raster.Transform, whole: PixelRect, band: (index: Int, count: Int) = (0, 1),
              budgetRows: Int? = nil) {
        var compositor = LayerCompositor(renderer: self)
        draw(frame: frame, into: &surface, matrix: matrix, whole: whole, band: band, budgetRows: budgetRows, compositor: &compositor)
    }

    /// `draw` with `compositor`, a fresh one made from this renderer (the frame's, shared with
    /// its backdrop test).
    private func draw(frame: Double, into surface: inout Surface, matrix: Raster.Transform, whole: PixelRect, band: (index: Int, count: Int),
                      budgetRows: Int?, compositor: inout LayerCompositor) {
        guard frame.isFinite else { return }
        let clip = LayerCompositor.clipRegion(width: animation.width, height: animation.height, matrix: matrix,
                                              target: surface.bounds)
        if band.index == 0 { startKeptCoverage(width: whole.width, height: whole.height) }
        compositor.slots = renderTree?.slots(band: band.index, of: band.count)
        // Shadows reach at most as far as the frame is large: a hostile softness or distance
        // cannot make offscreen buffers many times the frame (the same limit for every band).
        compositor.maxReach = min(Effects.maxReach, max(16, whole.width, whole.height))
        let rows = budgetRows ?? surface.bounds.height
        if whole.height > 0, rows < whole.height {
            compositor.work.surfaceLimit = Int(Double(budget.maxSurfaceBytes) * Double(rows) / Double(whole.height))
        }
        compositor.drawComposition(root, frame: frame, into: &surface, matrix: matrix, opacity: 1, clip: clip, depth: 0)
        notes.recordSurfacePeak(compositor.work.peakSurfaceBytes)
        if let exceeded = compositor.work.exceeded { notes.note("frame budget exceeded (\(exceeded)); the rest of the frame is skipped") }
    }
}
