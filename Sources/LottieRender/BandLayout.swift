#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Raster
import Synchronization

/// Where a frame is cut into bands, moved now and then so that the bands take about the
/// same time. Bands of equal height rarely cost the same: the rows an animation paints (the
/// shapes, the letterbox it leaves empty, a busy corner) make some bands several times
/// dearer than others, and the frame waits for the slowest. Each band's CPU time is
/// measured as it is drawn and summed over `window` frames; if the dearest band then took
/// more than `tolerance` times the mean, the cuts move to where the summed cost, spread
/// evenly over each band's rows, splits in equal parts. Cuts move rarely on purpose: a
/// band's coverage cache entries hold its own rows, so a frame after a move rasterizes its
/// shapes anew, and summing frames keeps one noisy frame from moving anything.
///
/// Where the cuts fall never changes the pixels: every row is drawn the same whichever band
/// holds it (`ThreadedRenderTests`). One layout is shared by a renderer's copies; a lock
/// keeps its state whole when copies draw at once (the cuts are then only less apt).
final class BandLayout: @unchecked Sendable {
    /// Fewest rows in a band.
    static let minimumRows = 16

    /// Frames whose times are summed before the cuts may move.
    static let window = 16
    /// How much dearer than the mean the dearest band may be before the cuts move.
    static let tolerance = 1.1
    /// Frames left out of the sums after a move.
    static let settling = 2

    private struct State {
        var rect = PixelRect.empty
        /// Band k holds rows cuts[k]..<cuts[k + 1].
        var cuts: [Int] = []
        /// Seconds of each band summed over `frames` frames drawn with `cuts`.
        var sums: [Double] = []
        var frames = 0
    }

    private let state = Mutex(State())

    init() {}

    /// `count` bands (fewer if `rect` is too short) covering `rect`: of equal height at
    /// first, then as the times recorded for the frames before balance them.
    func bands(of rect: PixelRect, count: Int) -> [PixelRect] {
        let n = max(1, min(count, rect.height / Self.minimumRows))
        guard n > 1 else { return [rect] }
        let cuts = state.withLock { state -> [Int] in
            if state.rect != rect || state.cuts.count != n + 1 {
                state.rect = rect
                state.cuts = (0...n).map { rect.y0 + rect.height * $0 / n }
                state.sums = [Double](repeating: 0, count: n)
                state.frames = 0
            }
            return state.cuts
        }
        return (0..<n).map { PixelRect(x0: rect.x0, y0: cuts[$0], x1: rect.x1, y1: cuts[$0 + 1]) }
    }

    /// Records what drawing `bands` (as given by `bands(of:count:)`) took, in seconds of
    /// CPU time each; every `window` frames, moves the cuts if the bands were unbalanced.
    func record(_ bands: [PixelRect], seconds: [Double]) {
        guard bands.count > 1, bands.count == seconds.count else { return }
        state.withLock { state in
            guard state.cuts.count == bands.count + 1, zip(bands, state.cuts).allSatisfy({ $0.y0 == $1 }) else { return }
            state.frames += 1
            // The frames just after a move rasterize every band's shapes anew: not a cost
            // of the cuts, so not counted.
            guard state.frames > 0 else { return }
            for k in seconds.indices where seconds[k].isFinite && seconds[k] > 0 { state.sums[k] += seconds[k] }
            guard state.frames >= Self.window else { return }
            let mean = state.sums.reduce(0, +) / Double(state.sums.count)
            state.frames = 0
            if let dearest = state.sums.max(), dearest > mean * Self.tolerance {
                state.cuts = Self.balanced(cuts: state.cuts, seconds: state.sums)
                state.frames = -Self.settling
            }
            state.sums = [Double](repeating: 0, count: state.sums.count)
        }
    }

    /// The cuts where `seconds` (one per band of `cuts`), spread evenly over each band's
    /// rows, split in equal parts; each band keeps at least `minimumRows`.
    static func balanced(cuts: [Int], seconds: [Double]) -> [Int] {
        let n = seconds.count
        guard cuts.count == n + 1, n > 1 else { return cuts }
        // A band that drew nothing still costs a little per row, so that its rows are
        // not all given to one band.
        let total = seconds.reduce(0) { $0 + max(0, $1.isFinite ? $1 : 0) }
        guard total > 0 else { return cuts }
        let floor = total / Double(cuts[n] - cuts[0]) * 0.05
        let cost = (0..<n).map { k in max(0, seconds[k].isFinite ? seconds[k] : 0) + floor * Double(cuts[k + 1] - cuts[k]) }
        let sum = cost.reduce(0, +)
        var next = cuts
        var band = 0, before = 0.0  // cost of the bands before `band`
        for k in 1..<n {
            let goal = sum * Double(k) / Double(n)
            while band < n - 1, before + cost[band] < goal { before += cost[band]; band += 1 }
            let rows = Double(cuts[band + 1] - cuts[band])
            let within = cost[band] > 0 ? min(1, max(0, (goal - before) / cost[band])) : 0.5
            let target = Double(cuts[band]) + rows * within
            next[k] = Int(target.rounded())
        }
        // Keep every band at least `minimumRows` high, in order, within the rectangle.
        for k in 1..<n { next[k] = max(next[k], next[k - 1] + minimumRows) }
        for k in stride(from: n - 1, through: 1, by: -1) { next[k] = min(next[k], next[k + 1] - minimumRows) }
        return next
    }

    /// CPU time of the calling thread, in seconds.
    static func threadSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
