@testable import Raster

extension Path {
    /// The ellipse inscribed in the rectangle at (`x`, `y`) of size `w` by `h`: the shape the
    /// coverage-slot and device-path tests paint.
    static func ellipse(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Path {
        var p = Path()
        p.addEllipse(in: Rect(x: x, y: y, width: w, height: h))
        return p
    }
}
