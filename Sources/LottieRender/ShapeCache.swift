import Glibc
import LottieModel
import Posix
import Raster

/// The evaluated shapes of every shape layer, kept from one render to the next. A layer's
/// shapes are evaluated again only when the frame changes or a value provider bound inside
/// them has a new version; a provider elsewhere (another layer's colour, this layer's own
/// transform, which is applied after the shapes) leaves them as they are.
///
/// A reference type so that `render` stays non-mutating; the renderer replaces it whenever
/// its providers are rebound. A lock keeps it safe when one renderer draws on several threads.
final class ShapeCache: @unchecked Sendable {
    struct Key: Hashable {
        let composition: String?
        let position: Int
    }

    private struct Entry {
        let frame: Double
        let versions: [UInt64]
        let tree: ShapeTree
        /// Evaluated by a look-ahead: the first counted use is the evaluation.
        var uncounted: Bool
    }

    private let lock = AdaptiveLock()
    private var entries: [Key: Entry] = [:]
    private var counts = (evaluated: 0, reused: 0)

    /// The shapes of the layer at `position` in `comp` at `frame`, evaluated or reused.
    /// A look-ahead (`counted: false`, the backdrop check before drawing) is left out of the
    /// statistics, which tell how drawing used the cache.
    func shapes(of comp: Composition, at position: Int, items: [ShapeItem], frame: Double, counted: Bool = true,
                budget: RenderBudget = RenderBudget()) -> ShapeTree {
        let key = Key(composition: comp.id, position: position)
        // Versions are read before evaluating: a provider changed meanwhile leaves an entry
        // with an older version, which the next render evaluates again.
        // The providers are found here, each time: this cache is the reference path (the
        // render tree keeps its own `ShapeDependence` per layer), and a composition made
        // for every renderer should not pay a walk of every layer's items for it.
        let versions = ShapeDependence(items: items).providers.map(\.version)
        lock.lock()
        if var entry = entries[key], entry.frame == frame, entry.versions == versions {
            if counted {
                if entry.uncounted {
                    counts.evaluated += 1
                    entry.uncounted = false
                    entries[key] = entry
                } else {
                    counts.reused += 1
                }
            }
            lock.unlock()
            return entry.tree
        }
        lock.unlock()
        let tree = ShapeTree(items: items, frame: frame, budget: budget)
        lock.lock()
        entries[key] = Entry(frame: frame, versions: versions, tree: tree, uncounted: !counted)
        if counted { counts.evaluated += 1 }
        lock.unlock()
        return tree
    }

    /// How many shape-layer evaluations were done and how many were served from the cache.
    var statistics: (evaluated: Int, reused: Int) {
        lock.lock(); defer { lock.unlock() }
        return counts
    }
}
