import CPixelStores

/// The fast way an edge reaches the accumulation cells. Each row's crossing is found exactly as
/// in `addClamped` (the reference, from the edge's own ends in `Double`, so bands of rows still
/// give the pixels of one pass), but the shares of the cells it crosses come from closed forms
/// in `Float`: the first and last cells get the areas of two triangles, the cells between get
/// the same share each, and a crossing inside one cell is its mid-point. No ramp with branches
/// per cell, no `Double` per cell.
///
/// The sums are the same as the reference's up to `Float` rounding: coverage bytes differ by at
/// most 1 (`EdgeAccumulationTests` checks it on random paths, both fill rules, clipped, huge and
/// non-finite coordinates).
extension EdgeSink {
    func addClampedFast(_ ax0: Double, _ ay0: Double, _ bx0: Double, _ by0: Double) {
        // A line with a non-finite end covers nothing it could say; NaN would trap in Int().
        guard Self.allFinite(ax0, ay0, bx0, by0), ay0 != by0 else { return }
        addChecked(ax0, ay0, bx0, by0)
    }

    /// Every one of the four finite. v − v is 0 for a finite v and NaN otherwise, so one
    /// comparison tests the four (four tests of the exponent's bits were a tenth of a short
    /// edge's instructions).
    @inline(__always) static func allFinite(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Bool {
        (a - a) + (b - b) + (c - c) + (d - d) == 0
    }

    /// `addClampedFast` for an edge its caller has already proven finite at both ends and
    /// not level (`addLine` checks both for the whole line, which is most often the one
    /// piece): the checks are not made twice for every flattened segment.
    @inline(__always)
    func addChecked(_ ax0: Double, _ ay0: Double, _ bx0: Double, _ by0: Double) {
        let w = Double(width)
        let (x0, x1) = (Self.clamp(ax0, w), Self.clamp(bx0, w))
        // From the top end to the bottom one by selects, not a branch: the sides of a shape
        // run down and up in turn, in no order a branch predictor could learn.
        let down = ay0 > by0
        let ax = down ? x1 : x0, bx = down ? x0 : x1
        let ay = min(ay0, by0), by = max(ay0, by0)
        let direction: Float = down ? -1 : 1
        let top = originY, end = originY + Double(height)
        guard by > top, ay < end else { return }
        let oy = originRow
        // Both within top...end (the guard above), so the rows convert unchecked.
        let firstRow = Self.floor(max(ay, top)) &- oy
        let endRow = min(height, Self.ceil(min(by, end)) &- oy)
        guard firstRow < endRow else { return }
        let lastRow = endRow &- 1
        if firstRow == lastRow, ay >= top, by <= end {
            // Wholly inside one row (most pieces of a flattened curve): its crossings are its
            // ends, which is what the general steps below find for it, without the slope.
            addRow(firstRow, cells + firstRow &* stride, blocks + firstRow &* blocksPerRow, ax, bx, Float(by - ay) * direction, w)
            return
        }
        let dxdy = (bx - ax) / (by - ay)
        let column = Self.cellIndex(ax < bx ? ax : bx)
        if Self.cellIndex(ax < bx ? bx : ax) == column {
            return addColumn(column, firstRow: firstRow, lastRow: lastRow, ax, ay, bx, by, dxdy, direction)
        }
        // A row's lower crossing is the next row's upper one, computed by the same expression
        // from the edge's ends (as `addClamped` computes both), so it is carried over.
        // Each crossing is clamped once, when found, rather than in both rows it bounds: the
        // clamp is monotone, so the smaller and larger of a row's clamped crossings are the
        // clamped smaller and larger crossings `addRow` takes (the same values; the crossings
        // are never NaN: the edge's ends are finite and each row border lies past its top end).
        let firstTop = Double(firstRow &+ oy)
        var upper = max(firstTop, ay)
        var x = Self.clamp(upper == ay ? ax : ax + (upper - ay) * dxdy, w)
        // The row's cells and block flags, stepped a row at a time rather than found by two
        // multiplications per row.
        var cellRow = cells + firstRow &* stride, flagRow = blocks + firstRow &* blocksPerRow
        let (cellStep, flagStep) = (stride, blocksPerRow)
        // Every row but the last ends on its lower border, inside the edge (the border is
        // below ceil(by) - 1 < by): the lower crossing needs no choice with the edge's end.
        // The border steps by 1 (exact: rows are integers far below 2⁵³), not converted anew.
        var row = firstRow
        var lower = firstTop
        while row < lastRow {
            lower += 1
            let xNext = Self.clamp(ax + (lower - ay) * dxdy, w)
            addClampedRow(row, cellRow, flagRow, x, xNext, Float(lower - upper) * direction)
            cellRow += cellStep
            flagRow += flagStep
            upper = lower
            x = xNext
            row &+= 1
        }
        let nextTop = lower + 1
        let bottom = nextTop < by ? nextTop : by
        let xNext = Self.clamp(bottom == by ? bx : ax + (bottom - ay) * dxdy, w)
        addClampedRow(lastRow, cellRow, flagRow, x, xNext, Float(bottom - upper) * direction)
    }

    /// An edge of several rows lying within one column of cells (a steep edge, most pieces of
    /// a flattened stroke's sides): every row's crossings are in that cell, which with the
    /// next shares the row by their mid-point, as `accumulate` shares it, so the cell, its
    /// row bounds and its block flags are found once for the edge rather than once a row;
    /// the rows between the first and last span the whole row (height ±1).
    /// (A crossing rounded a hair outside the column only moves a share of a few ulps.)
    @inline(__always)
    private func addColumn(_ column: Int, firstRow: Int, lastRow: Int, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                           _ dxdy: Double, _ direction: Float) {
        let left = Double(column)
        let (lo, hi) = (Int32(truncatingIfNeeded: column), Int32(truncatingIfNeeded: column &+ 1))
        let (b0, b1) = (column >> 4, (column &+ 1) >> 4)
        var cell = cells + (firstRow &* stride &+ column), flags = blocks + firstRow &* blocksPerRow
        var row = firstRow
        @inline(__always) func add(_ x: Double, _ xNext: Double, _ d: Float) {
            let m = Float((x + xNext) * 0.5 - left)
            cell[0] += d * (1 - m)
            cell[1] += d * m
            rowMin[row] = min(rowMin[row], lo)
            rowMax[row] = max(rowMax[row], hi)
            flags[b0] = 1
            flags[b1] = 1
            cell += stride
            flags += blocksPerRow
            row &+= 1
        }
        // The same crossings and heights as `addClampedFast` finds row by row.
        var upper = max(Double(firstRow &+ originRow), ay)
        var x = upper == ay ? ax : ax + (upper - ay) * dxdy
        if firstRow < lastRow {
            var lower = Double(firstRow &+ originRow &+ 1)
            var xNext = ax + (lower - ay) * dxdy
            add(x, xNext, Float(lower - upper) * direction)
            while row < lastRow {
                x = xNext
                lower += 1
                xNext = ax + (lower - ay) * dxdy
                add(x, xNext, direction)
            }
            upper = lower
            x = xNext
        }
        let nextTop = Double(lastRow &+ originRow &+ 1)
        let lower = nextTop < by ? nextTop : by
        add(x, lower == by ? bx : ax + (lower - ay) * dxdy, Float(lower - upper) * direction)
    }

    /// Adds the part of the edge in row `row`, crossing its upper and lower sides (or ends) at
    /// `x` and `xNext`, over a height `d` signed by direction.
    @inline(__always)
    private func addRow(_ row: Int, _ cell: UnsafeMutablePointer<Float>, _ flags: UnsafeMutablePointer<UInt8>,
                        _ x: Double, _ xNext: Double, _ d: Float, _ w: Double) {
        // Rounding can put a crossing a hair outside 0...w; ends inside are already clamped.
        // The clamp also sends a NaN to 0, so the cell indices below need no range check.
        let xl = Self.clamp(x < xNext ? x : xNext, w), xr = Self.clamp(x < xNext ? xNext : x, w)
        accumulate(row: row, cell, flags, xl, xr, d)
    }

    /// `addRow` for crossings already clamped to 0...width.
    @inline(__always)
    private func addClampedRow(_ row: Int, _ cell: UnsafeMutablePointer<Float>, _ flags: UnsafeMutablePointer<UInt8>,
                               _ x: Double, _ xNext: Double, _ d: Float) {
        accumulate(row: row, cell, flags, x < xNext ? x : xNext, x < xNext ? xNext : x, d)
    }

    /// ⌊v⌋ and ⌈v⌉ of a finite value well within Int's range (the callers' rows lie within
    /// the buffer's), without a call into libm and without `Int(_:)`'s range checks, which
    /// were a tenth of the instructions of an edge of one or two rows.
    @inline(__always) static func floor(_ v: Double) -> Int {
        let t = buoy_cell_index(v)
        return Double(t) > v ? t &- 1 : t
    }

    @inline(__always) static func ceil(_ v: Double) -> Int {
        let t = buoy_cell_index(v)
        return Double(t) < v ? t &+ 1 : t
    }

    /// `v` within 0...w, and 0 for a NaN (every comparison with it is false).
    @inline(__always) static func clamp(_ v: Double, _ w: Double) -> Double {
        v > 0 ? (v < w ? v : w) : 0
    }

    /// ⌊v⌋ of a `v` already clamped to 0...width: the plain conversion, without `Int(_:)`'s
    /// range checks (it never traps here, the clamp having proven the value in range).
    @inline(__always) static func cellIndex(_ v: Double) -> Int {
        buoy_cell_index(v)
    }

    /// Adds to row `row` an edge crossing it from `xl` to `xr` (0...width, in either order of
    /// its direction) over a height `d` (signed by direction): cell i gets d·(F(i) − F(i−1)),
    /// F(i) being the part of pixel i right of the edge, averaged over the row.
    @inline(__always)
    private func accumulate(row: Int, _ cell: UnsafeMutablePointer<Float>, _ flags: UnsafeMutablePointer<UInt8>,
                            _ xl: Double, _ xr: Double, _ d: Float) {
        // xl <= xr <= width, so last + 1 <= width + 1 and the crossing point below <= width.
        let i0 = Self.cellIndex(xl)
        let last = Self.cellIndex(xr)
        mark(row: row, flags, first: i0, last: last &+ 1)
        if last == i0 {
            // Both crossings in one cell (a steep edge's every row): the cell and the next share
            // the row by the mid-point, taken from the crossings at once rather than from their
            // two offsets in the cell (the same value, up to the last bit of a `Float`).
            let m = Float((xl + xr) * 0.5 - Double(i0))
            cell[i0] += d * (1 - m)
            cell[i0 &+ 1] += d * m
            return
        }
        if xr - xl < 1e-7 {
            // Upright within a ten-millionth of a pixel: one crossing point.
            let xm = (xl + xr) / 2
            let c = Self.cellIndex(xm)
            let f = Float(xm - Double(c))
            cell[c] += d * (1 - f)
            cell[c &+ 1] += d * f
            return
        }
        let fl = Float(xl - Double(i0))
        // The last cell the edge passes through (xr on a cell's left side belongs to the one before).
        var k = last
        var fr = Float(xr - Double(last))  // 0 < fr <= 1
        if fr == 0 { k = last &- 1; fr = 1 }
        if k == i0 {
            let m = (fl + fr) * 0.5
            cell[i0] += d * (1 - m)
            cell[i0 &+ 1] += d * m
            return
        }
        let s = Float(1 / (xr - xl))
        let first = (1 - fl) * (1 - fl) * 0.5 * s  // F(i0): the triangle left of i0 + 1
        let tail = fr * fr * 0.5 * s  // 1 − F(k): the triangle right of k
        cell[i0] += d * first
        if k == i0 &+ 1 {
            cell[k] += d * (1 - first - tail)
        } else {
            cell[i0 &+ 1] += d * ((1.5 - fl) * s - first)
            let step = d * s
            var j = i0 &+ 2
            while j < k { cell[j] += step; j &+= 1 }
            cell[k] += d * (1 - tail - (Float(k &- i0) - 0.5 - fl) * s)
        }
        cell[k &+ 1] += d * tail
    }

    /// Notes cells first...last of `row` (its block flags at `flags`) as written (the row's
    /// range and 16-cell block flags), as the reference does, so the sweep reads and clears
    /// every one of them.
    @inline(__always)
    private func mark(row: Int, _ flags: UnsafeMutablePointer<UInt8>, first: Int, last: Int) {
        let lo = Int32(truncatingIfNeeded: first), hi = Int32(truncatingIfNeeded: last)
        // Stored whether or not they change (a select, not a branch): which edge of a row
        // widens its bounds follows no pattern a branch predictor could learn.
        rowMin[row] = min(rowMin[row], lo)
        rowMax[row] = max(rowMax[row], hi)
        let (b0, b1) = (first >> 4, last >> 4)
        flags[b0] = 1
        flags[b1] = 1
        // An edge crosses few blocks of a row: the loop for more (a call to memset) is kept out
        // of line, so that the call does not make every row spill its registers around it.
        if b1 - b0 > 1 { Self.markBetween(flags, b0, b1) }
    }

    @inline(never)
    private static func markBetween(_ flags: UnsafeMutablePointer<UInt8>, _ b0: Int, _ b1: Int) {
        for b in b0 + 1..<b1 { flags[b] = 1 }
    }
}
