extension Surface {
    /// `paintSwept` for one colour (`color`, premultiplied, opacity applied) with no clip
    /// mask: each run the sweep finds is painted by a `SolidRunPainter`, which gives the pixels
    /// `blendRow` gives for it (one colour paints the same pixels however a row is cut into
    /// runs). The closures capture plain values only; the painted rows and columns are noted
    /// as in `paintSwept`, with wrapping arithmetic (runs lie within the rasterizer's area,
    /// itself within the surface).
    mutating func paintSweptSolid(_ device: Path, rule: FillRule, limit: PixelRect, area: PixelRect, color: UInt32) {
        let (w, ox, oy) = (width, originX, originY)
        // The rasterizer's buffers are taken out of `self` for the sweep, which paints `self`.
        var storage = Rasterizer.Storage()
        swap(&storage, &rasterStorage)
        defer { swap(&storage, &rasterStorage) }
        var (left, top, right, bottom) = (Int.max, Int.max, Int.min, Int.min)
        let footprint = PaintFootprint(area: area)
        let noted = footprint?.allocateMasks()
        defer { noted?.deallocate() }
        withPixels { px in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SolidShades.count) { table in
                // A shape's rows hold two runs or more each (its edges): the area's height
                // tells whether the shade table pays.
                let painter = SolidRunPainter(color: color, shades: SolidShades.table(table.baseAddress!, color: color, runs: area.height &* 2))
                let pixels = px.baseAddress!
                Rasterizer.inBands(device, limit: limit, storage: &storage) { rasterizer in
                    rasterizer.sweepRuns(rule: rule, opacity: 1, constant: { y, x0, start, count, a in
                        let x = x0 &+ start
                        left = min(left, x); right = max(right, x &+ count); top = min(top, y); bottom = max(bottom, y &+ 1)
                        if let footprint, let noted { footprint.note(y: y, x: x, count: count, in: noted) }
                        painter.constant(pixels + ((y &- oy) &* w &+ (x &- ox)), count: count, coverage: a)
                    }, varying: { y, x0, start, count, alpha in
                        let x = x0 &+ start
                        left = min(left, x); right = max(right, x &+ count); top = min(top, y); bottom = max(bottom, y &+ 1)
                        if let footprint, let noted { footprint.note(y: y, x: x, count: count, in: noted) }
                        painter.varying(pixels + ((y &- oy) &* w &+ (x &- ox)), coverage: alpha + start, count: count)
                    })
                }
            }
        }
        guard left < right else { return }
        if let footprint, let noted { return footprint.add(noted, to: &region, limit: bounds) }
        notePainted(PixelRect(x0: left, y0: top, x1: right, y1: bottom).intersection(bounds))
    }
}
