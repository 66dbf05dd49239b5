import Glibc

/// A premultiplied 32-bit pixel buffer (0xAARRGGBB in native order) that paths, images and
/// other surfaces are drawn into. It holds the device pixels of one rectangle (`bounds`):
/// a whole frame, one band of it, or the part of the frame an offscreen layer covers.
/// Drawing uses device coordinates throughout, so the same drawing gives the same pixels
/// whatever part of the frame a surface holds.
///
/// A surface is `@unchecked Sendable` because a band view (`withBands`) points into another
/// surface's pixels; such views live only inside `withBands`, one per thread, over disjoint rows.
public struct Surface: @unchecked Sendable {
    /// The device position of `pixels[0]`.
    public let originX: Int
    public let originY: Int
    public let width: Int
    public let height: Int
    public var pixels: [UInt32]
    /// The device pixels drawn since the surface was made or cleared: outside it every pixel
    /// is transparent (for an offscreen layer, what its later passes need to cover). A
    /// surface cleared to an opaque colour counts as painted everywhere.
    public var painted: PixelRect { clearValue == 0 ? region.union : bounds }
    /// The pixels drawn since the last clear, as a few rectangles: outside them every pixel
    /// is `clearValue`. Clearing visits only them, and a display buffer that holds an
    /// earlier picture of this surface is brought up to date by rewriting only them
    /// (`drawnRegion`).
    var region = DirtyRegion()
    /// The premultiplied colour of every pixel outside the drawn region: what the surface was
    /// last cleared to (transparent for a new surface).
    public private(set) var clearValue: UInt32 = 0
    /// The pixels drawn since the last clear: outside these rectangles every pixel is `clearValue`.
    public var drawnRegion: PixelRegion { PixelRegion(region) }
    /// Scratch buffers of the rasterizer, reused from fill to fill.
    var rasterStorage = Rasterizer.Storage()
    /// The colour tables of the gradients painted last (`GradientTables`).
    var gradientTables = GradientTables()
    /// The stroker's buffers, reused from stroke to stroke (`StrokeScratch`).
    var strokeScratch = StrokeScratch()
    /// Pixels a deferred clear (`clearDeferred`) has yet to set to `clearValue`.
    var pendingClear = DirtyRegion()
    /// For a band view: the pixels, owned by the surface `withBands` was called on (`pixels`
    /// is then empty).
    private var view: UnsafeMutablePointer<UInt32>?
    /// Rasterizer buffers of the bands of `withBands`, kept between frames.
    private var bandStorage: [Rasterizer.Storage] = []
    /// The gradient tables of the bands of `withBands`, kept between frames as `bandStorage`.
    private var bandTables: [GradientTables] = []

    @inline(__always)
    mutating func withPixels<R>(_ body: (UnsafeMutableBufferPointer<UInt32>) -> R) -> R {
        if pendingClear.count > 0 { settleClear() }
        if let view { return body(UnsafeMutableBufferPointer(start: view, count: width * height)) }
        return pixels.withUnsafeMutableBufferPointer { body($0) }
    }

    @inline(__always)
    private func withPixelsRead<R>(_ body: (UnsafeBufferPointer<UInt32>) -> R) -> R {
        if let view { return body(UnsafeBufferPointer(start: view, count: width * height)) }
        return pixels.withUnsafeBufferPointer { body($0) }
    }

    /// Calls `body` with one surface per row range in `rows` (device rows, disjoint, within
    /// the surface), each a view over this surface's own pixels: drawing into the views draws
    /// into this surface, with no copy. The views must not be kept past `body`; each may be
    /// drawn from its own thread. Each view starts from the part of this surface's painted
    /// region it holds; afterwards this surface's region is what the views left.
    public mutating func withBands(_ rows: [Range<Int>], _ body: (UnsafeMutableBufferPointer<Surface>) -> Void) {
        let (w, x0, y0, h) = (width, originX, originY, height)
        let valid = rows.allSatisfy { $0.lowerBound >= y0 && $0.upperBound <= y0 + h }
        guard valid, view == nil else { return }
        if pendingClear.count > 0 { settleClear() }
        // Each band gets rasterizer buffers of its own, kept here from frame to frame and
        // moved (not copied) into the band: a buffer also held here would be copied on the
        // band's first write.
        while bandStorage.count < rows.count { bandStorage.append(Rasterizer.Storage()) }
        swap(&bandStorage[0], &rasterStorage)
        let before = region
        var drawn = DirtyRegion()
        var bandsClearValue: UInt32? = clearValue
        pixels.withUnsafeMutableBufferPointer { px in
            var bands = rows.enumerated().map { i, r in
                Surface(view: px.baseAddress! + (r.lowerBound - y0) * w, bounds: PixelRect(x0: x0, y0: r.lowerBound, x1: x0 + w, y1: r.upperBound),
                        painted: before, clearValue: clearValue, storage: &bandStorage[i])
            }
            while bandTables.count < rows.count { bandTables.append(GradientTables()) }
            for i in bands.indices { swap(&bandTables[i], &bands[i].gradientTables) }
            bands.withUnsafeMutableBufferPointer { body($0) }
            for i in bands.indices {
                swap(&bandStorage[i], &bands[i].rasterStorage)
                swap(&bandTables[i], &bands[i].gradientTables)
                drawn.add(bands[i].region)
            }
            bandsClearValue = bands.allSatisfy { $0.clearValue == bands[0].clearValue } ? bands[0].clearValue : nil
        }
        // Rows outside every band keep what they held: unless the bands cover every row
        // painted before, the old region stays in.
        if !Self.rows(rows, cover: before.union) { drawn.add(before) }
        region = drawn
        if bandsClearValue != clearValue {
            // The bands were cleared to another colour: it holds outside the region only if
            // they cover every row and agree; else nothing is known (all counts as drawn).
            if let value = bandsClearValue, Self.rows(rows, cover: bounds) { clearValue = value } else { region = DirtyRegion(bounds) }
        }
        swap(&bandStorage[0], &rasterStorage)
    }

    /// Whether the row ranges together hold every row of `rect`.
    private static func rows(_ rows: [Range<Int>], cover rect: PixelRect) -> Bool {
        var next = rect.y0
        for r in rows.sorted(by: { $0.lowerBound < $1.lowerBound }) where r.lowerBound <= next { next = max(next, r.upperBound) }
        return rect.isEmpty || next >= rect.y1
    }

    /// A band view over `bounds`; what it counts as painted is the part of the owner's
    /// painted region it holds.
    private init(view: UnsafeMutablePointer<UInt32>, bounds: PixelRect, painted: DirtyRegion, clearValue: UInt32, storage: inout Rasterizer.Storage) {
        originX = bounds.x0
        originY = bounds.y0
        width = bounds.width
        height = bounds.height
        pixels = []
        region = painted.intersection(bounds)
        self.clearValue = clearValue
        swap(&rasterStorage, &storage)
        self.view = view
    }

    public init(width: Int, height: Int, clearColor: Color = .clear) {
        originX = 0
        originY = 0
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = [UInt32](repeating: clearColor.premultiplied, count: self.width * self.height)
        clearValue = clearColor.premultiplied
    }

    public init(image: Image) {
        originX = 0
        originY = 0
        width = image.width
        height = image.height
        pixels = image.pixels
        region = DirtyRegion(bounds)
    }

    /// A transparent surface holding the device pixels of `bounds`, its buffers taken from
    /// `pool` (give them back with `recycle(into:)`).
    public init(bounds: PixelRect, pool: BufferPool? = nil) {
        originX = bounds.x0
        originY = bounds.y0
        width = bounds.width
        height = bounds.height
        pixels = pool?.pixels(count: bounds.width * bounds.height, value: 0) ?? [UInt32](repeating: 0, count: bounds.width * bounds.height)
        if let pool { rasterStorage = pool.rasterStorage() }
    }

    /// The device pixels this surface holds.
    public var bounds: PixelRect { PixelRect(x0: originX, y0: originY, x1: originX + width, y1: originY + height) }

    /// Hands the buffers back to `pool`; the surface holds nothing afterwards.
    public mutating func recycle(into pool: BufferPool) {
        // Outside what was painted every pixel is zero already: clearing what was painted
        // hands the pool a zeroed buffer, which the next clear surface takes without a fill
        // of its whole area (offscreen surfaces span their clip, and most paint a part of it).
        // When it painted most of its area, the taker's plain fill of the whole costs less.
        let drawn = region.union.intersection(bounds)
        let zeroed = clearValue == 0 && drawn.width * drawn.height * 2 < width * height
        if zeroed { fill(region, with: 0, except: .empty) }
        pool.recycle(&pixels, zeroed: zeroed)
        pool.recycle(&rasterStorage)
        region = DirtyRegion()
        clearValue = 0
    }

    public var image: Image { Image(width: width, height: height, pixels: pixels) }

    public mutating func clear(_ color: Color = .clear) {
        let value = color.premultiplied
        // Outside the drawn region every pixel is `clearValue` already: clearing to the same
        // colour need only visit what was drawn (an animation that covers part of the frame,
        // or a frame that drew little, costs that much and not a whole-frame pass).
        if value == clearValue {
            fill(region, with: value, except: .empty)
        } else {
            withPixels { if let base = $0.baseAddress { PixelStores.fill(base, with: value, count: $0.count) } }
        }
        region = DirtyRegion()
        clearValue = value
    }

    /// The simple `clear`: every pixel written, whatever was painted. The reference the
    /// painted-only clear must match (tests compare the two).
    public mutating func referenceClear(_ color: Color = .clear) {
        let value = color.premultiplied
        withPixels { $0.update(repeating: value) }
        region = DirtyRegion()
        clearValue = value
    }

    /// Sets the pixels of `region` (within the surface) but not those of `kept` to `value`,
    /// row by row: where the region's rectangles overlap, a row's stretches are merged
    /// first, so that no pixel is written twice (`StaleSpans`).
    mutating func fill(_ region: DirtyRegion, with value: UInt32, except kept: PixelRect) {
        let area = region.union.intersection(bounds)
        guard !area.isEmpty else { return }
        // Rows that `kept` spans from the area's left to its right have nothing to set: they
        // are left out whole (a frame whose backdrop covers what the last one drew walked
        // every such row, sorting its stretches to store nothing).
        let spansRows = kept.x0 <= area.x0 && kept.x1 >= area.x1
        let skipped = spansRows ? max(kept.y0, area.y0)..<max(min(kept.y1, area.y1), max(kept.y0, area.y0)) : area.y0..<area.y0
        if skipped == area.y0..<area.y1 { return }
        let (w, ox, oy) = (width, originX, originY)
        // A row's stretches (merged where they meet or overlap) are worked out again only
        // where a rectangle starts or ends, not on every row.
        var spans = StaleSpans((0..<region.count).map { region[$0].intersection(bounds) }.filter { !$0.isEmpty })
        withPixels { px in
            for y in area.y0..<area.y1 where !skipped.contains(y) {
                let row = px.baseAddress! + (y - oy) * w - ox
                spans.move(to: y)
                for k in 0..<spans.count {
                    let (x0, x1) = spans[k]
                    Self.fill(row, x0, x1, with: value, except: kept, y: y)
                }
            }
        }
    }

    /// Sets x0..<x1 of a row (`row` points at device column 0) to `value` but not the part in `kept`.
    @inline(__always)
    private static func fill(_ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, with value: UInt32, except kept: PixelRect, y: Int) {
        // Short stretches (a border beside a kept backdrop) in overlapping blocks (`ShortStores`).
        guard !kept.isEmpty, y >= kept.y0, y < kept.y1, kept.x1 > x0, kept.x0 < x1 else {
            ShortStores.fill(row + x0, with: value, count: x1 - x0)
            return
        }
        if kept.x0 > x0 { ShortStores.fill(row + x0, with: value, count: kept.x0 - x0) }
        if kept.x1 < x1 { ShortStores.fill(row + kept.x1, with: value, count: x1 - kept.x1) }
    }

    /// Clears every pixel outside `kept`, which the caller is about to cover with opaque
    /// paint anyway: a full-screen background rectangle then costs one pass over memory, not two.
    public mutating func clear(_ color: Color = .clear, except kept: PixelRect) {
        let keptHere = kept.intersection(bounds)
        guard !keptHere.isEmpty else { return clear(color) }
        let value = color.premultiplied
        defer { region = DirtyRegion(keptHere); clearValue = value }
        if value == clearValue {
            fill(region, with: value, except: keptHere)
            return
        }
        let k = PixelRect(x0: keptHere.x0 - originX, y0: keptHere.y0 - originY, x1: keptHere.x1 - originX, y1: keptHere.y1 - originY)
        let w = width
        withPixels { px in
            let base = px.baseAddress!
            PixelStores.fill(base, with: value, count: k.y0 * w + k.x0)
            for y in k.y0..<k.y1 - 1 {
                // From the end of the kept part of this row to its start on the next.
                PixelStores.fill(base + y * w + k.x1, with: value, count: w - k.x1 + k.x0)
            }
            let tail = (k.y1 - 1) * w + k.x1
            PixelStores.fill(base + tail, with: value, count: px.count - tail)
        }
    }

    /// Fills `path` (in user space, mapped to pixels by `transform`) with `paint`. With a
    /// `cache`, a path filled before with the same transform, rule and clip rectangle is
    /// painted from the coverage found then.
    public mutating func fill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero,
                              paint: Paint, opacity: Double = 1, clip: Clip? = nil, cache: CoverageCache? = nil) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        let shader = Shader(paint: paint, pathToDevice: transform, tables: &gradientTables)
        guard !shader.isEmpty else { return }
        let limit = drawingLimit(clip)
        let coverage = Self.lookUp(cache, CoverageCache.Key(path: path, transform: transform, kind: .fill(rule), limit: limit)) {
            rasterize(path.transformed(by: transform), rule: rule, limit: limit)
        }
        paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip)
    }

    /// Strokes `path`; the stroke's width and dashes are in user space. With a `cache`, as
    /// for `fill`: an unchanged stroke is neither outlined nor rasterized again.
    public mutating func stroke(_ path: Path, transform: Transform = .identity, style: StrokeStyle,
                                paint: Paint, opacity: Double = 1, clip: Clip? = nil, cache: CoverageCache? = nil) {
        guard opacity > 0, style.width > 0, style.width.isFinite, transform.isFinite, !path.isEmpty else { return }
        let shader = Shader(paint: paint, pathToDevice: transform, tables: &gradientTables)
        guard !shader.isEmpty else { return }
        let limit = drawingLimit(clip)
        let coverage = Self.lookUp(cache, CoverageCache.Key(path: path, transform: transform, kind: .stroke(style), limit: limit)) {
            rasterize(Self.strokeOutline(path, style: style, transform: transform), rule: .nonZero, limit: limit)
        }
        paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip)
    }

    /// The outline of a stroke, in device space.
    static func strokeOutline(_ path: Path, style: StrokeStyle, transform: Transform) -> Path {
        var scratch = StrokeScratch()
        return strokeOutline(path, style: style, transform: transform, scratch: &scratch)
    }

    /// `strokeOutline(_:style:transform:)` outlined in the buffers of `scratch`.
    static func strokeOutline(_ path: Path, style: StrokeStyle, transform: Transform, scratch: inout StrokeScratch) -> Path {
        let scale = max(transform.scaleFactor, 1e-9)
        var source = path
        if !style.dashes.isEmpty { source = dashed(path, dashes: style.dashes, offset: style.dashOffset) }
        return Raster.strokeOutline(source, style: style, tolerance: 0.05 / scale, transform: transform, scratch: &scratch)
    }

    /// Where a paint may land: the surface, the clip's rectangle and its mask's rectangle.
    func drawingLimit(_ clip: Clip?) -> PixelRect {
        guard let clip else { return bounds }
        let limit = clip.runs.map { bounds.intersection(clip.rect).intersection($0.rect) } ?? bounds.intersection(clip.rect)
        return clip.mask.map { limit.intersection($0.rect) } ?? limit
    }

    /// `rasterize`, and the painted region grown, for paints made in other files (`CoverageSlots`).
    mutating func coverage(of device: Path, rule: FillRule, limit: PixelRect) -> Coverage { rasterize(device, rule: rule, limit: limit) }
    mutating func notePainted(_ rect: PixelRect) { region.add(rect) }

    static func lookUp(_ cache: CoverageCache?, _ key: @autoclosure () -> CoverageCache.Key,
                               make: () -> Coverage) -> Coverage {
        guard let cache else { return make() }
        return cache.coverage(for: key(), make: make)
    }

    /// Rasterizes a device-space path within `limit`.
    /// Large paths go in bands of rows (`Rasterizer.inBands`): the same coverage, a small buffer.
    private mutating func rasterize(_ device: Path, rule: FillRule, limit: PixelRect) -> Coverage {
        guard let bounds = device.bounds, let area = Rasterizer.area(bounds: bounds, limit: limit) else { return Coverage() }
        return Coverage.build(rows: area.height) { builder in
            Rasterizer.inBands(device, limit: limit, storage: &rasterStorage) { $0.append(rule: rule, to: &builder) }
        }
    }

    /// Paints runs of coverage. One colour and no clip mask is the common case and goes run
    /// by run: the inside of a shape is stored (opaque) or blended with one precomputed
    /// colour, and only the edge blocks go pixel by pixel. Everything else goes through
    /// `blendRow`, as `referenceFill` does for every row.
    mutating func paintCoverage(_ coverage: Coverage, shader: Shader, opacity: Double, clip: Clip?) {
        guard !coverage.isEmpty else { return }
        if let clip, let runs = clip.runs { return paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip, runs: runs) }
        let (w, ox, oy) = (width, originX, originY)
        let o = PixelMath.alpha(Float(opacity))
        guard o > 0 else { return }
        notePainted(coverage, within: bounds)
        let clipMask = clip?.mask
        // A uniform gradient at full opacity is its colour: the same arithmetic as shading it.
        if let solid = shader.solidColor ?? (o == 255 ? shader.uniform : nil) {
            let color = o == 255 ? solid : PixelMath.scale(solid, o)
            if clipMask == nil, pendingClear.count > 0 { return paintRunsOverPendingClear(coverage, color: color) }
            if let clipMask { paintRuns(coverage, color: color, clip: clipMask) } else { paintRuns(coverage, color: color) }
            return
        }
        if clipMask == nil, pendingClear.count > 0 { return paintShadedRunsOverPendingClear(coverage, shader: shader, opacity: o) }
        if let clipMask { return paintShadedRuns(coverage, shader: shader, opacity: o, clip: clipMask) }
        var colors = [UInt32](repeating: 0, count: coverage.longestRun)
        withPixels { px in
            coverage.bytes.withUnsafeBufferPointer { bytes in
                colors.withUnsafeMutableBufferPointer { colors in
                    for run in coverage.runs {
                        let count = Int(run.count)
                        if run.offset < 0 {
                            Self.paintConstantRun(px.baseAddress! + (Int(run.y) - oy) * w + (Int(run.x) - ox), y: Int(run.y), x: Int(run.x),
                                                  count: count, value: run.value, colors: colors.baseAddress!, shader: shader, opacity: o)
                            continue
                        }
                        // `blendRow` writes its coverage only to scale it by a clip mask:
                        // without one, the coverage's own bytes are read in place, not copied.
                        let (x, y) = (Int(run.x), Int(run.y))
                        Self.blendShadedRow(px.baseAddress! + (y - oy) * w + (x - ox), y: y, x: x, count: count,
                                            alpha: UnsafeMutablePointer(mutating: bytes.baseAddress! + Int(run.offset)),
                                            colors: colors.baseAddress!, shader: shader, opacity: o)
                    }
                }
            }
        }
    }

    /// A gradient or image through runs of coverage and a clip mask: each run's coverage
    /// times the mask's, eight pixels at a time (`multiply`, the rounding `blendRow` uses on
    /// a clip, as the one-colour `paintRuns(_:color:clip:)` does), then `blendRow` with no
    /// clip. The same pixels as `blendRow` with the clip, which multiplies pixel by pixel
    /// (`ClippedShadedRunTests`).
    private mutating func paintShadedRuns(_ coverage: Coverage, shader: Shader, opacity o: UInt32, clip mask: Mask) {
        let (w, ox, oy) = (width, originX, originY)
        let (mx, my, mw) = (mask.originX, mask.originY, mask.width)
        var alpha = [UInt8](repeating: 0, count: coverage.longestRun)
        var colors = [UInt32](repeating: 0, count: coverage.longestRun)
        withPixels { px in
            coverage.bytes.withUnsafeBufferPointer { bytes in
                mask.values.withUnsafeBufferPointer { clip in
                    alpha.withUnsafeMutableBufferPointer { alpha in
                        colors.withUnsafeMutableBufferPointer { colors in
                            for run in coverage.runs {
                                // Runs lie within the surface and the mask (the paint's limit).
                                let (x, y, count) = (Int(run.x), Int(run.y), Int(run.count))
                                let clipRow = clip.baseAddress! + ((y &- my) &* mw &+ (x &- mx))
                                let source = run.offset >= 0 ? bytes.baseAddress! + Int(run.offset) : nil
                                Self.multiply(source, constant: run.value, by: clipRow, into: alpha.baseAddress!, count: count)
                                Self.blendShadedRow(px.baseAddress! + ((y &- oy) &* w &+ (x &- ox)), y: y, x: x, count: count,
                                                    alpha: alpha.baseAddress!, colors: colors.baseAddress!, shader: shader, opacity: o)
                            }
                        }
                    }
                }
            }
        }
    }

    /// One colour, run by run.
    private mutating func paintRuns(_ coverage: Coverage, color: UInt32) {
        let (w, ox, oy) = (width, originX, originY)
        withPixels { px in
            coverage.bytes.withUnsafeBufferPointer { bytes in coverage.runs.withUnsafeBufferPointer { runs in
              withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SolidShades.count) { table in
                // The edge pixels of many short runs take their shade from a table (`SolidShades`).
                let painter = SolidRunPainter(color: color, shades: SolidShades.table(table.baseAddress!, color: color, runs: runs.count))
                let pixels = px.baseAddress!, last = runs.count &- 1
                for k in 0..<runs.count {
                    let run = runs[k]
                    // Runs lie within the surface (rasterized within its bounds): no overflow.
                    let row = pixels + ((Int(run.y) &- oy) &* w &+ (Int(run.x) &- ox))
                    // The run some way ahead, or the last one near the end (prefetched again,
                    // harmlessly): a test of the distance left was a branch missed at the end
                    // of most paints' runs.
                    let ahead = runs[min(k &+ PixelStores.prefetchDistance, last)]
                    PixelStores.prefetch(pixels + ((Int(ahead.y) &- oy) &* w &+ (Int(ahead.x) &- ox)))
                    if run.offset >= 0 {
                        painter.varying(row, coverage: bytes.baseAddress! + Int(run.offset), count: Int(run.count))
                    } else {
                        painter.constant(row, count: Int(run.count), coverage: run.value)
                    }
                }
              }
            }}
        }
    }

    /// Paints one row of `count` pixels from coverage `alpha` (0...255, scaled here by the
    /// clip mask and `opacity`): the per-pixel path every paint can take.
    static func blendRow(_ row: UnsafeMutablePointer<UInt32>, y: Int, x: Int, count: Int,
                                 alpha: UnsafeMutablePointer<UInt8>, colors: UnsafeMutablePointer<UInt32>,
                                 shader: Shader, opacity o: UInt32, clip: ([UInt8], Int)?) {
        if let (values, start) = clip {
            values.withUnsafeBufferPointer { clip in
                let clipRow = clip.baseAddress! + start
                for i in 0..<count where alpha[i] != 0 {
                    alpha[i] = UInt8((UInt32(alpha[i]) * UInt32(clipRow[i]) + 127) / 255)
                }
            }
        }
        if let solid = shader.solidColor {
            // Opacity goes into the colour, as in `paintRuns`, so both paths agree.
            blendSolid(o == 255 ? solid : PixelMath.scale(solid, o), row, alpha, 0, count)
            return
        }
        shader.shade(y: y, x0: x, count: count, into: colors)
        // Coverage times opacity, as (a·o + 127) / 255, scales each colour (for o = 255 that
        // is the coverage itself).
        SpanKernels.paint(row, colors, coverage: alpha, opacity: o, count: count)
    }

    /// `blendRow` with no clip mask, for the run loops of painting: a short run of a
    /// gradient's colours (premultiplied) blends them in lanes in one go
    /// (`SpanKernels.blendShortPremultipliedColors`, the same pixels); `blendRow` itself stays
    /// the per-pixel path of `referenceFill`.
    @inline(__always)
    static func blendShadedRow(_ row: UnsafeMutablePointer<UInt32>, y: Int, x: Int, count: Int,
                               alpha: UnsafeMutablePointer<UInt8>, colors: UnsafeMutablePointer<UInt32>,
                               shader: Shader, opacity o: UInt32) {
        #if !DEBUG
        // Lanes in release builds only (see `SpanKernels.paint`).
        if count < 8, shader.shadesPremultiplied {
            shader.shade(y: y, x0: x, count: count, into: colors)
            return SpanKernels.blendShortPremultipliedColors(row, colors, coverage: alpha, opacity: o, count: count)
        }
        #endif
        blendRow(row, y: y, x: x, count: count, alpha: alpha, colors: colors, shader: shader, opacity: o, clip: nil)
    }

    /// The same fill as `fill` with no cache, swept and painted pixel by pixel: the
    /// definition the run-based painting must match (tests compare the two). Slow.
    public mutating func referenceFill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero,
                                       paint: Paint, opacity: Double = 1, clip: Clip? = nil) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        let shader = Shader(paint: paint, pathToDevice: transform, uniformAsSolid: false)
        let o = PixelMath.alpha(Float(opacity))
        guard !shader.isEmpty, o > 0 else { return }
        let device = path.transformed(by: transform)
        guard let bounds = device.bounds,
              var rasterizer = Rasterizer(bounds: bounds, limit: drawingLimit(clip), storage: &rasterStorage) else { return }
        defer { rasterizer.finish(into: &rasterStorage) }
        rasterizer.add(device)
        let (w, ox, oy) = (width, originX, originY)
        let clipMask = clip?.bufferMask()
        var colors = [UInt32](repeating: 0, count: rasterizer.width + 1)
        var touched = PixelRect.empty
        withPixels { px in
            colors.withUnsafeMutableBufferPointer { colors in
                rasterizer.sweep(rule: rule, opacity: 1) { y, x0, start, end, alpha in
                    let x = x0 + start
                    touched = touched.union(PixelRect(x0: x, y0: y, x1: x0 + end, y1: y + 1))
                    Self.blendRow(px.baseAddress! + (y - oy) * w + (x - ox), y: y, x: x, count: end - start,
                                  alpha: alpha + start, colors: colors.baseAddress!, shader: shader, opacity: o,
                                  clip: clipMask.map { ($0.values, (y - $0.originY) * $0.width + (x - $0.originX)) })
                }
            }
        }
        region.add(touched.intersection(self.bounds))
    }

    /// The common case: one colour through a row of coverage (`SpanKernels.blendSolid`).
    @inline(__always)
    private static func blendSolid(_ color: UInt32, _ row: UnsafeMutablePointer<UInt32>, _ alpha: UnsafeMutablePointer<UInt8>,
                                   _ start: Int, _ end: Int) {
        SpanKernels.paintSolid(row + start, color: color, coverage: alpha + start, count: end - start)
    }

    /// Draws an image whose pixels span (0, 0)–(width, height) in user space, filtered.
    public mutating func draw(_ image: Image, transform: Transform, opacity: Double = 1, clip: Clip? = nil) {
        var rect = Path()
        rect.addRect(Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
        fill(rect, transform: transform, paint: .image(image, .identity), opacity: opacity, clip: clip)
    }

    /// Composites `source` over this surface where both hold pixels, scaled by `opacity` and
    /// by `mask` (device coverage, none outside its rectangle): the pass that blends a layer is
    /// the one that applies its masks and matte. Only what the source painted is visited.
    public mutating func composite(_ source: Surface, blend: BlendMode = .normal, opacity: Double = 1, mask: Mask? = nil) {
        guard opacity > 0 else { return }
        var area = source.painted.intersection(source.bounds).intersection(bounds)
        if let mask { area = area.intersection(mask.rect) }
        let o = PixelMath.alpha(Float(opacity))
        guard !area.isEmpty, o > 0 else { return }
        region.add(area)
        let (w, sw, count, ox, oy) = (width, source.width, area.width, originX, originY)
        let maskValues = mask?.values ?? []
        // The blend mode's kernel is chosen once for the whole composite.
        let kernel = BlendSpans.kernel(for: blend)
        withPixels { dst in
            source.pixels.withUnsafeBufferPointer { src in
                maskValues.withUnsafeBufferPointer { mv in
                    for y in area.y0..<area.y1 {
                        let d = dst.baseAddress! + (y - oy) * w + (area.x0 - ox)
                        let s = src.baseAddress! + (y - source.originY) * sw + (area.x0 - source.originX)
                        let m = mask.map { UnsafePointer(mv.baseAddress! + (y - $0.originY) * $0.width + (area.x0 - $0.originX)) }
                        if blend == .normal {
                            // Called directly, the source-over lanes are inlined here (through the
                            // kernel's closure they cost a tenth more on layer-heavy files).
                            SpanKernels.paint(d, s, coverage: m, opacity: o, count: count)
                        } else {
                            kernel(d, s, m, count, o)
                        }
                    }
                }
            }
        }
    }

    /// One row of `composite`, pixel by pixel, with `Blending.blend` for the blend modes: the
    /// reference (`SpanKernels.blend` is the fast path of normal, `BlendKernels` of the others).
    static func compositeRow(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, mask: UnsafePointer<UInt8>?,
                             count: Int, opacity o: UInt32, blend: BlendMode) {
        for i in 0..<count {
            guard let s = PixelMath.shown(src[i], opacity: o, mask: mask, at: i) else { continue }
            dst[i] = blend == .normal ? PixelMath.over(s, dst[i]) : Blending.blend(s, dst[i], blend)
        }
    }

    /// Coverage from the alpha channel, over `area` (default: the surface's bounds).
    public func alphaMask(in area: PixelRect? = nil, pool: BufferPool? = nil) -> Mask {
        channelMask(in: area ?? bounds, pool: pool) { UInt8($0 >> 24) }
    }

    /// Coverage from luminance (Rec. 709) of the premultiplied colour, as if composited on black.
    public func lumaMask(in area: PixelRect? = nil, pool: BufferPool? = nil) -> Mask {
        channelMask(in: area ?? bounds, pool: pool) { p in
            // Typed and summed in steps: Swift 6.0's type checker gives up on the one-line sum.
            let r: UInt32 = (p >> 16) & 0xff, g: UInt32 = (p >> 8) & 0xff, b: UInt32 = p & 0xff
            let sum: UInt32 = r * 54 + g * 183 + b * 19
            return UInt8((sum + 128) >> 8)
        }
    }

    /// A mask over `area` with `value(pixel)` where this surface painted, zero elsewhere.
    private func channelMask(in area: PixelRect, pool: BufferPool?, _ value: (UInt32) -> UInt8) -> Mask {
        var mask = Mask(rect: area, value: 0, pool: pool)
        let shared = area.intersection(painted).intersection(bounds)
        guard !shared.isEmpty else { return mask }
        let (w, mw) = (width, mask.width)
        mask.values.withUnsafeMutableBufferPointer { m in
            withPixelsRead { px in
                for y in shared.y0..<shared.y1 {
                    let src = px.baseAddress! + (y - originY) * w + (shared.x0 - originX)
                    let dst = m.baseAddress! + (y - area.y0) * mw + (shared.x0 - area.x0)
                    for i in 0..<shared.width { dst[i] = value(src[i]) }
                }
            }
        }
        return mask
    }

    /// Multiplies every pixel by the mask's coverage (none outside its rectangle).
    public mutating func applyMask(_ mask: Mask) {
        let area = painted.intersection(bounds)
        guard !area.isEmpty else { return }
        let (w, ox, oy) = (width, originX, originY)
        withPixels { px in
            for y in area.y0..<area.y1 {
                let row = px.baseAddress! + (y - oy) * w
                for x in area.x0..<area.x1 {
                    let a = UInt32(mask.value(x: x, y: y))
                    if a == 255 { continue }
                    row[x - ox] = a == 0 ? 0 : PixelMath.scale(row[x - ox], a)
                }
            }
        }
        // Pixels outside the mask became transparent: with an opaque clear colour, that is
        // no longer what lies outside the region.
        region = clearValue == 0 ? region.intersection(mask.rect) : DirtyRegion(bounds)
    }

    /// Marks the whole surface as painted (after writing `pixels` directly).
    public mutating func markPainted(_ area: PixelRect? = nil) {
        region.add((area ?? bounds).intersection(bounds))
    }
}
