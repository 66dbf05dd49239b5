import Raster

/// Whether a transformed rectangle covers a rectangle of device pixels whole, so that
/// clipping to it there changes nothing and its coverage mask need not be made.
enum RectangleCover {
    /// How far inside the rectangle's edges every corner of the target must lie, in device
    /// pixels: pixels that only touch an edge keep their full coverage despite rounding.
    static let margin = 1.0 / 64

    /// True when the rectangle (0, 0, width, height), mapped by `matrix`, holds every pixel of
    /// `target`. The rectangle is convex, so it holds the target when it holds the target's
    /// four corners (each pushed `margin` outwards), which is tested in the rectangle's own
    /// coordinates through the inverse transform.
    static func holds(width: Double, height: Double, matrix: Transform, target: PixelRect) -> Bool {
        guard !target.isEmpty, let inverse = matrix.inverted(), inverse.isFinite else { return false }
        let x0 = Double(target.x0) - margin, y0 = Double(target.y0) - margin
        let x1 = Double(target.x1) + margin, y1 = Double(target.y1) + margin
        for corner in [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)] {
            let p = inverse.apply(corner)
            guard p.x >= 0, p.x <= width, p.y >= 0, p.y <= height else { return false }
        }
        return true
    }
}
