import Glibc
import Posix

/// Coverage of recently drawn shapes, so that a shape drawn again exactly as before — the
/// same outline, transform, fill rule or stroke, and clip rectangle — is painted from the
/// coverage found the first time instead of being stroked, flattened and swept again. Most
/// frames of an animation move a few shapes and leave the rest where they were; the
/// rasterizer then works only on what moved. Paint, opacity and clip masks are applied when
/// painting, so they may change freely.
///
/// Entries are found by content, not by who drew them, so the same cache may serve any
/// number of layers, precomp instances and repeater copies. It is bounded by `byteLimit`:
/// past it, the entries used least recently are dropped. A lock keeps it safe when one
/// renderer draws on several threads.
public final class CoverageCache: @unchecked Sendable {
    enum Kind: Equatable {
        case fill(FillRule)
        case stroke(StrokeStyle)
    }

    struct Key: Hashable {
        let path: Path
        let transform: Transform
        let kind: Kind
        let limit: PixelRect

        /// A cheap hash of what most often tells shapes apart (the element count, the first
        /// and last points, the transform); equality still compares everything.
        func hash(into hasher: inout Hasher) {
            hasher.combine(path.elements.count)
            // The two ends one after the other, not as an array: that allocated on every
            // look-up and on every rehash of the table as it grew.
            func combineEnd(_ element: Path.Element?) {
                switch element {
                case .move(let p)?, .line(let p)?, .cubic(_, _, let p)?: hasher.combine(p)
                case .close?, nil: hasher.combine(0)
                }
            }
            combineEnd(path.elements.first)
            combineEnd(path.elements.last)
            hasher.combine(transform.a); hasher.combine(transform.b); hasher.combine(transform.c)
            hasher.combine(transform.d); hasher.combine(transform.tx); hasher.combine(transform.ty)
            hasher.combine(limit.x0); hasher.combine(limit.y0); hasher.combine(limit.x1); hasher.combine(limit.y1)
        }
    }

    struct Entry {
        let coverage: Coverage
        /// What the entry holds, in bytes: the coverage and the key's path.
        let size: Int
        var lastUse: UInt64
    }

    public let byteLimit: Int
    private let lock = AdaptiveLock()
    private var entries = CoverageTable()
    private var bytes = 0
    private var clock: UInt64 = 0
    private var counts = (hits: 0, misses: 0)

    /// A cache that keeps at most `byteLimit` bytes of coverage (16 MiB holds hundreds of
    /// full-screen shapes).
    public init(byteLimit: Int = 16 << 20) {
        self.byteLimit = max(0, byteLimit)
    }

    /// How many paints reused a coverage, and how many had to rasterize.
    public var statistics: (hits: Int, misses: Int) {
        lock.lock(); defer { lock.unlock() }
        return counts
    }

    /// The coverage for `key`: kept from before, or made by `make` and kept.
    func coverage(for key: Key, make: () -> Coverage) -> Coverage {
        lock.lock()
        clock += 1
        if let entry = entries.touch(key, at: clock) {
            counts.hits += 1
            defer { lock.unlock() }
            return withFootprint(entry, for: key)
        }
        counts.misses += 1
        lock.unlock()
        let made = make()
        let size = made.memorySize + MemoryLayout<Key>.stride + key.path.elements.count * MemoryLayout<Path.Element>.stride
        // One shape may not take more than a quarter of the cache.
        guard size <= byteLimit / 4 else { return made }
        lock.lock()
        defer { lock.unlock() }
        if let old = entries.updateValue(Entry(coverage: made, size: size, lastUse: clock), forKey: key) {
            bytes -= old.size
        }
        bytes += size
        if bytes > byteLimit { evictOldest() }
        return made
    }

    /// The coverage kept for `key`, if any, counted as a hit; nothing is made or counted on a miss.
    func existing(for key: Key) -> Coverage? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries.touch(key, at: clock + 1) else { return nil }
        clock += 1
        counts.hits += 1
        return withFootprint(entry, for: key)
    }

    /// The coverage of `entry`, found again, with its pieces (`Coverage.footprint`): worked
    /// out now, once, and kept, so that a shape made and never painted again does not pay
    /// for them. The lock is held.
    private func withFootprint(_ entry: Entry, for key: Key) -> Coverage {
        guard !entry.coverage.footprintKnown else { return entry.coverage }
        var coverage = entry.coverage
        coverage.workOutFootprint()
        _ = entries.updateValue(Entry(coverage: coverage, size: entry.size, lastUse: entry.lastUse), forKey: key)
        return coverage
    }

    /// Drops the least recently used half of the entries.
    private func evictOldest() {
        entries.dropLeastRecent(max(1, entries.count / 2))
        bytes = entries.items.reduce(0) { $0 + $1.entry.size }
    }
}
