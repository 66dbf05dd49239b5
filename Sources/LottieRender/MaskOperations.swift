import LottieModel
import Raster

extension Raster.Mask {
    /// Multiplies every coverage value by `factor` (0...1), for a mask's opacity.
    mutating func scale(by factor: Double) {
        let f = UInt32(max(0, min(1, factor)) * 256)
        values.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices { buffer[i] = UInt8((UInt32(buffer[i]) * f) >> 8) }
        }
    }
}

/// Masks that combine without a buffer of their own. A mask that adds, subtracts, lightens
/// or takes the difference leaves the masks before it as they are where it is zero: one that
/// is not inverted nor expanded is combined straight from its path's runs into them
/// (`Mask.combine(_:transform:_:scale:pool:)`), and one at zero opacity is zero everywhere
/// and changes nothing at all. `buildMasks` on its reference path (`bounded` false) takes
/// neither shortcut; `BoundedMaskTests` compares the two.
extension LayerCompositor {
    /// How a mask of `mode` combines into the masks before it (`buildMasks`: none adds).
    static func operation(_ mode: MaskMode) -> MaskOperation {
        switch mode {
        case .add, .none: return .add
        case .subtract: return .subtract
        case .intersect: return .intersect
        case .lighten: return .lighten
        case .darken: return .darken
        case .difference: return .difference
        }
    }

    /// Whether the mask, at `frame`, changes nothing of the masks before it: it is at zero
    /// opacity (its coverage scales to zero, inverted or not) and zero leaves them.
    static func changesNothing(_ mask: ModelMask, frame: Double) -> Bool {
        Raster.Mask.keepsValuesUnderZero(operation(mask.mode)) && clamp01(mask.opacity.value(at: frame) / 100) == 0
    }

    /// The scale (`(c · s) >> 8`, 256 for none) with which the mask's path combines straight
    /// into the masks before it, or nil when it needs a buffer of its own (inverted,
    /// expanded, or intersecting or darkening: those change the values outside the path).
    static func directScale(_ mask: ModelMask, expansion: Double, frame: Double) -> UInt32? {
        guard !mask.inverted, !(expansion.isFinite && expansion != 0),
              Raster.Mask.keepsValuesUnderZero(operation(mask.mode)) else { return nil }
        let o = clamp01(mask.opacity.value(at: frame) / 100)
        return o < 1 ? UInt32(o * 256) : 256
    }
}
