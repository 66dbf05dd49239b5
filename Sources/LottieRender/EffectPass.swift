import Glibc
import LottieModel
import Raster

/// A layer's blurs, shadows and glows in device pixels, and the passes that draw them from a
/// layer's offscreen pixels: blurs first, then the shadows and glows cast by the result. The
/// passes work over the surface the layer was drawn into, whose bounds the compositor grew
/// by `reach` (bounded by `Effects.maxReach`), and over what of the target can show them;
/// their buffers come from the renderer's pool.
struct EffectPass {
    /// A shadow or glow in device pixels.
    struct DeviceCast: Equatable {
        var kind: Effects.Cast.Kind
        var red: Double, green: Double, blue: Double
        var opacity: Double
        var dx: Int, dy: Int
        var sigma: Double
        var spread: Double
    }

    /// A blur in device pixels: its standard deviations across and down (0: not that way).
    struct DeviceBlur: Equatable {
        var x: Double, y: Double
        var repeatEdges: Bool

        /// How far the blur spreads a pixel across and down.
        var spread: (x: Int, y: Int) { (Surface.blurSpread(sigma: x), Surface.blurSpread(sigma: y)) }
    }

    var blurs: [DeviceBlur] = []
    var casts: [DeviceCast] = []

    var isEmpty: Bool { blurs.isEmpty && casts.isEmpty }

    /// The pass of `layer` at `frame`, whose composition maps to the device by `compMatrix`
    /// (lottie-ios measures shadows in the composition's space, not the layer's). The layer
    /// is borrowed: taken as an initializer's parameters are (owned), every drawn layer of
    /// every frame was copied for it and destroyed again, a retain and release per part.
    init(layer: borrowing Layer, frame: Double, compMatrix: Matrix) {
        guard !layer.effects.isEmpty || !layer.styles.isEmpty else { return }
        let scale = compMatrix.scaleFactor.isFinite ? compMatrix.scaleFactor : 0
        // Three boxes spread a pixel about 3σ: this keeps every blur within the reach.
        let maxSigma = Double(Effects.maxReach) / 3
        blurs = Effects.blurs(of: layer, at: frame).map { blur in
            let sigma = min(blur.sigma * scale, maxSigma)
            return DeviceBlur(x: blur.horizontal ? sigma : 0, y: blur.vertical ? sigma : 0, repeatEdges: blur.repeatEdges)
        }
        casts = Effects.casts(of: layer, at: frame).compactMap { Self.device($0, matrix: compMatrix, maxSigma: maxSigma) }
    }

    /// `cast` in device pixels: its offset turned and scaled by `matrix`, its blur scaled.
    static func device(_ cast: Effects.Cast, matrix: Matrix, maxSigma: Double) -> DeviceCast? {
        guard cast.opacity > 0 else { return nil }
        let vx = cos(cast.angle) * cast.distance, vy = sin(cast.angle) * cast.distance
        let limit = Double(Effects.maxReach + 1)
        func pixels(_ v: Double) -> Int { v.isFinite ? Int(max(-limit, min(limit, v)).rounded()) : 0 }
        let sigma = cast.sigma * matrix.scaleFactor
        let c = cast.color
        return DeviceCast(kind: cast.kind, red: c.r, green: c.g, blue: c.b, opacity: cast.opacity,
                          dx: pixels(matrix.a * vx + matrix.c * vy), dy: pixels(matrix.b * vx + matrix.d * vy),
                          sigma: sigma.isFinite ? min(sigma, maxSigma) : 0, spread: cast.spread)
    }

    /// How far, in device pixels, the pass draws beyond the layer's own pixels (a blur's
    /// spread, a shadow's offset and blur), at most `Effects.maxReach`.
    var reach: Int {
        let blurred = blurs.map { max($0.spread.x, $0.spread.y) }.reduce(0, +)
        // Shadows are cast by the blurred pixels: their reach adds to the blur's.
        let cast = casts.filter { !$0.kind.isInside }
            .map { max(abs($0.dx), abs($0.dy)) + Surface.blurSpread(sigma: $0.sigma) + 1 }.max() ?? 0
        return min(Effects.maxReach, blurred + cast)
    }

    /// Whether a blur repeats the layer's edge pixels (the compositor then finds its bounds).
    var repeatsEdges: Bool { blurs.contains { $0.repeatEdges } }

    /// Blurs `content` in place, keeping only what lies inside `keep` (the clip's rectangle:
    /// a precomp's bounds cut what its layers' blurs spread). `edges` are the layer's bounds
    /// for the blurs that repeat its edge pixels: `frame` in device pixels, and `drawn` the
    /// part of it the content could be drawn in (the rest of the frame lies beyond the clip
    /// or the reach, and is taken to continue the drawn part's edges too).
    func blur(_ content: inout Surface, keep: PixelRect?, edges: (frame: PixelRect, drawn: PixelRect)?, pool: BufferPool) {
        guard !blurs.isEmpty else { return }
        for blur in blurs {
            guard blur.repeatEdges, let edges else {
                content.blur(sigmaX: blur.x, sigmaY: blur.y, pool: pool)
                continue
            }
            // The blur reads the edge pixels continued outward rather than transparency,
            // and its result is the layer's bounds only, as After Effects' "Repeat Edge Pixels".
            let spread = blur.spread
            content.repeatEdges(of: edges.drawn, across: spread.x, down: spread.y)
            content.blur(sigmaX: blur.x, sigmaY: blur.y, pool: pool)
            if !edges.frame.contains(content.painted.intersection(content.bounds)) { content.clear(except: edges.frame) }
        }
        if let keep, !keep.contains(content.painted.intersection(content.bounds)) { content.clear(except: keep) }
    }

    /// Composites `content` onto `target` with its shadows and glows under it and its inner
    /// shadows and glows over it, as lottie-ios draws a layer shadow: cast by the layer's pixels, each
    /// composited with the layer's opacity and coverage `mask` (its matte), none outside
    /// `keep` (a precomp's bounds cut its layers' shadows too). The inner shadows and glows are drawn
    /// into `content`.
    func composite(_ content: inout Surface, onto target: inout Surface, keep: PixelRect?, blend: RasterBlend, opacity: Double,
                   mask: CoverageMask?, pool: BufferPool) {
        var visible = keep.map { target.bounds.intersection($0) } ?? target.bounds
        if let mask { visible = visible.intersection(mask.rect) }
        let source = content.painted.intersection(content.bounds)
        for cast in casts where !cast.kind.isInside {
            let spread = Surface.blurSpread(sigma: cast.sigma)
            let moved = PixelRect(x0: source.x0 + cast.dx, y0: source.y0 + cast.dy, x1: source.x1 + cast.dx, y1: source.y1 + cast.dy)
            // The blur needs the moved pixels a spread beyond what is seen; no further.
            let area = visible.grown(by: spread).intersection(moved.grown(by: spread))
            guard !area.isEmpty, !visible.isEmpty else { continue }
            var shadow = Self.castSurface(cast, of: content, over: area, pool: pool)
            if !visible.contains(shadow.painted.intersection(area)) { shadow.clear(except: visible) }
            target.composite(shadow, opacity: opacity, mask: mask)
            shadow.recycle(into: pool)
        }
        for cast in casts where cast.kind.isInside {
            let reach = max(abs(cast.dx), abs(cast.dy)) + Surface.blurSpread(sigma: cast.sigma) + 1
            let area = source.intersection(visible).grown(by: reach)
            guard !source.intersection(visible).isEmpty else { continue }
            var shadow = Self.castSurface(cast, of: content, over: area, pool: pool)
            content.composite(shadow)
            shadow.recycle(into: pool)
        }
        target.composite(content, blend: blend, opacity: opacity, mask: mask)
    }

    /// The shadow or glow `cast` throws from `content` over `area`: the content's alpha (for an
    /// inner shadow or an inner glow from the edges, the alpha of what lies outside it) moved,
    /// blurred, made more solid by the spread, and tinted; an inner shadow or glow is then
    /// kept only inside the content.
    static func castSurface(_ cast: DeviceCast, of content: Surface, over area: PixelRect, pool: BufferPool?) -> Surface {
        var shadow = Surface(bounds: area, pool: pool)
        let (inner, inverted) = (cast.kind.isInside, cast.kind.castByOutside)
        let source = content.painted.intersection(content.bounds)
        let moved = inverted ? area : PixelRect(x0: source.x0 + cast.dx, y0: source.y0 + cast.dy, x1: source.x1 + cast.dx,
                                             y1: source.y1 + cast.dy).intersection(area)
        guard !moved.isEmpty else { return shadow }
        let (w, sw) = (content.width, shadow.width)
        content.pixels.withUnsafeBufferPointer { src in
            shadow.pixels.withUnsafeMutableBufferPointer { dst in
                for y in moved.y0..<moved.y1 {
                    let row = dst.baseAddress! + (y - area.y0) * sw
                    for x in moved.x0..<moved.x1 {
                        let (sx, sy) = (x - cast.dx, y - cast.dy)
                        var a = source.contains(x: sx, y: sy) ? src[(sy - content.originY) * w + (sx - content.originX)] >> 24 : 0
                        if inverted { a = 255 - a }
                        // Grey with this alpha: every channel blurs alike, the tint comes after.
                        row[x - area.x0] = a &* 0x0101_0101
                    }
                }
            }
        }
        shadow.markPainted(moved)
        // Grey until tinted: one channel blurred stands for four.
        shadow.blurGrey(sigmaX: cast.sigma, sigmaY: cast.sigma, pool: pool)
        tint(&shadow, cast, inside: inner ? content : nil)
        return shadow
    }

    /// Turns the blurred grey of `castSurface` into the cast's colour and opacity, with its
    /// spread; with `inside`, keeps it only where that surface's alpha is.
    static func tint(_ shadow: inout Surface, _ cast: DeviceCast, inside: Surface?) {
        let area = shadow.painted.intersection(shadow.bounds)
        guard !area.isEmpty else { return }
        // Alpha → alpha × gain, capped: a spread of s makes the edge 1 / (1 − s) times as solid.
        let gain = cast.spread >= 0.999 ? 255.0 : 1 / (1 - cast.spread)
        var table = [UInt32](repeating: 0, count: 256)
        func channel(_ v: Double) -> Double { v.isFinite ? max(0, min(1, v)) : 0 }
        let (r, g, b, o) = (channel(cast.red), channel(cast.green), channel(cast.blue), channel(cast.opacity))
        for a in 1..<256 {
            let alpha = min(1, Double(a) / 255 * gain) * o
            func premultiplied(_ c: Double) -> UInt32 { UInt32(c * alpha * 255 + 0.5) }
            table[a] = UInt32(alpha * 255 + 0.5) << 24 | premultiplied(r) << 16 | premultiplied(g) << 8 | premultiplied(b)
        }
        let sw = shadow.width
        // Inside another surface: only where it painted, scaled by its alpha (zero elsewhere).
        let kept = inside.map { $0.painted.intersection($0.bounds) } ?? area
        shadow.pixels.withUnsafeMutableBufferPointer { px in
            for y in area.y0..<area.y1 {
                let row = px.baseAddress! + (y - shadow.originY) * sw - shadow.originX
                let (x0, x1) = y >= kept.y0 && y < kept.y1 ? (max(area.x0, kept.x0), min(area.x1, kept.x1)) : (area.x1, area.x1)
                guard x0 < x1 else {
                    (row + area.x0).update(repeating: 0, count: area.width)
                    continue
                }
                (row + area.x0).update(repeating: 0, count: x0 - area.x0)
                (row + x1).update(repeating: 0, count: area.x1 - x1)
                guard let inside else {
                    for x in x0..<x1 { row[x] = table[Int(row[x] >> 24)] }
                    continue
                }
                inside.pixels.withUnsafeBufferPointer { alpha in
                    let source = alpha.baseAddress! + (y - inside.originY) * inside.width - inside.originX
                    for x in x0..<x1 {
                        let a = source[x] >> 24, p = table[Int(row[x] >> 24)]
                        row[x] = a == 255 ? p : Self.scale(p, a)
                    }
                }
            }
        }
    }

    /// A premultiplied pixel times a / 255, each channel rounded.
    @inline(__always) static func scale(_ p: UInt32, _ a: UInt32) -> UInt32 {
        func c(_ shift: UInt32) -> UInt32 { ((((p >> shift) & 0xff) * a + 127) / 255) << shift }
        return c(24) | c(16) | c(8) | c(0)
    }
}
