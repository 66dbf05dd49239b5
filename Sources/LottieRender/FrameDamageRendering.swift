import LottieModel
import Raster

extension AnimationRenderer {
    /// Renders `frame` into a surface that holds frame `previous` as this renderer drew it
    /// (the same viewport, background and provider values, any number of threads), drawing
    /// only the rows where the two may differ (`damage(from:to:viewport:)`) and those of
    /// `overdrawn` (pixels the caller painted over since); the whole frame when the damage
    /// is not known or is most of the frame. The pixels are those of
    /// `render(frame:viewport:background:into:)`: the rows drawn are drawn as a band of a
    /// threaded frame is, and the rows kept hold the same pixels in both frames.
    public func render(frame: Double, after previous: Double, viewport: Viewport, background: Color = .clear,
                       into surface: inout Surface, overdrawn: PixelRect = .empty) {
        let whole = surface.bounds
        guard surface.width == viewport.width, surface.height == viewport.height, !budgetPassed, damageMemo.looks() else {
            render(frame: frame, viewport: viewport, background: background, into: &surface)
            return
        }
        let found = damage(from: previous, to: frame, viewport: viewport)
        let rows = found.map { Self.damageRows($0.union(overdrawn.intersection(whole)), within: whole) }
        // Past most of the frame, the band's bookkeeping would cost more than the rows saved.
        guard let rows, rows.count * 8 < whole.height * 7 else {
            damageMemo.record(whole: true)
            render(frame: frame, viewport: viewport, background: background, into: &surface)
            return
        }
        // Damage over half the rows saves too little of the drawing to pay for looking at
        // every frame: the next frames are drawn whole as after a whole damage.
        damageMemo.record(whole: rows.count * 2 > whole.height)
        guard !rows.isEmpty else { return }
        let covered = backdrop(frame: frame, viewport: viewport)
        let matrix = viewport.transform(animationWidth: animation.width, animationHeight: animation.height)
        if threads > 1, whole.height >= 2 * BandLayout.minimumRows {
            drawBands(frame: frame, into: &surface, matrix: matrix, background: background, covered: covered, within: rows)
            return
        }
        surface.withBands([rows]) { parts in
            drawCleared(frame: frame, into: &parts[0], matrix: matrix, background: background, covered: covered, whole: whole,
                        budgetRows: whole.height)
        }
    }

    /// Rows of damage are taken in steps of this many, so that the same rows come back from
    /// frame to frame: coverage kept for a paint is found again only within the same rows.
    static let damageRowStep = 8

    /// The rows of `whole` holding `damage`, widened to whole steps.
    static func damageRows(_ damage: PixelRect, within whole: PixelRect) -> Range<Int> {
        let rect = damage.intersection(whole)
        guard !rect.isEmpty else { return whole.y0..<whole.y0 }
        let step = damageRowStep
        let top = max(whole.y0, whole.y0 + (rect.y0 - whole.y0) / step * step)
        let bottom = min(whole.y1, whole.y0 + (rect.y1 - whole.y0 + step - 1) / step * step)
        return top..<bottom
    }

    /// A frame's budget was passed (the rest of a frame skipped, an offscreen layer left out):
    /// what a part of the frame draws may then differ from the whole, so frames are drawn whole.
    var budgetPassed: Bool {
        notes.all.contains { $0.contains("budget exceeded") || $0.contains("would pass") }
    }
}
