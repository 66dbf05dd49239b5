/// A large path rasterized in bands of rows, so that the accumulation buffer (a `Float` per
/// pixel of the path's bounds: 8 MB for a shape covering a 1920x1080 frame) stays small. Every
/// row's coverage is computed from the edges' own ends, whatever rows the buffer spans, so the
/// bands give exactly the coverage of one rasterizer over the whole bounds (tests compare
/// them). The path is flattened once; each band adds the flattened edges again (an edge
/// outside a band's rows is dropped at once).
extension Rasterizer {
    /// The most accumulation cells one band holds (512 KiB of `Float`, 67 rows at 1080p).
    /// Twice that (1 MiB) cost 0.6 MB of the median peak RSS at 1080p over the corpus and
    /// saved no time: the extra bands' edge set-up (+0-2 % instructions) is repaid by a buffer
    /// that stays in the L2 cache.
    static let bandCells = 1 << 17

    /// Rows of a band for a buffer `width` pixels wide: at least 16.
    static func bandRows(width: Int) -> Int {
        max(16, bandCells / stride(width: width))
    }

    /// The device pixels a rasterizer for `bounds` within `limit` spans (what `init` clips
    /// to), or nil when nothing of it lies inside.
    static func area(bounds: Rect, limit: PixelRect) -> PixelRect? {
        guard bounds.x.isFinite, bounds.y.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else { return nil }
        let x0 = max(limit.x0, Int(max(-1e9, bounds.x).rounded(.down)))
        let y0 = max(limit.y0, Int(max(-1e9, bounds.y).rounded(.down)))
        let x1 = min(limit.x1, Int(min(1e9, bounds.maxX).rounded(.up)))
        let y1 = min(limit.y1, Int(min(1e9, bounds.maxY).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// Adds the device-space `path` to one rasterizer per band of rows within `limit` and hands
    /// each to `body` (top band first) to be swept; the buffers go back to `storage`.
    static func inBands(_ path: Path, limit: PixelRect, storage: inout Storage, _ body: (inout Rasterizer) -> Void) {
        guard let bounds = path.bounds, let area = area(bounds: bounds, limit: limit) else { return }
        let rows = bandRows(width: area.width)
        if area.height <= rows {
            guard var rasterizer = Rasterizer(bounds: bounds, limit: limit, storage: &storage) else { return }
            rasterizer.add(path)
            body(&rasterizer)
            rasterizer.finish(into: &storage)
            return
        }
        let edges = flattened(path, tolerance: 0.05)
        var y = area.y0
        while y < area.y1 {
            let band = PixelRect(x0: area.x0, y0: y, x1: area.x1, y1: min(y + rows, area.y1))
            if var rasterizer = Rasterizer(bounds: bounds, limit: band, storage: &storage) {
                rasterizer.add(edges)
                body(&rasterizer)
                rasterizer.finish(into: &storage)
            }
            y = band.y1
        }
    }

    /// `path` with its curves replaced by the lines `add` would draw for them (the same
    /// points: `Flatten.cubic` ends on the curve's end point), so that adding it again per
    /// band does not flatten again.
    static func flattened(_ path: Path, tolerance: Double) -> Path {
        var lines = Path()
        var start = Point.zero, last = Point.zero
        for element in path.elements {
            switch element {
            case .move(let p):
                lines.move(to: p)
                start = p; last = p
            case .line(let p):
                lines.line(to: p)
                last = p
            case .cubic(let c1, let c2, let p):
                Flatten.cubic(last, c1, c2, p, tolerance: tolerance) { lines.line(to: $0) }
                last = p
            case .close:
                lines.close()
                last = start
            }
        }
        return lines
    }
}
