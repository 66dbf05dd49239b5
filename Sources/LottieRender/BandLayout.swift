#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Raster
import Synchronization

/// Where a frame is cut into bands, moved so that the bands take about the same time. Bands
/// of equal height rarely cost the same: the rows an animation paints (the shapes, the
/// letterbox it leaves empty, a busy corner) make some bands several times dearer than
/// others, and the frame waits for the slowest. Each band's CPU time is measured as it is
/// drawn; the cuts move to where the recent times (each frame weighing as much as all those
/// before it), spread evenly over each band's rows, split in equal parts.
///
/// When to move is a matter of cost. What an animation draws moves, so cuts balanced once are
/// soon off: measured on a logo drawn stroke by stroke at 1080p, cuts balanced over 16 frames
/// left most frames' bands 10–40 % apart, and a frame waited for its slowest band about a
/// tenth of its time. But a move costs too: a band keeps the coverage of the shapes it drew
/// for its own rows, so the shapes the moved cut crosses are rasterized anew, and moving at
/// every frame cost more than it saved. So the cuts move once the time the frames waited on
/// their dearest band since the last move exceeds what a move costs, measured as how much
/// dearer than the frames before it the frame after a move was (rent or buy: never more than
/// twice the better of the two). A frame balanced within `tolerance` waits for nothing.
///
/// Between frames the cuts stay, but the work before drawing moves: every band's thread first
/// evaluates part of the frame plan (`FramePlan`), and that part is handed out so that the
/// bands end together. The thread of a band expected to draw longer than the others evaluates
/// less (for as long as `evaluationShares` says) and starts drawing sooner; the lightest band's
/// thread evaluates what is left. A frame whose bands are uneven by less than its plan's
/// evaluation then waits for no band, with no cut moved and no coverage made anew (measured on
/// a logo at 1080p: bands 175 and 190 µs apart for fifty frames, on a 33 µs plan).
///
/// Where the cuts fall never changes the pixels: every row is drawn the same whichever band
/// holds it (`ThreadedRenderTests`). One layout is shared by a renderer's copies; a lock
/// keeps its state whole when copies draw at once (the cuts are then only less apt).
final class BandLayout: @unchecked Sendable {
    /// Fewest rows in a band.
    static let minimumRows = 16

    /// Frames the recent times mostly stand for: each frame weighs 1 / `window` of them.
    static let window = 2
    /// How much dearer than the mean the dearest band may be and count as balanced.
    static let tolerance = 1.03
    /// Frames left out of the recent times after a move (the first is the move's cost).
    static let settling = 1

    fileprivate struct State {
        var rect = PixelRect.empty
        /// Band k holds rows cuts[k]..<cuts[k + 1].
        var cuts: [Int] = []
        /// Each band's seconds over the recent frames drawn with `cuts` (a moving average).
        var recent: [Double] = []
        /// Frames recorded since the cuts last moved, settling ones included.
        var frames = 0
        /// Seconds the frames since the last move waited on their dearest band (as `recent` tells).
        var waited = 0.0
        /// What a move costs, in seconds of the frame after it (a moving average).
        var moveCost = 0.0
        /// The seconds of a whole frame (all bands), a moving average, and its value at the last move.
        var frameSeconds = 0.0
        var beforeMove = 0.0
        /// Each band's seconds evaluating the frame plan, and the plan's whole evaluation
        /// (all bands), over the recent frames (moving averages).
        var recentEvaluation: [Double] = []
        var evaluation = 0.0
        /// The cuts before the last move and the band times they were moved on (`recent`
        /// then): with the times now, two measured points to interpolate the next cut between.
        var lastMove: (cuts: [Int], seconds: [Double])?
    }

    fileprivate let state = Mutex(State())

    init() {}

    /// `count` bands (fewer if `rect` is too short) covering `rect`: of equal height at
    /// first, then as the times recorded for the frames before balance them.
    func bands(of rect: PixelRect, count: Int) -> [PixelRect] {
        let n = max(1, min(count, rect.height / Self.minimumRows))
        guard n > 1 else { return [rect] }
        let cuts = state.withLock { state -> [Int] in
            if state.rect != rect || state.cuts.count != n + 1 {
                state = State()
                state.rect = rect
                state.cuts = (0...n).map { rect.y0 + rect.height * $0 / n }
                state.recent = [Double](repeating: 0, count: n)
                state.recentEvaluation = [Double](repeating: 0, count: n)
                // The first frame rasterizes every shape: it is not what the cuts cost but
                // what a move may cost at most, and counts as one.
                state.frames = 0
            }
            return state.cuts
        }
        return (0..<n).map { PixelRect(x0: rect.x0, y0: cuts[$0], x1: rect.x1, y1: cuts[$0 + 1]) }
    }

    /// How long the thread of each of `count` bands (as `bands(of:count:)` gave them) may
    /// evaluate the frame plan before it draws (nil: until the plan is done), and whether it
    /// takes the plan's entries from the back. The band expected to draw least evaluates
    /// what the others leave, from the front (the nodes drawn first, which the others need
    /// first); each other band evaluates until, by the recent times, it would end with the
    /// mean of the frame (plan and drawing spread evenly).
    func evaluationShares(count: Int) -> [(seconds: Double?, fromBack: Bool)] {
        let even = (0..<count).map { (seconds: Double?.none, fromBack: $0 > 0) }
        return state.withLock { state in
            let drawing = state.recent
            guard count > 1, drawing.count == count, state.evaluation > 0, drawing.allSatisfy({ $0 > 0 }),
                  let lightest = drawing.indices.min(by: { drawing[$0] < drawing[$1] }) else { return even }
            let end = (state.evaluation + drawing.reduce(0, +)) / Double(count)
            return drawing.indices.map { k in k == lightest ? (nil, false) : (max(0, end - drawing[k]), true) }
        }
    }

    /// Records what drawing `bands` (as given by `bands(of:count:)`) took, in seconds of
    /// CPU time each, and what each band's thread spent evaluating the plan before
    /// (`evaluating`, empty when unknown), and moves the cuts when that pays (see above):
    /// the frames wait on the band whose plan and drawing together took longest.
    func record(_ bands: [PixelRect], seconds: [Double], evaluating: [Double] = []) {
        guard bands.count > 1, bands.count == seconds.count else { return }
        let times = seconds.map { $0.isFinite && $0 > 0 ? $0 : 0 }
        let evaluated = evaluating.count == bands.count ? evaluating.map { $0.isFinite && $0 > 0 ? min($0, 1) : 0 } : times.map { _ in 0 }
        let total = times.reduce(0, +)
        state.withLock { state in
            guard state.cuts.count == bands.count + 1, zip(bands, state.cuts).allSatisfy({ $0.y0 == $1 }) else { return }
            state.frames += 1
            let all = evaluated.reduce(0, +)
            state.evaluation += (all - state.evaluation) * (state.evaluation == 0 ? 1 : 1 / Double(Self.window))
            // The frames just after a move rasterize the shapes the cut crossed anew: what
            // they cost over the frames before is the move's cost, not the cuts'.
            guard state.frames > Self.settling else {
                state.moveCost = (state.moveCost + max(0, total - state.beforeMove)) / 2
                return
            }
            let weight = state.frames == Self.settling + 1 ? 1 : 1 / Double(Self.window)
            for k in times.indices {
                state.recent[k] += (times[k] - state.recent[k]) * weight
                state.recentEvaluation[k] += (evaluated[k] - state.recentEvaluation[k]) * weight
            }
            state.frameSeconds += (total - state.frameSeconds) * (state.frameSeconds == 0 ? 1 : 1 / Double(Self.window))
            let whole = zip(state.recent, state.recentEvaluation).map { $0 + $1 }
            let mean = whole.reduce(0, +) / Double(whole.count)
            guard let dearest = whole.max(), dearest > mean * Self.tolerance else { return }
            state.waited += dearest - mean
            guard state.waited > state.moveCost else { return }
            let moved = Self.balanced(cuts: state.cuts, seconds: state.recent, before: state.lastMove)
            state.lastMove = (state.cuts, state.recent)
            state.cuts = moved
            state.frames = 0
            state.waited = 0
            state.beforeMove = state.frameSeconds
        }
    }

    /// The cuts where `seconds` (one per band of `cuts`) split in equal parts, knowing also
    /// the times `before` measured with other cuts. A band's time is rarely spread evenly
    /// over its rows: when the dear rows lie near a cut, moving the cut by the even-spread
    /// rule overshoots, the next move swings back, and the cuts keep swinging, each move
    /// rasterizing the crossed shapes anew. So where the two measurements put a cut's
    /// balance on either side of it (the last move went too far), the cut goes to where the
    /// straight line through the two measured imbalances crosses zero (the secant step);
    /// otherwise, or with nothing measured before, it moves by the even-spread rule.
    static func balanced(cuts: [Int], seconds: [Double], before: (cuts: [Int], seconds: [Double])?) -> [Int] {
        let even = balanced(cuts: cuts, seconds: seconds)
        let n = seconds.count
        guard let before, before.cuts.count == cuts.count, before.seconds.count == n, even.count == n + 1, n > 1,
              let now = imbalances(seconds), let then = imbalances(before.seconds) else { return even }
        var next = even
        for k in 1..<n where before.cuts[k] != cuts[k] && (now[k] > 0) != (then[k] > 0) {
            // The share of the time above cut k grows as the cut moves down.
            let slope = (now[k] - then[k]) / Double(cuts[k] - before.cuts[k])
            guard slope > 0 else { continue }
            next[k] = Int((Double(cuts[k]) - now[k] / slope).rounded())
        }
        for k in 1..<n { next[k] = max(next[k], next[k - 1] + minimumRows) }
        for k in stride(from: n - 1, through: 1, by: -1) { next[k] = min(next[k], next[k + 1] - minimumRows) }
        return next
    }

    /// For each cut k of the bands timed `seconds`, how much more than k / n of the time
    /// the bands above it took (index 0 unused); nil when the times say nothing.
    private static func imbalances(_ seconds: [Double]) -> [Double]? {
        let times = seconds.map { $0.isFinite ? max(0, $0) : 0 }
        let total = times.reduce(0, +)
        guard total > 0, total.isFinite else { return nil }
        var above = 0.0
        return times.indices.map { k in
            defer { above += times[k] }
            return above / total - Double(k) / Double(times.count)
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

extension BandLayout {
    /// Puts the cuts of `rect` at `cuts` (`rect.y0`, the rows between, `rect.y1`), as the
    /// balancing might, with no times recorded: for tests that draw with every placement.
    func place(cuts: [Int], of rect: PixelRect) {
        guard cuts.count > 2, cuts.first == rect.y0, cuts.last == rect.y1 else { return }
        state.withLock { state in
            state = State()
            state.rect = rect
            state.cuts = cuts
            state.recent = [Double](repeating: 0, count: cuts.count - 1)
            state.recentEvaluation = state.recent
        }
    }
}
