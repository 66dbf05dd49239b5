/// The ramp of a linear gradient's row (`LinearSpans.ramp`'s promise: every entry of
/// start..<end is neither 0 nor 255) in 32-bit integer lanes, with the same entries as the
/// per-pixel reference to the bit.
///
/// Why: `ramp` does the reference's `Double` arithmetic in eight lanes, which SSE2 and NEON
/// hold two to a register: ten lane operations are some forty instructions for eight pixels.
/// Here a pixel's u = t·255 + 0.5 is a fixed-point number with 24 fraction bits, stepped by
/// one integer add a pixel (`FixedRamp`): two register adds for eight pixels.
///
/// Exactness: the fixed-point u differs from the reference's `Double` u by less than a bound
/// E worked out per ramp (the start's and the step's rounding to 2⁻²⁴, times the pixels
/// stepped, plus the reference's own rounding; see `FixedRamp.init`). Where u's fraction
/// keeps more than E from 0 and from 1, both have the same integer part, which is the
/// reference's entry (u ≥ 1 inside the ramp, so truncation is the floor). The lanes are
/// biased down by the margin, so that test is one compare of the fraction bits. Eight
/// pixels with any lane too near an entry boundary (about 2·E·255·|dt| of a ramp's pixels,
/// 10⁻⁵ of them for a row of 1000 pixels) take the reference's arithmetic (`entry`).
/// Ramps too long or too steep for the bound to stay small take `ramp`.
extension LinearSpans {
    typealias Fixed = SIMD8<UInt32>

    /// A ramp's fixed-point positions: lane values u·2²⁴ − margin.
    struct FixedRamp {
        /// u·2²⁴ − margin at the ramp's first pixel.
        let first: UInt32
        /// u's change per pixel times 2²⁴ (two's complement when the ramp goes down).
        let step: UInt32
        /// The largest fraction (24 bits) a lane may have for its integer part to be the entry.
        let limit: UInt32

        /// nil when the bound does not hold or would be too coarse (the caller takes `ramp`).
        init?(t0: Double, dt: Double, from start: Int, to end: Int) {
            let du = dt * 255
            // |du| < 16: eight steps stay below 2³¹; the ramp is then at least 16 pixels.
            guard start < end, abs(du) < 16, t0.isFinite else { return nil }
            let reach = Double(max(abs(start), abs(end)) &+ 8), pixels = Double(end &- start &+ 8)
            guard reach < 0x1p31 else { return nil }
            // The reference's u at any pixel p is within 2⁻⁴⁵·(|p·dt| + 3) of the exact one
            // (t in 0...1 there); the start rounds by 2⁻²⁵ and each step by 2⁻²⁵ + 2⁻⁴⁹.
            let error = 0x1p-25 * (pixels + 1) + pixels * 0x1p-48 + 0x1p-43 * (reach * abs(dt) + abs(t0) + 2)
            guard error < 0x1p-8 else { return nil }
            let margin = UInt32(error * 0x1p24) &+ 2
            let u = (t0 + Double(start) * dt) * 255 + 0.5  // the reference's, t not clamped inside the ramp
            guard u >= 0.5, u < 256 else { return nil }
            first = UInt32(truncatingIfNeeded: Int64((u * 0x1p24).rounded()) &- Int64(margin))
            step = UInt32(truncatingIfNeeded: Int64((du * 0x1p24).rounded()))
            limit = 0x100_0000 &- 2 &* margin
        }
    }

    /// `ramp` in fixed-point lanes (see above), or `ramp` itself when `FixedRamp` declines.
    static func fixedRamp(_ lut: UnsafeBufferPointer<UInt32>, t0: Double, dt: Double, from start: Int, to end: Int,
                          into out: UnsafeMutablePointer<UInt32>) {
        guard lut.count >= 256, let table = lut.baseAddress,
              let plan = FixedRamp(t0: t0, dt: dt, from: start, to: end) else {
            return ramp(lut, t0: t0, dt: dt, from: start, to: end, into: out)
        }
        var v = Fixed(0, 1, 2, 3, 4, 5, 6, 7) &* plan.step &+ plan.first
        let step = Fixed(repeating: plan.step &* 8), limit = Fixed(repeating: plan.limit)
        // Whole blocks store their entries, looked up in a second pass (as `RadialSpans.row`).
        var p = start
        while p &+ 8 <= end {
            if fractionsClear(v, limit) {
                UnsafeMutableRawPointer(out + p).storeBytes(of: v &>> 24, as: Fixed.self)
            } else {
                for lane in 0..<8 { out[p &+ lane] = UInt32(truncatingIfNeeded: entry(p &+ lane, t0, dt)) }
            }
            v &+= step
            p &+= 8
        }
        TableLookup.replace(out + start, count: p &- start, from: table)
        guard p < end else { return }
        if fractionsClear(v, limit) {
            let index = v &>> 24
            for lane in 0..<(end &- p) { out[p &+ lane] = table[Int(index[lane])] }
        } else {
            for q in p..<end { out[q] = table[entry(q, t0, dt)] }
        }
    }

    /// Whether every lane's fraction bits are at most `limit` (< 2²⁴): limit − fraction has
    /// its sign bit set in a lane that is not, and the lanes' OR gathers the signs.
    @inline(__always) static func fractionsClear(_ v: Fixed, _ limit: Fixed) -> Bool {
        let over = limit &- (v & Fixed(repeating: 0xff_ffff))
        let four = over.lowHalf | over.highHalf
        let two = four.lowHalf | four.highHalf
        return (two[0] | two[1]) & 0x8000_0000 == 0
    }
}

/// The second pass of the gradients' lanes: entries stored where the colours go, replaced by
/// the table's colours. Masked to 0...255: a 256-entry table is read inside, whatever is stored.
enum TableLookup {
    static func replace(_ out: UnsafeMutablePointer<UInt32>, count: Int, from table: UnsafePointer<UInt32>) {
        for i in 0..<max(0, count) { out[i] = table[Int(out[i] & 0xff)] }
    }
}
