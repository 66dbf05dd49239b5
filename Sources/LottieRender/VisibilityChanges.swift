import LottieModel

/// When the set of shown layers next changes: a player of a still file (nothing keyframed)
/// sleeps until then instead of checking every refresh. Layers enter at their in point and
/// leave just after their out point (both ends are shown); a precomp's layers are followed
/// through its start time and stretch into the outer composition's time.
extension AnimationRenderer {
    /// The first frame after `frame` (before it when `forward` is false) at which a layer may
    /// enter or leave; nil when none does on that side. It may name a frame where nothing
    /// changes after all (a caller then draws nothing and asks again), never skips one where
    /// something does. Only meaningful for a file without time-varying properties (every frame
    /// is a picture of its own otherwise); with too many layer instances to follow it answers
    /// the neighbouring frame number, so a caller keeps checking.
    public func nextVisibilityChange(after frame: Double, forward: Bool = true) -> Double? {
        guard frame.isFinite else { return nil }
        var search = BoundarySearch(from: frame, forward: forward, budget: Self.maxLayersCompared)
        collectBoundaries(root, scale: 1, offset: 0, depth: 0, &search)
        guard search.budget > 0 else { return forward ? frame.nextUp : frame.nextDown }
        return search.best
    }

    /// Visits the in and out points of `comp`'s layers, mapped to the root's time by
    /// `root = local × scale + offset`, and of the precomps they show.
    private func collectBoundaries(_ comp: Composition, scale: Double, offset: Double, depth: Int, _ search: inout BoundarySearch) {
        guard depth < LayerCompositor.maxDepth else { return }
        for layer in comp.layers {
            search.budget -= 1
            guard search.budget > 0 else { return }
            let a = layer.inPoint * scale + offset, b = layer.outPoint * scale + offset
            search.consider(shownFrom: min(a, b), to: max(a, b))
            // A static time remap holds the precomp on one frame: nothing enters or leaves in it.
            guard layer.timeRemap == nil, case .precomp(let refId, _, _) = layer.kind, let child = precomps[refId] else { continue }
            // Only while the precomp layer shows do its layers matter.
            guard search.mayChangeWithin(min(a, b)...max(a, b)) else { continue }
            let stretch = layer.timeStretch == 0 ? 1 : layer.timeStretch
            collectBoundaries(child, scale: scale * stretch, offset: offset + layer.startTime * scale, depth: depth + 1, &search)
        }
    }
}

/// The nearest frame on one side of `from` where a layer shown over a closed span of the
/// root's time enters or leaves: forwards it enters at the span's start and leaves just after
/// its end; backwards it enters at the end and leaves just before the start.
private struct BoundarySearch {
    let from: Double
    let forward: Bool
    var budget: Int
    var best: Double?

    init(from: Double, forward: Bool, budget: Int) {
        self.from = from
        self.forward = forward
        self.budget = budget
    }

    mutating func consider(shownFrom start: Double, to end: Double) {
        guard start.isFinite, end.isFinite else { return }
        for x in forward ? [start, end.nextUp] : [end, start.nextDown] where forward ? x > from : x < from {
            if let b = best, forward ? b <= x : b >= x { continue }
            best = x
        }
    }

    /// Whether a span of the root's time could hold a candidate nearer than the best so far.
    func mayChangeWithin(_ span: ClosedRange<Double>) -> Bool {
        if forward {
            return span.upperBound.nextUp > from && (best.map { span.lowerBound.nextDown < $0 } ?? true)
        }
        return span.lowerBound.nextDown < from && (best.map { span.upperBound.nextUp > $0 } ?? true)
    }
}
