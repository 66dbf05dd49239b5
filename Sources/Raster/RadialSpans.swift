/// Radial gradient colours along a row, eight pixels at a time in `Float` lanes: the fast
/// path of `Shader.shade` for `.radial` (whose per-pixel `Double` loop is the reference).
///
/// The reference solves, per pixel, for s = 1/t in p = f + (q − f)·t with q on the circle:
/// s = (−b + √(b² − a·c)) / a and t = 1/s, two divisions. Multiplying through by the
/// conjugate gives the same t as (b + √(b² − a·c)) / (−c), where c = |f − centre|² − r² < 0
/// for every row of a paint (the shader keeps the focal point inside): one square root and a
/// multiply by a constant, and b² − a·c is a sum of two non-negative terms, so `Float`
/// loses nothing to cancellation there. Positions are x0 + i·step in Double (not a running
/// sum), so no error builds up along a row, and a pixel's colour does not depend on where its
/// span starts. The table index can differ from the reference's by one where
/// t·255 lies within about 10⁻³ of a half step (a test bounds it: never by more than one).
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

    /// Colours of `count` pixels from device position (x, y), moving (stepX, stepY) in
    /// paint space per pixel; `ex`, `ey` is the focal point less the centre, `c` as above.
    static func row(_ lut: UnsafeBufferPointer<UInt32>, focal: Point, ex: Double, ey: Double, c: Double,
                    x: Double, y: Double, stepX: Double, stepY: Double, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        // Lengths in radii (t does not change when every length is scaled alike): c is then
        // in -1...-0.02, and b² − a·c is far from `Float`'s ends wherever t is not ~0.
        let scale = 1 / (ex * ex + ey * ey - c).squareRoot()
        // Each pixel's position relative to the focal point is x0 + i·step in Double, then
        // rounded to Float: a pixel gets the same lanes' inputs wherever its span starts (a
        // bounded layer, a band, a clipped run), so drawing part of a frame gives the same
        // pixels as drawing all of it.
        let (ox, oy) = ((x - focal.x) * scale, (y - focal.y) * scale)
        let (sx, sy) = (stepX * scale, stepY * scale)
        let (lastX, lastY) = (ox + Double(count) * sx, oy + Double(count) * sy)
        let (fex, fey, fc) = (Float(ex * scale), Float(ey * scale), Float(c * scale * scale))
        let k = 255 / -fc
        guard lut.count >= 256, let table = lut.baseAddress, c < 0, scale.isFinite, k.isFinite, Float(ox).isFinite,
              Float(oy).isFinite, Float(lastX).isFinite, Float(lastY).isFinite, fc.isFinite, fc < 0 else {
            return rowReference(lut, focal: focal, ex: ex, ey: ey, c: c, x: x, y: y, stepX: stepX, stepY: stepY, count: count, into: out)
        }
        let lanes = RowLanes(focalX: fex, focalY: fey, c: fc, k: k)
        var n = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7)
        var i = 0
        while i &+ 8 <= count {
            let index = lanes.indices(dx: Values(n * sx + ox), dy: Values(n * sy + oy))
            for lane in 0..<8 { out[i &+ lane] = table[Int(index[lane])] }
            n += 8
            i &+= 8
        }
        guard i < count else { return }
        let index = lanes.indices(dx: Values(n * sx + ox), dy: Values(n * sy + oy))
        for lane in 0..<(count &- i) { out[i &+ lane] = table[Int(index[lane])] }
    }

    /// The per-row constants of `row`'s lanes (lengths in radii).
    struct RowLanes {
        let focalX: Values, focalY: Values, c: Values, k: Values

        init(focalX: Float, focalY: Float, c: Float, k: Float) {
            (self.focalX, self.focalY) = (Values(repeating: focalX), Values(repeating: focalY))
            (self.c, self.k) = (Values(repeating: c), Values(repeating: k))
        }

        /// Table entries (0...255) of the pixels at (dx, dy) from the focal point.
        @inline(__always) func indices(dx: Values, dy: Values) -> SIMD8<UInt32> {
            let a: Values = dx * dx + dy * dy
            let b: Values = dx * focalX + dy * focalY
            let d: Values = b * b - a * c
            // t·255, clamped to the table and rounded (ties to even: the reference rounds
            // them up, one more place the index may differ by one).
            let t255: Values = (b + RadialSpans.squareRoot(d)) * k
            return ColorSpans.bytes(ColorSpans.clamp(t255, Values(repeating: 255)))
        }
    }

    /// √d of each lane (d ≥ 0) in plain lane arithmetic: the generic `squareRoot()` goes lane
    /// by lane through the C library's checks, and the lanes' arithmetic around it with it.
    /// A first guess from the bits (half the exponent: within 6 %), then three Newton steps
    /// y ← (y + d/y)/2, each squaring the relative error (6 % → 2·10⁻³ → 2·10⁻⁶ → 10⁻¹²):
    /// as exact as `Float` holds but for its last bit. For d = 0 each step halves the guess
    /// (10⁻²⁰ after three, 10⁻¹⁵ of an entry); d = ∞ (a pixel some 10¹⁹ radii away) ends in
    /// NaN, which `ColorSpans.bytes` masks to an entry of the table like any other lane.
    @inline(__always) static func squareRoot(_ d: Values) -> Values {
        let bits = unsafeBitCast(d, to: SIMD8<UInt32>.self)
        var y = unsafeBitCast((bits &>> 1) &+ SIMD8<UInt32>(repeating: 0x1fbd_1df5), to: Values.self)
        let half = Values(repeating: 0.5)
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
