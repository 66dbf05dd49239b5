#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The device-space paths of a set of paints (a fill's path through its transform, a
/// stroke's outline), made once and shared by the threads that draw them.
///
/// Each band of a threaded frame draws every paint that reaches its rows, and a paint whose
/// coverage its band cannot reuse needs its path in device space: a stroke's outline is as
/// dear as rasterizing it. Made by each band, the same outline was made once per band. Here
/// the first band to need a paint's path makes it and the others take it. A band that finds
/// another still making it waits for that path a short while (`waitNanoseconds`), then makes
/// its own (the maker may be preempted): the bands of a frame start together and draw the
/// same paints in the same order, so they often reach a paint at once, and each making its
/// own made a third of some frames' outlines twice (measured on a masked logo at 1080p). Waiting ends no
/// later than making would have, since the maker started first. The path given is the one `make` returns for the same
/// transform, whoever made it: the pixels do not change.
public final class DevicePaths: Sendable {
    private enum Entry: Sendable {
        case none
        /// Some thread is making the path for this transform.
        case making(Transform)
        case made(Transform, Path)
    }

    private let entries: Mutex<[Entry]>
    /// How many paths were made, and how many were taken made by another (atomics: a lock
    /// more per paint is a cache line more moving between the cores).
    private let made = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)
    /// Paths stored so far: what a waiting band watches before it looks again.
    private let stored = Atomic<Int>(0)

    /// How long a band waits for the path another is making before making its own: a stroke
    /// outline takes 10–30 µs at 1080p.
    static let waitNanoseconds: UInt64 = 50_000

    /// Room for the paints `0..<count`.
    public init(count: Int) {
        entries = Mutex([Entry](repeating: .none, count: max(0, count)))
    }

    /// How many paths were made and how many were taken ready (for tests and figures).
    public var statistics: (made: Int, taken: Int) { (made.load(ordering: .relaxed), taken.load(ordering: .relaxed)) }

    /// The device path of paint `index` drawn through `transform`: the one made before for
    /// that transform, or `make()`'s (kept for the next asker when no other thread is making it).
    public func path(at index: Int, transform: Transform, make: () -> Path) -> Path {
        enum Found { case ready(Path), mine, other }
        let found = entries.withLock { entries -> Found in
            guard entries.indices.contains(index) else { return .other }
            switch entries[index] {
            case .made(let t, let path) where t == transform:
                return .ready(path)
            case .making(let t) where t == transform:
                return .other
            default:
                entries[index] = .making(transform)
                return .mine
            }
        }
        switch found {
        case .ready(let path):
            taken.add(1, ordering: .relaxed)
            return path
        case .other:
            if let path = waitForOther(at: index, transform: transform) {
                taken.add(1, ordering: .relaxed)
                return path
            }
            made.add(1, ordering: .relaxed)
            return make()
        case .mine:
            let path = make()
            entries.withLock { entries in
                // Another transform may have been asked for meanwhile (the layer drawn twice):
                // the latest asker's entry stays.
                if case .making(let t) = entries[index], t == transform { entries[index] = .made(transform, path) }
            }
            stored.add(1, ordering: .releasing)
            made.add(1, ordering: .relaxed)
            return path
        }
    }

    /// The path of paint `index` for `transform` once the thread making it has stored it, or
    /// nil when it is not stored within `waitNanoseconds` (or another transform took the entry).
    private func waitForOther(at index: Int, transform: Transform) -> Path? {
        let deadline = Self.now() &+ Self.waitNanoseconds
        var seen = stored.load(ordering: .acquiring)
        var spins = 0
        while true {
            let now = stored.load(ordering: .acquiring)
            if now != seen {
                seen = now
                enum Look { case ready(Path), wait, gone }
                let look = entries.withLock { entries -> Look in
                    switch entries[index] {
                    case .made(let t, let path) where t == transform: return .ready(path)
                    case .making(let t) where t == transform: return .wait
                    default: return .gone
                    }
                }
                switch look {
                case .ready(let path): return path
                case .gone: return nil
                case .wait: break
                }
            }
            spins += 1
            if spins & 31 == 0, Self.now() > deadline { return nil }
        }
    }

    private static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }
}
