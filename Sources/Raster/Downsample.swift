/// `image` reduced by the largest whole factor in each axis that keeps it at least
/// `width` x `height` pixels (so between once and twice that size), each new pixel the mean
/// of the block of pixels it replaces (a box filter over premultiplied colour; blocks at the
/// right and bottom edges may be smaller). The image itself when no axis can be reduced.
///
/// An image that grows on screen is reduced again each time its drawn size doubles, so this
/// runs during playback: `DownsampleBlocks.reduce` sums two channels per 64-bit add, and
/// `downsampledReference` (the plain per-channel loop, which a test compares it with) is the
/// reference.
public func downsampled(_ image: Image, toFit width: Int, _ height: Int) -> Image {
    let fx = max(1, image.width / max(1, width)), fy = max(1, image.height / max(1, height))
    guard fx > 1 || fy > 1 else { return image }
    // Each 32-bit lane holds a sum of up to 2²⁴ channel values of at most 255.
    guard fx * fy <= 1 << 24, image.pixels.count == image.width * image.height else {
        return downsampledReference(image, toFit: width, height)
    }
    return DownsampleBlocks.reduce(image, fx: fx, fy: fy)
}

/// `downsampled` channel by channel: the reference path.
public func downsampledReference(_ image: Image, toFit width: Int, _ height: Int) -> Image {
    let fx = max(1, image.width / max(1, width)), fy = max(1, image.height / max(1, height))
    guard fx > 1 || fy > 1 else { return image }
    let outWidth = (image.width + fx - 1) / fx, outHeight = (image.height + fy - 1) / fy
    var out = [UInt32](repeating: 0, count: outWidth * outHeight)
    // Channel sums of one row of blocks: 4 per output pixel.
    var sums = [Int](repeating: 0, count: outWidth * 4)
    for outY in 0..<outHeight {
        for i in sums.indices { sums[i] = 0 }
        let y0 = outY * fy, y1 = min(image.height, y0 + fy)
        for y in y0..<y1 {
            let row = y * image.width
            for x in 0..<image.width {
                let p = image.pixels[row + x], s = (x / fx) * 4
                sums[s] += Int(p >> 24); sums[s + 1] += Int((p >> 16) & 0xFF)
                sums[s + 2] += Int((p >> 8) & 0xFF); sums[s + 3] += Int(p & 0xFF)
            }
        }
        for outX in 0..<outWidth {
            let count = (min(image.width, outX * fx + fx) - outX * fx) * (y1 - y0)
            let s = outX * 4
            func mean(_ i: Int) -> UInt32 { UInt32((sums[s + i] + count / 2) / count) }
            out[outY * outWidth + outX] = mean(0) << 24 | mean(1) << 16 | mean(2) << 8 | mean(3)
        }
    }
    return Image(width: outWidth, height: outHeight, pixels: out)
}

/// The block sums of `downsampled` with the four channels in two 64-bit words of two 32-bit
/// lanes each (bits 0-7 and 16-23 of a pixel in one, 8-15 and 24-31 in the other): half the
/// adds, no division per pixel, no bounds checks. The same sums and rounding as the reference.
enum DownsampleBlocks {
    static func reduce(_ image: Image, fx: Int, fy: Int) -> Image {
        let w = image.width, h = image.height
        let outWidth = (w + fx - 1) / fx, outHeight = (h + fy - 1) / fy
        var out = [UInt32](repeating: 0, count: outWidth * outHeight)
        var low = [UInt64](repeating: 0, count: outWidth), high = [UInt64](repeating: 0, count: outWidth)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                low.withUnsafeMutableBufferPointer { low in
                    high.withUnsafeMutableBufferPointer { high in
                        for outY in 0..<outHeight {
                            let y0 = outY * fy, y1 = min(h, y0 + fy)
                            sumBlocks(src.baseAddress! + y0 * w, width: w, rows: y1 - y0, fx: fx, low: low.baseAddress!, high: high.baseAddress!)
                            storeMeans(dst.baseAddress! + outY * outWidth, width: w, rows: y1 - y0, fx: fx, count: outWidth,
                                       low: low.baseAddress!, high: high.baseAddress!)
                        }
                    }
                }
            }
        }
        return Image(width: outWidth, height: outHeight, pixels: out)
    }

    /// Sums `rows` rows of `width` pixels from `row` into one low and one high word per block.
    @inline(__always)
    static func sumBlocks(_ row: UnsafePointer<UInt32>, width: Int, rows: Int, fx: Int,
                          low: UnsafeMutablePointer<UInt64>, high: UnsafeMutablePointer<UInt64>) {
        let blocks = (width + fx - 1) / fx
        for b in 0..<blocks { low[b] = 0; high[b] = 0 }
        for r in 0..<rows {
            let line = row + r * width
            var x = 0, b = 0
            while x < width {
                let end = min(width, x + fx)
                var lo: UInt64 = 0, hi: UInt64 = 0
                while x < end {
                    let p = line[x]
                    lo &+= UInt64(p & 0x0000_00FF) | (UInt64(p & 0x00FF_0000) << 16)
                    hi &+= UInt64((p >> 8) & 0x0000_00FF) | (UInt64((p >> 8) & 0x00FF_0000) << 16)
                    x += 1
                }
                low[b] &+= lo; high[b] &+= hi
                b += 1
            }
        }
    }

    /// Each block's rounded mean per channel, packed as the reference packs it.
    @inline(__always)
    static func storeMeans(_ out: UnsafeMutablePointer<UInt32>, width: Int, rows: Int, fx: Int, count: Int,
                           low: UnsafeMutablePointer<UInt64>, high: UnsafeMutablePointer<UInt64>) {
        for b in 0..<count {
            let n = UInt64((min(width, b * fx + fx) - b * fx) * rows), half = n / 2
            @inline(__always) func mean(_ word: UInt64, _ shift: UInt64) -> UInt32 {
                UInt32(truncatingIfNeeded: (((word >> shift) & 0xFFFF_FFFF) + half) / n)
            }
            out[b] = mean(high[b], 32) << 24 | mean(low[b], 32) << 16 | mean(high[b], 0) << 8 | mean(low[b], 0)
        }
    }
}
