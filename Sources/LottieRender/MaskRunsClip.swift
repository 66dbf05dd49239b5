import LottieModel
import Raster

/// A layer drawn through its masks directly (`MaskClip`) whose masks are one path with no
/// expansion (most masked layers: one add mask, an inverted one, one below full opacity)
/// gets that mask as runs of coverage (`MaskRuns`) rather than as a buffer over the
/// masked area: no pass that sets the buffer, none that inverts or scales it, and the paint
/// meets the mask run against run. The same values as `buildMasks` gives for that mask
/// (its first mask is the combined coverage itself), so the same pixels as painting
/// through that buffer (`MaskRunsClipTests`); `maskRunsArea = Int.max` is the reference.
///
/// Only over a large area: the buffer's passes cost per pixel, the runs per run, and a run
/// of the mask is met by every run of the paint. Measured (callgrind, instructions a frame):
/// on two masked animations at 1920x1080 runs cut 8 % and 13 % of a frame, but at 512x512,
/// where masked areas are a tenth as large, they cost 10–11 % more: below `runsArea` pixels
/// the buffer is kept.
extension LayerCompositor {
    /// The masked area, in pixels, from which the runs pay.
    static let runsArea = 1 << 18

    /// The masks over `area` as runs, or nil when they are not one mask without expansion,
    /// or the area is below `runsArea`.
    static func maskRuns(_ masks: [ModelMask], frame: Double, world: Matrix, area: PixelRect, pool: BufferPool?,
                         minimumArea: Int = runsArea) -> MaskRuns? {
        guard area.width * area.height >= minimumArea, masks.count == 1, let mask = masks.first, mask.mode != .none else { return nil }
        let expansion = mask.expansion.value(at: frame)
        // `buildMasks` grows or shrinks a mask only by a finite, non-zero expansion.
        guard !(expansion.isFinite && expansion != 0) else { return nil }
        let map = MaskRuns.ValueMap(inverted: mask.inverted, opacity: clamp01(mask.opacity.value(at: frame) / 100),
                                    subtracts: mask.mode == .subtract)
        return MaskRuns(path: ShapeGeometry.path(mask.path.value(at: frame)), transform: world, rect: area, map: map, pool: pool)
    }
}
