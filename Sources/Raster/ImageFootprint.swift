/// How an image sample weighs its two neighbours along each source axis: the mean of the
/// source over the device pixel's footprint (area sampling), for an image drawn larger than
/// its pixels.
///
/// Sampling an enlarged image at the pixel centre and mixing the two nearest source pixels
/// by distance (bilinear) smears every edge over one *source* pixel, however large that is.
/// Averaging the source over the device pixel's own footprint keeps each source pixel a
/// square with an anti-aliased border one *device* pixel wide, which is how Core Graphics
/// (and so lottie-ios) draws enlarged bitmaps. When a device pixel covers less than one
/// source pixel (a source pixel `1/fw` device pixels wide), it overlaps at most the two
/// neighbours bilinear sampling mixes, and the share of the second is
/// `clamp(1/2 + (f - 1/2)/fw, 0, 1)` with `f` the bilinear fraction: the same taps with a
/// steeper weight. At `fw` = 1 this is bilinear's own weight; an image drawn at its size or
/// smaller (where mip levels keep `fw` below 2) keeps bilinear weights.
///
/// A rotated image's footprint is measured by its extent along each source axis, so the
/// weights change continuously as it starts to turn.
public struct ImageFootprint: Sendable, Equatable {
    /// The steepness along each source axis, 1/fw in 16.16 fixed point (65536 = bilinear).
    let steepX: Int
    let steepY: Int

    public static let bilinear = ImageFootprint(steepX: 1 << 16, steepY: 1 << 16)

    init(steepX: Int, steepY: Int) {
        self.steepX = steepX
        self.steepY = steepY
    }

    /// The footprint of one device pixel through `inverse` (device pixels to image pixels).
    public init(_ inverse: Transform) {
        self.init(steepX: Self.steepness(abs(inverse.a) + abs(inverse.c)),
                  steepY: Self.steepness(abs(inverse.b) + abs(inverse.d)))
    }

    /// 1/width in 16.16 for a footprint `width` source pixels wide, at least 1 (bilinear),
    /// at most 2¹⁴ (an image enlarged more than that draws hard-edged squares either way).
    static func steepness(_ width: Double) -> Int {
        guard width.isFinite, width > 0 else { return 1 << 16 }
        guard width < 1 else { return 1 << 16 }
        return Int(min(1 / width, Double(1 << 14)) * 65536)
    }

    /// The weight (0...256) of the second of the two neighbours for a 32.32 position.
    @inline(__always) func weightX(_ position: Int) -> UInt32 { Self.weight(position, steepX) }
    @inline(__always) func weightY(_ position: Int) -> UInt32 { Self.weight(position, steepY) }

    @inline(__always) static func weight(_ position: Int, _ steep: Int) -> UInt32 {
        let f = (position >> 16) & 0xffff  // the fraction in 16 bits
        if steep == 1 << 16 { return UInt32(truncatingIfNeeded: f >> 8) }
        // 1/2 + (f - 1/2)·steep, in 16 bits, clamped to 0...1, then rounded to 0...256.
        let t = 32768 + (((f - 32768) * steep) >> 16)
        return UInt32(truncatingIfNeeded: (min(max(t, 0), 65536) + 128) >> 8)
    }
}
