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
    /// Sixteen rectangles in one tuple: read by a switch (`subscript`), and worked on in
    /// place through a pointer while a rectangle is added (`add`: read by the switch, the
    /// joins and searches over them cost some 800 instructions an add).
    private var rects: (PixelRect, PixelRect, PixelRect, PixelRect, PixelRect, PixelRect, PixelRect, PixelRect,
                        PixelRect, PixelRect, PixelRect, PixelRect, PixelRect, PixelRect, PixelRect, PixelRect)
        = (.empty, .empty, .empty, .empty, .empty, .empty, .empty, .empty,
           .empty, .empty, .empty, .empty, .empty, .empty, .empty, .empty)
    private(set) var count = 0
    /// The smallest rectangle holding them all.
    private(set) var union = PixelRect.empty

    init() {}

    init(_ rect: PixelRect) {
        add(rect)
    }

    /// The `i`th rectangle (`0..<count`).
    subscript(i: Int) -> PixelRect {
        // A switch, not a pointer: a tuple read through `withUnsafeBytes(of:)` is copied whole
        // (512 bytes) on every read.
        switch i {
        case 0: return rects.0
        case 1: return rects.1
        case 2: return rects.2
        case 3: return rects.3
        case 4: return rects.4
        case 5: return rects.5
        case 6: return rects.6
        case 7: return rects.7
        case 8: return rects.8
        case 9: return rects.9
        case 10: return rects.10
        case 11: return rects.11
        case 12: return rects.12
        case 13: return rects.13
        case 14: return rects.14
        default: return rects.15
        }
    }

    /// Adds `rect`. When all places are taken it joins the kept rectangle it grows least, or
    /// with `pairing` (the pieces of one large paint, `PaintFootprint`), the cheapest pair of
    /// all is joined (`joinCheapestPair`: some 136 unions, against 16).
    mutating func add(_ rect: PixelRect, pairing: Bool = false) {
        guard !rect.isEmpty else { return }
        union = union.union(rect)
        let kept = count
        count = withUnsafeMutablePointer(to: &rects) { tuple in
            tuple.withMemoryRebound(to: PixelRect.self, capacity: Self.capacity) { Self.add(rect, pairing: pairing, to: $0, count: kept) }
        }
    }

    /// `add(rect)` to the `count` rectangles at `kept` (room for `capacity`); returns their new count.
    private static func add(_ rect: PixelRect, pairing: Bool, to kept: UnsafeMutablePointer<PixelRect>, count start: Int) -> Int {
        var count = start
        // A kept rectangle that the new one overlaps (or nearly touches) joins it whenever
        // their union holds no more pixels than the two apart: clearing then never writes
        // the pixels they share twice.
        var joined = rect
        var i = 0
        while i < count {
            let both = kept[i].union(joined)
            if area(both) <= area(kept[i]) + area(joined) {
                joined = both
                count -= 1
                kept[i] = kept[count]
                i = 0
                continue
            }
            i += 1
        }
        if count < capacity {
            kept[count] = joined
            return count + 1
        }
        if pairing {
            joinCheapestPair(with: joined, kept, count: count)
            return count
        }
        var best = 0, bestGrowth = Int.max
        for i in 0..<count {
            let growth = area(kept[i].union(joined)) - area(kept[i])
            if growth < bestGrowth { best = i; bestGrowth = growth }
        }
        kept[best] = kept[best].union(joined)
        return count
    }

    /// Full: of the `count` rectangles at `kept` and `rect`, the two whose union adds the
    /// fewest pixels become one. Joining each new piece of a large outline into the kept one
    /// it grows least let its first pieces take every place and the rest join into a
    /// rectangle spanning its middle; pairs keep neighbouring pieces together wherever they
    /// came from.
    private static func joinCheapestPair(with rect: PixelRect, _ kept: UnsafeMutablePointer<PixelRect>, count: Int) {
        // Index `count` stands for `rect`.
        func piece(_ i: Int) -> PixelRect { i == count ? rect : kept[i] }
        var best = (0, count), bestGrowth = Int.max
        for i in 0..<count {
            let a = kept[i]
            for j in (i + 1)...count {
                let b = piece(j)
                let growth = area(a.union(b)) - area(a) - area(b)
                if growth < bestGrowth { best = (i, j); bestGrowth = growth }
            }
        }
        kept[best.0] = kept[best.0].union(piece(best.1))
        if best.1 != count { kept[best.1] = rect }
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
