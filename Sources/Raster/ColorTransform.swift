/// An affine change of colour that keeps alpha, written on premultiplied pixels: each of
/// r, g, b becomes `matrix · (r, g, b) + offset · a`, clamped to 0...a. The colour effects of
/// layers (fill, tint) are of this kind on straight colour, and because straight colour is
/// premultiplied colour over alpha, they stay affine once premultiplied: no division per pixel.
///
/// `apply` is the fast path: eight pixels at a time, each channel in `Float` lanes, over the
/// painted part of a surface only. `applyReference` is the same map pixel by pixel in `Double`
/// through straight colour (divide, map, clamp to 0...1, multiply back), as the effects were
/// first written; the two agree within 1/255 per channel (a test checks random pixels).
public struct ColorTransform: Sendable, Equatable {
    /// Rows of the 3×3 matrix on (r, g, b).
    public var red: SIMD3<Float>
    public var green: SIMD3<Float>
    public var blue: SIMD3<Float>
    /// Added to each channel, times alpha.
    public var offset: SIMD3<Float>

    public init(red: SIMD3<Float>, green: SIMD3<Float>, blue: SIMD3<Float>, offset: SIMD3<Float>) {
        self.red = red
        self.green = green
        self.blue = blue
        self.offset = offset
    }

    /// Every colour moved toward `color` by `amount` (0...1): After Effects' Fill.
    public static func fill(_ color: Color, amount: Double) -> ColorTransform {
        let k = Float(amount), keep = 1 - Float(amount)
        return ColorTransform(red: SIMD3(keep, 0, 0), green: SIMD3(0, keep, 0), blue: SIMD3(0, 0, keep),
                              offset: SIMD3(Float(color.r), Float(color.g), Float(color.b)) * k)
    }

    /// Luminance (Rec. 709) mapped from `black` to `white`, mixed in by `amount`: Tint.
    public static func tint(black: Color, white: Color, amount: Double) -> ColorTransform {
        let k = Float(amount), keep = 1 - Float(amount)
        let weights = SIMD3<Float>(0.2126, 0.7152, 0.0722) * k
        let low = SIMD3<Float>(Float(black.r), Float(black.g), Float(black.b))
        let span = SIMD3<Float>(Float(white.r), Float(white.g), Float(white.b)) - low
        return ColorTransform(red: weights * span.x + SIMD3(keep, 0, 0), green: weights * span.y + SIMD3(0, keep, 0),
                              blue: weights * span.z + SIMD3(0, 0, keep), offset: low * k)
    }

    /// Whether every value is a finite number (a hostile colour could be NaN).
    public var isFinite: Bool {
        [red, green, blue, offset].allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
    }

    /// The map on one straight colour, in `Double` (for the reference).
    func mapStraight(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        func row(_ m: SIMD3<Float>, _ k: Float) -> Double { Double(m.x) * r + Double(m.y) * g + Double(m.z) * b + Double(k) }
        return (row(red, offset.x), row(green, offset.y), row(blue, offset.z))
    }
}

extension Surface {
    /// Applies `transform` to every pixel this surface painted (the fast path).
    public mutating func apply(_ transform: ColorTransform) {
        let area = painted.intersection(bounds)
        guard !area.isEmpty, transform.isFinite else { return }
        let (w, ox, oy) = (width, originX, originY)
        pixels.withUnsafeMutableBufferPointer { px in
            for y in area.y0..<area.y1 {
                let row = px.baseAddress! + (y - oy) * w + (area.x0 - ox)
                ColorSpans.apply(transform, row, count: area.width)
            }
        }
    }

    /// `apply`, pixel by pixel over the whole surface through straight colour in `Double`:
    /// the reference.
    public mutating func applyReference(_ transform: ColorTransform) {
        guard transform.isFinite else { return }
        for i in pixels.indices {
            pixels[i] = ColorSpans.mapReference(transform, pixels[i])
        }
    }
}

/// The lanes of `Surface.apply(_: ColorTransform)`.
enum ColorSpans {
    typealias Lanes = SIMD8<UInt32>
    typealias Values = SIMD8<Float>

    /// What painting calls: the lanes in an optimized build; in an unoptimized one, where
    /// every lane operation is a call, the scalar map (the same arithmetic, the same pixels).
    @inline(__always) static func apply(_ t: ColorTransform, _ row: UnsafeMutablePointer<UInt32>, count: Int) {
        #if DEBUG
        for i in 0..<count { row[i] = mapOne(t, row[i]) }
        #else
        applyLanes(t, row, count: count)
        #endif
    }

    /// Eight pixels at a time (eight transparent ones are skipped), the tail one by one.
    static func applyLanes(_ t: ColorTransform, _ row: UnsafeMutablePointer<UInt32>, count: Int) {
        var i = 0
        while i + 8 <= count {
            if !SpanKernels.allZero(row + i) {
                let p = UnsafeRawPointer(row + i).loadUnaligned(as: Lanes.self)
                UnsafeMutableRawPointer(row + i).storeBytes(of: map(t, p), as: Lanes.self)
            }
            i += 8
        }
        while i < count {
            row[i] = mapOne(t, row[i])
            i += 1
        }
    }

    /// 2²³: a float in 0...2²² plus this holds its nearest integer in its low mantissa
    /// bits, and a byte or'd into its pattern is that float plus the byte. (Swift's generic
    /// conversions between integer and float lanes run lane by lane through a call.)
    static let magic: Float = 8_388_608

    @inline(__always) static func floats(_ bytes: Lanes) -> Values {
        unsafeBitCast(bytes | Lanes(repeating: magic.bitPattern), to: Values.self) - magic
    }

    /// The nearest integer of each lane (ties to even), for lanes in 0...255.
    @inline(__always) static func bytes(_ v: Values) -> Lanes {
        unsafeBitCast(v + magic, to: Lanes.self) & Lanes(repeating: 0xff)
    }

    /// Each lane of `v` clamped to 0...a (a ≥ 0), by the sign bits of v and of a − v: the
    /// generic `pointwiseMin` and `pointwiseMax` are calls, not instructions.
    @inline(__always) static func clamp(_ v: Values, _ a: Values) -> Values {
        let bits = unsafeBitCast(v, to: Lanes.self)
        let positive = bits & ~(Lanes.zero &- (bits &>> 31))
        let over = Lanes.zero &- (unsafeBitCast(a - v, to: Lanes.self) &>> 31)
        return unsafeBitCast((positive & ~over) | (unsafeBitCast(a, to: Lanes.self) & over), to: Values.self)
    }

    /// `bytes` for one value.
    @inline(__always) static func byte(_ v: Float) -> UInt32 { (v + magic).bitPattern & 0xff }

    /// Eight pixels: channels to `Float` lanes (0...255), the affine map, clamped to 0...a,
    /// rounded to the nearest byte.
    @inline(__always) static func map(_ t: ColorTransform, _ p: Lanes) -> Lanes {
        let mask = Lanes(repeating: 0xff)
        let a = floats(p &>> 24), r = floats((p &>> 16) & mask), g = floats((p &>> 8) & mask), b = floats(p & mask)
        @inline(__always) func channel(_ m0: Float, _ m1: Float, _ m2: Float, _ k: Float) -> Lanes {
            var v: Values = r * m0 + g * m1
            v += b * m2 + a * k
            return bytes(clamp(v, a))
        }
        let rr = channel(t.red.x, t.red.y, t.red.z, t.offset.x)
        let gg = channel(t.green.x, t.green.y, t.green.z, t.offset.y)
        let bb = channel(t.blue.x, t.blue.y, t.blue.z, t.offset.z)
        let mapped = (p & Lanes(repeating: 0xff00_0000)) | rr &<< 16 | gg &<< 8 | bb
        // A pixel with no alpha stays as it is (as in `mapOne`): all ones where alpha is 0.
        let keep = Lanes.zero &- (((p &>> 24) &- 1) &>> 31)
        return (mapped & ~keep) | (p & keep)
    }

    /// One pixel the way the lanes do it (for the tail of a row).
    @inline(__always) static func mapOne(_ t: ColorTransform, _ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 0 { return p }
        let fa = Float(a)
        let r = Float((p >> 16) & 0xff), g = Float((p >> 8) & 0xff), b = Float(p & 0xff)
        func channel(_ m: SIMD3<Float>, _ k: Float) -> UInt32 {
            var v: Float = r * m.x + g * m.y
            v += b * m.z + fa * k
            return byte(min(fa, max(0, v)))
        }
        return a << 24 | channel(t.red, t.offset.x) << 16 | channel(t.green, t.offset.y) << 8 | channel(t.blue, t.offset.z)
    }

    /// One pixel through straight colour in `Double`: the reference.
    static func mapReference(_ t: ColorTransform, _ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 0 { return p }
        let fa = Double(a)
        let (r, g, b) = t.mapStraight(Double((p >> 16) & 0xff) / fa, Double((p >> 8) & 0xff) / fa, Double(p & 0xff) / fa)
        func channel(_ v: Double) -> UInt32 { UInt32(max(0, min(1, v)) * fa + 0.5) }
        return a << 24 | channel(r) << 16 | channel(g) << 8 | channel(b)
    }
}
