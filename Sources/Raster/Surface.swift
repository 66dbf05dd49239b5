import Foundation

/// A premultiplied 32-bit pixel buffer (0xAARRGGBB in native order) that paths, images and
/// other surfaces are drawn into.
public struct Surface: Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt32]

    public init(width: Int, height: Int, clearColor: Color = .clear) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = [UInt32](repeating: clearColor.premultiplied, count: self.width * self.height)
    }

    public init(image: Image) {
        width = image.width
        height = image.height
        pixels = image.pixels
    }

    public var image: Image { Image(width: width, height: height, pixels: pixels) }

    public mutating func clear(_ color: Color = .clear) {
        let value = color.premultiplied
        pixels.withUnsafeMutableBufferPointer { $0.update(repeating: value) }
    }

    /// Fills `path` (in user space, mapped to pixels by `transform`) with `paint`.
    public mutating func fill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero,
                              paint: Paint, opacity: Double = 1, clip: Mask? = nil) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        let device = path.transformed(by: transform)
        guard let bounds = device.bounds,
              var rasterizer = Rasterizer(bounds: bounds, limitWidth: width, limitHeight: height) else { return }
        let shader = Shader(paint: paint, pathToDevice: transform)
        guard !shader.isEmpty else { return }
        rasterizer.add(device)
        let opacity = Float(min(1, opacity))
        let w = width
        let clipValues = clip.flatMap { $0.width == width && $0.height == height ? $0.values : nil }
        var colors = [UInt32](repeating: 0, count: rasterizer.width)
        pixels.withUnsafeMutableBufferPointer { px in
            colors.withUnsafeMutableBufferPointer { colors in
                rasterizer.sweep(rule: rule) { y, x0, coverage in
                    // The first and last covered pixels bound the work on this row.
                    var first = 0, last = coverage.count - 1
                    while first <= last && coverage[first] == 0 { first += 1 }
                    while last >= first && coverage[last] == 0 { last -= 1 }
                    guard first <= last else { return }
                    let row = y * w + x0
                    let solid = shader.solidColor
                    if solid == nil {
                        shader.shade(y: y, x0: x0 + first, count: last - first + 1, into: colors.baseAddress! + first)
                    }
                    for i in first...last {
                        var cov = coverage[i] * opacity
                        if let clipValues {
                            cov *= Float(clipValues[row + i]) * (1 / 255)
                        }
                        let a = PixelMath.alpha(cov)
                        if a == 0 { continue }
                        let src = solid ?? colors[i]
                        px[row + i] = PixelMath.over(a == 255 ? src : PixelMath.scale(src, a), px[row + i])
                    }
                }
            }
        }
    }

    /// Strokes `path`; the stroke's width and dashes are in user space.
    public mutating func stroke(_ path: Path, transform: Transform = .identity, style: StrokeStyle,
                                paint: Paint, opacity: Double = 1, clip: Mask? = nil) {
        guard opacity > 0, style.width > 0, style.width.isFinite, transform.isFinite else { return }
        let scale = max(transform.scaleFactor, 1e-9)
        var source = path
        if !style.dashes.isEmpty { source = dashed(path, dashes: style.dashes, offset: style.dashOffset) }
        let outline = strokeOutline(source, style: style, tolerance: 0.05 / scale)
        fill(outline, transform: transform, rule: .nonZero, paint: paint, opacity: opacity, clip: clip)
    }

    /// Draws an image whose pixels span (0, 0)–(width, height) in user space, filtered.
    public mutating func draw(_ image: Image, transform: Transform, opacity: Double = 1, clip: Mask? = nil) {
        var rect = Path()
        rect.addRect(Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
        fill(rect, transform: transform, paint: .image(image, .identity), opacity: opacity, clip: clip)
    }

    /// Composites a surface of the same size over this one.
    public mutating func composite(_ source: Surface, blend: BlendMode = .normal, opacity: Double = 1, mask: Mask? = nil) {
        guard source.width == width, source.height == height, opacity > 0 else { return }
        let o = PixelMath.alpha(Float(opacity))
        let maskValues = mask.flatMap { $0.width == width && $0.height == height ? $0.values : nil }
        pixels.withUnsafeMutableBufferPointer { dst in
            source.pixels.withUnsafeBufferPointer { src in
                for i in 0..<dst.count {
                    var s = src[i]
                    if s == 0 { continue }
                    var a = o
                    if let maskValues { a = (a * UInt32(maskValues[i]) + 127) / 255 }
                    if a == 0 { continue }
                    if a != 255 { s = PixelMath.scale(s, a) }
                    dst[i] = blend == .normal ? PixelMath.over(s, dst[i]) : Blending.blend(s, dst[i], blend)
                }
            }
        }
    }

    /// Coverage from the alpha channel.
    public func alphaMask() -> Mask {
        Mask(width: width, height: height, values: pixels.map { UInt8($0 >> 24) })
    }

    /// Coverage from luminance (Rec. 709) of the premultiplied colour, as if composited on black.
    public func lumaMask() -> Mask {
        Mask(width: width, height: height, values: pixels.map { p in
            let r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff
            return UInt8((r * 54 + g * 183 + b * 19 + 128) >> 8)
        })
    }

    /// Multiplies every pixel by the mask's coverage.
    public mutating func applyMask(_ mask: Mask) {
        guard mask.width == width, mask.height == height else { return }
        pixels.withUnsafeMutableBufferPointer { px in
            mask.values.withUnsafeBufferPointer { m in
                for i in 0..<px.count {
                    let a = UInt32(m[i])
                    if a == 255 { continue }
                    px[i] = a == 0 ? 0 : PixelMath.scale(px[i], a)
                }
            }
        }
    }

    /// A copy blurred by three box passes each way, close to a Gaussian with this radius.
    public func blurred(radius: Double) -> Surface {
        guard radius >= 0.5, width > 0, height > 0 else { return self }
        let box = max(1, Int((radius / 1.7).rounded()))
        var result = self
        var scratch = [UInt32](repeating: 0, count: max(width, height))
        for _ in 0..<3 {
            Self.boxBlur(&result.pixels, count: height, length: width, stride: 1, step: width, radius: box, scratch: &scratch)
            Self.boxBlur(&result.pixels, count: width, length: height, stride: width, step: 1, radius: box, scratch: &scratch)
        }
        return result
    }

    private static func boxBlur(_ px: inout [UInt32], count: Int, length: Int, stride: Int, step: Int, radius: Int,
                                scratch: inout [UInt32]) {
        let window = UInt32(2 * radius + 1)
        px.withUnsafeMutableBufferPointer { px in
            scratch.withUnsafeMutableBufferPointer { line in
                for lineIndex in 0..<count {
                    let base = lineIndex * step
                    for i in 0..<length { line[i] = px[base + i * stride] }
                    var sa: UInt32 = 0, sr: UInt32 = 0, sg: UInt32 = 0, sb: UInt32 = 0
                    func add(_ p: UInt32) { sa += p >> 24; sr += (p >> 16) & 0xff; sg += (p >> 8) & 0xff; sb += p & 0xff }
                    func remove(_ p: UInt32) { sa -= p >> 24; sr -= (p >> 16) & 0xff; sg -= (p >> 8) & 0xff; sb -= p & 0xff }
                    for i in 0...radius where i < length { add(line[i]) }
                    for i in 0..<length {
                        px[base + i * stride] = ((sa + window / 2) / window) << 24 | ((sr + window / 2) / window) << 16
                            | ((sg + window / 2) / window) << 8 | ((sb + window / 2) / window)
                        let incoming = i + radius + 1, outgoing = i - radius
                        if incoming < length { add(line[incoming]) }
                        if outgoing >= 0 { remove(line[outgoing]) }
                    }
                }
            }
        }
    }
}
