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
    private var cells: [Float]

    /// A rasterizer for the device-space `bounds` clipped to 0..<limitWidth × 0..<limitHeight,
    /// or nil when nothing of it lies inside.
    init?(bounds: Rect, limitWidth: Int, limitHeight: Int) {
        guard bounds.x.isFinite, bounds.y.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else { return nil }
        let x0 = max(0, Int(max(-1e9, bounds.x).rounded(.down)))
        let y0 = max(0, Int(max(-1e9, bounds.y).rounded(.down)))
        let x1 = min(limitWidth, Int(min(1e9, bounds.maxX).rounded(.up)))
        let y1 = min(limitHeight, Int(min(1e9, bounds.maxY).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        originX = x0; originY = y0; width = x1 - x0; height = y1 - y0
        stride = width + 2
        cells = [Float](repeating: 0, count: stride * height)
    }

    /// Adds the edges of a device-space path; open contours are closed implicitly.
    mutating func add(_ path: Path, tolerance: Double = 0.05) {
        var start = Point.zero, last = Point.zero
        var open = false
        for e in path.elements {
            switch e {
            case .move(let p):
                if open { addLine(last, start) }
                start = p; last = p; open = true
            case .line(let p):
                addLine(last, p); last = p; open = true
            case .cubic(let c1, let c2, let p):
                var prev = last
                Flatten.cubic(last, c1, c2, p, tolerance: tolerance) { q in
                    addLine(prev, q)
                    prev = q
                }
                last = p; open = true
            case .close:
                addLine(last, start)
                last = start
            }
        }
        if open { addLine(last, start) }
    }

    /// The area under the clamp ramp: ∫ from -∞ to v of clamp(u, 0, 1) du.
    @inline(__always) private static func ramp(_ v: Double) -> Double {
        v <= 0 ? 0 : v < 1 ? v * v / 2 : v - 0.5
    }

    mutating func addLine(_ p: Point, _ q: Point) {
        let ax = p.x - Double(originX), ay = p.y - Double(originY)
        let bx = q.x - Double(originX), by = q.y - Double(originY)
        guard ay != by, ax.isFinite, ay.isFinite, bx.isFinite, by.isFinite else { return }
        // Split where the edge leaves the buffer's columns, so that each piece is either
        // inside or wholly to one side, where clamping x is exact.
        let w = Double(width)
        var ts: [Double] = [0]
        for edge in [0, w] where (ax - edge) * (bx - edge) < 0 {
            ts.append((edge - ax) / (bx - ax))
        }
        ts.append(1)
        if ts.count > 3, ts[1] > ts[2] { ts.swapAt(1, 2) }
        for k in 1..<ts.count {
            let t0 = ts[k - 1], t1 = ts[k]
            addClamped(ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1)
        }
    }

    private mutating func addClamped(_ ax0: Double, _ ay0: Double, _ bx0: Double, _ by0: Double) {
        let w = Double(width)
        var ax = min(max(ax0, 0), w), ay = ay0, bx = min(max(bx0, 0), w), by = by0
        guard ay != by else { return }
        var direction = 1.0
        if ay > by { swap(&ax, &bx); swap(&ay, &by); direction = -1 }
        let h = Double(height)
        guard by > 0, ay < h else { return }
        let dxdy = (bx - ax) / (by - ay)
        if ay < 0 { ax += -ay * dxdy; ay = 0 }
        if by > h { by = h }
        var x = ax
        let firstRow = Int(ay), endRow = min(height, Int(by.rounded(.up)))
        cells.withUnsafeMutableBufferPointer { cells in
            guard firstRow < endRow else { return }
            for row in firstRow..<endRow {
                let top = max(Double(row), ay), bottom = min(Double(row + 1), by)
                let dy = bottom - top
                let xNext = x + dxdy * dy
                let d = dy * direction
                // Left of the buffer everything is covered, right of it nothing is seen:
                // clamping x keeps the coverage of every pixel inside exact.
                var xl = min(max(min(x, xNext), 0), w), xr = min(max(max(x, xNext), 0), w)
                let base = row * stride
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
                x = xNext
            }
        }
    }

    /// Calls `body(y, x0, coverage)` for every row, coverage 0...1 for pixels x0..<x0+width;
    /// the buffer is cleared as it is read.
    mutating func sweep(rule: FillRule, _ body: (Int, Int, UnsafeMutableBufferPointer<Float>) -> Void) {
        var row = [Float](repeating: 0, count: width)
        let w = width, s = stride
        cells.withUnsafeMutableBufferPointer { cells in
            row.withUnsafeMutableBufferPointer { coverage in
                for y in 0..<height {
                    let base = y * s
                    var sum: Float = 0
                    var any = false
                    for x in 0..<w {
                        sum += cells[base + x]
                        cells[base + x] = 0
                        var c = abs(sum)
                        if rule == .evenOdd {
                            c = c.truncatingRemainder(dividingBy: 2)
                            if c > 1 { c = 2 - c }
                        } else if c > 1 {
                            c = 1
                        }
                        if c < 1 / 512 { c = 0 } else { any = true }
                        coverage[x] = c
                    }
                    cells[base + w] = 0
                    cells[base + w + 1] = 0
                    if any { body(originY + y, originX, coverage) }
                }
            }
        }
    }
}
