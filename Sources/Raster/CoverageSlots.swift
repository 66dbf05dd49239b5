import Foundation

/// The last coverage of each paint of a render tree, kept by the paint's own number (its
/// slot) rather than found by content: a fill or stroke drawn again as on the frame before
/// (the same outline, transform, rule or stroke, and limit) is painted from it, with no hash
/// and no search; one that changed replaces its slot's entry in place. Unlike
/// `CoverageCache`, nothing is copied into a shared table and nothing is evicted frame after
/// frame, so a shape that changes on every frame costs only its rasterization.
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
        let coverage: Coverage
        let size: Int
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

    /// The coverage for `key` in `slot`: kept from before, or made by `make` and kept in
    /// place of the slot's entry for the same limit (or its oldest one).
    func coverage(slot: Int, for key: Key, make: () -> Coverage) -> Coverage {
        guard slot >= 0 else { return make() }
        lock.lock()
        if slot < slots.count, let entry = slots[slot].first(where: { $0.key == key }) {
            counts.hits += 1
            lock.unlock()
            return entry.coverage
        }
        counts.misses += 1
        lock.unlock()
        let made = make()
        let size = made.memorySize + key.path.elements.count * MemoryLayout<Path.Element>.stride
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
            entries.append(Entry(key: key, coverage: made, size: size))
            bytes += size
        }
        slots[slot] = entries
        return made
    }
}

extension Surface {
    /// `fill` with its coverage kept in `slot` of `slots` (see `CoverageSlots`); when the
    /// slot has none that fits, the coverage is looked up in `cache` (if any) before it is
    /// rasterized. The same pixels as `fill`.
    public mutating func fill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero, paint: Paint,
                              opacity: Double = 1, clip: Clip? = nil, slots: CoverageSlots, slot: Int, cache: CoverageCache?) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        let shader = Shader(paint: paint, pathToDevice: transform)
        guard !shader.isEmpty else { return }
        let limit = drawingLimit(clip)
        let key = CoverageCache.Key(path: path, transform: transform, kind: .fill(rule), limit: limit)
        let coverage = slots.coverage(slot: slot, for: key) {
            Self.lookUp(cache, key) { rasterize(path.transformed(by: transform), rule: rule, limit: limit) }
        }
        paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip)
    }

    /// `stroke` with its coverage kept in `slot` of `slots`, as `fill(…slots:slot:cache:)`.
    public mutating func stroke(_ path: Path, transform: Transform = .identity, style: StrokeStyle, paint: Paint,
                                opacity: Double = 1, clip: Clip? = nil, slots: CoverageSlots, slot: Int, cache: CoverageCache?) {
        guard opacity > 0, style.width > 0, style.width.isFinite, transform.isFinite, !path.isEmpty else { return }
        let shader = Shader(paint: paint, pathToDevice: transform)
        guard !shader.isEmpty else { return }
        let limit = drawingLimit(clip)
        let key = CoverageCache.Key(path: path, transform: transform, kind: .stroke(style), limit: limit)
        let coverage = slots.coverage(slot: slot, for: key) {
            Self.lookUp(cache, key) { rasterize(strokeOutline(path, style: style, transform: transform), rule: .nonZero, limit: limit) }
        }
        paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip)
    }
}
