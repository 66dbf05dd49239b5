extension Surface {
    /// One colour through runs of coverage and a clip mask: each run's coverage times the
    /// mask's, eight pixels at a time (`SpanKernels.mul255`, the rounding `blendRow` uses),
    /// then `SpanKernels.paintSolid`; a run of full coverage takes the mask's row as it is.
    /// The same pixels as `blendRow` with a clip, which paints the runs one pixel at a time
    /// (a test compares the two).
    mutating func paintRuns(_ coverage: Coverage, color: UInt32, clip mask: Mask) {
        let (w, ox, oy) = (width, originX, originY)
        var scratch = [UInt8](repeating: 0, count: coverage.longestRun + 8)
        withPixels { px in
            coverage.bytes.withUnsafeBufferPointer { bytes in
                mask.values.withUnsafeBufferPointer { clip in
                    scratch.withUnsafeMutableBufferPointer { alpha in
                        for run in coverage.runs {
                            let (x, y, count) = (Int(run.x), Int(run.y), Int(run.count))
                            let row = px.baseAddress! + (y - oy) * w + (x - ox)
                            let clipRow = clip.baseAddress! + (y - mask.originY) * mask.width + (x - mask.originX)
                            if run.offset < 0 && run.value == 255 {
                                SpanKernels.paintSolid(row, color: color, coverage: clipRow, count: count)
                                continue
                            }
                            let source = run.offset >= 0 ? bytes.baseAddress! + Int(run.offset) : nil
                            Self.multiply(source, constant: run.value, by: clipRow, into: alpha.baseAddress!, count: count)
                            SpanKernels.paintSolid(row, color: color, coverage: alpha.baseAddress!, count: count)
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
            let m = SpanKernels.mul255(a, c)
            for j in 0..<8 { into[i + j] = UInt8(truncatingIfNeeded: m[j]) }
            i += 8
        }
        while i < count {
            let a = UInt32(source?[i] ?? constant)
            into[i] = UInt8((a * UInt32(clip[i]) + 127) / 255)
            i += 1
        }
    }
}
