/// A whole-pixel rectangle, x0..<x1 × y0..<y1.
public struct PixelRect: Equatable, Sendable {
    public var x0: Int, y0: Int, x1: Int, y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = max(x0, x1); self.y1 = max(y0, y1)
    }

    public static let empty = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)

    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    public var width: Int { x1 - x0 }
    public var height: Int { y1 - y0 }

    public func intersection(_ other: PixelRect) -> PixelRect {
        PixelRect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }

    /// The smallest rectangle holding both (an empty one adds nothing).
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return PixelRect(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }

    /// Grown by `n` pixels on every side (an empty rectangle stays empty).
    public func grown(by n: Int) -> PixelRect {
        isEmpty || n <= 0 ? self : PixelRect(x0: x0 - n, y0: y0 - n, x1: x1 + n, y1: y1 + n)
    }

    public func contains(x: Int, y: Int) -> Bool { x >= x0 && x < x1 && y >= y0 && y < y1 }

    public func contains(_ other: PixelRect) -> Bool {
        other.isEmpty || (other.x0 >= x0 && other.y0 >= y0 && other.x1 <= x1 && other.y1 <= y1)
    }

    /// The pixels a device-space rectangle touches, clamped to a sane range.
    public init(enclosing r: Rect) {
        func clamped(_ v: Double) -> Int { v.isNaN ? 0 : Int(max(-1e8, min(1e8, v))) }
        self.init(x0: clamped(r.x.rounded(.down)), y0: clamped(r.y.rounded(.down)),
                  x1: clamped(r.maxX.rounded(.up)), y1: clamped(r.maxY.rounded(.up)))
    }
}

/// Where drawing may land: a rectangle, refined by a coverage mask when the region is not
/// a rectangle. Most clips (an animation's or a precomp's bounds) are axis-aligned
/// rectangles and cost nothing per pixel.
public struct Clip: Sendable {
    public var rect: PixelRect
    /// Coverage in device pixels; outside its own rectangle nothing is covered.
    public var mask: Mask?
    /// A mask told as runs (`MaskRuns`), on top of `mask`; outside its rectangle nothing is
    /// covered. It does not narrow where a paint's coverage is made (`Surface.drawingLimit`),
    /// so that a still shape under a moving mask keeps its coverage from frame to frame.
    public var runs: MaskRuns?

    public init(rect: PixelRect, mask: Mask? = nil) {
        self.rect = rect
        self.mask = mask
    }

    public func intersection(_ other: Clip) -> Clip {
        var result = Clip(rect: rect.intersection(other.rect), mask: bufferMask())
        if let m = other.bufferMask() {
            if result.mask == nil { result.mask = m } else { result.mask!.combine(m, .intersect) }
        }
        return result
    }

    /// The clip as coverage over the device pixels of `area`.
    public func coverage(in area: PixelRect, pool: BufferPool? = nil) -> Mask {
        var result = Mask(rect: area, value: 0, pool: pool)
        let r = rect.intersection(area)
        if !r.isEmpty {
            result.values.withUnsafeMutableBufferPointer { v in
                for y in r.y0..<r.y1 {
                    (v.baseAddress! + (y - area.y0) * area.width + (r.x0 - area.x0)).update(repeating: 255, count: r.width)
                }
            }
        }
        if let mask = bufferMask() { result.combine(mask, .intersect) }
        return result
    }

    /// The clip as a full coverage mask of the given size.
    public func coverage(width: Int, height: Int) -> Mask {
        coverage(in: PixelRect(x0: 0, y0: 0, x1: width, y1: height))
    }
}
