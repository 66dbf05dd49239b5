/// Box blurs: three box passes each way, close to a Gaussian (shadows, glows, the blur effect).
///
/// `blur` is the fast path: it visits only the pixels the blur can reach from what was
/// painted (growing by one box per pass), runs the vertical passes row by row with a running
/// sum per column (memory in order, not a column at a time) and the horizontal ones through
/// prefix sums of the row, both kept per byte so that the loops are vector loops, and divides
/// by the window exactly in `Float` (`WindowDivider`). `referenceBlur` is the plain
/// definition, the whole surface line by line; a test checks that both give the same pixels.
/// A grey surface (a shadow before its tint) blurs one channel instead (`blurGrey`).
///
/// A Gaussian of standard deviation σ is approached by three boxes whose widths are the odd
/// numbers around √(4σ² + 1), mixed so that their variances sum to σ² (a box of width w has
/// variance (w² − 1) / 12): close for any σ, not just those a single repeated box fits.
extension Surface {
    /// A copy blurred by three box passes each way, close to a Gaussian with this radius.
    public func blurred(radius: Double) -> Surface {
        var result = self
        result.blur(radius: radius)
        return result
    }

    /// The half-width of one box pass for `radius`, or 0 for no blur. Boxes are capped (at
    /// 1024 pixels) so that the window's exact reciprocal fits the multiply.
    static func boxHalfWidth(radius: Double) -> Int {
        guard radius >= 0.5, radius.isFinite else { return 0 }
        return min(1024, max(1, Int((min(radius, 1e6) / 1.7).rounded())))
    }

    /// The half-widths of the three box passes that approach a Gaussian of standard deviation
    /// `sigma` (zeros for passes that do nothing); none for a sigma under a third of a pixel.
    public static func boxHalfWidths(sigma: Double) -> [Int] {
        guard sigma >= 1.0 / 3, sigma.isFinite else { return [] }
        let s = min(sigma, 1200)
        let variance = s * s
        var lower = Int((4 * variance + 1).squareRoot())
        if lower % 2 == 0 { lower -= 1 }
        let upper = lower + 2
        // How many of the three boxes take the lower width so that the variances sum to σ².
        let ideal = (12 * variance - 3 * Double(lower * lower) - 12 * Double(lower) - 9) / (-4 * Double(lower) - 4)
        let count = max(0, min(3, Int(ideal.rounded())))
        return (0..<3).map { min(1024, ($0 < count ? lower : upper) / 2) }
    }

    /// How far, in pixels, `blur(radius:)` spreads a pixel.
    public static func blurSpread(radius: Double) -> Int { 3 * boxHalfWidth(radius: radius) }

    /// How far, in pixels, a blur of standard deviation `sigma` spreads a pixel.
    public static func blurSpread(sigma: Double) -> Int { boxHalfWidths(sigma: sigma).reduce(0, +) }

    /// Blurs in place (pixels outside the surface count as transparent).
    public mutating func blur(radius: Double, pool: BufferPool? = nil) {
        let box = Self.boxHalfWidth(radius: radius)
        blur(horizontal: [box, box, box], vertical: [box, box, box], pool: pool)
    }

    /// Blurs in place by a Gaussian of standard deviation `sigmaX` across and `sigmaY` down
    /// (0 for none that way); pixels outside the surface count as transparent.
    public mutating func blur(sigmaX: Double, sigmaY: Double, pool: BufferPool? = nil) {
        blur(horizontal: Self.boxHalfWidths(sigma: sigmaX), vertical: Self.boxHalfWidths(sigma: sigmaY), pool: pool)
    }

    /// Box passes of these half-widths, alternating across and down (a zero is no pass).
    private mutating func blur(horizontal: [Int], vertical: [Int], pool: BufferPool?) {
        var active = painted.intersection(bounds)
        guard horizontal.contains(where: { $0 > 0 }) || vertical.contains(where: { $0 > 0 }), !active.isEmpty else { return }
        // Prefix sums of a row (horizontal passes) or sums of columns (vertical ones), per byte.
        let scratchCount = 4 * (width + 1)
        var scratch = pool?.pixels(count: scratchCount, value: 0) ?? [UInt32](repeating: 0, count: scratchCount)
        for pass in 0..<max(horizontal.count, vertical.count) {
            if pass < horizontal.count, horizontal[pass] > 0 {
                active = horizontalPass(active, box: horizontal[pass], scratch: &scratch)
            }
            if pass < vertical.count, vertical[pass] > 0 {
                active = verticalPass(active, box: vertical[pass], scratch: &scratch, pool: pool)
            }
        }
        pool?.recycle(&scratch)
        markPainted(active)
    }

    /// One horizontal box pass over the rows of `active` (zero elsewhere); returns the
    /// pixels that may now be non-zero. Each row goes through prefix sums kept per byte
    /// (c[4m + k]: channel k of the pixels before m), so that a window's sum is a difference
    /// of two of them: the prefix is one running vector add per pixel, and the differences
    /// and divisions over the middle of the row, where the window lies inside it, are a
    /// plain loop over bytes that the compiler vectorizes.
    private mutating func horizontalPass(_ active: PixelRect, box: Int, scratch: inout [UInt32]) -> PixelRect {
        let out = PixelRect(x0: active.x0 - box, y0: active.y0, x1: active.x1 + box, y1: active.y1).intersection(bounds)
        let (w, x0, length) = (width, out.x0 - originX, out.width)
        let divider = WindowDivider(box: box)
        pixels.withUnsafeMutableBufferPointer { px in
            scratch.withUnsafeMutableBufferPointer { prefix in
                let c = prefix.baseAddress!
                for y in out.y0..<out.y1 {
                    let row = UnsafeMutableRawPointer(px.baseAddress! + (y - originY) * w + x0)
                    c.update(repeating: 0, count: 4)
                    for j in 0..<4 * length { c[j + 4] = c[j] &+ UInt32(row.load(fromByteOffset: j, as: UInt8.self)) }
                    // Pixel i's window is pixels lo..<hi, clamped to the row.
                    @inline(__always) func window(_ i: Int) {
                        let lo = 4 * max(i - box, 0), hi = 4 * min(i + box + 1, length)
                        for k in 0..<4 {
                            let v = divider.divide(c[hi + k] &- c[lo + k])
                            row.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: 4 * i + k, as: UInt8.self)
                        }
                    }
                    // The middle, where no window is clamped: mid0..<mid1 (empty if the row is short).
                    let mid0 = min(box, length), mid1 = max(min(box, length), length - box)
                    for i in 0..<mid0 { window(i) }
                    // From pointers set once: index arithmetic in the loop (checked for
                    // overflow) would keep it from being vectorized.
                    let (high, low, target) = (c + 4 * (mid0 + box + 1), c + 4 * (mid0 - box), row + 4 * mid0)
                    for j in 0..<4 * (mid1 - mid0) {
                        target.storeBytes(of: UInt8(truncatingIfNeeded: divider.divide(high[j] &- low[j])), toByteOffset: j, as: UInt8.self)
                    }
                    for i in mid1..<length { window(i) }
                }
            }
        }
        return out
    }

    /// One vertical box pass, row by row: a running sum per column and channel, written in
    /// place. A row's input is still needed `box` rows after its output replaced it (to leave
    /// the window), so it is saved first into a ring of box + 1 rows (at most the rows the
    /// pass writes): no second surface to clear. The sums are kept per byte of the row
    /// (channel k of pixel i at 4i + k), so adding a row, removing one and dividing are
    /// plain loops over bytes that the compiler turns into vector instructions.
    private mutating func verticalPass(_ active: PixelRect, box: Int, scratch: inout [UInt32], pool: BufferPool?) -> PixelRect {
        let out = PixelRect(x0: active.x0, y0: active.y0 - box, x1: active.x1, y1: active.y1 + box).intersection(bounds)
        let (w, x0, count, bytes) = (width, out.x0 - originX, out.width, 4 * out.width)
        let divider = WindowDivider(box: box)
        let (first, end, top, bottom) = (active.y0 - originY, active.y1 - originY, out.y0 - originY, out.y1 - originY)
        let slots = min(box + 1, out.height)
        var ring = pool?.pixels(count: slots * count, value: 0) ?? [UInt32](repeating: 0, count: slots * count)
        pixels.withUnsafeMutableBufferPointer { px in
            ring.withUnsafeMutableBufferPointer { saved in
                scratch.withUnsafeMutableBufferPointer { sums in
                    let s = sums.baseAddress!
                    s.update(repeating: 0, count: bytes)
                    @inline(__always) func add(_ r: UnsafeRawPointer) {
                        for j in 0..<bytes { s[j] &+= UInt32(r.load(fromByteOffset: j, as: UInt8.self)) }
                    }
                    @inline(__always) func remove(_ r: UnsafeRawPointer) {
                        for j in 0..<bytes { s[j] &-= UInt32(r.load(fromByteOffset: j, as: UInt8.self)) }
                    }
                    @inline(__always) func input(_ y: Int) -> Bool { y >= first && y < end }
                    @inline(__always) func slot(_ y: Int) -> UnsafeMutablePointer<UInt32> { saved.baseAddress! + ((y - top) % slots) * count }
                    for y in top - box...top + box where input(y) { add(UnsafeRawPointer(px.baseAddress! + y * w + x0)) }
                    for y in top..<bottom {
                        let target = px.baseAddress! + y * w + x0
                        if input(y) { slot(y).update(from: target, count: count) }
                        let raw = UnsafeMutableRawPointer(target)
                        for j in 0..<bytes {
                            raw.storeBytes(of: UInt8(truncatingIfNeeded: divider.divide(s[j])), toByteOffset: j, as: UInt8.self)
                        }
                        // Rows below are not written yet; rows above the pass never were.
                        if input(y + box + 1) { add(UnsafeRawPointer(px.baseAddress! + (y + box + 1) * w + x0)) }
                        let leaving = y - box
                        if input(leaving) {
                            remove(UnsafeRawPointer(leaving >= top ? slot(leaving) : px.baseAddress! + leaving * w + x0))
                        }
                    }
                }
            }
        }
        if let pool { pool.recycle(&ring) }
        return out
    }

    /// The definition: three box passes each way over every line of the surface, a line at
    /// a time, dividing by the window. Slow; the reference `blur` must match.
    public mutating func referenceBlur(radius: Double) {
        let box = Self.boxHalfWidth(radius: radius)
        referenceBlur(horizontal: [box, box, box], vertical: [box, box, box])
    }

    /// The definition of `blur(sigmaX:sigmaY:)`.
    public mutating func referenceBlur(sigmaX: Double, sigmaY: Double) {
        referenceBlur(horizontal: Self.boxHalfWidths(sigma: sigmaX), vertical: Self.boxHalfWidths(sigma: sigmaY))
    }

    private mutating func referenceBlur(horizontal: [Int], vertical: [Int]) {
        guard horizontal.contains(where: { $0 > 0 }) || vertical.contains(where: { $0 > 0 }), width > 0, height > 0 else { return }
        var scratch = [UInt32](repeating: 0, count: max(width, height))
        for pass in 0..<max(horizontal.count, vertical.count) {
            if pass < horizontal.count, horizontal[pass] > 0 {
                Self.boxBlur(&pixels, count: height, length: width, stride: 1, step: width, radius: horizontal[pass], scratch: &scratch)
            }
            if pass < vertical.count, vertical[pass] > 0 {
                Self.boxBlur(&pixels, count: width, length: height, stride: width, step: 1, radius: vertical[pass], scratch: &scratch)
            }
        }
        markPainted()
    }

    private static func boxBlur(_ px: inout [UInt32], count: Int, length: Int, stride: Int, step: Int, radius: Int,
                                scratch: inout [UInt32]) {
        let window = UInt32(2 * radius + 1)
        px.withUnsafeMutableBufferPointer { px in
            scratch.withUnsafeMutableBufferPointer { line in
                for lineIndex in 0..<count {
                    let base = lineIndex * step
                    for i in 0..<length { line[i] = px[base + i * stride] }
                    var sa: UInt32 = 0, sr: UInt32 = 0, sg: UInt32 = 0, sb: UInt32 = 0
                    func add(_ p: UInt32) { sa += p >> 24; sr += (p >> 16) & 0xff; sg += (p >> 8) & 0xff; sb += p & 0xff }
                    func remove(_ p: UInt32) { sa -= p >> 24; sr -= (p >> 16) & 0xff; sg -= (p >> 8) & 0xff; sb -= p & 0xff }
                    for i in 0...radius where i < length { add(line[i]) }
                    for i in 0..<length {
                        px[base + i * stride] = ((sa + window / 2) / window) << 24 | ((sr + window / 2) / window) << 16
                            | ((sg + window / 2) / window) << 8 | ((sb + window / 2) / window)
                        let incoming = i + radius + 1, outgoing = i - radius
                        if incoming < length { add(line[incoming]) }
                        if outgoing >= 0 { remove(line[outgoing]) }
                    }
                }
            }
        }
    }
}

/// round(n / window) for a box window (2·box + 1 ≤ 2049) and sums n of bytes over it (below
/// 2²⁰), in `Float`, which vector instructions do where they have no 64-bit multiply: the
/// quotient (n + half + ½) / window lies at least ½ / window (≥ 2.4·10⁻⁴) from an integer,
/// and the float arithmetic errs by under 10⁻⁴ for quotients up to 256, so rounding
/// (n + half + ½) / window − ½ to the nearest integer gives its floor: the exact result. (A
/// test compares every sum of every window with integer division.)
struct WindowDivider {
    let offset: Float
    let inverse: Float

    init(box: Int) {
        offset = Float(box) + 0.5
        inverse = 1 / Float(2 * box + 1)
    }

    @inline(__always) func divide(_ sum: UInt32) -> UInt32 {
        let q: Float = (Float(Int32(bitPattern: sum)) + offset) * inverse - 0.5
        return (q + ColorSpans.magic).bitPattern & 0x7f_ffff
    }
}
