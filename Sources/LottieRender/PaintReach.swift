import Raster

/// Where a fill or stroke can put pixels, found from its path's bounds without outlining or
/// transforming the path: each band of a threaded frame draws every paint of the frame, and a
/// paint that lies wholly in other bands' rows cost a band its stroke outline, its path in
/// device space, its coverage key and slot look-up and its edges, only to paint nothing.
/// Skipping it changes no pixel; the reach is generous so that it never skips a paint that
/// could touch the target (the rasterizer clips what it paints to the target anyway).
enum PaintReach {
    /// The device pixels outside which the paint `kind` of a path bounded by `bounds` (in
    /// its own space) paints nothing when drawn through `toDevice`; nil when that is not
    /// known (a bound that is not finite).
    static func pixels(of bounds: Rect, kind: StyleKind, toDevice: Matrix) -> PixelRect? {
        pixels(of: bounds, stroke: stroke(of: kind), toDevice: toDevice)
    }

    /// The width and miter limit of a stroke (nil: a fill), what `pixels` reads of a paint:
    /// read where the paint is, so that the paint is not copied to be passed on.
    @inline(__always)
    static func stroke(of kind: StyleKind) -> (width: Double, miterLimit: Double)? {
        if case .stroke(_, let style) = kind { return (style.width, style.miterLimit) }
        return nil
    }

    /// `pixels(of:kind:toDevice:)` of a paint that is a stroke of `stroke`'s width and miter
    /// limit, or a fill (nil).
    static func pixels(of bounds: Rect, stroke: (width: Double, miterLimit: Double)?, toDevice: Matrix) -> PixelRect? {
        // The corners' extremes kept as four numbers: made as arrays of corners and of their
        // coordinates, each paint of each frame allocated and freed four arrays here.
        let c0 = toDevice.apply(Point(bounds.x, bounds.y)), c1 = toDevice.apply(Point(bounds.maxX, bounds.y))
        let c2 = toDevice.apply(Point(bounds.x, bounds.maxY)), c3 = toDevice.apply(Point(bounds.maxX, bounds.maxY))
        // How far a stroke's outline reaches out of its path: half its width, stretched by a
        // miter up to its limit or a square cap's corner, times the most the matrix can
        // stretch a length (the root of its squared coefficients bounds that).
        var grow = 0.0
        if let stroke {
            let stretch = (toDevice.a * toDevice.a + toDevice.b * toDevice.b + toDevice.c * toDevice.c + toDevice.d * toDevice.d).squareRoot()
            grow = stroke.width / 2 * max(stroke.miterLimit, 2) * stretch
        }
        let minX = Self.least(c0.x, c1.x, c2.x, c3.x), maxX = Self.most(c0.x, c1.x, c2.x, c3.x)
        let minY = Self.least(c0.y, c1.y, c2.y, c3.y), maxY = Self.most(c0.y, c1.y, c2.y, c3.y)
        func usable(_ v: Double) -> Bool { v.isFinite && abs(v) < 1e8 }
        guard usable(minX - grow), usable(maxX + grow), usable(minY - grow), usable(maxY + grow) else { return nil }
        // Anti-aliased edges touch the pixels around them.
        let rect = Rect(x: minX - grow, y: minY - grow, width: maxX - minX + 2 * grow, height: maxY - minY + 2 * grow)
        return PixelRect(enclosing: rect).grown(by: 2)
    }

    /// The least of four numbers as `Sequence.min()` finds it (a NaN is kept only where it
    /// comes first: it compares false with everything). A NaN makes the reach unknown either way.
    @inline(__always)
    static func least(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
        var m = a
        if b < m { m = b }
        if c < m { m = c }
        if d < m { m = d }
        return m
    }

    /// The greatest of four numbers as `Sequence.max()` finds it.
    @inline(__always)
    static func most(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
        var m = a
        if m < b { m = b }
        if m < c { m = c }
        if m < d { m = d }
        return m
    }

    /// Whether a paint whose reach is `reach` (nil: unknown) may change pixels of `surface`
    /// within `clip`.
    static func mayPaint(_ reach: PixelRect?, surface: Surface, clip: Clip?) -> Bool {
        guard let reach else { return true }
        var target = surface.bounds
        if let clip { target = target.intersection(clip.rect) }
        return !reach.intersection(target).isEmpty
    }
}
