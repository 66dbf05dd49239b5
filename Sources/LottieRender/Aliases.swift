import LottieModel
import Raster

// Both the model and the raster engine have a Transform, a Mask and a BlendMode; inside the
// renderer the raster ones are the matrices and buffers, the model ones are what the file says.
typealias Matrix = Raster.Transform
typealias ModelTransform = LottieModel.Transform
typealias CoverageMask = Raster.Mask
typealias ModelMask = LottieModel.Mask
typealias RasterBlend = Raster.BlendMode
typealias ModelBlend = LottieModel.BlendMode
typealias RasterPath = Raster.Path

extension Vec2 {
    var point: Point { Point(x, y) }
}

extension RGBA {
    var color: Color { Color(r: clamp01(r), g: clamp01(g), b: clamp01(b), a: clamp01(a)) }
}

@inline(__always) func clamp01(_ v: Double) -> Double {
    v.isNaN ? 0 : min(1, max(0, v))
}

let degreesToRadians = Double.pi / 180
