/// The coverage of one path on the pixel grid, as the rasterizer found it: rows of runs, each
/// either one coverage value for a stretch of pixels (the inside of a shape, told once) or a
/// coverage byte per pixel (the blocks its edges cross). Pixels outside every run are not
/// covered.
///
/// It is the step between the rasterizer and the paint: made once, it can be painted with
/// any colour, opacity or clip, and kept (`CoverageCache`) for the next frame when the
/// shape has not changed.
struct Coverage {
    struct Run {
        /// Device row and first column.
        var y: Int32
        var x: Int32
        var count: Int32
        /// Where the run's coverage bytes start in `bytes`, or -1 when every pixel of the
        /// run has coverage `value`.
        var offset: Int32
        var value: UInt8
    }

    private(set) var runs: [Run] = []
    private(set) var bytes: [UInt8] = []
    /// The longest run, so that a painter can size its row buffers once.
    private(set) var longestRun = 0
    /// The device pixels the runs touch.
    private(set) var bounds = PixelRect.empty
    /// Where the runs lie, as a few rectangles (`PaintFootprint.pieces`), worked out once
    /// when a kept coverage is painted a second time, for the dirty region of every paint
    /// of it from then on; nil: `bounds`.
    private(set) var footprint: [PixelRect]?
    /// Whether `footprint` was worked out (nil then means `bounds` is as good).
    private(set) var footprintKnown = false

    var isEmpty: Bool { runs.isEmpty }

    init() {}

    /// Runs and bytes made elsewhere (`Coverage.Builder`).
    init(runs: [Run], bytes: [UInt8], longestRun: Int, bounds: PixelRect) {
        self.runs = runs
        self.bytes = bytes
        self.longestRun = longestRun
        self.bounds = bounds
    }

    /// Runs and bytes kept packed (`PackedCoverage.unpacked`), with the footprint worked out
    /// before, if it was.
    init(runs: [Run], bytes: [UInt8], longestRun: Int, bounds: PixelRect, footprint: [PixelRect]?, footprintKnown: Bool) {
        self.init(runs: runs, bytes: bytes, longestRun: longestRun, bounds: bounds)
        self.footprint = footprint
        self.footprintKnown = footprintKnown
    }

    /// What keeping it costs, in bytes.
    var memorySize: Int {
        runs.count * MemoryLayout<Run>.stride + bytes.count + (footprint?.count ?? 0) * MemoryLayout<PixelRect>.stride
    }

    /// Runs added after `workOutFootprint` may lie outside it.
    private mutating func forgetFootprint() {
        footprint = nil
        footprintKnown = false
    }

    /// Works out `footprint`, once: a coverage painted again each frame (kept) then notes
    /// its pieces rather than its bounding box, at no cost per paint.
    @inline(__always)
    mutating func workOutFootprint() {
        guard !footprintKnown else { return }
        footprintKnown = true
        // A small shape is noted whole, without a call (most shapes, every frame).
        guard bounds.width * bounds.height >= PaintFootprint.leastArea else { return }
        footprint = PaintFootprint.pieces(of: runs, bounds: bounds)
    }

    mutating func addConstant(y: Int, x: Int, count: Int, value: UInt8) {
        guard count > 0, value > 0 else { return }
        if footprintKnown { forgetFootprint() }
        runs.append(Run(y: Int32(y), x: Int32(x), count: Int32(count), offset: -1, value: value))
        longestRun = max(longestRun, count)
        bounds = bounds.union(PixelRect(x0: x, y0: y, x1: x + count, y1: y + 1))
    }

    /// Adds a stretch with a coverage byte per pixel. The rasterizer hands over whole
    /// 16-pixel blocks, most of which, along a thin stroke, are empty or full: those parts
    /// are left out or told as full runs here, once, so that every paint of the coverage
    /// blends only the pixels an edge really crosses.
    mutating func addVarying(y: Int, x: Int, count: Int, alpha: UnsafePointer<UInt8>) {
        if footprintKnown { forgetFootprint() }
        var i = 0
        while i < count {
            let start = i
            let value = alpha[i]
            if value == 0 || value == 255 {
                i = Self.endOfStretch(alpha, of: value, from: i + 1, count: count)
                // Short stretches of full coverage stay with their neighbours.
                if value == 255, i - start >= 4 || start == 0 && i == count {
                    addConstant(y: y, x: x + start, count: i - start, value: 255)
                    continue
                }
                if value == 0 { continue }
            }
            // Partial coverage up to the next empty pixel or stretch of four full ones.
            while i < count, alpha[i] != 0, !(alpha[i] == 255 && i + 3 < count && alpha[i + 1] == 255
                                                  && alpha[i + 2] == 255 && alpha[i + 3] == 255) {
                i += 1
            }
            runs.append(Run(y: Int32(y), x: Int32(x + start), count: Int32(i - start), offset: Int32(bytes.count), value: 0))
            bytes.append(contentsOf: UnsafeBufferPointer(start: alpha + start, count: i - start))
            longestRun = max(longestRun, i - start)
            bounds = bounds.union(PixelRect(x0: x + start, y0: y, x1: x + i, y1: y + 1))
        }
    }

    /// The first index from `i` on where `alpha` is not `value` (or `count`): eight bytes at a
    /// time while they all are (the inside and outside of a shape in its edge blocks).
    @inline(__always)
    static func endOfStretch(_ alpha: UnsafePointer<UInt8>, of value: UInt8, from i: Int, count: Int) -> Int {
        let word = UInt64(value) &* 0x0101_0101_0101_0101
        var i = i
        while i + 8 <= count, UnsafeRawPointer(alpha + i).loadUnaligned(as: UInt64.self) == word { i += 8 }
        while i < count, alpha[i] == value { i += 1 }
        return i
    }
}

extension Coverage {
    /// `endOfStretch` found by the first differing byte's position: eight bytes at a time
    /// (the lowest set bit of a word's difference from eight copies of `value` is in the first
    /// byte that differs), and the last few through the stretch's final eight bytes rather
    /// than one by one. The index is the same (`CoverageBuilderTests`).
    @inline(__always)
    static func firstNot(_ value: UInt8, in alpha: UnsafePointer<UInt8>, from i: Int, count: Int) -> Int {
        let pattern = UInt64(value) &* 0x0101_0101_0101_0101
        var i = i
        while i &+ 8 <= count {
            let difference = UInt64(littleEndian: UnsafeRawPointer(alpha + i).loadUnaligned(as: UInt64.self)) ^ pattern
            if difference != 0 { return i &+ difference.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        guard i < count else { return i }
        guard count >= 8 else {
            while i < count, alpha[i] == value { i &+= 1 }
            return i
        }
        // The last eight bytes, less the 1...7 before `i` that were read already.
        let before = i &- (count &- 8)
        let last = UInt64(littleEndian: UnsafeRawPointer(alpha + (count &- 8)).loadUnaligned(as: UInt64.self)) ^ pattern
        let difference = last &>> UInt64(before &* 8)
        return difference == 0 ? count : i &+ difference.trailingZeroBitCount &>> 3
    }
}

extension Rasterizer {
    /// Sweeps the accumulated edges into runs of coverage (0...255, before any opacity).
    mutating func coverage(rule: FillRule) -> Coverage {
        Coverage.build(rows: height) { self.append(rule: rule, to: &$0) }
    }

    /// The reference: the same sweep into a coverage's arrays run by run (`Coverage.Builder`
    /// is the fast way; tests compare the two).
    mutating func append(rule: FillRule, to result: inout Coverage) {
        sweepRuns(rule: rule, opacity: 1, constant: { y, x0, start, count, a in
            result.addConstant(y: y, x: x0 + start, count: count, value: a)
        }, varying: { y, x0, start, count, alpha in
            result.addVarying(y: y, x: x0 + start, count: count, alpha: alpha + start)
        })
    }
}
