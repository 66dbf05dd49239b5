extension Surface {
    /// One colour through runs of coverage and a clip mask: each run's coverage times the
    /// mask's, eight pixels at a time (`SpanKernels.mul255`, the rounding `blendRow` uses),
    /// then `SolidRunPainter.varying`; a run of full coverage takes the mask's row as it is.
    /// The same pixels as `blendRow` with a clip, which paints the runs one pixel at a time
    /// (a test compares the two).
    mutating func paintRuns(_ coverage: Coverage, color: UInt32, clip mask: Mask) {
        let (w, ox, oy) = (width, originX, originY)
        let (mx, my, mw) = (mask.originX, mask.originY, mask.width)
        var scratch = [UInt8](repeating: 0, count: coverage.longestRun + 8)
        withPixels { px in
            coverage.bytes.withUnsafeBufferPointer { bytes in
                mask.values.withUnsafeBufferPointer { clip in
                    scratch.withUnsafeMutableBufferPointer { alpha in
                        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SolidShades.count) { table in
                            // Every run becomes a run of coverage bytes (the products): short
                            // ones take their shades from the table, as unclipped runs do.
                            let painter = SolidRunPainter(color: color, shades: SolidShades.table(table.baseAddress!, color: color, runs: coverage.runs.count))
                            for run in coverage.runs {
                                // Runs lie within the surface and the mask (the paint's limit).
                                let (x, y, count) = (Int(run.x), Int(run.y), Int(run.count))
                                let row = px.baseAddress! + ((y &- oy) &* w &+ (x &- ox))
                                let clipRow = clip.baseAddress! + ((y &- my) &* mw &+ (x &- mx))
                                if run.offset < 0 && run.value == 255 {
                                    painter.varying(row, coverage: clipRow, count: count)
                                    continue
                                }
                                let source = run.offset >= 0 ? bytes.baseAddress! + Int(run.offset) : nil
                                Self.multiply(source, constant: run.value, by: clipRow, into: alpha.baseAddress!, count: count)
                                painter.varying(row, coverage: alpha.baseAddress!, count: count)
                            }
                        }
                    }
                }
            }
        }
    }

    /// `into[i]` = (a·c + 127) / 255 for a = `source[i]` (or `constant` when `source` is nil)
    /// and c = `clip[i]`; `into` has room for `count` rounded up to eight.
    @inline(__always)
    static func multiply(_ source: UnsafePointer<UInt8>?, constant: UInt8, by clip: UnsafePointer<UInt8>,
                         into: UnsafeMutablePointer<UInt8>, count: Int) {
        var i = 0
        let k = SpanKernels.Lanes(repeating: UInt32(constant))
        while i + 8 <= count {
            let c = SpanKernels.widen(UnsafeRawPointer(clip + i).loadUnaligned(as: UInt64.self))
            let a = source.map { SpanKernels.widen(UnsafeRawPointer($0 + i).loadUnaligned(as: UInt64.self)) } ?? k
            // Narrowed in lanes (two packs), not byte by byte out of the lanes.
            let m = SIMD8<UInt8>(truncatingIfNeeded: SpanKernels.mul255(a, c))
            UnsafeMutableRawPointer(into + i).storeBytes(of: m, as: SIMD8<UInt8>.self)
            i += 8
        }
        while i < count {
            let a = UInt32(source?[i] ?? constant)
            into[i] = UInt8((a * UInt32(clip[i]) + 127) / 255)
            i += 1
        }
    }
}
