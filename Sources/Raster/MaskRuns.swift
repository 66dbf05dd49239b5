/// A clip mask made of one path, told as the rasterizer's runs of coverage rather than as a
/// byte per pixel: the value of a pixel of `rect` is `table[c]`, where `c` is the path's
/// coverage there (0 where no run holds it); outside `rect` it is zero.
///
/// The buffer form (`Mask`) costs a pass that sets every byte of the mask's rectangle, a pass
/// that rasterizes the path into it and, for an inverted mask or one below full opacity, a
/// pass over every byte again; painting through it then reads a byte per painted pixel. A
/// layer's masks usually are one path, often far smaller than the layer, or inverted and
/// covering most of it. As runs, the mask costs only its outline's edges, and a paint is
/// scaled by it run against run: a stretch where both are full is stored, one where either
/// is empty is skipped, and only the pixels an edge of either crosses are multiplied one by
/// one (`Surface.paintCoverage(_:shader:opacity:clipRuns:)`).
///
/// `mask(pool:)` makes the buffer form, the reference: painting through either gives the same
/// pixels (`MaskRunsTests`).
public struct MaskRuns: Sendable {
    /// The device pixels the mask holds values for.
    public let rect: PixelRect
    let coverage: Coverage
    /// For each row of `rect` and one past the last, the index of its first run in `coverage`.
    let rowStarts: [Int32]
    /// The mask's value for each coverage of the path.
    let table: [UInt8]
    /// Whether `table` maps each coverage to itself.
    let identity: Bool

    /// How a mask's coverage becomes its values, in the order a layer's first mask applies
    /// them: inverted (255 − c), scaled by its opacity below 1 (as `(v · ⌊o·256⌋) >> 8`), and
    /// inverted once more when it subtracts (it is combined into a full start).
    public struct ValueMap: Equatable, Sendable {
        public var inverted = false
        /// In 0...1; 1 leaves the values.
        public var opacity = 1.0
        public var subtracts = false

        public init(inverted: Bool = false, opacity: Double = 1, subtracts: Bool = false) {
            self.inverted = inverted
            self.opacity = opacity
            self.subtracts = subtracts
        }

        /// The value for each coverage 0...255.
        var table: [UInt8] {
            // Tested as `buildMasks` tests it: an opacity that is not below 1 (NaN too) scales nothing.
            let scales = opacity < 1
            let f = scales ? UInt32(max(0, opacity) * 256) : 256
            return (0...255).map { (c: Int) -> UInt8 in
                var v = UInt32(c)
                if inverted { v = 255 - v }
                if scales { v = (v * f) >> 8 }
                if subtracts { v = 255 - v }
                return UInt8(v)
            }
        }
    }

    /// The mask of `path` (user space, mapped by `transform`, non-zero rule) over `rect`,
    /// its coverage turned into values by `map`.
    public init(path: Path, transform: Transform, rect: PixelRect, map: ValueMap, pool: BufferPool? = nil) {
        self.rect = rect
        let table = map.table
        self.table = table
        identity = table.indices.allSatisfy { Int(table[$0]) == $0 }
        var made = Coverage()
        if !path.isEmpty, transform.isFinite, !rect.isEmpty {
            var storage = pool?.rasterStorage() ?? Rasterizer.Storage()
            let device = path.transformed(by: transform)
            if let bounds = device.bounds, let area = Rasterizer.area(bounds: bounds, limit: rect) {
                made = Coverage.build(rows: area.height) { builder in
                    Rasterizer.inBands(device, limit: rect, storage: &storage) { $0.append(rule: .nonZero, to: &builder) }
                }
            }
            pool?.recycle(&storage)
        }
        coverage = Self.coalesced(made)
        rowStarts = Self.rowStarts(of: coverage, rect: rect)
    }

    /// The same coverage with neighbouring runs of a row joined where they can be: runs of
    /// one value, and runs of bytes that follow each other in the bytes too. The sweep cuts
    /// a row at its blocks; a mask is met by every run of every paint through it, so fewer
    /// runs are fewer pieces.
    static func coalesced(_ coverage: Coverage) -> Coverage {
        var runs: [Coverage.Run] = []
        runs.reserveCapacity(coverage.runs.count)
        var longest = 0
        for run in coverage.runs {
            if var last = runs.last, last.y == run.y, last.x + last.count == run.x,
               (last.offset < 0 && run.offset < 0 && last.value == run.value)
                || (last.offset >= 0 && run.offset == last.offset + last.count) {
                last.count += run.count
                runs[runs.count - 1] = last
                longest = max(longest, Int(last.count))
                continue
            }
            runs.append(run)
            longest = max(longest, Int(run.count))
        }
        return Coverage(runs: runs, bytes: coverage.bytes, longestRun: longest, bounds: coverage.bounds)
    }

    /// Where each row's runs start (runs come row by row, left to right, as the sweep finds them).
    static func rowStarts(of coverage: Coverage, rect: PixelRect) -> [Int32] {
        var starts = [Int32](repeating: Int32(coverage.runs.count), count: max(0, rect.height) + 1)
        var next = 0
        for (i, run) in coverage.runs.enumerated() {
            let row = Int(run.y) - rect.y0
            while next <= row && next < starts.count { starts[next] = Int32(i); next += 1 }
        }
        return starts
    }

    /// Whether no pixel of the mask lets anything through.
    public var isEmpty: Bool { rect.isEmpty || table.allSatisfy { $0 == 0 } }

    /// The buffer form of the same mask: the reference.
    public func mask(pool: BufferPool? = nil) -> Mask {
        var result = Mask(rect: rect, value: table[0], pool: pool)
        let (w, ox, oy) = (result.width, rect.x0, rect.y0)
        result.values.withUnsafeMutableBufferPointer { v in
            coverage.bytes.withUnsafeBufferPointer { bytes in
                for run in coverage.runs {
                    let row = v.baseAddress! + (Int(run.y) - oy) * w + (Int(run.x) - ox)
                    for i in 0..<Int(run.count) {
                        row[i] = table[Int(run.offset < 0 ? run.value : bytes[Int(run.offset) + i])]
                    }
                }
            }
        }
        return result
    }
}

extension Clip {
    /// A clip to `rect` through the mask `runs` (which may hold a smaller rectangle: outside
    /// it nothing shows).
    public init(rect: PixelRect, runs: MaskRuns) {
        self.init(rect: rect)
        self.runs = runs
    }

    /// The clip's mask with its runs made into a buffer and intersected with it: what a
    /// painter that reads only buffers needs.
    public func bufferMask(pool: BufferPool? = nil) -> Mask? {
        guard let runs else { return mask }
        var made = runs.mask(pool: pool)
        if let mask { made.combine(mask, .intersect) }
        return made
    }
}
