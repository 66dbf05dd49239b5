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
        let corners = [Point(bounds.x, bounds.y), Point(bounds.maxX, bounds.y), Point(bounds.x, bounds.maxY),
                       Point(bounds.maxX, bounds.maxY)].map(toDevice.apply)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        // How far a stroke's outline reaches out of its path: half its width, stretched by a
        // miter up to its limit or a square cap's corner, times the most the matrix can
        // stretch a length (the root of its squared coefficients bounds that).
        var grow = 0.0
        if case .stroke(_, let style) = kind {
            let stretch = (toDevice.a * toDevice.a + toDevice.b * toDevice.b + toDevice.c * toDevice.c + toDevice.d * toDevice.d).squareRoot()
            grow = style.width / 2 * max(style.miterLimit, 2) * stretch
        }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
              [minX - grow, maxX + grow, minY - grow, maxY + grow].allSatisfy({ $0.isFinite && abs($0) < 1e8 }) else { return nil }
        // Anti-aliased edges touch the pixels around them.
        let rect = Rect(x: minX - grow, y: minY - grow, width: maxX - minX + 2 * grow, height: maxY - minY + 2 * grow)
        return PixelRect(enclosing: rect).grown(by: 2)
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
