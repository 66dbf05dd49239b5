import Synchronization

/// The device-space paths of a set of paints (a fill's path through its transform, a
/// stroke's outline), made once and shared by the threads that draw them.
///
/// Each band of a threaded frame draws every paint that reaches its rows, and a paint whose
/// coverage its band cannot reuse needs its path in device space: a stroke's outline is as
/// dear as rasterizing it. Made by each band, the same outline was made once per band. Here
/// the first band to need a paint's path makes it and the others take it; a band that finds
/// another still making it makes its own rather than wait (the maker may be preempted), so a
/// band never waits on another. The path given is the one `make` returns for the same
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
            made.add(1, ordering: .relaxed)
            return make()
        case .mine:
            let path = make()
            entries.withLock { entries in
                // Another transform may have been asked for meanwhile (the layer drawn twice):
                // the latest asker's entry stays.
                if case .making(let t) = entries[index], t == transform { entries[index] = .made(transform, path) }
            }
            made.add(1, ordering: .relaxed)
            return path
        }
    }
}
