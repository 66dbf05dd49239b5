/// A clear that waits for the frame's first paint.
///
/// Clearing what the last frame drew and then painting the frame's bottom-most shape over
/// it writes that shape's pixels twice, and blends its inside over pixels whose value is
/// known (the clear colour). When the first paint is one colour through kept coverage (a
/// shape that holds still, drawn first, as a background or a card usually is), its runs of
/// constant coverage land on pixels that all hold the clear colour: each such run is one
/// value, `colour over clear colour`, found once with the same kernel the paint uses, and
/// stored without the clear under it. Only the rest of the stale pixels are cleared, row by
/// row as the paint goes (the row is still in cache when it is painted), and only the
/// shape's edge pixels are blended.
///
/// Every other access to the pixels settles the clear first (`withPixels`), so any paint,
/// composite or read after `clearDeferred` sees the cleared surface, as after `clear`. The
/// region and clear colour are those of the clear from the start. `clear` followed by the
/// same paints is the reference; tests compare the two.
extension Surface {
    /// `clear(color)`, with the pixels the last frame drew left to the first paint or
    /// `settleClear()`: call `settleClear()` before reading `pixels` directly.
    public mutating func clearDeferred(_ color: Color = .clear) {
        // Another colour is a whole-surface fill whatever was drawn: nothing to save.
        guard color.premultiplied == clearValue else { return clear(color) }
        pendingClear.add(region)
        region = DirtyRegion()
    }

    /// Finishes a deferred clear: the pixels it left are set to the clear colour.
    public mutating func settleClear() {
        guard pendingClear.count > 0 else { return }
        let stale = pendingClear
        pendingClear = DirtyRegion()
        fill(stale, with: clearValue, except: .empty)
    }

    /// Paints `coverage` in `color` (premultiplied, opacity applied; no clip mask) onto a
    /// surface whose deferred clear is pending, and settles the clear: the pixels are those
    /// of `settleClear()` then `paintRuns`.
    mutating func paintRunsOverPendingClear(_ coverage: Coverage, color: UInt32) {
        let clear = clearValue
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SolidShades.count) { table in
            // Every pixel a run lands on holds the clear colour when it is painted (cleared
            // just before, or outside what was drawn; runs do not overlap): a pixel of coverage
            // a becomes `shades.value(a)`. With many runs every such value is worked out
            // once, and each edge pixel is a look-up (`ShadesOverClear`).
            let shades = ShadesOverClear(color: color, over: clear, table: table.baseAddress!, runs: coverage.runs.count)
            // Every constant run is one stored value: none needs the clear under it.
            overPendingClear(coverage, overwritingFrom: 1, painter: shades)
        }
    }

    /// Paints `coverage` with a gradient or image `shader` at opacity `o` (no clip mask) onto
    /// a surface whose deferred clear is pending, and settles the clear: the pixels are those
    /// of `settleClear()` then `paintCoverage`'s run loop, which this one is. Runs of an opaque
    /// gradient at full strength are shaded straight into the row (`paintConstantRun`): the
    /// clear under them is left out.
    mutating func paintShadedRunsOverPendingClear(_ coverage: Coverage, shader: Shader, opacity o: UInt32) {
        // Constant runs whose strength (coverage times opacity) is 255 overwrite, when the
        // gradient is opaque: from the least coverage that gives it (256: none).
        var from = 256
        if shader.isOpaqueGradient { from = (1...255).first { (o * UInt32($0) + 127) / 255 == 255 } ?? 256 }
        var colors = [UInt32](repeating: 0, count: coverage.longestRun)
        colors.withUnsafeMutableBufferPointer { colors in
            let c = colors.baseAddress!
            overPendingClear(coverage, overwritingFrom: from, painter: ClosureRows { row, runs, bytes in
                for run in runs {
                    let (x, y, count) = (Int(run.x), Int(run.y), Int(run.count))
                    if run.offset < 0 {
                        Self.paintConstantRun(row + x, y: y, x: x, count: count, value: run.value, colors: c, shader: shader, opacity: o)
                        continue
                    }
                    // No clip: `blendRow` only reads the coverage, in place.
                    Self.blendShadedRow(row + x, y: y, x: x, count: count, alpha: UnsafeMutablePointer(mutating: bytes + Int(run.offset)),
                                        colors: c, shader: shader, opacity: o)
                }
            })
        }
    }

    /// Settles the pending clear row by row, top down, with a paint of `coverage`: on each
    /// row, the stale pixels are cleared but for those of the constant runs of coverage
    /// `overwritingFrom` or more (their paint does not read what lies under them), then
    /// `painter` paints the row's runs (`row` points at device column 0; `bytes`, the
    /// coverage's bytes). A generic painter, not a closure: specialized, its row loop is
    /// inlined here instead of called once per row with its context spilled around the call.
    @inline(__always)
    private mutating func overPendingClear<Painter: PendingClearRows>(_ coverage: Coverage, overwritingFrom from: Int, painter: Painter) {
        let stale = pendingClear
        pendingClear = DirtyRegion()
        let staleArea = stale.union.intersection(bounds)
        let rects = (0..<stale.count).map { stale[$0].intersection(bounds) }.filter { !$0.isEmpty }
        let painted = coverage.bounds.intersection(bounds)
        let top = min(staleArea.isEmpty ? Int.max : staleArea.y0, painted.isEmpty ? Int.max : painted.y0)
        let bottom = max(staleArea.isEmpty ? Int.min : staleArea.y1, painted.isEmpty ? Int.min : painted.y1)
        guard top < bottom else { return }
        let (w, ox, oy, value) = (width, originX, originY, clearValue)
        var spans = StaleSpans(rects)
        withPixels { px in
            coverage.runs.withUnsafeBufferPointer { runs in
                coverage.bytes.withUnsafeBufferPointer { bytes in
                    // A coverage of constant runs only has no bytes (and no base address).
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { none in
                        let coverageBytes = bytes.baseAddress ?? UnsafePointer(none.baseAddress!)
                        var next = 0
                        for y in top..<bottom {
                            let first = next
                            while next < runs.count, Int(runs[next].y) == y { next += 1 }
                            let row = px.baseAddress! + (y - oy) * w - ox
                            let rowRuns = UnsafeBufferPointer(rebasing: runs[first..<next])
                            spans.move(to: y)
                            for k in 0..<spans.count {
                                let (x0, x1) = spans[k]
                                Self.clearSpan(row, x0, x1, except: rowRuns, overwritingFrom: from, value: value)
                            }
                            painter.paint(row, rowRuns, coverageBytes)
                        }
                        // Runs out of row order (the rasterizer makes none) were left out
                        // above, and their pixels cleared: they are painted now, each over
                        // cleared pixels, as runs of one coverage do not overlap.
                        for i in next..<runs.count {
                            painter.paint(px.baseAddress! + (Int(runs[i].y) - oy) * w - ox, UnsafeBufferPointer(rebasing: runs[i...i]), coverageBytes)
                        }
                    }
                }
            }
        }
    }

    /// Sets x0..<x1 of a row (`row` points at device column 0) to `value` around the
    /// constant runs of coverage `from` or more (in x order, as the rasterizer makes them;
    /// out of order, fewer are left out, and never a pixel outside them). A short run is cleared with
    /// the rest: one store over it costs less than cutting the stretch in two (a clear is
    /// the cheapest store there is, `PixelStores`), and its paint overwrites it anyway.
    @inline(__always)
    private static func clearSpan(_ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, except runs: UnsafeBufferPointer<Coverage.Run>,
                                  overwritingFrom from: Int, value: UInt32) {
        var x = x0
        for run in runs where run.offset < 0 && Int(run.count) >= PixelStores.callThreshold && Int(run.value) >= from {
            let start = Int(run.x), end = start + Int(run.count)
            if end <= x { continue }
            if start >= x1 { break }
            if start > x { ShortStores.fill(row + x, with: value, count: start - x) }
            x = end
            if x >= x1 { return }
        }
        if x < x1 { ShortStores.fill(row + x, with: value, count: x1 - x) }
    }
}

/// What paints one row's runs over a pending clear (`overPendingClear`): `row` points at
/// device column 0, `bytes` at the coverage's bytes.
protocol PendingClearRows {
    func paint(_ row: UnsafeMutablePointer<UInt32>, _ runs: UnsafeBufferPointer<Coverage.Run>, _ bytes: UnsafePointer<UInt8>)
}

/// A row painter given as a closure (the shaded paint: few of its paints go over a clear).
private struct ClosureRows: PendingClearRows {
    let body: (UnsafeMutablePointer<UInt32>, UnsafeBufferPointer<Coverage.Run>, UnsafePointer<UInt8>) -> Void

    init(_ body: @escaping (UnsafeMutablePointer<UInt32>, UnsafeBufferPointer<Coverage.Run>, UnsafePointer<UInt8>) -> Void) {
        self.body = body
    }

    func paint(_ row: UnsafeMutablePointer<UInt32>, _ runs: UnsafeBufferPointer<Coverage.Run>, _ bytes: UnsafePointer<UInt8>) {
        body(row, runs, bytes)
    }
}

extension ShadesOverClear: PendingClearRows {
    /// One colour's runs of a row: a constant run is one stored value, a run of coverage
    /// bytes one value per pixel (`paint(_:coverage:count:)`).
    @inline(__always)
    func paint(_ row: UnsafeMutablePointer<UInt32>, _ runs: UnsafeBufferPointer<Coverage.Run>, _ bytes: UnsafePointer<UInt8>) {
        for run in runs {
            let x = Int(run.x), count = Int(run.count)
            if run.offset < 0 {
                ShortStores.fill(row + x, with: value(run.value), count: count)
            } else {
                paint(row + x, coverage: bytes + Int(run.offset), count: count)
            }
        }
    }
}

/// The stretches of a row that a few rectangles hold, sorted and merged, worked out again
/// only on the rows where a rectangle starts or ends (`move(to:)`, rows top down).
struct StaleSpans {
    private let rects: [PixelRect]
    private var spans: [(Int, Int)] = []
    /// The rows the spans hold for.
    private var valid = 0..<0

    init(_ rects: [PixelRect]) {
        self.rects = rects
        spans.reserveCapacity(rects.count)
    }

    var count: Int { spans.count }
    subscript(i: Int) -> (Int, Int) { spans[i] }

    /// Makes the spans those of row `y`.
    @inline(__always)
    mutating func move(to y: Int) {
        if valid.contains(y) { return }
        spans.removeAll(keepingCapacity: true)
        var end = Int.max
        for r in rects {
            if y >= r.y0 && y < r.y1 {
                spans.append((r.x0, r.x1))
                end = min(end, r.y1)
            } else if r.y0 > y {
                end = min(end, r.y0)
            }
        }
        valid = y..<max(end, y + 1)
        spans.sort { $0.0 < $1.0 }
        // Merged where they meet or overlap, so that no pixel is written twice.
        var merged = 0
        for k in spans.indices {
            if merged > 0, spans[k].0 <= spans[merged - 1].1 {
                spans[merged - 1].1 = max(spans[merged - 1].1, spans[k].1)
            } else {
                spans[merged] = spans[k]
                merged += 1
            }
        }
        spans.removeLast(spans.count - merged)
    }
}

/// What one colour at each coverage leaves on a pixel that holds the clear colour: each value
/// worked out by the kernel `paintRuns` calls for such a run, on one such pixel, and with many
/// runs, all 256 of them once in a table (`table(color:over:)`, eight at a time in lanes, the
/// same values: `DeferredClearTests`). A run of coverage bytes over cleared pixels is then a
/// look-up per pixel, where blending it costs some thirty instructions per pixel.
struct ShadesOverClear {
    let color: UInt32
    let clear: UInt32
    /// The value under full coverage, the common case.
    let full: UInt32
    /// Every value by coverage, or nil (a paint of few runs: each worked out when met).
    let table: UnsafePointer<UInt32>?

    /// `table` (`SolidShades.count` entries) is filled when `runs` are enough to pay for it.
    init(color: UInt32, over clear: UInt32, table: UnsafeMutablePointer<UInt32>, runs: Int) {
        self.color = color
        self.clear = clear
        full = Self.shade(color, coverage: 255, over: clear)
        if runs >= SolidShades.worthFrom {
            Self.fill(table, color: color, over: clear)
            self.table = UnsafePointer(table)
        } else {
            self.table = nil
        }
    }

    @inline(__always)
    func value(_ coverage: UInt8) -> UInt32 {
        if let table { return table[Int(coverage)] }
        return coverage == 255 ? full : Self.shade(color, coverage: coverage, over: clear)
    }

    /// A run of coverage bytes over pixels that hold the clear colour.
    @inline(__always)
    func paint(_ dst: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int) {
        guard let table else { return SpanKernels.paintSolid(dst, color: color, coverage: coverage, count: count) }
        for i in 0..<count { dst[i] = table[Int(coverage[i])] }
    }

    /// As `Surface.paintRuns` paints a run of coverage `a`, on one pixel of value `clear`.
    static func shade(_ color: UInt32, coverage a: UInt8, over clear: UInt32) -> UInt32 {
        if a == 255 && color >> 24 == 255 { return color }
        let src = a == 255 ? color : PixelMath.scale(color, UInt32(a))
        var pixel = clear
        SpanKernels.paintOverSolid(&pixel, color: src, count: 1)
        return pixel
    }

    /// `table[a]` = `shade(color, coverage: a, over: clear)` for every a in 0...255: the
    /// colour scaled by a, over the clear colour (`PixelMath.over` in lanes, which gives
    /// the colour itself where it is opaque and a = 255, and the clear colour where a = 0).
    static func fill(_ table: UnsafeMutablePointer<UInt32>, color: UInt32, over clear: UInt32) {
        #if DEBUG
        // Lanes are generic calls in a debug build: the scalar form, the same values.
        for a in 0..<SolidShades.count { table[a] = shade(color, coverage: UInt8(a), over: clear) }
        #else
        let c = SpanKernels.Lanes(repeating: color), d = SpanKernels.Lanes(repeating: clear)
        var a = SpanKernels.Lanes(0, 1, 2, 3, 4, 5, 6, 7)
        for block in 0..<SolidShades.count / 8 {
            let shaded = SpanKernels.over(SpanKernels.scale(c, a), d)
            UnsafeMutableRawPointer(table + block &* 8).storeBytes(of: shaded, as: SpanKernels.Lanes.self)
            a &+= SpanKernels.Lanes(repeating: 8)
        }
        #endif
    }
}
