/// The blur of a grey surface: one channel instead of four.
///
/// A shadow or glow is cast as grey (every channel of a pixel equal to its alpha) and tinted
/// only after its blur, so blurring its four channels does the same sum four times. `blurGrey`
/// blurs the alpha alone, in a plane of one value per pixel over just the area the blur can
/// reach, with the passes, rounding and growth of `blur(sigmaX:sigmaY:)`: on a grey surface
/// the pixels come out the same to the bit (a test compares them).
extension Surface {
    /// `blur(sigmaX:sigmaY:pool:)` of a surface whose pixels are grey (each channel equal to
    /// alpha): only alpha is read, and each pixel is written back as grey.
    public mutating func blurGrey(sigmaX: Double, sigmaY: Double, pool: BufferPool? = nil) {
        let across = Self.boxHalfWidths(sigma: sigmaX), down = Self.boxHalfWidths(sigma: sigmaY)
        var active = painted.intersection(bounds)
        guard across.contains(where: { $0 > 0 }) || down.contains(where: { $0 > 0 }), !active.isEmpty else { return }
        // Every pass stays inside the painted area grown by all of them.
        let (gx, gy) = (across.reduce(0, +), down.reduce(0, +))
        let area = PixelRect(x0: active.x0 - gx, y0: active.y0 - gy, x1: active.x1 + gx, y1: active.y1 + gy).intersection(bounds)
        var plane = GreyPlane(area: area, pool: pool)
        plane.load(self, active)
        for pass in 0..<max(across.count, down.count) {
            if pass < across.count, across[pass] > 0 { active = plane.horizontal(active, box: across[pass]) }
            if pass < down.count, down[pass] > 0 { active = plane.vertical(active, box: down[pass]) }
        }
        plane.store(into: &self, active)
        plane.recycle(into: pool)
        markPainted(active)
    }
}

/// One value (0...255) per pixel of `area`, and a second buffer the vertical passes write into.
struct GreyPlane {
    let area: PixelRect
    var values: [UInt32]
    var spare: [UInt32]
    /// One line (horizontal passes) or the column sums (vertical ones).
    var scratch: [UInt32]

    init(area: PixelRect, pool: BufferPool?) {
        self.area = area
        let count = area.width * area.height
        func buffer(_ n: Int) -> [UInt32] { pool?.pixels(count: n, value: 0) ?? [UInt32](repeating: 0, count: n) }
        values = buffer(count)
        spare = buffer(count)
        scratch = buffer(max(area.width, 1))
    }

    mutating func recycle(into pool: BufferPool?) {
        guard let pool else { return }
        pool.recycle(&values)
        pool.recycle(&spare)
        pool.recycle(&scratch)
    }

    /// The alpha of `surface` over `rect` (within `area`); the rest of the plane is zero.
    mutating func load(_ surface: Surface, _ rect: PixelRect) {
        let (aw, sw) = (area.width, surface.width)
        values.withUnsafeMutableBufferPointer { dst in
            surface.pixels.withUnsafeBufferPointer { src in
                for y in rect.y0..<rect.y1 {
                    let from = src.baseAddress! + (y - surface.originY) * sw + (rect.x0 - surface.originX)
                    let to = dst.baseAddress! + (y - area.y0) * aw + (rect.x0 - area.x0)
                    for i in 0..<rect.width { to[i] = from[i] >> 24 }
                }
            }
        }
    }

    /// Writes the plane over `rect` back into `surface` as grey pixels.
    func store(into surface: inout Surface, _ rect: PixelRect) {
        let (aw, sw, ox, oy) = (area.width, surface.width, surface.originX, surface.originY)
        values.withUnsafeBufferPointer { src in
            surface.pixels.withUnsafeMutableBufferPointer { dst in
                for y in rect.y0..<rect.y1 {
                    let from = src.baseAddress! + (y - area.y0) * aw + (rect.x0 - area.x0)
                    let to = dst.baseAddress! + (y - oy) * sw + (rect.x0 - ox)
                    for i in 0..<rect.width { to[i] = from[i] &* 0x0101_0101 }
                }
            }
        }
    }

    /// round(sum / window), as `Surface.blur` divides (exact for sums below 2²⁰).
    @inline(__always) static func divide(_ sum: UInt32, _ half: UInt32, _ magic: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (UInt64(sum &+ half) &* magic) >> 32)
    }

    static func magic(_ box: Int) -> UInt64 {
        let window = UInt64(2 * box + 1)
        return ((UInt64(1) << 32) + window - 1) / window
    }

    /// One horizontal box pass over the rows of `active`; returns what may now be non-zero.
    mutating func horizontal(_ active: PixelRect, box: Int) -> PixelRect {
        let out = PixelRect(x0: active.x0 - box, y0: active.y0, x1: active.x1 + box, y1: active.y1).intersection(area)
        let (aw, length, half, magic) = (area.width, out.width, UInt32(box), Self.magic(box))
        let area = self.area
        values.withUnsafeMutableBufferPointer { px in
            scratch.withUnsafeMutableBufferPointer { line in
                let copy = line.baseAddress!
                for y in out.y0..<out.y1 {
                    let row = px.baseAddress! + (y - area.y0) * aw + (out.x0 - area.x0)
                    copy.update(from: row, count: length)
                    var sum: UInt32 = 0
                    for i in 0..<min(box + 1, length) { sum &+= copy[i] }
                    for i in 0..<length {
                        row[i] = Self.divide(sum, half, magic)
                        if i + box + 1 < length { sum &+= copy[i + box + 1] }
                        if i >= box { sum &-= copy[i - box] }
                    }
                }
            }
        }
        return out
    }

    /// One vertical box pass over the columns of `active`, row by row with a running sum
    /// per column, into the spare buffer, which then becomes the plane. (Every pass writes
    /// all that the spare buffer held non-zero before, as the active area only grows.)
    mutating func vertical(_ active: PixelRect, box: Int) -> PixelRect {
        let out = PixelRect(x0: active.x0, y0: active.y0 - box, x1: active.x1, y1: active.y1 + box).intersection(area)
        let (aw, count, divider) = (area.width, out.width, WindowDivider(box: box))
        let (first, end, x0) = (active.y0 - area.y0, active.y1 - area.y0, out.x0 - area.x0)
        let top = out.y0 - area.y0
        values.withUnsafeBufferPointer { px in
            spare.withUnsafeMutableBufferPointer { dst in
                scratch.withUnsafeMutableBufferPointer { sums in
                    let s = sums.baseAddress!
                    s.update(repeating: 0, count: count)
                    @inline(__always) func add(_ y: Int) {
                        guard y >= first, y < end else { return }
                        let row = px.baseAddress! + y * aw + x0
                        for i in 0..<count { s[i] &+= row[i] }
                    }
                    @inline(__always) func remove(_ y: Int) {
                        guard y >= first, y < end else { return }
                        let row = px.baseAddress! + y * aw + x0
                        for i in 0..<count { s[i] &-= row[i] }
                    }
                    for y in top - box...top + box { add(y) }
                    for y in top..<out.y1 - area.y0 {
                        let row = dst.baseAddress! + y * aw + x0
                        for i in 0..<count { row[i] = divider.divide(s[i]) }
                        add(y + box + 1)
                        remove(y - box)
                    }
                }
            }
        }
        swap(&values, &spare)
        return out
    }
}
