/// Anti-aliased analytic coverage: every edge adds, to the cells it crosses, the exact signed
/// area it covers to its right; a running sum along each row then gives the winding-weighted
/// coverage of every pixel, which the fill rule folds into 0...1.
///
/// The accumulation buffer spans only the path's bounds clipped to the target, so small
/// shapes on large surfaces stay cheap.
struct Rasterizer {
    let originX: Int
    let originY: Int
    let width: Int
    let height: Int
    private let stride: Int
    /// (Readable for the tests that compare the fast and reference accumulations.)
    private(set) var cells: [Float]
    /// Leftmost and rightmost cell each row's edges touched; outside them the running sum
    /// is constant, so the sweep can skip or fill those pixels in bulk.
    private var rowMin: [Int32]
    private var rowMax: [Int32]
    /// One flag per 16 cells of a row: set when an edge wrote there. Unflagged stretches
    /// keep the running sum unchanged, so their coverage is filled in bulk.
    private var blocks: [UInt8]
    private let blocksPerRow: Int
    /// A row of coverage bytes the sweeps write (`stride` at least): kept in `Storage`
    /// rather than allocated and zeroed for each sweep. Every byte a sweep reports it wrote
    /// in the same row, so what an earlier sweep left there does not matter.
    private var row: [UInt8]
    /// Adds edges with `EdgeSink.addClamped` (the definition, in `Double`) instead of the
    /// faster `addClampedFast`; tests compare the two.
    var usesReferenceEdges = false

    /// A rasterizer for the device-space `bounds` clipped to `limit`, or nil when nothing of
    /// it lies inside.
    /// Zeroed buffers a rasterizer leaves zeroed after its sweep, kept by the caller so
    /// that each fill does not allocate and clear them anew.
    struct Storage {
        var cells: [Float] = []
        var blocks: [UInt8] = []
        /// Each row's touched range in its reset state (Int32.max, -1): the sweep resets the
        /// rows it reads, so a fill allocates none of these.
        var rowMin: [Int32] = []
        var rowMax: [Int32] = []
        var row: [UInt8] = []
    }

    /// Whether `sweep` or `sweepRuns` ran (and so left the buffers reset).
    private var swept = false

    init?(bounds: Rect, limit: PixelRect, storage: inout Storage) {
        guard let area = Self.area(bounds: bounds, limit: limit) else { return nil }
        originX = area.x0; originY = area.y0; width = area.width; height = area.height
        // Each row's cells up to a whole number of 16-cell blocks (two past the row at least,
        // for the shares of edges at its right side): the sweeps take every block an edge
        // crossed whole, in `Float` lanes, the row's last one too (the cells past the row stay
        // zero, and the bytes past it are scratch no sweep reports), rather than pixel by pixel.
        stride = Self.stride(width: width)
        blocksPerRow = (stride >> 4) + 1
        // Take the caller's reset buffers (growing them if needed); `finish` returns them.
        // They grow at least twofold (up to a band's size), so that shapes growing from frame
        // to frame do not each allocate and clear a new one.
        if storage.cells.count < stride * height {
            storage.cells = [Float](repeating: 0, count: Self.grown(storage.cells.count, to: stride * height))
        }
        if storage.blocks.count < blocksPerRow * height {
            storage.blocks = [UInt8](repeating: 0, count: Self.grown(storage.blocks.count, to: blocksPerRow * height))
        }
        if storage.rowMin.count < height || storage.rowMax.count < height {
            let rows = Self.grown(storage.rowMin.count, to: height)
            storage.rowMin = [Int32](repeating: Int32.max, count: rows)
            storage.rowMax = [Int32](repeating: -1, count: rows)
        }
        if storage.row.count < stride { storage.row = [UInt8](repeating: 0, count: stride) }
        cells = []; blocks = []; rowMin = []; rowMax = []; row = []
        swap(&row, &storage.row)
        swap(&cells, &storage.cells)
        swap(&blocks, &storage.blocks)
        swap(&rowMin, &storage.rowMin)
        swap(&rowMax, &storage.rowMax)
    }

    /// The cells a row of `width` pixels takes (see `init`).
    static func stride(width: Int) -> Int {
        (width + 2 + 15) & ~15
    }

    private static func grown(_ count: Int, to needed: Int) -> Int {
        max(needed, min(2 * count, bandCells))
    }

    /// Hands the buffers back, reset: by the sweep, or here when there was none.
    mutating func finish(into storage: inout Storage) {
        if !swept {
            cells.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 0, count: stride * height) }
            blocks.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 0, count: blocksPerRow * height) }
            for y in 0..<height { rowMin[y] = Int32.max; rowMax[y] = -1 }
        }
        swap(&storage.cells, &cells)
        swap(&storage.blocks, &blocks)
        swap(&storage.rowMin, &rowMin)
        swap(&storage.rowMax, &rowMax)
        swap(&storage.row, &row)
    }

    /// Adds the edges of a device-space path; open contours are closed implicitly.
    mutating func add(_ path: Path, tolerance: Double = 0.05) {
        let (w, h, s, bpr, ox, oy) = (width, height, stride, blocksPerRow, originX, originY)
        // The buffers are reached once per path, not once per edge: a flattened curve has
        // hundreds of short edges.
        blocks.withUnsafeMutableBufferPointer { blocks in
        rowMin.withUnsafeMutableBufferPointer { rowMin in
        rowMax.withUnsafeMutableBufferPointer { rowMax in
        cells.withUnsafeMutableBufferPointer { cells in
            let sink = EdgeSink(cells: cells.baseAddress!, rowMin: rowMin.baseAddress!, rowMax: rowMax.baseAddress!,
                                blocks: blocks.baseAddress!, width: w, height: h, stride: s, blocksPerRow: bpr,
                                originX: Double(ox), originY: Double(oy), originRow: oy, reference: usesReferenceEdges)
            var start = Point.zero, last = Point.zero
            var open = false
            for e in path.elements {
                switch e {
                case .move(let p):
                    if open { sink.addLine(last, start) }
                    start = p; last = p; open = true
                case .line(let p):
                    sink.addLine(last, p); last = p; open = true
                case .cubic(let c1, let c2, let p):
                    var prev = last
                    Flatten.cubic(last, c1, c2, p, tolerance: tolerance) { q in
                        sink.addLine(prev, q)
                        prev = q
                    }
                    last = p; open = true
                case .close:
                    sink.addLine(last, start)
                    last = start
                }
            }
            if open { sink.addLine(last, start) }
        }
        }
        }
        }
    }
}

/// Writes edges into a rasterizer's buffers (borrowed for one `add`).
struct EdgeSink {
    let cells: UnsafeMutablePointer<Float>
    let rowMin: UnsafeMutablePointer<Int32>
    let rowMax: UnsafeMutablePointer<Int32>
    let blocks: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int
    let stride: Int
    let blocksPerRow: Int
    let originX: Double
    let originY: Double
    /// `originY` as an integer (the buffer's first device row), so that edges need not convert it.
    let originRow: Int
    let reference: Bool

    /// The area under the clamp ramp: ∫ from -∞ to v of clamp(u, 0, 1) du.
    @inline(__always) private static func ramp(_ v: Double) -> Double {
        v <= 0 ? 0 : v < 1 ? v * v / 2 : v - 0.5
    }

    /// x is taken relative to the buffer's first column; y stays in device rows, and every
    /// row's crossing is computed from the edge's own ends, so that a row gets the same
    /// coverage whichever rows the buffer spans (the bands of a frame drawn on several
    /// threads give the same pixels as one pass).
    func addLine(_ p: Point, _ q: Point) {
        let ax = p.x - originX, ay = p.y
        let bx = q.x - originX, by = q.y
        guard ay != by, Self.allFinite(ax, ay, bx, by) else { return }
        // An edge wholly above or below the buffer's rows adds to no cell (both accumulations
        // would find no row of it): a clipped or banded path has many such, so they leave here.
        guard max(ay, by) > originY, min(ay, by) < originY + Double(height) else { return }
        // Split where the edge leaves the buffer's columns, so that each piece is either
        // inside or wholly to one side, where clamping x is exact. (No array here: this runs
        // for every flattened segment.)
        let w = Double(width)
        var first = 2.0, second = 2.0  // crossing parameters in order; 2 = none
        if ax * bx < 0 { first = -ax / (bx - ax) }
        if (ax - w) * (bx - w) < 0 {
            let t = (w - ax) / (bx - ax)
            if t < first { second = first; first = t } else { second = t }
        }
        if first > 1 {
            // The whole line, its ends checked above: the fast path need not check them again.
            if reference { addClamped(ax, ay, bx, by) } else { addChecked(ax, ay, bx, by) }
            return
        }
        func piece(_ t0: Double, _ t1: Double) {
            addPiece(ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1)
        }
        piece(0, first)
        if second <= 1 {
            piece(first, second)
            piece(second, 1)
        } else {
            piece(first, 1)
        }
    }

    @inline(__always) private func addPiece(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        if reference { addClamped(ax, ay, bx, by) } else { addClampedFast(ax, ay, bx, by) }
    }

    /// The reference: each cell's share from the ramp's area, in `Double`.
    private func addClamped(_ ax0: Double, _ ay0: Double, _ bx0: Double, _ by0: Double) {
        // A line with a non-finite end covers nothing it could say; NaN would trap in Int().
        guard ax0.isFinite, ay0.isFinite, bx0.isFinite, by0.isFinite else { return }
        let w = Double(width)
        var ax = min(max(ax0, 0), w), ay = ay0, bx = min(max(bx0, 0), w), by = by0
        guard ay != by else { return }
        var direction = 1.0
        if ay > by { swap(&ax, &bx); swap(&ay, &by); direction = -1 }
        let oy = Int(originY)
        let top = originY, end = originY + Double(height)
        guard by > top, ay < end else { return }
        let dxdy = (bx - ax) / (by - ay)
        let firstRow = Int(max(ay, top).rounded(.down)) - oy
        let endRow = min(height, Int(min(by, end).rounded(.up)) - oy)
        guard firstRow < endRow else { return }
        let bpr = blocksPerRow
        for row in firstRow..<endRow {
            let rowTop = Double(row + oy)
            let upper = max(rowTop, ay), lower = min(rowTop + 1, by)
            let dy = lower - upper
            let x = upper == ay ? ax : ax + (upper - ay) * dxdy
            let xNext = lower == by ? bx : ax + (lower - ay) * dxdy
            let d = dy * direction
            // Left of the buffer everything is covered, right of it nothing is seen:
            // clamping x keeps the coverage of every pixel inside exact.
            var xl = min(max(min(x, xNext), 0), w), xr = min(max(max(x, xNext), 0), w)
            let base = row * stride
            let firstCell = Int32(min(Int(xl), width))
            if firstCell < rowMin[row] { rowMin[row] = firstCell }
            let lastCell = Int32(min(Int(xr) + 1, width + 1))
            if lastCell > rowMax[row] { rowMax[row] = lastCell }
            for b in Int(firstCell >> 4)...Int(lastCell >> 4) { blocks[row * bpr + b] = 1 }
            if xr - xl < 1e-7 {
                let xm = (xl + xr) / 2
                let c = min(Int(xm), width)
                let f = xm - Double(c)
                cells[base + c] += Float(d * (1 - f))
                cells[base + c + 1] += Float(d * f)
            } else {
                // Fraction of pixel i right of the edge, averaged over the row:
                // F(i) = (R(i+1-xl) - R(i+1-xr)) / (xr - xl).
                if xr > w { xr = w }
                if xl < 0 { xl = 0 }
                let inverseWidth = 1 / (xr - xl)
                var i = Int(xl)
                var previous = 0.0
                while Double(i) < xr {
                    let t = Double(i + 1)
                    let f = (Self.ramp(t - xl) - Self.ramp(t - xr)) * inverseWidth
                    cells[base + i] += Float(d * (f - previous))
                    previous = f
                    i += 1
                }
                cells[base + i] += Float(d * (1 - previous))
            }
        }
    }

}

extension Rasterizer {
    /// Rounds 0...255 to a byte without a range check: adding 1.5·2²³ leaves the rounded
    /// integer in the low mantissa bits.
    @inline(__always) static func byte(_ v: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (v + 12_582_912).bitPattern)
    }

    /// Calls `body(y, x0, start, end, alpha)` for every row with coverage: `alpha[x]`, for
    /// start <= x < end (relative to x0), is coverage × `opacity` as 0...255, and no pixel
    /// outside start..<end is covered. The accumulation buffer is cleared as it is read.
    @inline(__always) static func fold(_ sum: Float, _ rule: FillRule) -> Float {
        var c = abs(sum)
        if rule == .evenOdd {
            // The remainder by 2 without fmodf (a library call per pixel): below 2²⁴, c/2 is
            // exact, its integer part fits an Int32, and c − 2·⌊c/2⌋ is exact (both terms are
            // multiples of c's ulp and the difference is below 2), so this is fmodf's value to
            // the bit. Larger, infinite or NaN sums take fmodf itself (`referenceFold`).
            if c < 16_777_216 {
                c -= 2 * Float(Int32(c * 0.5))
            } else {
                c = c.truncatingRemainder(dividingBy: 2)
            }
            if c > 1 { c = 2 - c }
            return c
        }
        return min(c, 1)
    }

    /// `fold` as first written, with fmodf for the even-odd remainder: the reference the
    /// fast fold must match to the bit (tested on every range of sums).
    static func referenceFold(_ sum: Float, _ rule: FillRule) -> Float {
        var c = abs(sum)
        if rule == .evenOdd {
            c = c.truncatingRemainder(dividingBy: 2)
            if c > 1 { c = 2 - c }
            return c
        }
        return min(c, 1)
    }

    mutating func sweep(rule: FillRule, opacity: Float,
                        _ body: (_ y: Int, _ x0: Int, _ start: Int, _ end: Int, _ alpha: UnsafeMutablePointer<UInt8>) -> Void) {
        let w = width, s = stride, bpr = blocksPerRow
        swept = true
        let scale = min(max(opacity, 0), 1) * 255
        // Every buffer through a pointer: the row bounds as arrays cost a uniqueness check and
        // bounds checks per row.
        blocks.withUnsafeMutableBufferPointer { blocks in
        cells.withUnsafeMutableBufferPointer { cells in
        rowMin.withUnsafeMutableBufferPointer { rowMin in
        rowMax.withUnsafeMutableBufferPointer { rowMax in
            row.withUnsafeMutableBufferPointer { alphaBuffer in
                let alpha = alphaBuffer.baseAddress!
                for y in 0..<height {
                    let lo = Int(rowMin[y])
                    guard lo <= w else { continue }
                    let last = min(Int(rowMax[y]), w + 1)  // last touched cell, inclusive
                    rowMin[y] = Int32.max; rowMax[y] = -1
                    let base = y &* s
                    let flags = y &* bpr
                    var sum: Float = 0
                    let sumEnd = min(last + 1, w)
                    var x = lo
                    while x < sumEnd {
                        let block = x >> 4
                        let blockEnd = min((block &+ 1) << 4, sumEnd)
                        if blocks[flags &+ block] != 0 {
                            if rule == .nonZero {  // the whole block (see sweepBlockNonZero and `stride`)
                                Self.sweepBlockNonZero(cells.baseAddress! + (base &+ block << 4), alpha + block << 4, sum: &sum, scale: scale)
                            } else {
                                for i in x..<blockEnd {
                                    sum += cells[base &+ i]
                                    cells[base &+ i] = 0
                                    alpha[i] = Self.byte(Self.fold(sum, rule) * scale)
                                }
                            }
                        } else {
                            (alpha + x).update(repeating: Self.byte(Self.fold(sum, rule) * scale), count: blockEnd - x)
                        }
                        x = blockEnd
                    }
                    var end = sumEnd
                    // Beyond the last edge the sum stays; it is zero unless the path was
                    // clamped at the right border.
                    if end < w {
                        let a = Self.byte(Self.fold(sum, rule) * scale)
                        if a > 0 {
                            (alpha + end).update(repeating: a, count: w - end)
                            end = w
                        }
                    }
                    if sumEnd <= last { for i in sumEnd...last { cells[base + i] = 0 } }
                    Self.clearFlags(blocks.baseAddress! + flags + lo >> 4, count: last >> 4 - lo >> 4 + 1)
                    if end > lo { body(originY + y, originX, lo, end, alpha) }
                }
            }
        }
        }
        }
        }
    }

    /// Clears a row's `count` (>= 1) block flags: most rows have one to three, which stores
    /// clear without a call into the C library.
    @inline(__always)
    static func clearFlags(_ flags: UnsafeMutablePointer<UInt8>, count: Int) {
        flags[0] = 0
        flags[count &- 1] = 0
        if count == 3 { flags[1] = 0 } else if count > 3 { (flags + 1).update(repeating: 0, count: count &- 2) }
    }
}

// MARK: - Runs

extension Rasterizer {
    /// The same coverage as `sweep`, told as runs rather than a byte per pixel: stretches no
    /// edge crossed share one coverage value and come as `constant(y, x0, start, count, a)`;
    /// the 16-pixel blocks edges crossed come as `varying(y, x0, start, count, alpha)` with
    /// `alpha[start..<start+count]` filled in. Runs of zero coverage are left out. The inside
    /// of a large shape then costs one call per row, which is what makes full-screen fills
    /// cheap; `sweep` stays the reference, and a test checks that both agree.
    /// A varying run is only the pixels whose coverage differs from the runs either side: an
    /// edge block's first pixels that keep the coverage before it (the inside, where a shape's
    /// far edge crosses a block) stay in that run, and its last ones that already have the
    /// coverage after it (the inside past a near edge) go with that one, so that they are
    /// stored or filled with the inside rather than blended pixel by pixel.
    @inline(__always)
    mutating func sweepRuns(rule: FillRule, opacity: Float,
                            constant: (_ y: Int, _ x0: Int, _ start: Int, _ count: Int, _ a: UInt8) -> Void,
                            varying: (_ y: Int, _ x0: Int, _ start: Int, _ count: Int, _ alpha: UnsafeMutablePointer<UInt8>) -> Void) {
        let w = width, s = stride, bpr = blocksPerRow
        swept = true
        let scale = min(max(opacity, 0), 1) * 255
        let ox = originX
        blocks.withUnsafeMutableBufferPointer { blocks in
        cells.withUnsafeMutableBufferPointer { cells in
        rowMin.withUnsafeMutableBufferPointer { rowMin in rowMax.withUnsafeMutableBufferPointer { rowMax in  // (as in `sweep`)
            row.withUnsafeMutableBufferPointer { alphaBuffer in
                let alpha = alphaBuffer.baseAddress!
                for y in 0..<height {
                    let lo = Int(rowMin[y])
                    guard lo <= w else { continue }
                    let last = min(Int(rowMax[y]), w + 1)
                    rowMin[y] = Int32.max; rowMax[y] = -1
                    let base = y &* s
                    let flags = y &* bpr
                    let py = originY + y
                    var sum: Float = 0
                    let sumEnd = min(last + 1, w)
                    // The run being gathered: constant (with its coverage) or varying.
                    var (runStart, runIsVarying, runAlpha) = (lo, false, UInt8(0))
                    var x = lo
                    while x < sumEnd {
                        let block = x >> 4
                        let blockEnd = min((block &+ 1) << 4, sumEnd)
                        if blocks[flags &+ block] != 0 {
                            if rule == .nonZero {  // the whole block (see sweepBlockNonZero and `stride`)
                                Self.sweepBlockNonZero(cells.baseAddress! + (base &+ block << 4), alpha + block << 4, sum: &sum, scale: scale)
                            } else {
                                for i in x..<blockEnd {
                                    sum += cells[base &+ i]
                                    cells[base &+ i] = 0
                                    alpha[i] = Self.byte(Self.fold(sum, rule) * scale)
                                }
                            }
                            if !runIsVarying {  // (pixels that keep the coverage before stay in that run)
                                let first = Coverage.firstNot(runAlpha, in: alpha, from: x, count: blockEnd)
                                if first < blockEnd {
                                    if runAlpha != 0, first > runStart { constant(py, ox, runStart, first - runStart, runAlpha) }
                                    runStart = first
                                    runIsVarying = true
                                }
                            }
                            x = blockEnd
                        } else {
                            let a = Self.byte(Self.fold(sum, rule) * scale)
                            if runIsVarying || a != runAlpha {
                                var end = x
                                if runIsVarying {  // (pixels that have the coverage after go with that run)
                                    end = Coverage.endOfVarying(alpha, from: runStart, to: x, before: a)
                                    if end > runStart { varying(py, ox, runStart, end - runStart, alpha) }
                                } else if runAlpha != 0, x > runStart {
                                    constant(py, ox, runStart, x - runStart, runAlpha)
                                }
                                runStart = end
                                runIsVarying = false
                                runAlpha = a
                            }
                            // No edge until the next flagged block: the sum holds, so jump there.
                            let next = Self.nextFlaggedBlock(blocks.baseAddress! + flags, after: block, end: (sumEnd + 15) >> 4)
                            x = min(next << 4, sumEnd)
                        }
                    }
                    // Beyond the last edge the sum stays (non-zero only when the path was
                    // clamped at the right border).
                    let tail = sumEnd < w ? Self.byte(Self.fold(sum, rule) * scale) : 0
                    Self.finishRow(y: py, x0: ox, width: w, sumEnd: sumEnd, tail: tail, runStart: runStart,
                                   runIsVarying: runIsVarying, runAlpha: runAlpha, alpha: alpha,
                                   constant: constant, varying: varying)
                    if sumEnd <= last { for i in sumEnd...last { cells[base + i] = 0 } }
                    Self.clearFlags(blocks.baseAddress! + flags + lo >> 4, count: last >> 4 - lo >> 4 + 1)
                }
            }
        }
        }
        }}
    }

    /// The first block after `block` (and before `end`) an edge crossed, or `end`: the flags
    /// are read eight at a time while they are all clear.
    @inline(__always)
    static func nextFlaggedBlock(_ flags: UnsafeMutablePointer<UInt8>, after block: Int, end: Int) -> Int {
        var next = block &+ 1
        // Eight flags a word: the first set one is the word's lowest non-zero byte (flags are
        // 0 or 1), found by its bit position rather than byte by byte.
        while next &+ 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(flags + next).loadUnaligned(as: UInt64.self))
            if word != 0 { return next &+ word.trailingZeroBitCount &>> 3 }
            next &+= 8
        }
        while next < end, flags[next] == 0 { next &+= 1 }
        return next
    }

    /// Tells the run still being gathered at the end of a row, and the constant coverage past
    /// the last edge (`tail`) up to the row's end, merging the two where they are one run.
    @inline(__always)
    static func finishRow(y: Int, x0: Int, width w: Int, sumEnd: Int, tail: UInt8, runStart: Int, runIsVarying: Bool,
                          runAlpha: UInt8, alpha: UnsafeMutablePointer<UInt8>,
                          constant: (_ y: Int, _ x0: Int, _ start: Int, _ count: Int, _ a: UInt8) -> Void,
                          varying: (_ y: Int, _ x0: Int, _ start: Int, _ count: Int, _ alpha: UnsafeMutablePointer<UInt8>) -> Void) {
        if runIsVarying {
            // Its last pixels that have the coverage past the last edge go with that.
            let end = Coverage.endOfVarying(alpha, from: runStart, to: sumEnd, before: tail)
            if end > runStart { varying(y, x0, runStart, end - runStart, alpha) }
            if tail != 0 { constant(y, x0, end, w - end, tail) }
        } else if tail == runAlpha {
            if runAlpha != 0 { constant(y, x0, runStart, (tail != 0 ? w : sumEnd) - runStart, runAlpha) }
        } else {
            if runAlpha != 0, sumEnd > runStart { constant(y, x0, runStart, sumEnd - runStart, runAlpha) }
            if tail != 0 { constant(y, x0, sumEnd, w - sumEnd, tail) }
        }
    }
}
