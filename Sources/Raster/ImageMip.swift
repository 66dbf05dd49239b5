extension Image {
    /// Half the size each way (rounded up), each pixel the mean of the 2x2 block it covers;
    /// the pixels are premultiplied, so transparent ones weigh nothing in the colour. An odd
    /// last row or column is averaged with itself.
    public func halved() -> Image {
        guard width > 1 || height > 1 else { return self }
        let w = (width + 1) / 2, h = (height + 1) / 2
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            let r0 = 2 * y * width, r1 = min(2 * y + 1, height - 1) * width
            for x in 0..<w {
                let x0 = 2 * x, x1 = min(2 * x + 1, width - 1)
                let p0 = pixels[r0 + x0], p1 = pixels[r0 + x1], p2 = pixels[r1 + x0], p3 = pixels[r1 + x1]
                out[y * w + x] = Self.meanOfFour(p0, p1, p2, p3)
            }
        }
        return Image(width: w, height: h, pixels: out)
    }

    /// Each channel's four values summed side by side: the 0x00FF00FF lanes leave 8 spare
    /// bits above every channel, room for a sum of four; rounded to nearest.
    @inline(__always) static func meanOfFour(_ p0: UInt32, _ p1: UInt32, _ p2: UInt32, _ p3: UInt32) -> UInt32 {
        let lanes: UInt32 = 0x00FF_00FF, half: UInt32 = 0x0002_0002
        var even: UInt32 = p0 & lanes
        even += p1 & lanes
        even += p2 & lanes
        even += p3 & lanes
        var odd: UInt32 = (p0 >> 8) & lanes
        odd += (p1 >> 8) & lanes
        odd += (p2 >> 8) & lanes
        odd += (p3 >> 8) & lanes
        let evenMean: UInt32 = ((even + half) >> 2) & lanes
        let oddMean: UInt32 = ((odd + half) >> 2) & lanes
        return evenMean | (oddMean << 8)
    }

    /// Which halving to draw when one image pixel covers `scale` device pixels: 0 (the image
    /// itself, the exact path) unless `scale` is at most 1/2, then the level that leaves each
    /// drawn pixel between 1/2 and 1 device pixel wide, so bilinear sampling never skips
    /// source pixels. Never past a 1x1 image, nor past 16 levels.
    public static func mipLevel(forScale scale: Double, width: Int, height: Int) -> Int {
        guard scale.isFinite, scale > 0, scale <= 0.5 else { return 0 }
        var level = 0, size = max(width, height), s = scale
        while s <= 0.5 && size > 1 && level < 16 {
            s *= 2; size = (size + 1) / 2; level += 1
        }
        return level
    }
}
