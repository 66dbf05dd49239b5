/// `image` reduced by the largest whole factor in each axis that keeps it at least
/// `width` x `height` pixels (so between once and twice that size), each new pixel the mean
/// of the block of pixels it replaces (a box filter over premultiplied colour; blocks at the
/// right and bottom edges may be smaller). The image itself when no axis can be reduced.
public func downsampled(_ image: Image, toFit width: Int, _ height: Int) -> Image {
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
