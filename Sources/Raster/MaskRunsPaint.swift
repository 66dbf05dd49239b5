extension Surface {
    /// `paintCoverage` through a clip whose mask is told as runs (`MaskRuns`): each run of the
    /// paint is met with the mask's runs on its row. One colour goes piece by piece: where
    /// both are one value the piece is a constant run (stored when both are full, skipped
    /// when either is empty), elsewhere the products go through `SpanKernels.paintSolid`. A
    /// gradient or an image gets each of its runs' products in one row and one `blendRow`,
    /// as the buffer mask gives them, so that it is shaded from the same start. The products
    /// are (a·m + 127) / 255, the rounding `blendRow` uses: the same pixels as painting through
    /// `runs.mask()` (`MaskRunsTests`).
    mutating func paintCoverage(_ coverage: Coverage, shader: Shader, opacity: Double, clip: Clip, runs: MaskRuns) {
        guard clip.mask == nil else {
            // Both forms at once (not made by the renderer): the buffer form of both.
            return paintCoverage(coverage, shader: shader, opacity: opacity, clip: Clip(rect: clip.rect, mask: clip.bufferMask()))
        }
        let o = PixelMath.alpha(Float(opacity))
        let reach = coverage.bounds.intersection(runs.rect).intersection(bounds)
        guard o > 0, !reach.isEmpty, !runs.isEmpty else { return }
        notePainted(coverage, within: runs.rect.intersection(bounds))
        let solid = shader.solidColor ?? (o == 255 ? shader.uniform : nil)
        let color = solid.map { o == 255 ? $0 : PixelMath.scale($0, o) }
        let scratch = coverage.longestRun + 8
        var buffers = (alpha: [UInt8](repeating: 0, count: scratch), mask: [UInt8](repeating: 0, count: scratch),
                       colors: [UInt32](repeating: 0, count: scratch), cursor: [Int](repeating: Int.min, count: 2))
        let (w, ox, oy) = (width, originX, originY)
        withPixels { px in
            coverage.bytes.withUnsafeBufferPointer { bytes in
                runs.withRows { rows in
                    buffers.alpha.withUnsafeMutableBufferPointer { alpha in
                        buffers.mask.withUnsafeMutableBufferPointer { maskRow in
                            buffers.colors.withUnsafeMutableBufferPointer { colors in buffers.cursor.withUnsafeMutableBufferPointer { cursor in
                                let work = RunWork(alpha: alpha.baseAddress!, mask: maskRow.baseAddress!, colors: colors.baseAddress!, cursor: cursor.baseAddress!)
                                for run in coverage.runs {
                                    let (x, y, count) = (Int(run.x), Int(run.y), Int(run.count))
                                    let source = run.offset >= 0 ? bytes.baseAddress! + Int(run.offset) : nil
                                    let row = px.baseAddress! + (y - oy) * w + (x - ox)
                                    if let color {
                                        Self.paintSolidRun(row, color: color, x: x, y: y, count: count, source: source, value: run.value,
                                                           rows: rows, work: work)
                                    } else {
                                        Self.paintShadedRun(row, x: x, y: y, count: count, source: source, value: run.value, rows: rows,
                                                            work: work, shader: shader, opacity: o)
                                    }
                                }
                            } }
                        }
                    }
                }
            }
        }
    }

    /// `paintSwept` through a clip told as runs, for one colour (the only paint the slots
    /// sweep): each run the sweep finds is painted as `paintSolidRun` paints a run of coverage,
    /// which for one colour gives the same pixels however a row is cut.
    mutating func paintSwept(_ device: Path, rule: FillRule, limit: PixelRect, color solid: UInt32, opacity: Double, runs: MaskRuns) {
        let o = PixelMath.alpha(Float(opacity))
        guard o > 0, !runs.isEmpty, let pathBounds = device.bounds, let area = Rasterizer.area(bounds: pathBounds, limit: limit) else { return }
        let color = o == 255 ? solid : PixelMath.scale(solid, o)
        var buffers = (alpha: [UInt8](repeating: 0, count: area.width + 8), mask: [UInt8](repeating: 0, count: area.width + 8),
                       colors: [UInt32](repeating: 0, count: 1), cursor: [Int](repeating: Int.min, count: 2))
        let (w, ox, oy) = (width, originX, originY)
        // The rasterizer's buffers are taken out of `self` for the sweep, which paints `self`.
        var storage = Rasterizer.Storage()
        swap(&storage, &rasterStorage)
        defer { swap(&storage, &rasterStorage) }
        var (top, bottom) = (Int.max, Int.min)
        withPixels { px in
            runs.withRows { rows in
                buffers.alpha.withUnsafeMutableBufferPointer { alpha in
                    buffers.mask.withUnsafeMutableBufferPointer { maskRow in
                      buffers.colors.withUnsafeMutableBufferPointer { colors in buffers.cursor.withUnsafeMutableBufferPointer { cursor in
                        // One colour: no colours are shaded.
                        let work = RunWork(alpha: alpha.baseAddress!, mask: maskRow.baseAddress!, colors: colors.baseAddress!, cursor: cursor.baseAddress!)
                        let pixels = px.baseAddress!
                        Rasterizer.inBands(device, limit: limit, storage: &storage) { rasterizer in
                            rasterizer.sweepRuns(rule: rule, opacity: 1, constant: { y, x0, start, count, a in
                                top = min(top, y); bottom = max(bottom, y + 1)
                                Self.paintSolidRun(pixels + (y - oy) * w + (x0 + start - ox), color: color, x: x0 + start, y: y, count: count,
                                                   source: nil, value: a, rows: rows, work: work)
                            }, varying: { y, x0, start, count, alpha in
                                top = min(top, y); bottom = max(bottom, y + 1)
                                Self.paintSolidRun(pixels + (y - oy) * w + (x0 + start - ox), color: color, x: x0 + start, y: y, count: count,
                                                   source: UnsafePointer(alpha + start), value: 0, rows: rows, work: work)
                            })
                        }
                      } }
                    }
                }
            }
        }
        if top < bottom { notePainted(PixelRect(x0: area.x0, y0: top, x1: area.x1, y1: bottom).intersection(runs.rect).intersection(bounds)) }
    }

    /// Scratch rows for one paint: products, mask values, colours.
    struct RunWork {
        let alpha: UnsafeMutablePointer<UInt8>
        let mask: UnsafeMutablePointer<UInt8>
        let colors: UnsafeMutablePointer<UInt32>
        /// The row last met and the index of the mask run there to go on from: a paint's runs
        /// come row by row, left to right, so each row's mask runs are walked once.
        let cursor: UnsafeMutablePointer<Int>
    }

    /// One colour over a run of coverage (`source` its bytes, or nil: every pixel `value`), piece by piece.
    @inline(__always)
    static func paintSolidRun(_ row: UnsafeMutablePointer<UInt32>, color: UInt32, x: Int, y: Int, count: Int,
                              source: UnsafePointer<UInt8>?, value: UInt8, rows: MaskRuns.Rows, work: RunWork) {
        let opaque = color >> 24 == 255
        rows.pieces(y: y, x: x, count: count, scratch: work.mask, cursor: work.cursor) { start, length, m, maskBytes in
            let target = row + start
            if source == nil, let m {
                let v = MaskRuns.product(value, m)
                if v == 255 && opaque {
                    PixelStores.fill(target, with: color, count: length)
                } else if v != 0 {
                    SpanKernels.paintOverSolid(target, color: v == 255 ? color : PixelMath.scale(color, UInt32(v)), count: length)
                }
                return
            }
            // A product with a full factor is the other factor; an empty one paints nothing.
            if m == 0 { return }
            if source == nil, value == 255, let maskBytes {
                SpanKernels.paintSolid(target, color: color, coverage: maskBytes, count: length)
                return
            }
            if let source, m == 255 {
                SpanKernels.paintSolid(target, color: color, coverage: source + start, count: length)
                return
            }
            MaskRuns.multiply(source.map { $0 + start }, value: value, by: maskBytes, constant: m ?? 0, into: work.alpha, count: length)
            SpanKernels.paintSolid(target, color: color, coverage: work.alpha, count: length)
        }
    }

    /// A gradient or an image over a run: the products of the whole run, then `blendRow`
    /// (a run of one product: `paintConstantRun`, as for a run with no clip).
    @inline(__always)
    static func paintShadedRun(_ row: UnsafeMutablePointer<UInt32>, x: Int, y: Int, count: Int, source: UnsafePointer<UInt8>?,
                               value: UInt8, rows: MaskRuns.Rows, work: RunWork, shader: Shader, opacity o: UInt32) {
        var single: UInt8?
        var pieces = 0
        rows.pieces(y: y, x: x, count: count, scratch: work.mask, cursor: work.cursor) { start, length, m, maskBytes in
            pieces += 1
            if source == nil, let m, start == 0, length == count { single = MaskRuns.product(value, m); return }
            MaskRuns.multiply(source.map { $0 + start }, value: value, by: maskBytes, constant: m ?? 0, into: work.alpha + start,
                              count: length)
        }
        if pieces == 1, let single {
            paintConstantRun(row, y: y, x: x, count: count, value: single, colors: work.colors, shader: shader, opacity: o)
            return
        }
        blendRow(row, y: y, x: x, count: count, alpha: work.alpha, colors: work.colors, shader: shader, opacity: o, clip: nil)
    }
}

extension MaskRuns {
    /// Coverage `a` times mask value `m`, rounded as `blendRow` scales by a clip.
    @inline(__always) static func product(_ a: UInt8, _ m: UInt8) -> UInt8 {
        UInt8((UInt32(a) * UInt32(m) + 127) / 255)
    }

    /// `into[i]` = product(`source[i]` (or `value`), `mask[i]` (or `constant`)): eight at a
    /// time with `SpanKernels.mul255`, the same rounding (`ClippedPaintTests`).
    @inline(__always)
    static func multiply(_ source: UnsafePointer<UInt8>?, value: UInt8, by mask: UnsafePointer<UInt8>?, constant: UInt8,
                         into: UnsafeMutablePointer<UInt8>, count: Int) {
        if source == nil && mask == nil { return into.update(repeating: product(value, constant), count: count) }
        let values = SpanKernels.Lanes(repeating: UInt32(value)), constants = SpanKernels.Lanes(repeating: UInt32(constant))
        var i = 0
        while i &+ 8 <= count {
            let a = source.map { SpanKernels.widen(UnsafeRawPointer($0 + i).loadUnaligned(as: UInt64.self)) } ?? values
            let m = mask.map { SpanKernels.widen(UnsafeRawPointer($0 + i).loadUnaligned(as: UInt64.self)) } ?? constants
            let p = SpanKernels.mul255(a, m)
            for j in 0..<8 { into[i &+ j] = UInt8(truncatingIfNeeded: p[j]) }
            i &+= 8
        }
        while i < count {
            into[i] = product(source?[i] ?? value, mask?[i] ?? constant)
            i &+= 1
        }
    }

    /// The mask's runs and table as pointers, for the length of `body`.
    func withRows<R>(_ body: (Rows) -> R) -> R {
        coverage.runs.withUnsafeBufferPointer { runs in
            coverage.bytes.withUnsafeBufferPointer { bytes in
                table.withUnsafeBufferPointer { table in
                    rowStarts.withUnsafeBufferPointer { starts in
                        body(Rows(rect: rect, runs: runs.baseAddress, bytes: bytes.baseAddress, table: table.baseAddress!,
                                  identity: identity, starts: starts.baseAddress!))
                    }
                }
            }
        }
    }

    /// A mask's runs, row by row.
    struct Rows {
        let rect: PixelRect
        let runs: UnsafePointer<Coverage.Run>?
        let bytes: UnsafePointer<UInt8>?
        let table: UnsafePointer<UInt8>
        /// Whether `table[c]` is `c`: coverage bytes are the mask's values as they are.
        let identity: Bool
        let starts: UnsafePointer<Int32>

        /// Calls `body(start, length, m, bytes)` for each piece of x..<x+count of row `y`
        /// (start relative to x), in order: `m` the mask's value over the whole piece, or
        /// nil and `bytes` its values (in `scratch`). Pieces outside the rectangle have
        /// value 0 and are given too, so that every pixel of the run is told once.
        @inline(__always)
        func pieces(y: Int, x: Int, count: Int, scratch: UnsafeMutablePointer<UInt8>, cursor: UnsafeMutablePointer<Int>,
                    _ body: (Int, Int, UInt8?, UnsafePointer<UInt8>?) -> Void) {
            let end = x + count
            guard y >= rect.y0, y < rect.y1, x < rect.x1, end > rect.x0 else { return body(0, count, 0, nil) }
            var at = x
            if at < rect.x0 { body(0, rect.x0 - at, 0, nil); at = rect.x0 }
            let stop = min(end, rect.x1)
            let background = table[0]
            if let runs {
                // Runs before this one of the row end before it (the cursor), as runs come in order.
                var i = cursor[0] == y ? cursor[1] : Int(starts[y - rect.y0])
                let last = Int(starts[y - rect.y0 + 1])
                defer { cursor[0] = y; cursor[1] = i }
                while i < last, at < stop {
                    let run = runs[i]
                    let r0 = Int(run.x), r1 = r0 + Int(run.count)
                    if r1 <= at { i += 1; continue }
                    if r0 >= stop { break }
                    // A run reaching past this piece is met again by the next one.
                    if r1 <= stop { i += 1 }
                    if r0 > at { body(at - x, r0 - at, background, nil); at = r0 }
                    let pieceEnd = min(r1, stop)
                    if run.offset < 0 {
                        body(at - x, pieceEnd - at, table[Int(run.value)], nil)
                    } else if identity {
                        body(at - x, pieceEnd - at, nil, bytes! + Int(run.offset) + (at - r0))
                    } else {
                        let from = bytes! + Int(run.offset) + (at - r0)
                        for k in 0..<(pieceEnd - at) { scratch[k] = table[Int(from[k])] }
                        body(at - x, pieceEnd - at, nil, UnsafePointer(scratch))
                    }
                    at = pieceEnd
                }
            }
            if at < stop { body(at - x, stop - at, background, nil); at = stop }
            if at < end { body(at - x, end - at, 0, nil) }
        }
    }
}
