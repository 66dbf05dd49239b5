import Glibc
import LottieModel
import Raster

extension ModelTransform {
    /// The matrix of this transform at `frame`: points are moved by -anchor, scaled, skewed,
    /// rotated, then moved to the position (the After Effects order).
    func matrix(at frame: Double, autoOrient: Bool = false) -> Matrix {
        withUnsafePointer(to: self) { Self.matrix(of: $0, at: frame, autoOrient: autoOrient) }
    }

    /// `matrix(at:autoOrient:)` of the transform at `t`, read in place: called as a method on
    /// a transform inside an array's layer or a shape item, the whole transform (its seven
    /// animated properties) was copied and destroyed again, a retain and release for each
    /// of their keyframe arrays and providers, for every layer and group of every frame.
    static func matrix(of t: UnsafePointer<ModelTransform>, at frame: Double, autoOrient: Bool = false) -> Matrix {
        let a = t.pointee.anchor.value(at: frame)
        let p = t.pointee.position.value(at: frame)
        let s = t.pointee.scale.value(at: frame)
        var r = t.pointee.rotation.value(at: frame)
        if autoOrient, let tangent = t.pointee.position.tangentAngle(at: frame) { r += tangent / degreesToRadians }
        var m = Matrix.translation(-a.x, -a.y).concatenating(.scale(s.x / 100, s.y / 100))
        let sk = t.pointee.skew.value(at: frame)
        if sk != 0 {
            let axis = t.pointee.skewAxis.value(at: frame) * degreesToRadians
            // Shear along the skew axis: rotate the axis onto x, shear, rotate back.
            let shear = Matrix(a: 1, b: 0, c: tan(-sk * degreesToRadians), d: 1, tx: 0, ty: 0)
            m = m.concatenating(.rotation(radians: axis)).concatenating(shear).concatenating(.rotation(radians: -axis))
        }
        if r != 0 { m = m.concatenating(.rotation(radians: r * degreesToRadians)) }
        return m.concatenating(.translation(p.x, p.y))
    }

    /// Opacity at `frame`, 0...1.
    func opacityFraction(at frame: Double) -> Double {
        clamp01(opacity.value(at: frame) / 100)
    }

    /// `opacityFraction(at:)` of the transform at `t`, read in place.
    static func opacityFraction(of t: UnsafePointer<ModelTransform>, at frame: Double) -> Double {
        clamp01(t.pointee.opacity.value(at: frame) / 100)
    }
}

extension PositionProperty {
    /// The direction of motion at `frame` in radians, for auto-orient; nil when not moving.
    func tangentAngle(at frame: Double) -> Double? {
        let dt = 0.01
        let a = value(at: frame - dt), b = value(at: frame + dt)
        let dx = b.x - a.x, dy = b.y - a.y
        guard dx * dx + dy * dy > 1e-12 else { return nil }
        return atan2(dy, dx)
    }
}
