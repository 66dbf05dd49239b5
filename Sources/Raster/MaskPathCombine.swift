extension Mask {
    /// Whether combining by `operation` leaves a value as it is where the other mask is zero
    /// (add, subtract, lighten, difference): a mask of a path then need touch only the pixels
    /// the path covers.
    public static func keepsValuesUnderZero(_ operation: MaskOperation) -> Bool {
        operation != .intersect && operation != .darken
    }

    /// Combines the coverage of a path (non-zero rule), scaled by `scale`/256 as a mask's
    /// opacity scales it (`(c · scale) >> 8`; 256 leaves it), into this mask by `operation`,
    /// which must leave values under zero coverage (`keepsValuesUnderZero`).
    ///
    /// The same values as filling the path into a mask of its own, scaling that and
    /// `combine(_:_:)`-ing it in (a test compares both), without the mask, its clearing, the
    /// scaling pass or the pass over every row of this one: only the runs the rasterizer finds
    /// inside the path are combined (each pixel at most once: zero coverage changes nothing).
    public mutating func combine(_ path: Path, transform: Transform = .identity, _ operation: MaskOperation, scale: UInt32 = 256,
                                 pool: BufferPool? = nil) {
        precondition(Self.keepsValuesUnderZero(operation), "the operation must leave values under zero coverage")
        guard scale > 0, !path.isEmpty, transform.isFinite, !rect.isEmpty else { return }
        var storage = pool?.rasterStorage() ?? Rasterizer.Storage()
        defer { pool?.recycle(&storage) }
        let device = path.transformed(by: transform)
        let (w, ox, oy, limit) = (width, originX, originY, rect)
        let f = min(scale, 256)
        values.withUnsafeMutableBufferPointer { v in
            Rasterizer.inBands(device, limit: limit, storage: &storage) { rasterizer in
                rasterizer.sweepRuns(rule: .nonZero, opacity: 1, constant: { y, x0, start, count, a in
                    let c = UInt8(truncatingIfNeeded: (UInt32(a) &* f) &>> 8)
                    guard c != 0 else { return }
                    Self.combineRow(v.baseAddress! + (y - oy) * w + (x0 + start - ox), constant: c, count: count, operation)
                }, varying: { y, x0, start, count, alpha in
                    Self.combineRow(v.baseAddress! + (y - oy) * w + (x0 + start - ox), with: alpha + start, scale: f,
                                    count: count, operation)
                })
            }
        }
    }

    /// One run of constant coverage `c` combined into `row`.
    private static func combineRow(_ row: UnsafeMutablePointer<UInt8>, constant c: UInt8, count: Int, _ operation: MaskOperation) {
        let y = UInt32(c)
        switch operation {
        case .add:
            if c == 255 { row.update(repeating: 255, count: count); return }
            for i in 0..<count { row[i] = union(row[i], c) }
        case .subtract:
            if c == 255 { row.update(repeating: 0, count: count); return }
            for i in 0..<count { row[i] = UInt8(truncatingIfNeeded: (UInt32(row[i]) &* (255 &- y) &+ 127) / 255) }
        case .lighten:
            for i in 0..<count { row[i] = max(row[i], c) }
        case .difference:
            for i in 0..<count { row[i] = row[i] > c ? row[i] &- c : c &- row[i] }
        case .intersect, .darken:
            preconditionFailure("not an operation that keeps values under zero coverage")
        }
    }

    /// One run of varying coverage `alpha`, scaled by `f`/256, combined into `row`.
    private static func combineRow(_ row: UnsafeMutablePointer<UInt8>, with alpha: UnsafePointer<UInt8>, scale f: UInt32,
                                   count: Int, _ operation: MaskOperation) {
        switch operation {
        case .add: combineScaled(row, alpha, count, f) { x, y in x + y - (x * y + 127) / 255 }
        case .subtract: combineScaled(row, alpha, count, f) { x, y in (x * (255 - y) + 127) / 255 }
        case .lighten: combineScaled(row, alpha, count, f) { x, y in max(x, y) }
        case .difference: combineScaled(row, alpha, count, f) { x, y in x > y ? x - y : y - x }
        case .intersect, .darken:
            preconditionFailure("not an operation that keeps values under zero coverage")
        }
    }

    @inline(__always)
    private static func combineScaled(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int, _ f: UInt32,
                                      _ op: (UInt32, UInt32) -> UInt32) {
        for i in 0..<count { a[i] = UInt8(truncatingIfNeeded: op(UInt32(a[i]), (UInt32(b[i]) &* f) &>> 8)) }
    }
}
