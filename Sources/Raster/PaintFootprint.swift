/// Where a paint put pixels, as a few rectangles instead of its bounding box.
///
/// A stroke round or across the frame (a ring, an outline, a long diagonal line) paints a
/// small part of its bounding box; the next frame's clear visits every pixel of the dirty
/// region, so with the bounding box it cleared the stroke's empty middle too (at 1080p, some
/// megabytes a frame for one thin outline). Runs are noted in strips of 16 rows, each a
/// 64-bit mask of column bins the strip touched; the rectangles are the masks' stretches
/// of set bits, those of strips one under another with the same columns made one. Every
/// painted pixel lies in one of them (a test checks it against the runs), so clearing them
/// clears all the paint did.
struct PaintFootprint {
    /// Bounding boxes smaller than this are noted whole: their clear costs less than the pieces.
    static let leastArea = 1 << 15
    static let stripShift = 4
    let area: PixelRect
    /// Column bins are 1 << binShift pixels wide, at most 64 of them.
    let binShift: Int
    let strips: Int

    /// A footprint for paints within `area`, or nil where `area` is small enough to note whole.
    init?(area: PixelRect) {
        guard !area.isEmpty, area.width * area.height >= Self.leastArea else { return nil }
        self.area = area
        var shift = 0
        while (area.width + (1 << shift) - 1) >> shift > 64 { shift += 1 }
        binShift = shift
        strips = (area.height + (1 << Self.stripShift) - 1) >> Self.stripShift
    }

    /// Marks x..<x+count of row `y` in `masks` (`strips` of them); a run outside `area` is cut to it.
    @inline(__always)
    func note(y: Int, x: Int, count: Int, in masks: UnsafeMutablePointer<UInt64>) {
        guard y >= area.y0, y < area.y1, count > 0 else { return }
        let b0 = max(0, x - area.x0) >> binShift, b1 = min(63, max(0, x + count - 1 - area.x0) >> binShift)
        guard b0 <= b1 else { return }
        masks[(y - area.y0) >> Self.stripShift] |= ((~0 as UInt64) >> UInt64(63 - (b1 - b0))) << UInt64(b0)
    }

    /// The rectangles of `masks`, cut to `limit`, added to `region`.
    func add(_ masks: UnsafeMutablePointer<UInt64>, to region: inout DirtyRegion, limit: PixelRect) {
        // Rectangles still growing down: those of the strip above, by their columns.
        var open: [PixelRect] = []
        var next: [PixelRect] = []
        for s in 0..<strips {
            let y0 = area.y0 + s << Self.stripShift, y1 = min(area.y1, y0 + 1 << Self.stripShift)
            var m = masks[s]
            while m != 0 {
                let b0 = m.trailingZeroBitCount
                let length = (~(m >> UInt64(b0))).trailingZeroBitCount
                m &= length == 64 ? 0 : ~(((~0 as UInt64) >> UInt64(64 - length)) << UInt64(b0))
                let x0 = area.x0 + b0 << binShift, x1 = min(area.x1, area.x0 + (b0 + length) << binShift)
                if let k = open.firstIndex(where: { $0.x0 == x0 && $0.x1 == x1 }) {
                    next.append(PixelRect(x0: x0, y0: open[k].y0, x1: x1, y1: y1))
                    open.remove(at: k)
                } else {
                    next.append(PixelRect(x0: x0, y0: y0, x1: x1, y1: y1))
                }
            }
            for r in open { region.add(r.intersection(limit), pairing: true) }
            swap(&open, &next)
            next.removeAll(keepingCapacity: true)
        }
        for r in open { region.add(r.intersection(limit), pairing: true) }
    }

    /// Notes the runs of `coverage` in `region` (cut to `limit`): its pieces when it is large.
    static func note(_ coverage: Coverage, in region: inout DirtyRegion, limit: PixelRect) {
        guard let footprint = PaintFootprint(area: coverage.bounds) else {
            return region.add(coverage.bounds.intersection(limit))
        }
        footprint.withMasks { masks in
            coverage.runs.withUnsafeBufferPointer { runs in
                for run in runs { footprint.note(y: Int(run.y), x: Int(run.x), count: Int(run.count), in: masks) }
            }
            footprint.add(masks, to: &region, limit: limit)
        }
    }

    /// Calls `body` with `strips` zeroed masks.
    func withMasks<R>(_ body: (UnsafeMutablePointer<UInt64>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: strips) { masks in
            masks.initialize(repeating: 0)
            return body(masks.baseAddress!)
        }
    }

    /// `strips` zeroed masks, for a paint whose runs come through closures; the caller deallocates them.
    func allocateMasks() -> UnsafeMutablePointer<UInt64> {
        let masks = UnsafeMutablePointer<UInt64>.allocate(capacity: strips)
        masks.initialize(repeating: 0, count: strips)
        return masks
    }
}
