import LottieModel
import Raster

extension AnimationRenderer {
    /// How many CPUs this process may run on (its affinity, as `taskset` or a cpuset leaves
    /// it), which is what threads can gain; the processor count can be more.
    public static var cpusAllowed: Int { BandWorkers.cpusAllowed() }

    /// Draws a frame cut into horizontal bands, on the calling thread and `bandWorkers`.
    /// Each band is a view over the frame's own rows (no copy afterwards); where the cuts
    /// fall is `bandLayout`'s, balanced by what each band took in the frames before.
    /// With `rows`, only each band's rows within them are drawn (`render(frame:after:…)`).
    func drawBands(frame: Double, into surface: inout Surface, matrix: Raster.Transform, background: Color, covered: PixelRect?,
                   within rows: Range<Int>? = nil) {
        let whole = surface.bounds
        let bands = bandLayout.bands(of: whole, count: threads)
        let drawn = bands.map { band in rows.map { $0.clamped(to: band.y0..<band.y1) } ?? band.y0..<band.y1 }
        let indices = drawn.indices.filter { !drawn[$0].isEmpty }
        var seconds = [Double](repeating: 0, count: bands.count)
        var evaluating = [Double](repeating: 0, count: bands.count)
        let shares = bandLayout.evaluationShares(count: bands.count)
        // The shapes the frame draws are evaluated once, shared out among the threads,
        // before they draw their bands from them: a band expected to draw longer evaluates
        // less and draws sooner (`BandLayout.evaluationShares`); one that evaluates nothing
        // does not wait for the plan to be made (`SharedFramePlan`).
        let plan = SharedFramePlan()
        let cursor = FramePlan.Cursor()
        seconds.withUnsafeMutableBufferPointer { seconds in
        evaluating.withUnsafeMutableBufferPointer { evaluating in
            surface.withBands(indices.map { drawn[$0] }) { parts in
                let shared = BandWork(parts: parts, seconds: seconds, evaluating: evaluating, plan: plan, cursor: cursor)
                bandWorkers.run(count: parts.count, threads: threads) { j in
                    let i = indices[j]
                    let share = i < shares.count ? shares[i] : (seconds: nil, fromBack: true)
                    if share.seconds.map({ $0 > 0 }) ?? true {
                        // What the thread spends before it draws: making the plan or waiting for it too.
                        let begun = BandWorkers.now()
                        if let plan = shared.plan.plan(make: { FramePlan(renderer: self, frame: frame) }) {
                            let left = share.seconds.map { max(0, $0 - Double(BandWorkers.now() &- begun) * 1e-9) }
                            plan.evaluate(taking: shared.cursor, budget: budget, fromBack: share.fromBack, seconds: left)
                        }
                        shared.evaluating[i] = Double(BandWorkers.now() &- begun) * 1e-9
                    }
                    let start = BandLayout.threadSeconds()
                    drawCleared(frame: frame, into: &shared.parts[j], matrix: matrix, background: background,
                                covered: covered, whole: whole, band: (i, bands.count), budgetRows: bands[i].height)
                    shared.seconds[i] = BandLayout.threadSeconds() - start
                }
            }
        }
        }
        bandLayout.record(bands, seconds: seconds, evaluating: evaluating)
    }
}

/// What the band threads of one frame share, besides the renderer itself, which the band
/// closure reads in place (a copy here retained each of the renderer's dozens of references,
/// which every band's thread retains too: each retain moved a cache line between the cores).
/// Sound because, while the bands draw, what `draw` reads of the renderer is either not
/// written (the model with its providers bound, the compositions, the budget) or guarded by
/// a lock (shape, coverage and image caches, the buffer pool, fonts, notes), and each thread
/// writes only its own band of `parts` and its own slot of `seconds` and `evaluating`.
private struct BandWork: @unchecked Sendable {
    let parts: UnsafeMutableBufferPointer<Surface>
    let seconds: UnsafeMutableBufferPointer<Double>
    let evaluating: UnsafeMutableBufferPointer<Double>
    let plan: SharedFramePlan
    let cursor: FramePlan.Cursor
}
