/// How a mask combines with the masks before it.
public enum MaskOperation: Sendable {
    case add, subtract, intersect, lighten, darken, difference
}

/// 8-bit coverage per pixel over a rectangle of device pixels, for clips, masks and mattes.
/// Outside its rectangle a mask covers nothing.
public struct Mask: Equatable, Sendable {
    /// The device position of `values[0]`.
    public let originX: Int
    public let originY: Int
    public let width: Int
    public let height: Int
    public var values: [UInt8]

    public init(width: Int, height: Int, value: UInt8 = 0) {
        self.init(rect: PixelRect(x0: 0, y0: 0, x1: max(0, width), y1: max(0, height)), value: value)
    }

    public init(width: Int, height: Int, values: [UInt8]) {
        precondition(values.count == width * height, "mask size and value count disagree")
        originX = 0
        originY = 0
        self.width = width
        self.height = height
        self.values = values
    }

    /// A mask over `rect` (device pixels) holding `value`; with a `pool`, in a kept buffer
    /// (hand it back with `recycle(into:)`).
    public init(rect: PixelRect, value: UInt8 = 0, pool: BufferPool? = nil) {
        originX = rect.x0
        originY = rect.y0
        width = rect.width
        height = rect.height
        let count = rect.width * rect.height
        values = pool?.bytes(count: count, value: value) ?? [UInt8](repeating: value, count: count)
    }

    private init(originX: Int, originY: Int, width: Int, height: Int, values: [UInt8]) {
        self.originX = originX
        self.originY = originY
        self.width = width
        self.height = height
        self.values = values
    }

    /// The device pixels the mask holds values for.
    public var rect: PixelRect { PixelRect(x0: originX, y0: originY, x1: originX + width, y1: originY + height) }

    /// Coverage at a device pixel (0 outside the mask's rectangle).
    public func value(x: Int, y: Int) -> UInt8 {
        rect.contains(x: x, y: y) ? values[(y - originY) * width + (x - originX)] : 0
    }

    /// Gives the buffer back to `pool`; the mask is empty afterwards.
    public mutating func recycle(into pool: BufferPool) {
        pool.recycle(&values)
        self = Mask(originX: originX, originY: originY, width: 0, height: 0, values: values)
    }

    /// Adds the coverage of a path (union with what the mask holds). The rasterizer tells
    /// the inside of the path as runs of one value: a full run is a plain store, and only the
    /// pixels its edges cross are combined one by one (`referenceFill` combines every pixel
    /// of every row; a test checks both agree).
    public mutating func fill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero, opacity: Double = 1,
                              pool: BufferPool? = nil) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        var storage = pool?.rasterStorage() ?? Rasterizer.Storage()
        defer { pool?.recycle(&storage) }
        let device = path.transformed(by: transform)
        let (w, ox, oy, limit) = (width, originX, originY, rect)
        // Large paths go in bands of rows: the same coverage, a small accumulation buffer.
        values.withUnsafeMutableBufferPointer { v in
            Rasterizer.inBands(device, limit: limit, storage: &storage) { rasterizer in
                rasterizer.sweepRuns(rule: rule, opacity: Float(opacity), constant: { y, x0, start, count, a in
                    let row = v.baseAddress! + (y - oy) * w + (x0 + start - ox)
                    if a == 255 {
                        row.update(repeating: 255, count: count)
                    } else {
                        for i in 0..<count { row[i] = Self.union(row[i], a) }
                    }
                }, varying: { y, x0, start, count, alpha in
                    Self.unite(v.baseAddress! + (y - oy) * w + (x0 + start - ox), with: alpha + start, count: count)
                })
            }
        }
    }

    /// `fill` pixel by pixel over every row the path touches: the reference.
    public mutating func referenceFill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero,
                                       opacity: Double = 1) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        var storage = Rasterizer.Storage()
        let device = path.transformed(by: transform)
        guard let bounds = device.bounds,
              var rasterizer = Rasterizer(bounds: bounds, limit: rect, storage: &storage) else { return }
        defer { rasterizer.finish(into: &storage) }
        rasterizer.add(device)
        let (w, ox, oy) = (width, originX, originY)
        values.withUnsafeMutableBufferPointer { v in
            rasterizer.sweep(rule: rule, opacity: Float(opacity)) { y, x0, start, end, alpha in
                let row = v.baseAddress! + (y - oy) * w + (x0 - ox)
                for i in start..<end { row[i] = Self.union(row[i], alpha[i]) }
            }
        }
    }

    /// Coverage `old` united with coverage `a`: old + a − old·a.
    @inline(__always) static func union(_ old: UInt8, _ a: UInt8) -> UInt8 {
        let (x, y) = (UInt32(old), UInt32(a))
        return UInt8(x + y - (x * y + 127) / 255)
    }

    /// 255 minus every value, over the mask's rectangle.
    public func inverted() -> Mask {
        var copy = self
        copy.invert()
        return copy
    }

    public mutating func invert() {
        values.withUnsafeMutableBufferPointer { v in
            for i in v.indices { v[i] = 255 - v[i] }
        }
    }

    /// Combines `other` into this mask, pixel by pixel over this mask's rectangle (`other`
    /// covers nothing outside its own).
    public mutating func combine(_ other: Mask, _ operation: MaskOperation) {
        let shared = rect.intersection(other.rect)
        let (w, ow) = (width, other.width)
        // Rows the other mask misses change only for an operation that clears under zero.
        let rows = !Self.keepsValuesUnderZero(operation) ? originY..<originY + height
            : shared.isEmpty ? 0..<0 : shared.y0..<shared.y1
        values.withUnsafeMutableBufferPointer { a in
            other.values.withUnsafeBufferPointer { b in
                for y in rows {
                    let row = a.baseAddress! + (y - originY) * w
                    guard !shared.isEmpty, y >= shared.y0, y < shared.y1 else {
                        Self.combine(row, nil, count: w, operation)
                        continue
                    }
                    let left = shared.x0 - originX, inside = shared.width
                    Self.combine(row, nil, count: left, operation)
                    Self.combine(row + left, b.baseAddress! + (y - other.originY) * ow + (shared.x0 - other.originX),
                                 count: inside, operation)
                    Self.combine(row + left + inside, nil, count: w - left - inside, operation)
                }
            }
        }
    }

    /// One row: `b` nil stands for zero coverage. Each operation has its own loop, so that
    /// the choice is made once per row rather than once per pixel.
    private static func combine(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafePointer<UInt8>?, count: Int, _ operation: MaskOperation) {
        guard count > 0 else { return }
        guard let b else {
            // With nothing from the other mask: add, subtract, lighten and difference leave
            // the values; intersect and darken clear them.
            if operation == .intersect || operation == .darken { a.update(repeating: 0, count: count) }
            return
        }
        switch operation {
        case .add: combineRow(a, b, count) { x, y in x + y - (x * y + 127) / 255 }
        case .subtract: combineRow(a, b, count) { x, y in (x * (255 - y) + 127) / 255 }
        case .intersect: combineRow(a, b, count) { x, y in (x * y + 127) / 255 }
        case .lighten: combineRow(a, b, count) { x, y in max(x, y) }
        case .darken: combineRow(a, b, count) { x, y in min(x, y) }
        case .difference: combineRow(a, b, count) { x, y in x > y ? x - y : y - x }
        }
    }

    @inline(__always)
    private static func combineRow(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int,
                                   _ f: (UInt32, UInt32) -> UInt32) {
        for i in 0..<count { a[i] = UInt8(truncatingIfNeeded: f(UInt32(a[i]), UInt32(b[i]))) }
    }

    /// One pixel of `combine`, as it was computed before the per-operation loops: the
    /// reference a test compares them with.
    static func referenceCombine(_ x: UInt32, _ y: UInt32, _ operation: MaskOperation) -> UInt8 {
        let r: UInt32
        switch operation {
        case .add: r = x + y - (x * y + 127) / 255
        case .subtract: r = (x * (255 - y) + 127) / 255
        case .intersect: r = (x * y + 127) / 255
        case .lighten: r = max(x, y)
        case .darken: r = min(x, y)
        case .difference: r = x > y ? x - y : y - x
        }
        return UInt8(r)
    }
}
