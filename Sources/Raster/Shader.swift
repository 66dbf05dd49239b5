import Glibc

/// A paint prepared for one fill: it produces the premultiplied colour of device pixels.
struct Shader {
    enum Kind {
        case solid(UInt32)
        case linear(lut: [UInt32], start: Point, direction: Point)
        case radial(lut: [UInt32], center: Point, radius: Double, focal: Point)
        case image(Image)
        case none
    }

    let kind: Kind
    /// From device pixels to the paint's own space.
    let inverse: Transform
    /// A gradient every colour of which is opaque: at full coverage and opacity its colours
    /// are the pixels, with nothing of the backdrop to blend (`Surface.paintConstantRun`).
    let isOpaqueGradient: Bool

    /// The one colour of a gradient whose 256 table colours are all the same (stops animated
    /// to one colour, a common fade in exported files), found when `uniformAsSolid`: `shade`
    /// then stores it without the gradient's arithmetic, and at full opacity `paintCoverage`
    /// paints it run by run as a solid colour, which is the same arithmetic (a test compares
    /// both with `referenceFill`, which shades every pixel). nil otherwise.
    private(set) var uniform: UInt32?

    /// What `RadialSpans.row` needs of a radial gradient, worked out once per paint (nil for
    /// other kinds, or where the lanes cannot hold it and the reference draws it). Kept out
    /// of `Kind`: a class reference in the enum's payload made every `shade` copy the shader.
    private let radialLanes: RadialSpans.Setup?

    init(paint: Paint, pathToDevice: Transform, uniformAsSolid: Bool = true) {
        var fresh = GradientTables()
        self.init(paint: paint, pathToDevice: pathToDevice, uniformAsSolid: uniformAsSolid, tables: &fresh)
    }

    /// As `init(paint:pathToDevice:uniformAsSolid:)`, with a gradient's colour table taken from
    /// `tables` when its stops made one before (the same table, see `GradientTables`).
    init(paint: Paint, pathToDevice: Transform, uniformAsSolid: Bool = true, tables: inout GradientTables) {
        (kind, inverse) = Self.prepared(paint, pathToDevice, &tables)
        switch kind {
        case .linear(let lut, _, _):
            isOpaqueGradient = lut.allSatisfy { $0 >> 24 == 255 }
            if uniformAsSolid, Self.isUniform(lut) { uniform = lut[0] }
            radialLanes = nil
        case .radial(let lut, let center, let radius, let focal):
            isOpaqueGradient = lut.allSatisfy { $0 >> 24 == 255 }
            if uniformAsSolid, Self.isUniform(lut) { uniform = lut[0] }
            radialLanes = lut.count >= 256 ? RadialSpans.Setup(center: center, radius: radius, focal: focal, inverse: inverse) : nil
        default:
            isOpaqueGradient = false
            radialLanes = nil
        }
    }

    /// The kind of shading `paint` needs and the device-to-paint transform.
    private static func prepared(_ paint: Paint, _ pathToDevice: Transform, _ tables: inout GradientTables) -> (Kind, Transform) {
        let kind: Kind, inverse: Transform
        switch paint {
        case .solid(let color):
            kind = .solid(color.premultiplied)
            inverse = .identity
        case .gradient(let gradient, let transform):
            guard let inv = transform.concatenating(pathToDevice).inverted() else { return (.none, .identity) }
            inverse = inv
            switch gradient {
            case .linear(let start, let end, let stops):
                let dx = end.x - start.x, dy = end.y - start.y
                let len2 = dx * dx + dy * dy
                if len2 > 1e-12 {
                    kind = .linear(lut: tables.table(for: stops), start: start, direction: Point(dx / len2, dy / len2))
                } else {
                    kind = .solid(tables.table(for: stops).last ?? 0)
                }
            case .radial(let center, let radius, let focal, let stops):
                if radius > 1e-9 {
                    // Keep the focal point strictly inside the circle.
                    var f = focal
                    let fx = f.x - center.x, fy = f.y - center.y
                    let dist = (fx * fx + fy * fy).squareRoot()
                    if dist > radius * 0.99 {
                        f = Point(center.x + fx / dist * radius * 0.99, center.y + fy / dist * radius * 0.99)
                    }
                    kind = .radial(lut: tables.table(for: stops), center: center, radius: radius, focal: f)
                } else {
                    kind = .solid(tables.table(for: stops).last ?? 0)
                }
            }
        case .image(let image, let transform):
            guard image.width > 0, image.height > 0, let inv = transform.concatenating(pathToDevice).inverted() else {
                return (.none, .identity)
            }
            kind = .image(image)
            inverse = inv
        }
        return (kind, inverse)
    }

    var solidColor: UInt32? {
        if case .solid(let c) = kind { return c }
        return nil
    }

    /// Whether every colour `shade` gives is premultiplied (no channel above its alpha), as a
    /// gradient's table is (`Color.premultiplied`); an image's pixels are taken as they come.
    var shadesPremultiplied: Bool {
        switch kind {
        case .linear, .radial: return true
        default: return false
        }
    }

    var isEmpty: Bool {
        if case .none = kind { return true }
        return false
    }

    /// Whether every colour of a gradient's table is the first.
    static func isUniform(_ lut: [UInt32]) -> Bool {
        guard let first = lut.first else { return false }
        return lut.allSatisfy { $0 == first }
    }

    /// 256 premultiplied colours from offset 0 to 1, interpolated in straight colour.
    static func lookupTable(_ stops: [GradientStop]) -> [UInt32] {
        let sorted = stops.sorted { $0.offset < $1.offset }
        guard let first = sorted.first, let last = sorted.last else { return [UInt32](repeating: 0, count: 256) }
        var table = [UInt32](repeating: 0, count: 256)
        var k = 0
        for i in 0..<256 {
            let t = Double(i) / 255
            let color: Color
            // One stop is one colour, whatever its offset (a NaN offset passes neither test
            // below, and there is no second stop to interpolate towards).
            if t <= first.offset || sorted.count < 2 { color = first.color }
            else if t >= last.offset { color = last.color }
            else {
                while k + 1 < sorted.count - 1 && sorted[k + 1].offset < t { k += 1 }
                let a = sorted[k], b = sorted[k + 1]
                let span = b.offset - a.offset
                let f = span > 0 ? (t - a.offset) / span : 1
                color = Color(r: a.color.r + (b.color.r - a.color.r) * f, g: a.color.g + (b.color.g - a.color.g) * f,
                              b: a.color.b + (b.color.b - a.color.b) * f, a: a.color.a + (b.color.a - a.color.a) * f)
            }
            table[i] = color.premultiplied
        }
        return table
    }

    @inline(__always) static func lutIndex(_ t: Double) -> Int {
        t.isNaN ? 0 : Int(min(max(t, 0), 1) * 255 + 0.5)
    }

    /// Colours of pixels x0..<x0+count on row y.
    func shade(y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let p = inverse.apply(Point(Double(x0) + 0.5, Double(y) + 0.5))
        let stepX = inverse.a, stepY = inverse.b  // paint-space change per pixel to the right
        if let uniform { return PixelStores.fill(out, with: uniform, count: count) }
        switch kind {
        case .none:
            for i in 0..<count { out[i] = 0 }
        case .solid(let c):
            for i in 0..<count { out[i] = c }
        case .linear(let lut, let start, let dir):
            let t = (p.x - start.x) * dir.x + (p.y - start.y) * dir.y
            let dt = stepX * dir.x + stepY * dir.y
            lut.withUnsafeBufferPointer { lut in
                Self.linearRow(lut, t0: t, dt: dt, count: count, into: out)
            }
        case .radial(let lut, let center, let radius, let focal):
            // The fast path (its setup made only for a full table); rowReference below is its reference.
            if RadialSpans.enabled, let lanes = radialLanes, lanes.holds(y: y, x0: x0, count: count) {
                return lut.withUnsafeBufferPointer { RadialSpans.row($0.baseAddress!, lanes, y: y, x0: x0, count: count, into: out) }
            }
            // Offset t: p = f + (q - f)·t with q on the circle; solve for s = 1/t.
            let ex = focal.x - center.x, ey = focal.y - center.y
            let c = ex * ex + ey * ey - radius * radius  // < 0: focal inside
            lut.withUnsafeBufferPointer { lut in
                RadialSpans.rowReference(lut, focal: focal, ex: ex, ey: ey, c: c, x: p.x, y: p.y, stepX: stepX, stepY: stepY, count: count, into: out)
            }
        case .image(let image):
            image.pixels.withUnsafeBufferPointer { src in
                // Positions in 32.32 fixed point: exact enough over any row (the drift is
                // below 2⁻²⁰ pixel after 4096 steps) and much cheaper than converting doubles
                // per pixel. Beyond its range (a degenerate transform) the double path runs.
                let limit = Double(1 << 30)
                let x = p.x - 0.5, y = p.y - 0.5
                let sharpen = ImageFootprint(inverse)
                if abs(x) < limit, abs(y) < limit, abs(stepX) * Double(count) < limit, abs(stepY) * Double(count) < limit {
                    Self.sampleRow(src, image.width, image.height, x: Self.fixed(x), y: Self.fixed(y),
                                   dx: Self.fixed(stepX), dy: Self.fixed(stepY), sharpen: sharpen, count: count, into: out)
                } else {
                    var px = x, py = y
                    for i in 0..<count {
                        out[i] = Self.sampleBilinear(src, image.width, image.height, px, py, sharpen: sharpen)
                        px += stepX; py += stepY
                    }
                }
            }
        }
    }

    /// Colours of a linear gradient along a row: pixel i gets `lut[lutIndex(t0 + i·dt)]`.
    /// Positions grow (or shrink) monotonically along the row, so the pixels sharing a table
    /// entry form one stretch: each stretch's end is found from the entry's boundary and
    /// checked against the per-pixel rule, and the stretch is filled at once. A gradient
    /// that changes entry at nearly every pixel, or a position that is not finite, goes
    /// pixel by pixel (`linearRowReference`, which a test compares this with). An optimized
    /// build sends every finite row to `linearRowSteep` with the lanes instead (its ramp in
    /// `LinearSpans.stretches` or `LinearSpans.fixedRamp`): the loop below is then the path of an
    /// unoptimized build, where lane arithmetic is calls.
    static func linearRow(_ lut: UnsafeBufferPointer<UInt32>, t0: Double, dt: Double, count: Int,
                          into out: UnsafeMutablePointer<UInt32>) {
        // A short span (the edges of shapes, thin strokes: most spans of a frame) costs less
        // pixel by pixel than finding its padded ends and ramp: the reference itself.
        if count < LinearSpans.shortRow { return linearRowReference(lut, t0: t0, dt: dt, count: count, into: out) }
        let end = t0 + Double(count) * dt
        // Stretches pay when they are long: below about eight pixels an entry, pixel by pixel
        // is as fast (measured: at four, fewer instructions but more mispredicted branches).
        guard t0.isFinite, dt.isFinite, end.isFinite else { return linearRowReference(lut, t0: t0, dt: dt, count: count, into: out) }
        // With the lanes, the padded ends and the ramp are found as for a steep gradient, and
        // the ramp's stretches with no clamps or range checks (`LinearSpans.stretches`).
        if LinearSpans.enabled { return linearRowSteep(lut, t0: t0, dt: dt, count: count, into: out) }
        guard abs(dt) * 255 * 8 < 1 else { return linearRowSteep(lut, t0: t0, dt: dt, count: count, into: out) }
        @inline(__always) func index(_ i: Int) -> Int { lutIndex(t0 + Double(i) * dt) }
        // The guesses below need not be exact (they are checked), so no division is needed.
        let inverseDt = dt != 0 ? 1 / dt : 0, step = 1.0 / 255
        // The entry at the start of each stretch is the one the last stretch's search found
        // past its end: two entries are looked up per stretch, not three.
        var i = 0
        var k = count > 0 ? index(0) : 0
        while i < count {
            var j = count, after = k  // the stretch's end and, when j < count, index(j)
            if dt != 0, (dt > 0 && k < 255) || (dt < 0 && k > 0) {
                // Where the entry after k (in the direction of travel) starts.
                let boundary = (Double(k) + (dt > 0 ? 0.5 : -0.5)) * step
                let guess = (boundary - t0) * inverseDt + 1
                j = guess.isFinite ? Int(min(max(guess, Double(i + 1)), Double(count))) : i + 1
                after = j < count ? index(j) : k
                while j < count, after == k { j += 1; after = j < count ? index(j) : k }
                while j > i + 1 {
                    let before = index(j - 1)
                    if before == k { break }
                    j -= 1
                    after = before
                }
            }
            PixelStores.fill(out + i, with: lut[k], count: j - i)
            i = j
            k = after
        }
    }

    /// `linearRow` for a gradient that changes entry at nearly every pixel (finite positions):
    /// pixel by pixel, but for the stretches beyond either end, where the end colours are
    /// padded (a shimmer's band crossing a shape leaves most of the shape there). Each such
    /// stretch is found as the stretch loop finds one and filled at once.
    /// With `lanes` (the default in an optimized build) the ramp goes to `LinearSpans`: in
    /// stretches when entries are wider than eight pixels, else eight pixels at a time
    /// (`LinearSpans.fixedRamp`, in integer lanes, or in `Double` lanes with `ramp`).
    static func linearRowSteep(_ lut: UnsafeBufferPointer<UInt32>, t0: Double, dt: Double, count: Int,
                               into out: UnsafeMutablePointer<UInt32>, lanes: Bool = LinearSpans.enabled) {
        @inline(__always) func index(_ i: Int) -> Int { lutIndex(t0 + Double(i) * dt) }
        var i = 0
        while i < count {
            let k = index(i)
            guard k == 0 || k == 255 else {
                // The ramp: up to where the end entry in the direction of travel starts,
                // found as a stretch's end is; pixel by pixel with no test inside.
                var j = count
                if dt != 0 {
                    let endEntry = dt > 0 ? 255 : 0
                    let guess = ((dt > 0 ? 254.5 : 0.5) / 255 - t0) / dt
                    j = guess.isFinite ? Int(min(max(guess, Double(i + 1)), Double(count))) : i + 1
                    while j < count, index(j) != endEntry { j += 1 }
                    while j > i + 1, index(j - 1) == endEntry { j -= 1 }
                }
                if lanes, abs(dt) * 255 * 8 < 1 {
                    LinearSpans.stretches(lut, t0: t0, dt: dt, from: i, to: j, into: out)
                } else if lanes {  // the lanes; the loop below is their reference
                    LinearSpans.fixedRamp(lut, t0: t0, dt: dt, from: i, to: j, into: out)
                } else {
                    for p in i..<j { out[p] = lut[index(p)] }
                }
                i = j
                continue
            }
            // Positions are monotonic: moving towards the other end the stretch ends where
            // the next entry starts; moving further out (or not moving) it lasts to the row's end.
            var j = count
            if dt != 0, (dt > 0) == (k == 0) {
                let guess = ((k == 0 ? 0.5 : 254.5) / 255 - t0) / dt + 1
                j = guess.isFinite ? Int(min(max(guess, Double(i + 1)), Double(count))) : i + 1
                while j < count, index(j) == k { j += 1 }
                while j > i + 1, index(j - 1) != k { j -= 1 }
            }
            PixelStores.fill(out + i, with: lut[k], count: j - i)
            i = j
        }
    }

    /// `linearRow` pixel by pixel: the reference.
    static func linearRowReference(_ lut: UnsafeBufferPointer<UInt32>, t0: Double, dt: Double, count: Int,
                                   into out: UnsafeMutablePointer<UInt32>) {
        for i in 0..<count { out[i] = lut[lutIndex(t0 + Double(i) * dt)] }
    }

    @inline(__always) private static func fixed(_ v: Double) -> Int { Int((v * 4_294_967_296).rounded(.down)) }

    /// `sampleBilinear` along a row, with positions in 32.32 fixed point: the same clamping
    /// and the same weights (`ImageFootprint.weight` of the fraction).
    static func sampleRow(_ src: UnsafeBufferPointer<UInt32>, _ w: Int, _ h: Int, x: Int, y: Int, dx: Int, dy: Int,
                          sharpen: ImageFootprint = .bilinear, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let maxX = (w - 1) << 32, maxY = (h - 1) << 32
        let pixels = src.baseAddress!
        if dy == 0 {
            // Not rotated (the usual image layer): the two source rows and their weight hold
            // for the whole run.
            let cv = min(max(y, 0), maxY)
            let y0 = cv >> 32, y1 = min(y0 + 1, h - 1)
            let fy = UInt64(sharpen.weightY(cv))
            let row0 = pixels + y0 * w, row1 = pixels + y1 * w
            @inline(__always) func sample(_ i: Int, _ u: Int) {
                let cu = min(max(u, 0), maxX)
                let x0 = cu >> 32, x1 = min(x0 + 1, w - 1)
                let fx = UInt64(sharpen.weightX(cu))
                let top = lerpWide(widen(row0[x0]), widen(row0[x1]), fx)
                let bottom = lerpWide(widen(row1[x0]), widen(row1[x1]), fx)
                out[i] = narrow(lerpWide(top, bottom, fy))
            }
            // Where both neighbours lie inside the row no clamping is needed: the middle
            // of the run (most of it) skips it; the same arithmetic otherwise.
            let (first, end) = unclampedRange(x: x, dx: dx, count: count, below: (w - 1) << 32)
            var u = x
            var i = 0
            while i < first { sample(i, u); u &+= dx; i += 1 }
            while i < end {
                let x0 = u >> 32
                let a = row0[x0], b = row0[x0 + 1], c = row1[x0], d = row1[x0 + 1]
                // Transparent all round (the empty parts of a cut-out image): nothing to mix.
                if a | b | c | d == 0 {
                    out[i] = 0
                } else {
                    let fx = UInt64(sharpen.weightX(u))
                    out[i] = narrow(lerpWide(lerpWide(widen(a), widen(b), fx), lerpWide(widen(c), widen(d), fx), fy))
                }
                u &+= dx
                i += 1
            }
            while i < count { sample(i, u); u &+= dx; i += 1 }
            return
        }
        sampleRowTurned(pixels, w, h, x: x, y: y, dx: dx, dy: dy, sharpen: sharpen, count: count, into: out)
    }

    /// `sampleRow` for a rotated or sheared image (both coordinates move along the row). Where
    /// the four neighbours are one colour (the clear surround of a cut-out image, flat areas)
    /// that colour is the mix whatever the weights (`lerp(a, a, f)` is `a`), so they are not
    /// computed; `sampleRowTurnedReference`, which a test compares this with, always mixes.
    static func sampleRowTurned(_ pixels: UnsafePointer<UInt32>, _ w: Int, _ h: Int, x: Int, y: Int, dx: Int, dy: Int,
                                sharpen: ImageFootprint, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let maxX = (w - 1) << 32, maxY = (h - 1) << 32
        var u = x, v = y
        for i in 0..<count {
            let cu = min(max(u, 0), maxX), cv = min(max(v, 0), maxY)
            let x0 = cu >> 32, y0 = cv >> 32
            let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
            let row0 = pixels + y0 * w, row1 = pixels + y1 * w
            let a = row0[x0], b = row0[x1], c = row1[x0], d = row1[x1]
            if a == b && c == d && a == c {
                out[i] = a
            } else {
                let fx = sharpen.weightX(cu), fy = sharpen.weightY(cv)
                out[i] = lerp(lerp(a, b, fx), lerp(c, d, fx), fy)
            }
            u &+= dx; v &+= dy
        }
    }

    /// `sampleRowTurned` mixing every pixel: the reference.
    static func sampleRowTurnedReference(_ pixels: UnsafePointer<UInt32>, _ w: Int, _ h: Int, x: Int, y: Int, dx: Int, dy: Int,
                                         sharpen: ImageFootprint, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let maxX = (w - 1) << 32, maxY = (h - 1) << 32
        var u = x, v = y
        for i in 0..<count {
            let cu = min(max(u, 0), maxX), cv = min(max(v, 0), maxY)
            let x0 = cu >> 32, y0 = cv >> 32
            let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
            let fx = sharpen.weightX(cu), fy = sharpen.weightY(cv)
            let row0 = pixels + y0 * w, row1 = pixels + y1 * w
            out[i] = lerp(lerp(row0[x0], row0[x1], fx), lerp(row1[x0], row1[x1], fx), fy)
            u &+= dx; v &+= dy
        }
    }

    /// The steps `first..<end` of a run of `count` positions `x + i·dx` (32.32) that lie in
    /// 0..<below, so that their right neighbour is inside the image too (an empty range when
    /// none or when the range is not one stretch).
    @inline(__always) static func unclampedRange(x: Int, dx: Int, count: Int, below: Int) -> (Int, Int) {
        guard count > 0, below > 0 else { return (0, 0) }
        func inside(_ i: Int) -> Bool { let u = x &+ i &* dx; return u >= 0 && u < below }
        // Positions move monotonically, so the inside steps form one stretch: find its ends.
        var first = 0
        if dx > 0 {
            if x < 0 { first = min(count, Int((-x + dx - 1) / dx)) }
        } else if dx < 0 {
            if x >= below { first = min(count, Int((x - below) / -dx) + 1) }
        } else if !inside(0) {
            return (0, 0)
        }
        while first < count, !inside(first) { first += 1 }
        var end = first
        if dx > 0 {
            end = min(count, first + Int((below - 1 - (x &+ first &* dx)) / dx) + 1)
        } else if dx < 0 {
            end = min(count, first + Int((x &+ first &* dx) / -dx) + 1)
        } else {
            end = count
        }
        while end > first, !inside(end - 1) { end -= 1 }
        return (first, end)
    }

    /// A pixel's four channels spread into 16-bit lanes (0x00AA00GG00RR00BB), so that one
    /// 64-bit multiply weighs all of them.
    @inline(__always) static func widen(_ p: UInt32) -> UInt64 {
        UInt64(p & 0x00ff00ff) | (UInt64(p & 0xff00ff00) << 24)
    }

    @inline(__always) static func narrow(_ w: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: w & 0x00ff00ff) | UInt32(truncatingIfNeeded: (w >> 24) & 0xff00ff00)
    }

    /// `lerp` on widened pixels: the same arithmetic per channel, all four lanes at once.
    @inline(__always) static func lerpWide(_ a: UInt64, _ b: UInt64, _ f: UInt64) -> UInt64 {
        ((a &* (256 - f) &+ b &* f) >> 8) & 0x00ff_00ff_00ff_00ff
    }

    /// Mixes two premultiplied pixels, `f`/256 of the way from `a` to `b` (0...256).
    @inline(__always) static func lerp(_ a: UInt32, _ b: UInt32, _ f: UInt32) -> UInt32 {
        let rbA = a & 0x00ff00ff, agA = (a >> 8) & 0x00ff00ff
        let rbB = b & 0x00ff00ff, agB = (b >> 8) & 0x00ff00ff
        let rb = ((rbA &* (256 - f) &+ rbB &* f) >> 8) & 0x00ff00ff
        let ag = ((agA &* (256 - f) &+ agB &* f) >> 8) & 0x00ff00ff
        return rb | (ag << 8)
    }

    /// Bilinear filtering with edges clamped (weights through `sharpen`, see `ImageFootprint`);
    /// the fill's own coverage draws the image border.
    @inline(__always)
    static func sampleBilinear(_ src: UnsafeBufferPointer<UInt32>, _ w: Int, _ h: Int, _ x: Double, _ y: Double,
                               sharpen: ImageFootprint = .bilinear) -> UInt32 {
        guard x.isFinite, y.isFinite else { return 0 }
        let cx = min(max(x, 0), Double(w - 1)), cy = min(max(y, 0), Double(h - 1))
        let x0 = Int(cx), y0 = Int(cy)
        let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
        let fx = sharpen.weightX(fixed(cx - Double(x0))), fy = sharpen.weightY(fixed(cy - Double(y0)))
        let p00 = src[y0 * w + x0], p10 = src[y0 * w + x1], p01 = src[y1 * w + x0], p11 = src[y1 * w + x1]
        return lerp(lerp(p00, p10, fx), lerp(p01, p11, fx), fy)
    }
}
