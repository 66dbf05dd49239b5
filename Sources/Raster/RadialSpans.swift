/// Radial gradient colours along a row, eight pixels at a time in `Float` lanes: the fast
/// path of `Shader.shade` for `.radial` (whose per-pixel `Double` loop is the reference).
///
/// The reference solves, per pixel, for s = 1/t in p = f + (q − f)·t with q on the circle:
/// s = (−b + √(b² − a·c)) / a and t = 1/s, two divisions. Multiplying through by the
/// conjugate gives the same t as (b + √(b² − a·c)) / (−c), where c = |f − centre|² − r² < 0
/// for every row of a paint (the shader keeps the focal point inside): one square root and a
/// multiply by a constant, and b² − a·c is a sum of two non-negative terms, so `Float`
/// loses nothing to cancellation there. The table index can differ from the reference's by
/// one where t·255 lies within about 10⁻³ of a half step (a test bounds it: never by more
/// than one).
///
/// Positions: the pixels go in blocks of eight aligned on device columns (x a multiple of
/// eight). A block's first position is worked out in `Double` from the device column (the
/// inverse transform, as the reference's), then each lane adds its column's offset in
/// `Float`: so a pixel gets the same lanes' inputs wherever its span starts (a bounded
/// layer, a band, a clipped run), and drawing part of a frame gives the same pixels as
/// drawing all of it. Everything that does not change along a paint (lengths in radii, the
/// lanes' constants) is worked out once per shader (`Setup`), not per span: most spans of a
/// gradient stroke or a shape's edge are a few pixels long.
enum RadialSpans {
    typealias Values = SIMD8<Float>
    typealias Lanes = SIMD8<UInt32>

    /// Whether `Shader.shade` takes the lanes: not in an unoptimized build, where every lane
    /// operation is a call and the scalar reference is faster (the tests call `row` itself).
    static var enabled: Bool {
        #if DEBUG
        return false
        #else
        return true
        #endif
    }

    typealias Half = SIMD4<Float>

    /// What the lanes need of a paint, in lengths of radii (t does not change when every
    /// length is scaled alike: c is then in -1...-0.02, and b² − a·c is far from `Float`'s
    /// ends wherever t is not ~0). A class: the shader that holds it is copied per paint and
    /// per row band, and a reference keeps that copy small.
    final class Setup {
        let lanes: RowLanes
        /// Device to paint space, scaled to radii and moved to the focal point: a pixel
        /// centre (x + 0.5, y + 0.5) is at (ax·x + cx·y + ox, bx·x + dy·y + oy) from it.
        let ax: Double, bx: Double, cx: Double, dy: Double, ox: Double, oy: Double
        /// Each lane's column offset within a block, in radii (lanes 0-3, then 4-7).
        let laneX: Half, laneY: Half, laneX4: Half, laneY4: Half
        /// Bounds of |dx| + |dy| per device column and row, and at the origin (`holds`).
        let spanX: Double, spanY: Double, reach: Double

        /// nil when the lanes cannot hold the paint (the reference draws it).
        init?(center: Point, radius: Double, focal: Point, inverse m: Transform) {
            let ex = focal.x - center.x, ey = focal.y - center.y
            let c = ex * ex + ey * ey - radius * radius
            let scale = 1 / (ex * ex + ey * ey - c).squareRoot()
            let (fex, fey, fc) = (Float(ex * scale), Float(ey * scale), Float(c * scale * scale))
            let k = 255 / -fc
            guard c < 0, scale.isFinite, fc.isFinite, fc < 0, k.isFinite, fex.isFinite, fey.isFinite else { return nil }
            lanes = RowLanes(focalX: fex, focalY: fey, c: fc, k: k)
            (ax, bx, cx, dy) = (m.a * scale, m.b * scale, m.c * scale, m.d * scale)
            ox = (0.5 * (m.a + m.c) + m.tx - focal.x) * scale
            oy = (0.5 * (m.b + m.d) + m.ty - focal.y) * scale
            let columns = Half(0, 1, 2, 3), four = Half(4, 5, 6, 7)
            (laneX, laneY) = (columns * Float(ax), columns * Float(bx))
            (laneX4, laneY4) = (four * Float(ax), four * Float(bx))
            let parts = [ax, bx, cx, dy, ox, oy, Double(laneX4[3]), Double(laneY4[3])]
            guard parts.allSatisfy({ abs($0) < 1e15 }) else { return nil }
            (spanX, spanY, reach) = (abs(ax) + abs(bx), abs(cx) + abs(dy), abs(ox) + abs(oy))
        }

        /// Whether every position of pixels x0..<x0+count on row y (and the rest of their
        /// blocks) stays small enough for `Float` squares (under 10¹⁴ radii): bounded from the
        /// map's absolute coefficients, a few operations per span.
        @inline(__always) func holds(y: Int, x0: Int, count: Int) -> Bool {
            let columns = Double(x0.magnitude) + Double(max(0, count)) + 8, row = Double(y.magnitude)
            return columns * spanX + row * spanY + reach < 1e14
        }
    }

    /// Colours of pixels x0..<x0+count on row y (every position checked by `Setup.holds`).
    /// The whole blocks store their entries in `out`, which a second pass looks up
    /// (`TableLookup.replace`): with each lane's lookup in the same loop as the arithmetic,
    /// the compiler splits the lanes into pairs and does the arithmetic twice over.
    static func row(_ table: UnsafePointer<UInt32>, _ setup: Setup, y: Int, x0: Int, count: Int,
                    into out: UnsafeMutablePointer<UInt32>) {
        let rowX = setup.cx * Double(y) + setup.ox, rowY = setup.dy * Double(y) + setup.oy
        let end = x0 &+ count
        var block = x0 & ~7
        @inline(__always) func part(_ block: Int) {
            let index = entries(setup, rowX, rowY, block), target = out + (block &- x0)
            for lane in max(0, x0 &- block)..<min(8, end &- block) { target[lane] = table[Int(index[lane])] }
        }
        if block < x0 || block &+ 8 > end {  // a span starting inside a block
            part(block)
            block &+= 8
        }
        let whole = block
        while block &+ 8 <= end {
            UnsafeMutableRawPointer(out + (block &- x0)).storeBytes(of: entries(setup, rowX, rowY, block), as: SIMD8<UInt32>.self)
            block &+= 8
        }
        TableLookup.replace(out + (whole &- x0), count: block &- whole, from: table)
        if block < end { part(block) }
    }

    /// The entries of the eight pixels from column `block` on the row at (rowX, rowY).
    @inline(__always) static func entries(_ setup: Setup, _ rowX: Double, _ rowY: Double, _ block: Int) -> SIMD8<UInt32> {
        let column = Double(block)
        let baseX = Half(repeating: Float(rowX + setup.ax * column))
        let baseY = Half(repeating: Float(rowY + setup.bx * column))
        return SIMD8(lowHalf: setup.lanes.indices(dx: baseX + setup.laneX, dy: baseY + setup.laneY),
                     highHalf: setup.lanes.indices(dx: baseX + setup.laneX4, dy: baseY + setup.laneY4))
    }

    /// The constants of `row`'s lanes (lengths in radii), four lanes wide: one register on
    /// SSE2 and NEON, where eight-lane values of the same arithmetic spill.
    struct RowLanes {
        let focalX: Half, focalY: Half, c: Half, k: Half

        init(focalX: Float, focalY: Float, c: Float, k: Float) {
            (self.focalX, self.focalY) = (Half(repeating: focalX), Half(repeating: focalY))
            (self.c, self.k) = (Half(repeating: c), Half(repeating: k))
        }

        /// Table entries (0...255) of the pixels at (dx, dy) from the focal point.
        @inline(__always) func indices(dx: Half, dy: Half) -> SIMD4<UInt32> {
            let a: Half = dx * dx + dy * dy
            let b: Half = dx * focalX + dy * focalY
            let d: Half = b * b - a * c
            // t·255, clamped to the table and rounded (ties to even: the reference rounds
            // them up, one more place the index may differ by one).
            return RadialSpans.entries((b + RadialSpans.squareRoot4(d)) * k)
        }
    }

    /// The nearest entries of t·255 (ties to even), clamped to 255. t ≥ 0 (√(b² − a·c) ≥ |b|
    /// as −a·c ≥ 0), so only its sign bit's rounding noise near 0 is cleared, and the lanes,
    /// non-negative, compare as integers: one compare, not the two of a clamp from both ends;
    /// then rounded as `ColorSpans.bytes` rounds (2²³ added).
    /// NaN (positions beyond what `Setup.holds` lets through) clamps to 255.
    @inline(__always) static func entries(_ t255: Half) -> SIMD4<UInt32> {
        let bits = unsafeBitCast(t255, to: SIMD4<Int32>.self) & SIMD4(repeating: 0x7fff_ffff)
        let top = SIMD4<Int32>(repeating: Int32(bitPattern: (255 as Float).bitPattern))
        let over = (top &- bits) &>> 31  // all ones where t·255 > 255
        let clamped = unsafeBitCast((bits & ~over) | (top & over), to: Half.self)
        return unsafeBitCast(clamped + Half(repeating: 8_388_608), to: SIMD4<UInt32>.self) & SIMD4(repeating: 0xff)
    }

    /// √d of each lane (d ≥ 0) in plain lane arithmetic: the generic `squareRoot()` goes lane
    /// by lane through the C library's checks, and the lanes' arithmetic around it with it.
    /// A first guess from the bits (half the exponent: within 6 %), then three Newton steps
    /// y ← (y + d/y)/2, each squaring the relative error (6 % → 2·10⁻³ → 2·10⁻⁶ → 10⁻¹²):
    /// as exact as `Float` holds but for its last bit. For d = 0 each step halves the guess
    /// (10⁻²⁰ after three, 10⁻¹⁵ of an entry); d = ∞ (a pixel some 10¹⁹ radii away) ends in
    /// NaN, which `ColorSpans.bytes` masks to an entry of the table like any other lane.
    @inline(__always) static func squareRoot(_ d: Values) -> Values {
        Values(lowHalf: squareRoot4(d.lowHalf), highHalf: squareRoot4(d.highHalf))
    }

    /// `squareRoot` on four lanes.
    @inline(__always) static func squareRoot4(_ d: Half) -> Half {
        let bits = unsafeBitCast(d, to: SIMD4<UInt32>.self)
        var y = unsafeBitCast((bits &>> 1) &+ SIMD4<UInt32>(repeating: 0x1fbd_1df5), to: Half.self)
        let half = Half(repeating: 0.5)
        y = (y + d / y) * half
        y = (y + d / y) * half
        y = (y + d / y) * half
        return y
    }

    /// The reference `Shader.shade` uses for `.radial` when the fast path is off: pixel by pixel
    /// in `Double`.
    static func rowReference(_ lut: UnsafeBufferPointer<UInt32>, focal: Point, ex: Double, ey: Double, c: Double,
                             x: Double, y: Double, stepX: Double, stepY: Double, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        var px = x, py = y
        for i in 0..<count {
            let dx = px - focal.x, dy = py - focal.y
            let a = dx * dx + dy * dy
            var t = 0.0
            if a > 1e-18 {
                let b = ex * dx + ey * dy
                let s = (-b + (b * b - a * c).squareRoot()) / a
                t = s > 0 ? 1 / s : 1
            }
            out[i] = lut[Shader.lutIndex(t)]
            px += stepX; py += stepY
        }
    }
}
