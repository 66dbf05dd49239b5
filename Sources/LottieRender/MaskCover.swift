import LottieModel
import Raster

/// A mask that covers everything its layer paints cuts nothing: every pixel wholly inside
/// the mask's outline has coverage 1, so the masks' coverage over the layer's paint bounds
/// is 255 throughout, and drawing the layer without its masks gives the pixels of the pass
/// that would build that coverage and composite through it (exactly for one paint; within
/// the pass's own rounding, 1/255, for several). Only the plainest case is recognised: one
/// mask that adds at full opacity, not inverted and not expanded, whose outline keeps out of
/// the paint bounds (curves are judged by their control points' box, conservatively) and
/// winds around them. It is common when a mask reveals a layer and then rests open.
extension LayerCompositor {
    /// `masks`, or none when they leave all of the layer's paint shown (see above). Never
    /// drops them on the reference path (`direct` false).
    static func masksThatCut(_ masks: [ModelMask], layer: Layer, shapes: LayerShapes?, world: Matrix, frame: Double,
                             direct: Bool) -> [ModelMask] {
        guard direct, masks.count == 1, let mask = masks.first,
              unitesDirectly(mask, expansion: mask.expansion.value(at: frame), frame: frame),
              let painted = paintBounds(layer, shapes: shapes, world: world), !painted.isEmpty else { return masks }
        let outline = ShapeGeometry.path(mask.path.value(at: frame)).transformed(by: world)
        return MaskCover.contains(outline, painted) ? [] : masks
    }
}

/// Whether a path (filled non-zero) covers a whole pixel rectangle.
enum MaskCover {
    static func contains(_ path: RasterPath, _ rect: PixelRect) -> Bool {
        // Edges may run along the rectangle's sides: only its inside must stay clear.
        let e = 1e-7
        let box = (x0: Double(rect.x0) + e, y0: Double(rect.y0) + e, x1: Double(rect.x1) - e, y1: Double(rect.y1) - e)
        let centre = Point((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
        var winding = 0
        var start = Point.zero, last = Point.zero
        func line(_ p: Point, _ q: Point) -> Bool {
            if p.x == q.x && p.y == q.y { return true }
            guard p.x.isFinite, p.y.isFinite, q.x.isFinite, q.y.isFinite, !enters(p, q, box) else { return false }
            winding += crossing(p, q, centre)
            return true
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                guard line(last, start) else { return false }
                start = p; last = p
            case .line(let p):
                guard line(last, p) else { return false }
                last = p
            case .cubic(let c1, let c2, let p):
                // Inside the hull of its control points: clear of the box if their box is, and
                // crossing the ray to the right of the centre as its chord does if their box
                // lies wholly above, below, left or right of the centre (the signed crossings of
                // a line by a curve and by its chord then agree); else undecided.
                let xs = [last.x, c1.x, c2.x, p.x], ys = [last.y, c1.y, c2.y, p.y]
                let hull = (x0: xs.min()!, y0: ys.min()!, x1: xs.max()!, y1: ys.max()!)
                guard hull.x1 < box.x0 || hull.x0 > box.x1 || hull.y1 < box.y0 || hull.y0 > box.y1 else { return false }
                guard hull.y1 < centre.y || hull.y0 > centre.y || hull.x1 < centre.x || hull.x0 > centre.x else { return false }
                guard line(last, p) else { return false }
                last = p
            case .close:
                guard line(last, start) else { return false }
                last = start
            }
        }
        return line(last, start) && winding != 0
    }

    /// Whether the segment p–q meets the closed box (Liang–Barsky).
    static func enters(_ p: Point, _ q: Point, _ box: (x0: Double, y0: Double, x1: Double, y1: Double)) -> Bool {
        var t0 = 0.0, t1 = 1.0
        let dx = q.x - p.x, dy = q.y - p.y
        for (pk, qk) in [(-dx, p.x - box.x0), (dx, box.x1 - p.x), (-dy, p.y - box.y0), (dy, box.y1 - p.y)] {
            if pk == 0 {
                if qk < 0 { return false }
            } else {
                let t = qk / pk
                if pk < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
                if t0 > t1 { return false }
            }
        }
        return true
    }

    /// The segment's signed crossing of the ray from `c` towards +x (half-open in y).
    static func crossing(_ p: Point, _ q: Point, _ c: Point) -> Int {
        if p.y <= c.y, q.y > c.y, (q.x - p.x) * (c.y - p.y) - (c.x - p.x) * (q.y - p.y) > 0 { return 1 }
        if p.y > c.y, q.y <= c.y, (q.x - p.x) * (c.y - p.y) - (c.x - p.x) * (q.y - p.y) < 0 { return -1 }
        return 0
    }
}
