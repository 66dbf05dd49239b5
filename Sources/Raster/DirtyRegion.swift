/// The pixels a surface has painted since it was cleared, as a few rectangles: outside them
/// every pixel is transparent, so clearing need visit only them. Sparse content (a ball, a
/// pin and their shadow at opposite corners of the frame) keeps several small rectangles
/// rather than one that spans the frame, and so does a stroke that runs round or across the
/// frame (`PaintFootprint`: its pieces, not its bounding box). At most `capacity` are kept,
/// in place (no allocation); past that a new rectangle joins the one it grows least.
/// Overlapping rectangles are joined when that costs no extra pixels, so that a clear
/// writes each pixel about once.
struct DirtyRegion {
    /// Sixteen: a ring or an outline round the frame keeps its sides apart (with four, the
    /// pieces of its sides joined into rectangles spanning its empty middle).
    static let capacity = 16
    // Sixteen stored rectangles read and written through a switch: a tuple read through
    // `withUnsafeBytes(of:)` is copied whole (512 bytes) on every read.
    private var r0 = PixelRect.empty, r1 = PixelRect.empty, r2 = PixelRect.empty, r3 = PixelRect.empty
    private var r4 = PixelRect.empty, r5 = PixelRect.empty, r6 = PixelRect.empty, r7 = PixelRect.empty
    private var r8 = PixelRect.empty, r9 = PixelRect.empty, r10 = PixelRect.empty, r11 = PixelRect.empty
    private var r12 = PixelRect.empty, r13 = PixelRect.empty, r14 = PixelRect.empty, r15 = PixelRect.empty
    private(set) var count = 0
    /// The smallest rectangle holding them all.
    private(set) var union = PixelRect.empty

    init() {}

    init(_ rect: PixelRect) {
        add(rect)
    }

    subscript(i: Int) -> PixelRect {
        get {
            switch i {
            case 0: return r0
            case 1: return r1
            case 2: return r2
            case 3: return r3
            case 4: return r4
            case 5: return r5
            case 6: return r6
            case 7: return r7
            case 8: return r8
            case 9: return r9
            case 10: return r10
            case 11: return r11
            case 12: return r12
            case 13: return r13
            case 14: return r14
            default: return r15
            }
        }
        set {
            switch i {
            case 0: r0 = newValue
            case 1: r1 = newValue
            case 2: r2 = newValue
            case 3: r3 = newValue
            case 4: r4 = newValue
            case 5: r5 = newValue
            case 6: r6 = newValue
            case 7: r7 = newValue
            case 8: r8 = newValue
            case 9: r9 = newValue
            case 10: r10 = newValue
            case 11: r11 = newValue
            case 12: r12 = newValue
            case 13: r13 = newValue
            case 14: r14 = newValue
            default: r15 = newValue
            }
        }
    }

    /// Adds `rect`. When all places are taken it joins the kept rectangle it grows least, or
    /// with `pairing` (the pieces of one large paint, `PaintFootprint`), the cheapest pair of
    /// all is joined (`joinCheapestPair`: some 136 unions, against 16).
    mutating func add(_ rect: PixelRect, pairing: Bool = false) {
        guard !rect.isEmpty else { return }
        union = union.union(rect)
        // A kept rectangle that the new one overlaps (or nearly touches) joins it whenever
        // their union holds no more pixels than the two apart: clearing then never writes
        // the pixels they share twice.
        var joined = rect
        var i = 0
        while i < count {
            let both = self[i].union(joined)
            if Self.area(both) <= Self.area(self[i]) + Self.area(joined) {
                joined = both
                count -= 1
                self[i] = self[count]
                i = 0
                continue
            }
            i += 1
        }
        if count < Self.capacity {
            self[count] = joined
            count += 1
            return
        }
        if pairing { return joinCheapestPair(with: joined) }
        var best = 0, bestGrowth = Int.max
        for i in 0..<count {
            let growth = Self.area(self[i].union(joined)) - Self.area(self[i])
            if growth < bestGrowth { best = i; bestGrowth = growth }
        }
        self[best] = self[best].union(joined)
    }

    /// Full: of the kept rectangles and `rect`, the two whose union adds the fewest pixels
    /// become one. Joining each new piece of a large outline into the kept one it grows least
    /// let its first pieces take every place and the rest join into a rectangle spanning its
    /// middle; pairs keep neighbouring pieces together wherever they came from.
    private mutating func joinCheapestPair(with rect: PixelRect) {
        // Index `count` stands for `rect`.
        func piece(_ i: Int) -> PixelRect { i == count ? rect : self[i] }
        var best = (0, count), bestGrowth = Int.max
        for i in 0..<count {
            let a = self[i]
            for j in (i + 1)...count {
                let b = piece(j)
                let growth = Self.area(a.union(b)) - Self.area(a) - Self.area(b)
                if growth < bestGrowth { best = (i, j); bestGrowth = growth }
            }
        }
        self[best.0] = self[best.0].union(piece(best.1))
        if best.1 != count { self[best.1] = rect }
    }

    private static func area(_ r: PixelRect) -> Int { r.width * r.height }

    mutating func add(_ other: DirtyRegion) {
        for i in 0..<other.count { add(other[i]) }
    }

    /// The same region cut to `rect`.
    func intersection(_ rect: PixelRect) -> DirtyRegion {
        var result = DirtyRegion()
        for i in 0..<count { result.add(self[i].intersection(rect)) }
        return result
    }
}
