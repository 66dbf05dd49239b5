/// Linear gradient colours along the ramp of a row (the pixels whose table entry is neither
/// end's), eight pixels at a time in `Double` lanes: the fast path of `Shader.linearRowSteep`,
/// whose pixel-by-pixel loop is the reference.
///
/// The lanes do the reference's arithmetic operation for operation, so the entries are the
/// same to the bit (a test compares them): position t = t0 + i·dt with i an exact integer
/// (the lanes' i step by 8, exact below 2⁵³), then u = t·255 + 0.5. Inside the ramp t lies
/// in 0...1 (an entry other than 0 and 255 needs it), so the reference's clamp does nothing
/// and is left out. The reference truncates u (≥ 1 there) to an integer; the lanes round it
/// to the nearest with the 2⁵² trick (u + 2⁵² is an integer whose low bits are the rounded u)
/// and take one off where that rounded up (u less the rounded value is negative, read from
/// its sign bit), which is the floor, with no conversion instruction SSE2 lacks.
enum LinearSpans {
    typealias Values = SIMD8<Double>
    typealias Lanes = SIMD8<UInt64>

    /// Whether `Shader.linearRowSteep` takes the lanes: not in an unoptimized build, where
    /// every lane operation is a call and the scalar reference is faster (the tests call
    /// `ramp` itself).
    static var enabled: Bool {
        #if DEBUG
        return false
        #else
        return true
        #endif
    }

    /// Spans shorter than this go pixel by pixel (`Shader.linearRowReference`): below it the
    /// search for a row's padded ends and ramp costs more than it saves (measured on thin
    /// gradient strokes, 2-10 pixels a span).
    static var shortRow: Int { 16 }

    /// `out[p] = lut[lutIndex(t0 + p·dt)]` for p in start..<end, where every such entry is
    /// known to be neither 0 nor 255 (positions t in 0...1). Table indices are masked to
    /// 0...255, so even a caller breaking that promise reads inside a 256-entry table.
    static func ramp(_ lut: UnsafeBufferPointer<UInt32>, t0: Double, dt: Double, from start: Int, to end: Int,
                     into out: UnsafeMutablePointer<UInt32>) {
        guard lut.count >= 256, let table = lut.baseAddress else {
            for p in start..<max(start, end) { out[p] = lut[Shader.lutIndex(t0 + Double(p) * dt)] }
            return
        }
        let magic = Values(repeating: 4_503_599_627_370_496)  // 2⁵²
        let (steps, origin) = (Values(repeating: dt), Values(repeating: t0))
        var n = Values(0, 1, 2, 3, 4, 5, 6, 7) + Double(start)
        var p = start
        while p &+ 8 <= end {
            let index = indices(n, steps, origin, magic)
            for lane in 0..<8 { out[p &+ lane] = table[Int(truncatingIfNeeded: index[lane])] }
            n += 8
            p &+= 8
        }
        guard p < end else { return }
        let index = indices(n, steps, origin, magic)
        for lane in 0..<(end &- p) { out[p &+ lane] = table[Int(truncatingIfNeeded: index[lane])] }
    }

    /// The table entries of positions t0 + n·dt (see the type's comment), masked to 0...255.
    @inline(__always)
    private static func indices(_ n: Values, _ steps: Values, _ origin: Values, _ magic: Values) -> Lanes {
        let t = n * steps + origin
        let u = t * 255 + 0.5
        let rounded = u + magic
        let below = u - (rounded - magic)  // negative where rounding went up
        let floor = unsafeBitCast(rounded, to: Lanes.self) &- (unsafeBitCast(below, to: Lanes.self) &>> 63)
        return floor & Lanes(repeating: 0xff)
    }
}

extension LinearSpans {
    /// `ramp` for a gradient whose entries are more than eight pixels wide (|dt|·255·8 < 1):
    /// the pixels sharing an entry form one stretch (positions are monotonic along a row),
    /// filled at once. The same promise as `ramp`: every entry of start..<end is neither 0
    /// nor 255, with t0 and dt finite.
    ///
    /// Entry k's stretch ends at the first pixel past X = ((k ± 0.5)/255 − t0)/dt, where the
    /// exact position crosses into the next entry. The reference's rounding moves its u =
    /// t·255 + 0.5 by less than 2⁻⁴⁰·(1 + |t0|) (a few ulps of 256, with room), so a pixel
    /// more than that over 255·|dt| from X has the entry its side of X says; X itself is
    /// computed within 2⁻⁴⁰·(|X| + (1 + |t0|)/|dt|). When X's fraction keeps clear of both
    /// margins, the stretch ends at ⌊X⌋ + 1 with no pixel evaluated, and the next entry is
    /// k ± 1 (a step moves u by under 1/8). Otherwise (X within a hair of a pixel, or far
    /// before the stretch) the end is found and checked against the per-pixel rule (`entry`).
    static func stretches(_ lut: UnsafeBufferPointer<UInt32>, t0: Double, dt: Double, from start: Int, to end: Int,
                          into out: UnsafeMutablePointer<UInt32>) {
        guard lut.count >= 256, let table = lut.baseAddress, start < end else {
            for p in start..<max(start, end) { out[p] = lut[Shader.lutIndex(t0 + Double(p) * dt)] }
            return
        }
        guard dt != 0, abs(dt) * 255 * 8 < 1 else {
            if dt == 0 { PixelStores.fill(out + start, with: table[entry(start, t0, dt)], count: end &- start) }
            else { checkedStretches(table, t0: t0, dt: dt, from: start, to: end, into: out) }
            return
        }
        let inverseDt = 1 / dt, half = dt > 0 ? 0.5 : -0.5, direction = dt > 0 ? 1 : -1
        let reach = Double(max(abs(start), abs(end)) &+ 2)
        let margin = 0x1p-40 * ((1 + abs(t0)) * abs(inverseDt) + reach)
        guard margin < 0.25, reach < 0x1p40 else { return checkedStretches(table, t0: t0, dt: dt, from: start, to: end, into: out) }
        let magic = 6_755_399_441_055_744.0  // 1.5·2⁵²: x + it − it is x rounded to an integer (|x| < 2⁵¹)
        var i = start
        var k = entry(i, t0, dt)
        while i < end {
            let x = ((Double(k) + half) * (1.0 / 255) - t0) * inverseDt
            if x >= Double(end) + 1, x < 0x1p30 {  // past the ramp by a pixel and more: k to its end
                return PixelStores.fill(out + i, with: table[k], count: end &- i)
            }
            var whole = (x + magic) - magic
            if whole > x { whole -= 1 }
            let fraction = x - whole
            guard abs(x) < reach, fraction > margin, fraction < 1 - margin, whole >= Double(i) else {
                return checkedStretches(table, t0: t0, dt: dt, from: i, to: end, into: out)
            }
            let j = min(Int(whole) &+ 1, end)
            fillAhead(out, from: i, to: j, end: end, with: table[k])
            i = j
            k &+= direction
        }
    }

    /// Pixels i..<j of a ramp ending at `end` take `color`: four at a time, the last four
    /// running up to three pixels past j when that stays before `end` (the stretches after
    /// this one store over them), so a short stretch is a store or three with no tail loop.
    @inline(__always)
    static func fillAhead(_ out: UnsafeMutablePointer<UInt32>, from i: Int, to j: Int, end: Int, with color: UInt32) {
        guard j &+ 3 < end else { return PixelStores.fill(out + i, with: color, count: j &- i) }
        let four = SIMD4<UInt32>(repeating: color)
        var p = i
        repeat {
            UnsafeMutableRawPointer(out + p).storeBytes(of: four, as: SIMD4<UInt32>.self)
            p &+= 4
        } while p < j
    }

    /// `stretches` with each stretch's end found from a guess and checked pixel by pixel
    /// (`entry`): the way when the guess cannot be trusted outright.
    static func checkedStretches(_ table: UnsafePointer<UInt32>, t0: Double, dt: Double, from start: Int, to end: Int,
                                 into out: UnsafeMutablePointer<UInt32>) {
        let inverseDt = dt != 0 ? 1 / dt : 0, half = dt > 0 ? 0.5 : -0.5
        var i = start
        var k = entry(i, t0, dt)
        while i < end {
            var j = end, after = k  // the stretch's end and, when j < end, entry(j)
            if dt != 0 {
                // Where the entry after k (in the direction of travel) starts.
                let guess = ((Double(k) + half) * (1.0 / 255) - t0) * inverseDt + 1
                j = guess.isFinite ? Int(min(max(guess, Double(i &+ 1)), Double(end))) : i &+ 1
                after = j < end ? entry(j, t0, dt) : k
                while j < end, after == k { j &+= 1; after = j < end ? entry(j, t0, dt) : k }
                while j > i &+ 1 {
                    let before = entry(j &- 1, t0, dt)
                    if before == k { break }
                    j &-= 1
                    after = before
                }
            }
            PixelStores.fill(out + i, with: table[k], count: j &- i)
            i = j
            k = after
        }
    }

    /// The reference's table index of pixel p where it is neither end's (the clamp does
    /// nothing there): `indices` for one pixel, masked to 0...255.
    @inline(__always) static func entry(_ p: Int, _ t0: Double, _ dt: Double) -> Int {
        let magic = 4_503_599_627_370_496.0
        let u = (Double(p) * dt + t0) * 255 + 0.5
        let rounded = u + magic
        let below = u - (rounded - magic)
        return Int(truncatingIfNeeded: (rounded.bitPattern &- (below.bitPattern >> 63)) & 0xff)
    }
}
