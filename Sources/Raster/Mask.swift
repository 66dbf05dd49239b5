/// How a mask combines with the masks before it.
public enum MaskOperation: Sendable {
    case add, subtract, intersect, lighten, darken, difference
}

/// 8-bit coverage per pixel, for clips, masks and mattes.
public struct Mask: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var values: [UInt8]

    public init(width: Int, height: Int, value: UInt8 = 0) {
        self.width = max(0, width)
        self.height = max(0, height)
        values = [UInt8](repeating: value, count: self.width * self.height)
    }

    public init(width: Int, height: Int, values: [UInt8]) {
        precondition(values.count == width * height, "mask size and value count disagree")
        self.width = width
        self.height = height
        self.values = values
    }

    /// Adds the coverage of a path (union with what the mask holds).
    public mutating func fill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero, opacity: Double = 1) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        var storage = Rasterizer.Storage()
        let device = path.transformed(by: transform)
        guard let bounds = device.bounds,
              var rasterizer = Rasterizer(bounds: bounds, limit: PixelRect(x0: 0, y0: 0, x1: width, y1: height), storage: &storage) else { return }
        rasterizer.add(device)
        let w = width
        values.withUnsafeMutableBufferPointer { v in
            rasterizer.sweep(rule: rule, opacity: Float(opacity)) { y, x0, start, end, alpha in
                let row = v.baseAddress! + y * w + x0
                for i in start..<end {
                    let a = UInt32(alpha[i])
                    if a == 0 { continue }
                    let old = UInt32(row[i])
                    row[i] = UInt8(old + a - (old * a + 127) / 255)
                }
            }
        }
    }

    public func inverted() -> Mask {
        Mask(width: width, height: height, values: values.map { 255 - $0 })
    }

    /// Combines `other` into this mask, pixel by pixel.
    public mutating func combine(_ other: Mask, _ operation: MaskOperation) {
        guard other.width == width, other.height == height else { return }
        values.withUnsafeMutableBufferPointer { a in
            other.values.withUnsafeBufferPointer { b in
                for i in 0..<a.count {
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
    }
}
