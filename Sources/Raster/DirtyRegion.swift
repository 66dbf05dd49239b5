/// The pixels a surface has painted since it was cleared, as a few rectangles: outside them
/// every pixel is transparent, so clearing need visit only them. Sparse content (a ball, a
/// pin and their shadow at opposite corners of the frame) keeps several small rectangles
/// rather than one that spans the frame. At most `capacity` are kept, in place (no
/// allocation); past that a new rectangle joins the one it grows least. Overlapping
/// rectangles are joined when that costs no extra pixels, so that a clear writes each pixel
/// about once.
struct DirtyRegion {
    static let capacity = 4
    private var r0 = PixelRect.empty, r1 = PixelRect.empty, r2 = PixelRect.empty, r3 = PixelRect.empty
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
            default: return r3
            }
        }
        set {
            switch i {
            case 0: r0 = newValue
            case 1: r1 = newValue
            case 2: r2 = newValue
            default: r3 = newValue
            }
        }
    }

    mutating func add(_ rect: PixelRect) {
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
        var best = 0, bestGrowth = Int.max
        for i in 0..<count {
            let growth = Self.area(self[i].union(joined)) - Self.area(self[i])
            if growth < bestGrowth { best = i; bestGrowth = growth }
        }
        self[best] = self[best].union(joined)
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
