/// Integer operations on premultiplied 0xAARRGGBB pixels, two channels at a time.
enum PixelMath {
    /// The source pixel a compositing row blends at `i`: `s` scaled by the opacity `o` (0...255)
    /// times the mask's byte; nil where nothing of it shows (a transparent pixel or a zero
    /// weight), which every row skips.
    @inline(__always) static func shown(_ s: UInt32, opacity o: UInt32, mask: UnsafePointer<UInt8>?, at i: Int) -> UInt32? {
        if s == 0 { return nil }
        var a = o
        if let mask { a = (a * UInt32(mask[i]) + 127) / 255 }
        if a == 0 { return nil }
        return a == 255 ? s : scale(s, a)
    }

    /// Every channel of `p` times `a`/255, rounded.
    @inline(__always) static func scale(_ p: UInt32, _ a: UInt32) -> UInt32 {
        var rb = (p & 0x00ff00ff) &* a &+ 0x00800080
        rb = ((rb &+ ((rb >> 8) & 0x00ff00ff)) >> 8) & 0x00ff00ff
        var ag = ((p >> 8) & 0x00ff00ff) &* a &+ 0x00800080
        ag = (ag &+ ((ag >> 8) & 0x00ff00ff)) & 0xff00ff00
        return rb | ag
    }

    /// `src` over `dst`, both premultiplied.
    @inline(__always) static func over(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let sa = src >> 24
        if sa == 255 { return src }
        if sa == 0 { return dst }
        return src &+ scale(dst, 255 - sa)
    }

    /// Coverage 0...1 to 0...255.
    @inline(__always) static func alpha(_ coverage: Float) -> UInt32 {
        UInt32(min(max(coverage, 0), 1) * 255 + 0.5)
    }
}
