/// The pixels a surface has painted since it was cleared, as a few rectangles: outside them
/// every pixel is transparent, so clearing need visit only them. Sparse content (a ball, a
/// pin and their shadow at opposite corners of the frame) keeps several small rectangles
/// rather than one that spans the frame. At most `capacity` are kept, in place (no
/// allocation); past that a new rectangle joins the one it grows least.
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
        for i in 0..<count where self[i].contains(rect) { return }
        if count < Self.capacity {
            self[count] = rect
            count += 1
            return
        }
        var best = 0, bestGrowth = Int.max
        for i in 0..<count {
            let grown = self[i].union(rect)
            let growth = grown.width * grown.height - self[i].width * self[i].height
            if growth < bestGrowth { best = i; bestGrowth = growth }
        }
        self[best] = self[best].union(rect)
    }

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
