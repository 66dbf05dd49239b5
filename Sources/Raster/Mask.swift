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

    /// Adds the coverage of a path (union with what the mask holds).
    public mutating func fill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero, opacity: Double = 1,
                              pool: BufferPool? = nil) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        var storage = pool?.rasterStorage() ?? Rasterizer.Storage()
        defer { pool?.recycle(&storage) }
        let device = path.transformed(by: transform)
        guard let bounds = device.bounds,
              var rasterizer = Rasterizer(bounds: bounds, limit: rect, storage: &storage) else { return }
        defer { rasterizer.finish(into: &storage) }
        rasterizer.add(device)
        let (w, ox, oy) = (width, originX, originY)
        values.withUnsafeMutableBufferPointer { v in
            rasterizer.sweep(rule: rule, opacity: Float(opacity)) { y, x0, start, end, alpha in
                let row = v.baseAddress! + (y - oy) * w + (x0 - ox)
                for i in start..<end {
                    let a = UInt32(alpha[i])
                    if a == 0 { continue }
                    let old = UInt32(row[i])
                    row[i] = UInt8(old + a - (old * a + 127) / 255)
                }
            }
        }
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
        values.withUnsafeMutableBufferPointer { a in
            other.values.withUnsafeBufferPointer { b in
                for y in originY..<originY + height {
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

    /// One row: `b` nil stands for zero coverage.
    private static func combine(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafePointer<UInt8>?, count: Int, _ operation: MaskOperation) {
        guard count > 0 else { return }
        guard let b else {
            // With nothing from the other mask: add, subtract, lighten and difference leave
            // the values; intersect and darken clear them.
            if operation == .intersect || operation == .darken { a.update(repeating: 0, count: count) }
            return
        }
        for i in 0..<count {
            let x = UInt32(a[i]), y = UInt32(b[i])
            let r: UInt32
            switch operation {
            case .add: r = x + y - (x * y + 127) / 255
            case .subtract: r = (x * (255 - y) + 127) / 255
            case .intersect: r = (x * y + 127) / 255
            case .lighten: r = max(x, y)
            case .darken: r = min(x, y)
            case .difference: r = x > y ? x - y : y - x
            }
            a[i] = UInt8(r)
        }
    }
}
