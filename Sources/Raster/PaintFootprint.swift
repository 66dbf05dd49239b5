/// Where a paint put pixels, as a few rectangles instead of its bounding box.
///
/// Used by the paint swept straight from the rasterizer (`paintSwept`: a shape that keeps
/// changing, as a trimmed or animated stroke does), which visits its runs anyway. A kept
/// coverage painted again each frame has its pieces worked out once, when it is first
/// painted again (`pieces(of:bounds:)`, stored in `Coverage.footprint`): walking its runs
/// every frame cost more than the clear it saved, and working them out for every shape
/// made cost shapes that change each frame.
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
    /// Bounding boxes smaller than this (a quarter of a megapixel) are noted whole: their
    /// clear costs less than noting every run (measured: below it, noting cost more than
    /// the clear it saved).
    static let leastArea = 1 << 18
    let area: PixelRect
    /// Strips are 1 << stripShift rows, at least 16 and at most 24 of them: each piece a
    /// paint notes costs a search of the region's pairs.
    let stripShift: Int
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
        var rows = 4
        while (area.height + (1 << rows) - 1) >> rows > 24 { rows += 1 }
        stripShift = rows
        strips = (area.height + (1 << rows) - 1) >> rows
    }

    /// Marks x..<x+count of row `y` in `masks` (`strips` of them); a run outside `area` is cut to it.
    @inline(__always)
    func note(y: Int, x: Int, count: Int, in masks: UnsafeMutablePointer<UInt64>) {
        guard y >= area.y0, y < area.y1, count > 0 else { return }
        let b0 = max(0, x - area.x0) &>> binShift, b1 = min(63, max(0, x + count - 1 - area.x0) &>> binShift)
        guard b0 <= b1 else { return }
        // Bits b0...b1: at b1 = 63 the first shift wraps to 0, and 0 − 2^b0 is every bit from b0 up.
        masks[(y - area.y0) &>> stripShift] |= (2 as UInt64) &<< UInt64(b1) &- (1 as UInt64) &<< UInt64(b0)
    }

    /// The rectangles of `masks`, cut to `limit`, added to `region`; when they hold more than
    /// two thirds of their bounding box (a dense shape), that box instead, as one rectangle.
    func add(_ masks: UnsafeMutablePointer<UInt64>, to region: inout DirtyRegion, limit: PixelRect) {
        let pieces = rectangles(masks, limit: limit)
        var box = PixelRect.empty, total = 0
        for r in pieces { box = box.union(r); total += Self.area(r) }
        if total * 3 > Self.area(box) * 2 { return region.add(box) }
        for r in pieces { region.add(r, pairing: true) }
    }

    /// The stretches of set bits of `masks`, strip by strip, a piece under one of the strip
    /// above joined to it where that adds at most half its own pixels (a side that slants
    /// gently is one rectangle, not one a strip); cut to `limit`.
    func rectangles(_ masks: UnsafeMutablePointer<UInt64>, limit: PixelRect) -> [PixelRect] {
        var done: [PixelRect] = []
        // Rectangles still growing down: those of the strip above.
        var open: [PixelRect] = []
        var next: [PixelRect] = []
        for s in 0..<strips {
            let y0 = area.y0 + s << stripShift, y1 = min(area.y1, y0 + 1 << stripShift)
            var m = masks[s]
            while m != 0 {
                let b0 = m.trailingZeroBitCount
                let length = (~(m >> UInt64(b0))).trailingZeroBitCount
                m &= length == 64 ? 0 : ~(((~0 as UInt64) >> UInt64(64 - length)) << UInt64(b0))
                let x0 = area.x0 + b0 << binShift, x1 = min(area.x1, area.x0 + (b0 + length) << binShift)
                let piece = PixelRect(x0: x0, y0: y0, x1: x1, y1: y1)
                if let k = open.firstIndex(where: { Self.area($0.union(piece)) * 2 <= Self.area($0) * 2 + Self.area(piece) * 3 }) {
                    next.append(open[k].union(piece))
                    open.remove(at: k)
                } else {
                    next.append(piece)
                }
            }
            for r in open where !r.intersection(limit).isEmpty { done.append(r.intersection(limit)) }
            swap(&open, &next)
            next.removeAll(keepingCapacity: true)
        }
        for r in open where !r.intersection(limit).isEmpty { done.append(r.intersection(limit)) }
        return done
    }

    private static func area(_ r: PixelRect) -> Int { r.width * r.height }

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

extension PaintFootprint {
    /// Where `runs` (all within `bounds`) lie, as at most `DirtyRegion.capacity` rectangles
    /// joined as a region joins a paint's pieces; nil where `bounds` serves as well (a small
    /// or dense shape). Worked out once for a kept coverage (`Coverage.workOutFootprint`):
    /// walking its runs on every paint cost more than the clear it saved.
    static func pieces(of runs: [Coverage.Run], bounds: PixelRect) -> [PixelRect]? {
        guard let footprint = PaintFootprint(area: bounds) else { return nil }
        // A shape covering more than two thirds of its box is noted whole (`add`): its
        // pixels are counted first, at a third of the cost of noting its runs.
        var covered = 0
        for run in runs { covered &+= Int(run.count) }
        guard covered * 3 <= bounds.width * bounds.height * 2 else { return nil }
        return footprint.withMasks { masks -> [PixelRect]? in
            for run in runs { footprint.note(y: Int(run.y), x: Int(run.x), count: Int(run.count), in: masks) }
            var region = DirtyRegion()
            footprint.add(masks, to: &region, limit: bounds)
            guard region.count > 1 else { return nil }
            return (0..<region.count).map { region[$0] }
        }
    }
}

extension Surface {
    /// Notes the pixels a paint of `coverage` may touch within `rect`: its pieces where it
    /// has them (`Coverage.footprint`), or its bounding box.
    @inline(__always)
    mutating func notePainted(_ coverage: Coverage, within rect: PixelRect) {
        guard let pieces = coverage.footprint else { return region.add(coverage.bounds.intersection(rect)) }
        notePainted(pieces, within: rect)
    }

    private mutating func notePainted(_ pieces: [PixelRect], within rect: PixelRect) {
        for piece in pieces { region.add(piece.intersection(rect), pairing: true) }
    }
}
