import Foundation

/// The last coverage of each paint of a render tree, kept by the paint's own number (its
/// slot) rather than found by content: a fill or stroke drawn again as on the frame before
/// (the same outline, transform, rule or stroke, and limit) is painted from it, with no hash
/// and no search. Unlike `CoverageCache`, nothing is copied into a shared table and nothing
/// is evicted frame after frame.
///
/// A paint whose shape changed since its last frame is likely to change again: it is
/// painted straight from the rasterizer's sweep, with no coverage built or kept, and only
/// what it was is remembered. When it then comes back unchanged (an animation holding
/// still), its coverage is built and kept again.
///
/// A slot keeps a few entries, one per drawing limit, so that the bands of a threaded frame
/// (each with its own limit) do not push each other out. The whole store is bounded by
/// `byteLimit`: past it, new coverage is used but not kept. A lock keeps it safe when one
/// renderer draws on several threads.
public final class CoverageSlots: @unchecked Sendable {
    /// What identifies one coverage: the same as `CoverageCache.Key`.
    typealias Key = CoverageCache.Key

    private struct Entry {
        let key: Key
        /// Nil when the paint was last painted straight from the sweep.
        let coverage: Coverage?
        let size: Int
    }

    /// What a paint does with its slot.
    enum Use {
        /// Paint this coverage, kept from before.
        case reuse(Coverage)
        /// Make the coverage and `keep` it.
        case make
        /// The shape changed since its last frame: paint it straight from the sweep.
        case sweep
    }

    /// Entries per slot: one per band of a frame drawn on up to this many threads.
    static let entriesPerSlot = 4

    public let byteLimit: Int
    private let lock = NSLock()
    private var slots: [[Entry]] = []
    private var bytes = 0
    private var counts = (hits: 0, misses: 0)

    /// A store that keeps at most `byteLimit` bytes of coverage.
    public init(byteLimit: Int = 8 << 20) {
        self.byteLimit = max(0, byteLimit)
    }

    /// How many paints reused their slot's coverage, and how many did not.
    public var statistics: (hits: Int, misses: Int) {
        lock.lock(); defer { lock.unlock() }
        return counts
    }

    /// Bytes of coverage held.
    public var bytesHeld: Int {
        lock.lock(); defer { lock.unlock() }
        return bytes
    }

    /// What the paint `key` in `slot` does: reuse the coverage kept, or make it (a slot never
    /// used, or a shape that held still since its last frame), or, when `mayPaintDirectly`
    /// and the shape changed since its last frame on this limit, paint it from the sweep
    /// (remembered as drawn without coverage).
    func use(slot: Int, for key: Key, mayPaintDirectly: Bool) -> Use {
        guard slot >= 0 else { return .make }
        lock.lock()
        defer { lock.unlock() }
        guard slot < slots.count, let index = slots[slot].firstIndex(where: { $0.key.limit == key.limit }) else {
            counts.misses += 1
            return .make
        }
        let entry = slots[slot][index]
        if entry.key == key {
            if let coverage = entry.coverage {
                counts.hits += 1
                return .reuse(coverage)
            }
            counts.misses += 1
            return .make
        }
        counts.misses += 1
        guard mayPaintDirectly else { return .make }
        bytes -= entry.size
        slots[slot][index] = Entry(key: key, coverage: nil, size: 0)
        return .sweep
    }

    /// Keeps `coverage` for `key` in `slot`, in place of its entry for the same limit (or its
    /// oldest one), unless the store is full.
    func keep(slot: Int, for key: Key, _ coverage: Coverage) {
        guard slot >= 0 else { return }
        let size = coverage.memorySize + key.path.elements.count * MemoryLayout<Path.Element>.stride
        lock.lock()
        defer { lock.unlock() }
        if slot >= slots.count { slots += Array(repeating: [], count: slot + 1 - slots.count) }
        var entries = slots[slot]
        slots[slot] = []
        if let same = entries.firstIndex(where: { $0.key.limit == key.limit }) {
            bytes -= entries.remove(at: same).size
        } else if entries.count >= Self.entriesPerSlot {
            bytes -= entries.removeFirst().size
        }
        if bytes + size <= byteLimit {
            entries.append(Entry(key: key, coverage: coverage, size: size))
            bytes += size
        }
        slots[slot] = entries
    }
}

extension Surface {
    /// `fill` with its coverage kept in `slot` of `slots` (see `CoverageSlots`). Coverage a
    /// slot does not hold is looked up in `cache` when there is one; without a cache, a
    /// solid fill whose shape changed since its last frame is painted from the sweep. The
    /// same pixels as `fill`.
    public mutating func fill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero, paint: Paint,
                              opacity: Double = 1, clip: Clip? = nil, slots: CoverageSlots, slot: Int, cache: CoverageCache?) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        let shader = Shader(paint: paint, pathToDevice: transform)
        guard !shader.isEmpty else { return }
        let limit = drawingLimit(clip)
        let key = CoverageCache.Key(path: path, transform: transform, kind: .fill(rule), limit: limit)
        paintThroughSlot(key, slots: slots, slot: slot, cache: cache, shader: shader, opacity: opacity, clip: clip) {
            path.transformed(by: transform)
        }
    }

    /// `stroke` with its coverage kept in `slot` of `slots`, as `fill(…slots:slot:cache:)`.
    public mutating func stroke(_ path: Path, transform: Transform = .identity, style: StrokeStyle, paint: Paint,
                                opacity: Double = 1, clip: Clip? = nil, slots: CoverageSlots, slot: Int, cache: CoverageCache?) {
        guard opacity > 0, style.width > 0, style.width.isFinite, transform.isFinite, !path.isEmpty else { return }
        let shader = Shader(paint: paint, pathToDevice: transform)
        guard !shader.isEmpty else { return }
        let limit = drawingLimit(clip)
        let key = CoverageCache.Key(path: path, transform: transform, kind: .stroke(style), limit: limit)
        paintThroughSlot(key, slots: slots, slot: slot, cache: cache, shader: shader, opacity: opacity, clip: clip) {
            Self.strokeOutline(path, style: style, transform: transform)
        }
    }

    /// Paints the shape of `key` (`device`: its outline in device space, filled by the key's
    /// rule, or non-zero for a stroke) through its slot.
    private mutating func paintThroughSlot(_ key: CoverageCache.Key, slots: CoverageSlots, slot: Int, cache: CoverageCache?, shader: Shader,
                                           opacity: Double, clip: Clip?, device: () -> Path) {
        var rule = FillRule.nonZero
        if case .fill(let r) = key.kind { rule = r }
        // Only one colour paints the same pixels however a row is cut into runs (a gradient
        // steps along the row from where a run starts).
        let direct = cache == nil && shader.solidColor != nil
        switch slots.use(slot: slot, for: key, mayPaintDirectly: direct) {
        case .reuse(let coverage):
            paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip)
        case .make:
            let coverage = Self.lookUp(cache, key) { rasterize(device(), rule: rule, limit: key.limit) }
            slots.keep(slot: slot, for: key, coverage)
            paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip)
        case .sweep:
            paintSwept(device(), rule: rule, limit: key.limit, shader: shader, opacity: opacity, clip: clip)
        }
    }

    /// Rasterizes a device-space path within `limit` and paints it run by run as the sweep
    /// finds them, with no coverage kept: each run goes through `blendRow`, as in
    /// `referenceFill`, so the pixels are those of painting its coverage.
    mutating func paintSwept(_ device: Path, rule: FillRule, limit: PixelRect, shader: Shader, opacity: Double, clip: Clip?) {
        let o = PixelMath.alpha(Float(opacity))
        guard o > 0, let pathBounds = device.bounds,
              var rasterizer = Rasterizer(bounds: pathBounds, limit: limit, storage: &rasterStorage) else { return }
        defer { rasterizer.finish(into: &rasterStorage) }
        rasterizer.add(device)
        let (w, ox, oy) = (width, originX, originY)
        let clipMask = clip?.mask
        var constant = [UInt8](repeating: 0, count: rasterizer.width + 1)
        var colors = [UInt32](repeating: 0, count: rasterizer.width + 1)
        var touched = PixelRect.empty
        withPixels { px in
            constant.withUnsafeMutableBufferPointer { constant in
                colors.withUnsafeMutableBufferPointer { colors in
                    func blend(_ y: Int, _ x: Int, _ count: Int, _ alpha: UnsafeMutablePointer<UInt8>) {
                        touched = touched.union(PixelRect(x0: x, y0: y, x1: x + count, y1: y + 1))
                        Self.blendRow(px.baseAddress! + (y - oy) * w + (x - ox), y: y, x: x, count: count, alpha: alpha,
                                      colors: colors.baseAddress!, shader: shader, opacity: o,
                                      clip: clipMask.map { ($0.values, (y - $0.originY) * $0.width + (x - $0.originX)) })
                    }
                    rasterizer.sweepRuns(rule: rule, opacity: 1, constant: { y, x0, start, count, a in
                        constant.baseAddress!.update(repeating: a, count: count)
                        blend(y, x0 + start, count, constant.baseAddress!)
                    }, varying: { y, x0, start, count, alpha in
                        blend(y, x0 + start, count, alpha + start)
                    })
                }
            }
        }
        region.add(touched.intersection(bounds))
    }
}
