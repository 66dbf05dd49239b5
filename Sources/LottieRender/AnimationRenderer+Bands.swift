import LottieModel
import Raster

extension AnimationRenderer {
    /// How many CPUs this process may run on (its affinity, as `taskset` or a cpuset leaves
    /// it), which is what threads can gain; the processor count can be more.
    public static var cpusAllowed: Int { BandWorkers.cpusAllowed() }

    /// Draws a frame cut into horizontal bands, on the calling thread and `bandWorkers`.
    /// Each band is a view over the frame's own rows (no copy afterwards); where the cuts
    /// fall is `bandLayout`'s, balanced by what each band took in the frames before.
    func drawBands(frame: Double, into surface: inout Surface, matrix: Raster.Transform, background: Color, covered: PixelRect?) {
        let whole = surface.bounds
        let bands = bandLayout.bands(of: whole, count: threads)
        var seconds = [Double](repeating: 0, count: bands.count)
        var evaluating = [Double](repeating: 0, count: bands.count)
        let shares = bandLayout.evaluationShares(count: bands.count)
        // The shapes the frame draws are evaluated once, shared out among the threads,
        // before they draw their bands from them: a band expected to draw longer evaluates
        // less and draws sooner (`BandLayout.evaluationShares`).
        let plan = FramePlan(renderer: self, frame: frame)
        let cursor = FramePlan.Cursor()
        seconds.withUnsafeMutableBufferPointer { seconds in
        evaluating.withUnsafeMutableBufferPointer { evaluating in
            surface.withBands(bands.map { $0.y0..<$0.y1 }) { parts in
                let shared = BandWork(renderer: self, parts: parts, seconds: seconds, evaluating: evaluating, plan: plan, cursor: cursor)
                bandWorkers.run(count: parts.count, threads: threads) { i in
                    let share = i < shares.count ? shares[i] : (seconds: nil, fromBack: true)
                    shared.evaluating[i] = shared.plan.evaluate(taking: shared.cursor, budget: shared.renderer.budget,
                                                                fromBack: share.fromBack, seconds: share.seconds)
                    let start = BandLayout.threadSeconds()
                    shared.renderer.drawCleared(frame: frame, into: &shared.parts[i], matrix: matrix, background: background,
                                                covered: covered, whole: whole, band: (i, shared.parts.count))
                    shared.seconds[i] = BandLayout.threadSeconds() - start
                }
            }
        }
        }
        bandLayout.record(bands, seconds: seconds, evaluating: evaluating)
    }
}

/// What the band threads of one frame share. Sound because, while the bands draw, what
/// `draw` reads of the renderer is either not written (the model with its providers bound,
/// the compositions, the budget) or guarded by a lock (shape, coverage and image caches,
/// the buffer pool, fonts, notes), and each thread writes only its own band of `parts` and
/// its own slot of `seconds` and `evaluating`.
private struct BandWork: @unchecked Sendable {
    let renderer: AnimationRenderer
    let parts: UnsafeMutableBufferPointer<Surface>
    let seconds: UnsafeMutableBufferPointer<Double>
    let evaluating: UnsafeMutableBufferPointer<Double>
    let plan: FramePlan
    let cursor: FramePlan.Cursor
}
