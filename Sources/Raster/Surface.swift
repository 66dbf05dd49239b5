import Foundation

/// A premultiplied 32-bit pixel buffer (0xAARRGGBB in native order) that paths, images and
/// other surfaces are drawn into.
public struct Surface: Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt32]
    /// Scratch buffers of the rasterizer, reused from fill to fill.
    private var rasterStorage = Rasterizer.Storage()

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

    /// Clears every pixel outside `kept`, which the caller is about to cover with opaque
    /// paint anyway: a full-screen background rectangle then costs one pass over memory, not two.
    public mutating func clear(_ color: Color = .clear, except kept: PixelRect) {
        let k = kept.intersection(PixelRect(x0: 0, y0: 0, x1: width, y1: height))
        guard !k.isEmpty else { return clear(color) }
        let value = color.premultiplied
        let w = width
        pixels.withUnsafeMutableBufferPointer { px in
            let base = px.baseAddress!
            base.update(repeating: value, count: k.y0 * w + k.x0)
            for y in k.y0..<k.y1 - 1 {
                // From the end of the kept part of this row to its start on the next.
                (base + y * w + k.x1).update(repeating: value, count: w - k.x1 + k.x0)
            }
            let tail = (k.y1 - 1) * w + k.x1
            (base + tail).update(repeating: value, count: px.count - tail)
        }
    }

    /// Fills `path` (in user space, mapped to pixels by `transform`) with `paint`. With a
    /// `cache`, a path filled before with the same transform, rule and clip rectangle is
    /// painted from the coverage found then.
    public mutating func fill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero,
                              paint: Paint, opacity: Double = 1, clip: Clip? = nil, cache: CoverageCache? = nil) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        let shader = Shader(paint: paint, pathToDevice: transform)
        guard !shader.isEmpty else { return }
        let limit = drawingLimit(clip)
        let coverage = Self.lookUp(cache, CoverageCache.Key(path: path, transform: transform, kind: .fill(rule), limit: limit)) {
            rasterize(path.transformed(by: transform), rule: rule, limit: limit)
        }
        paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip)
    }

    /// Strokes `path`; the stroke's width and dashes are in user space. With a `cache`, as
    /// for `fill`: an unchanged stroke is neither outlined nor rasterized again.
    public mutating func stroke(_ path: Path, transform: Transform = .identity, style: StrokeStyle,
                                paint: Paint, opacity: Double = 1, clip: Clip? = nil, cache: CoverageCache? = nil) {
        guard opacity > 0, style.width > 0, style.width.isFinite, transform.isFinite, !path.isEmpty else { return }
        let shader = Shader(paint: paint, pathToDevice: transform)
        guard !shader.isEmpty else { return }
        let limit = drawingLimit(clip)
        let coverage = Self.lookUp(cache, CoverageCache.Key(path: path, transform: transform, kind: .stroke(style), limit: limit)) {
            rasterize(strokeOutline(path, style: style, transform: transform), rule: .nonZero, limit: limit)
        }
        paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip)
    }

    /// The outline of a stroke, in device space.
    private func strokeOutline(_ path: Path, style: StrokeStyle, transform: Transform) -> Path {
        let scale = max(transform.scaleFactor, 1e-9)
        var source = path
        if !style.dashes.isEmpty { source = dashed(path, dashes: style.dashes, offset: style.dashOffset) }
        return Raster.strokeOutline(source, style: style, tolerance: 0.05 / scale).transformed(by: transform)
    }

    private func drawingLimit(_ clip: Clip?) -> PixelRect {
        let whole = PixelRect(x0: 0, y0: 0, x1: width, y1: height)
        return clip.map { whole.intersection($0.rect) } ?? whole
    }

    private static func lookUp(_ cache: CoverageCache?, _ key: @autoclosure () -> CoverageCache.Key,
                               make: () -> Coverage) -> Coverage {
        guard let cache else { return make() }
        return cache.coverage(for: key(), make: make)
    }

    /// Rasterizes a device-space path within `limit`.
    private mutating func rasterize(_ device: Path, rule: FillRule, limit: PixelRect) -> Coverage {
        guard let bounds = device.bounds,
              var rasterizer = Rasterizer(bounds: bounds, limit: limit, storage: &rasterStorage) else { return Coverage() }
        defer { rasterizer.finish(into: &rasterStorage) }
        rasterizer.add(device)
        return rasterizer.coverage(rule: rule)
    }

    /// Paints runs of coverage. One colour and no clip mask is the common case and goes run
    /// by run: the inside of a shape is stored (opaque) or blended with one precomputed
    /// colour, and only the edge blocks go pixel by pixel. Everything else goes through
    /// `blendRow`, as `referenceFill` does for every row.
    private mutating func paintCoverage(_ coverage: Coverage, shader: Shader, opacity: Double, clip: Clip?) {
        guard !coverage.isEmpty else { return }
        let w = width
        let o = PixelMath.alpha(Float(opacity))
        guard o > 0 else { return }
        let clipValues = clip?.mask.flatMap { $0.width == width && $0.height == height ? $0.values : nil }
        if let solid = shader.solidColor, clipValues == nil {
            let color = o == 255 ? solid : PixelMath.scale(solid, o)
            paintRuns(coverage, color: color)
            return
        }
        var alpha = [UInt8](repeating: 0, count: coverage.longestRun)
        var colors = [UInt32](repeating: 0, count: coverage.longestRun)
        pixels.withUnsafeMutableBufferPointer { px in
            coverage.bytes.withUnsafeBufferPointer { bytes in
                alpha.withUnsafeMutableBufferPointer { alpha in
                    colors.withUnsafeMutableBufferPointer { colors in
                        for run in coverage.runs {
                            let count = Int(run.count)
                            if run.offset < 0 {
                                alpha.baseAddress!.update(repeating: run.value, count: count)
                            } else {
                                alpha.baseAddress!.update(from: bytes.baseAddress! + Int(run.offset), count: count)
                            }
                            Self.blendRow(px.baseAddress! + Int(run.y) * w + Int(run.x), y: Int(run.y), x: Int(run.x), count: count,
                                          alpha: alpha.baseAddress!, colors: colors.baseAddress!, shader: shader, opacity: o,
                                          clip: clipValues.map { ($0, Int(run.y) * w + Int(run.x)) })
                        }
                    }
                }
            }
        }
    }

    /// One colour, run by run.
    private mutating func paintRuns(_ coverage: Coverage, color: UInt32) {
        let w = width
        let opaque = color >> 24 == 255
        pixels.withUnsafeMutableBufferPointer { px in
            coverage.bytes.withUnsafeBufferPointer { bytes in
                for run in coverage.runs {
                    let row = px.baseAddress! + Int(run.y) * w + Int(run.x)
                    let count = Int(run.count)
                    if run.offset >= 0 {
                        Self.blendSolid(color, row, UnsafeMutablePointer(mutating: bytes.baseAddress! + Int(run.offset)), 0, count)
                        continue
                    }
                    let a = run.value
                    if a == 255 && opaque {
                        row.update(repeating: color, count: count)
                        continue
                    }
                    let src = a == 255 ? color : PixelMath.scale(color, UInt32(a))
                    let inverse = 255 - src >> 24
                    if inverse == 255 { continue }
                    for i in 0..<count { row[i] = src &+ PixelMath.scale(row[i], inverse) }
                }
            }
        }
    }

    /// Paints one row of `count` pixels from coverage `alpha` (0...255, scaled here by the
    /// clip mask and `opacity`): the per-pixel path every paint can take.
    private static func blendRow(_ row: UnsafeMutablePointer<UInt32>, y: Int, x: Int, count: Int,
                                 alpha: UnsafeMutablePointer<UInt8>, colors: UnsafeMutablePointer<UInt32>,
                                 shader: Shader, opacity o: UInt32, clip: ([UInt8], Int)?) {
        if let (values, start) = clip {
            values.withUnsafeBufferPointer { clip in
                let clipRow = clip.baseAddress! + start
                for i in 0..<count where alpha[i] != 0 {
                    alpha[i] = UInt8((UInt32(alpha[i]) * UInt32(clipRow[i]) + 127) / 255)
                }
            }
        }
        if let solid = shader.solidColor {
            // Opacity goes into the colour, as in `paintRuns`, so both paths agree.
            blendSolid(o == 255 ? solid : PixelMath.scale(solid, o), row, alpha, 0, count)
            return
        }
        shader.shade(y: y, x0: x, count: count, into: colors)
        for i in 0..<count {
            var a = UInt32(alpha[i])
            if a == 0 || colors[i] == 0 { continue }
            if o != 255 { a = (a * o + 127) / 255 }
            let src = colors[i]
            row[i] = PixelMath.over(a == 255 ? src : PixelMath.scale(src, a), row[i])
        }
    }

    /// The same fill as `fill` with no cache, swept and painted pixel by pixel: the
    /// definition the run-based painting must match (tests compare the two). Slow.
    public mutating func referenceFill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero,
                                       paint: Paint, opacity: Double = 1, clip: Clip? = nil) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        let shader = Shader(paint: paint, pathToDevice: transform)
        let o = PixelMath.alpha(Float(opacity))
        guard !shader.isEmpty, o > 0 else { return }
        let device = path.transformed(by: transform)
        guard let bounds = device.bounds,
              var rasterizer = Rasterizer(bounds: bounds, limit: drawingLimit(clip), storage: &rasterStorage) else { return }
        defer { rasterizer.finish(into: &rasterStorage) }
        rasterizer.add(device)
        let w = width
        let clipValues = clip?.mask.flatMap { $0.width == width && $0.height == height ? $0.values : nil }
        var colors = [UInt32](repeating: 0, count: rasterizer.width + 1)
        pixels.withUnsafeMutableBufferPointer { px in
            colors.withUnsafeMutableBufferPointer { colors in
                rasterizer.sweep(rule: rule, opacity: 1) { y, x0, start, end, alpha in
                    Self.blendRow(px.baseAddress! + y * w + x0 + start, y: y, x: x0 + start, count: end - start,
                                  alpha: alpha + start, colors: colors.baseAddress!, shader: shader, opacity: o,
                                  clip: clipValues.map { ($0, y * w + x0 + start) })
                }
            }
        }
    }

    /// The common case: one colour through a row of coverage. Opaque colour at full
    /// coverage is a plain store.
    @inline(__always)
    private static func blendSolid(_ color: UInt32, _ row: UnsafeMutablePointer<UInt32>, _ alpha: UnsafeMutablePointer<UInt8>,
                                   _ start: Int, _ end: Int) {
        let opaque = color >> 24 == 255
        var i = start
        while i < end {
            // Eight coverage bytes at a time: all zero is skipped, all full and opaque is a
            // plain store; anything else is blended pixel by pixel.
            if i + 8 <= end {
                let eight = UnsafeRawPointer(alpha + i).loadUnaligned(as: UInt64.self)
                if eight == 0 { i += 8; continue }
                if eight == UInt64.max && opaque {
                    (row + i).update(repeating: color, count: 8)
                    i += 8
                    continue
                }
            }
            let stop = min(end, i + 8)
            while i < stop {
                let a = UInt32(alpha[i])
                if a == 255 {
                    row[i] = opaque ? color : PixelMath.over(color, row[i])
                } else if a != 0 {
                    row[i] = PixelMath.over(PixelMath.scale(color, a), row[i])
                }
                i += 1
            }
        }
    }

    /// Draws an image whose pixels span (0, 0)–(width, height) in user space, filtered.
    public mutating func draw(_ image: Image, transform: Transform, opacity: Double = 1, clip: Clip? = nil) {
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
            // Typed and summed in steps: Swift 6.0's type checker gives up on the one-line sum.
            let r: UInt32 = (p >> 16) & 0xff, g: UInt32 = (p >> 8) & 0xff, b: UInt32 = p & 0xff
            let sum: UInt32 = r * 54 + g * 183 + b * 19
            return UInt8((sum + 128) >> 8)
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
        // A box wider than the surface blurs no more than one as wide (and keeps the sums in range).
        let box = max(1, Int(min(radius / 1.7, Double(max(width, height))).rounded()))
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
