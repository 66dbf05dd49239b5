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
        // Each pixel's position relative to the focal point is x0 + i·step in Double, then
        // rounded to Float: a pixel gets the same lanes' inputs wherever its span starts (a
        // bounded layer, a band, a clipped run), so drawing part of a frame gives the same
        // pixels as drawing all of it.
        let k = Float(255 / -c)
        let (ox, oy) = (x - focal.x, y - focal.y)
        let (lastX, lastY) = (ox + Double(count) * stepX, oy + Double(count) * stepY)
        let (fex, fey, fc) = (Float(ex), Float(ey), Float(c))
        guard lut.count >= 256, c < 0, k.isFinite, Float(ox).isFinite, Float(oy).isFinite, Float(lastX).isFinite,
              Float(lastY).isFinite, fc.isFinite else {
            return rowReference(lut, focal: focal, ex: ex, ey: ey, c: c, x: x, y: y, stepX: stepX, stepY: stepY, count: count, into: out)
        }
        let steps = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7)
        var i = 0
        while i < count {
            let n = steps + Double(i)
            let dx = Values(n * stepX + ox), dy = Values(n * stepY + oy)
            let a: Values = dx * dx + dy * dy
            let b: Values = dx * fex + dy * fey
            let d: Values = b * b - a * fc
            // t·255, clamped to the table and rounded (ties to even: the reference rounds
            // them up, one more place the index may differ by one).
            let t255: Values = (b + d.squareRoot()) * k
            let index = ColorSpans.bytes(ColorSpans.clamp(t255, Values(repeating: 255)))
            for lane in 0..<min(8, count - i) { out[i + lane] = lut[Int(index[lane])] }
            i += 8
        }
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
