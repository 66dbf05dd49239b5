/// A whole-pixel rectangle, x0..<x1 × y0..<y1.
public struct PixelRect: Equatable, Sendable {
    public var x0: Int, y0: Int, x1: Int, y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = max(x0, x1); self.y1 = max(y0, y1)
    }

    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    public func intersection(_ other: PixelRect) -> PixelRect {
        PixelRect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }

    public func contains(x: Int, y: Int) -> Bool { x >= x0 && x < x1 && y >= y0 && y < y1 }
}

/// Where drawing may land: a rectangle, refined by a coverage mask when the region is not
/// a rectangle. Most clips (an animation's or a precomp's bounds) are axis-aligned
/// rectangles and cost nothing per pixel.
public struct Clip: Sendable {
    public var rect: PixelRect
    public var mask: Mask?

    public init(rect: PixelRect, mask: Mask? = nil) {
        self.rect = rect
        self.mask = mask
    }

    public func intersection(_ other: Clip) -> Clip {
        var result = Clip(rect: rect.intersection(other.rect), mask: mask)
        if let m = other.mask {
            if result.mask == nil { result.mask = m } else { result.mask!.combine(m, .intersect) }
        }
        return result
    }

    /// The clip as a full coverage mask of the given size.
    public func coverage(width: Int, height: Int) -> Mask {
        var result = Mask(width: width, height: height)
        let r = rect.intersection(PixelRect(x0: 0, y0: 0, x1: width, y1: height))
        if !r.isEmpty {
            for y in r.y0..<r.y1 {
                for x in r.x0..<r.x1 { result.values[y * width + x] = 255 }
            }
        }
        if let mask, mask.width == width, mask.height == height { result.combine(mask, .intersect) }
        return result
    }
}
