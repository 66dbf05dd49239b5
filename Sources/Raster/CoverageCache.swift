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
/// number of layers, precomp instances and repeater copies. It is bounded by `byteLimit`
/// (which a renderer sets from the frame's size, `RenderBudget.keptCoverageBytes`): past it,
/// the entries used least recently are dropped. A lock keeps it safe when one renderer draws
/// on several threads.
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
        /// Kept as made until the cache is full, then packed: most entries wait for a loop to
        /// come round again, and a hit unpacks it for a fraction of what rasterizing the shape
        /// again costs (a cache that never fills pays nothing for packing).
        var coverage: Kept
        /// What the entry holds, in bytes: the coverage (as kept) and the key's path.
        var size: Int
        var lastUse: UInt64
    }

    /// A coverage as made, or packed.
    enum Kept {
        case made(Coverage)
        case packed(PackedCoverage)

        var memorySize: Int {
            switch self {
            case .made(let coverage): return coverage.memorySize
            case .packed(let packed): return packed.memorySize
            }
        }
    }

    private let lock = AdaptiveLock()
    private var limit: Int
    private var entries = CoverageTable()
    private var bytes = 0
    private var clock: UInt64 = 0
    private var counts = (hits: 0, misses: 0)

    /// A cache that keeps at most `byteLimit` bytes of coverage (16 MiB holds hundreds of
    /// full-screen shapes).
    public init(byteLimit: Int = 16 << 20) {
        limit = max(0, byteLimit)
    }

    /// The most bytes of coverage kept.
    public var byteLimit: Int {
        lock.lock(); defer { lock.unlock() }
        return limit
    }

    /// Keeps at most `bytes` from now on, dropping the entries used least recently if it
    /// holds more.
    public func setByteLimit(_ bytes: Int) {
        lock.lock(); defer { lock.unlock() }
        limit = max(0, bytes)
        if self.bytes > limit { makeRoom() }
    }

    /// How many paints reused a coverage, and how many had to rasterize.
    public var statistics: (hits: Int, misses: Int) {
        lock.lock(); defer { lock.unlock() }
        return counts
    }

    /// What the cache holds now.
    public var held: KeptCoverage {
        lock.lock(); defer { lock.unlock() }
        return entries.items.reduce(into: KeptCoverage()) { held, item in
            switch item.entry.coverage {
            case .made(let coverage): held.add(coverage, path: item.key.path, size: item.entry.size)
            case .packed(let packed): held.add(packed, path: item.key.path, size: item.entry.size)
            }
        }
    }

    /// The coverage for `key`: kept from before, or made by `make` and kept (packed).
    func coverage(for key: Key, make: () -> Coverage) -> Coverage {
        lock.lock()
        clock += 1
        if let entry = entries.touch(key, at: clock) {
            counts.hits += 1
            lock.unlock()
            return found(entry, for: key)
        }
        counts.misses += 1
        lock.unlock()
        let made = make()
        let keyBytes = MemoryLayout<Key>.stride + key.path.elements.count * MemoryLayout<Path.Element>.stride
        var kept = Kept.made(made)
        // One shape may not take more than a quarter of the cache: one too large as made
        // is packed at once, and kept if that fits.
        let quarter = byteLimit / 4
        if made.memorySize + keyBytes > quarter, made.runs.count <= quarter { kept = .packed(PackedCoverage(made)) }
        let size = kept.memorySize + keyBytes
        lock.lock()
        defer { lock.unlock() }
        guard size <= limit / 4 else { return made }
        if let old = entries.updateValue(Entry(coverage: kept, size: size, lastUse: clock), forKey: key) {
            bytes -= old.size
        }
        bytes += size
        if bytes > limit { makeRoom() }
        return made
    }

    /// The coverage kept for `key`, if any, counted as a hit; nothing is made or counted on a miss.
    func existing(for key: Key) -> Coverage? {
        lock.lock()
        guard let entry = entries.touch(key, at: clock + 1) else {
            lock.unlock()
            return nil
        }
        clock += 1
        counts.hits += 1
        lock.unlock()
        return found(entry, for: key)
    }

    /// The coverage of `entry`, found again and unpacked (out of the lock: unpacking a large
    /// shape takes a while), with its pieces (`Coverage.footprint`): worked out now, once,
    /// and kept, so that a shape made and never painted again does not pay for them.
    private func found(_ entry: Entry, for key: Key) -> Coverage {
        var coverage: Coverage
        switch entry.coverage {
        case .made(let made): coverage = made
        case .packed(let packed): coverage = packed.unpacked
        }
        guard !coverage.footprintKnown else { return coverage }
        coverage.workOutFootprint()
        lock.lock()
        defer { lock.unlock() }
        // The entry is looked at again under the lock: another thread may have packed it
        // (`makeRoom`) since, and its size is then the packed one, so it stays packed.
        entries.modifyEntry(of: key) { kept in
            switch kept.coverage {
            case .made: kept.coverage = .made(coverage)
            case .packed(var packed):
                packed.keepFootprint(of: coverage)
                kept.coverage = .packed(packed)
            }
        }
        return coverage
    }

    /// Packs the entries kept as made, and if that frees too little, drops the least recently
    /// used (`evictOldest`). The lock is held.
    private func makeRoom() {
        bytes = 0
        entries.updateEach { entry in
            if case .made(let coverage) = entry.coverage {
                let packed = PackedCoverage(coverage)
                entry.size += packed.memorySize - coverage.memorySize
                entry.coverage = .packed(packed)
            }
            bytes += entry.size
        }
        if bytes > limit { evictOldest() }
    }

    /// Drops the least recently used half of the entries, and more until what is left fits
    /// (a limit lowered a long way).
    private func evictOldest() {
        repeat {
            entries.dropLeastRecent(max(1, entries.count / 2))
            bytes = entries.items.reduce(0) { $0 + $1.entry.size }
        } while bytes > limit && entries.count > 0
    }
}
