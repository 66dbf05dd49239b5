/// The fast way to make a `Coverage`: runs and bytes written through pointers into storage
/// reserved once from the rows swept (grown twofold when a shape needs more), the row's
/// bounds folded in once per row, and the arrays made once at the end, at their exact size.
/// A run of one coverage is held back until the next run arrives, and grows while runs of
/// the same value continue it: the full part of an edge's block, the inside the sweep tells
/// after it, and the full start of the far edge's block are one run rather than three (every
/// paint of the coverage then makes one store or blend where it made three calls). Stretches
/// of one byte value are found eight bytes at a time, their ends by the first differing
/// byte's bit position rather than byte by byte.
/// `Coverage.addConstant` / `addVarying` stay the reference (appending run by run to the
/// arrays); tests check that the two give every pixel the same coverage, on random paths.
extension Coverage {
    /// Valid only inside `Coverage.build`, which owns its storage: it is not to be kept.
    struct Builder {
        fileprivate var runs: UnsafeMutablePointer<Run>
        fileprivate var runCount = 0
        fileprivate var runCapacity: Int
        fileprivate var bytes: UnsafeMutablePointer<UInt8>
        fileprivate var byteCount = 0
        fileprivate var byteCapacity: Int
        fileprivate var longest = 0
        /// The first run of the row being added, and the bounds of the rows before it.
        fileprivate var rowStart = 0
        fileprivate var rowY: Int32 = .min
        fileprivate var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        /// The run of one coverage not yet written (none while `pendingValue` is 0): row,
        /// first column and end.
        fileprivate var pendingY = 0, pendingX = 0, pendingEnd = 0
        fileprivate var pendingValue: UInt8 = 0

        fileprivate init(runs runCapacity: Int, bytes byteCapacity: Int) {
            self.runCapacity = max(runCapacity, 16)
            self.byteCapacity = max(byteCapacity, 64)
            runs = .allocate(capacity: self.runCapacity)
            bytes = .allocate(capacity: self.byteCapacity)
        }

        fileprivate func deallocate() {
            runs.deallocate()
            bytes.deallocate()
        }

        /// Coordinates are a surface's pixels and counts are within its rows, so they fit in
        /// 32 bits and the sums below cannot overflow: they are converted and added unchecked.
        @inline(__always)
        private mutating func addRun(y: Int, x: Int, count: Int, offset: Int, value: UInt8) {
            let row = Int32(truncatingIfNeeded: y)
            if row != rowY { endRow(); rowY = row }
            if runCount == runCapacity { growRuns() }
            (runs + runCount).initialize(to: Run(y: row, x: Int32(truncatingIfNeeded: x), count: Int32(truncatingIfNeeded: count),
                                                 offset: Int32(truncatingIfNeeded: offset), value: value))
            runCount &+= 1
            if count > longest { longest = count }
        }

        /// Writes the run held back, if any.
        @inline(__always)
        private mutating func flushConstant() {
            guard pendingValue != 0 else { return }
            addRun(y: pendingY, x: pendingX, count: pendingEnd &- pendingX, offset: -1, value: pendingValue)
            pendingValue = 0
        }

        /// Whether a run of `value` starting at (x, y) would continue the run held back.
        @inline(__always)
        private func continuesPending(y: Int, x: Int, value: UInt8) -> Bool {
            value == pendingValue && x == pendingEnd && y == pendingY
        }

        private mutating func growRuns() {
            let bigger = UnsafeMutablePointer<Run>.allocate(capacity: 2 * runCapacity)
            bigger.moveInitialize(from: runs, count: runCount)
            runs.deallocate()
            runs = bigger
            runCapacity *= 2
        }

        private mutating func growBytes(toHold needed: Int) {
            var capacity = 2 * byteCapacity
            while capacity < needed { capacity *= 2 }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            bigger.update(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = bigger
            byteCapacity = capacity
        }

        /// As `Coverage.addConstant`; a run that continues the one held back (same row and
        /// value, starting where it ends) lengthens it.
        @inline(__always)
        mutating func addConstant(y: Int, x: Int, count: Int, value: UInt8) {
            guard count > 0, value > 0 else { return }
            if continuesPending(y: y, x: x, value: value) {
                pendingEnd &+= count
                return
            }
            flushConstant()
            (pendingY, pendingX, pendingEnd, pendingValue) = (y, x, x &+ count, value)
        }

        /// As `Coverage.addVarying`: the same coverage for every pixel. A stretch of full
        /// coverage goes as a run where `addVarying` makes it one (four pixels or more, or the
        /// whole stretch), and also where it continues the run held back.
        /// (Inlined into the sweep that calls it, once per stretch of edge blocks.)
        @inline(__always)
        mutating func addVarying(y: Int, x: Int, count: Int, alpha: UnsafePointer<UInt8>) {
            // One edge's crossing of a row: the sweep trims the stretch to the pixels whose
            // coverage differs from the outside and inside either side, which are then all
            // partial, one run of bytes (what the scan below finds for them, found in two words).
            if Self.isAllPartial(alpha, count: count) { return addBytes(y: y, x: x, from: alpha, count: count) }
            var i = 0
            while i < count {
                i = Coverage.firstNot(0, in: alpha, from: i, count: count)
                if i == count { return }
                let start = i
                if alpha[i] == 255 {
                    i = Coverage.firstNot(255, in: alpha, from: i &+ 1, count: count)
                    if i &- start >= 4 || start == 0 && i == count || continuesPending(y: y, x: x &+ start, value: 255) {
                        addConstant(y: y, x: x &+ start, count: i &- start, value: 255)
                        continue
                    }
                }
                i = Self.endOfPartial(alpha, from: i, count: count)
                addBytes(y: y, x: x &+ start, from: alpha + start, count: i &- start)
            }
        }

        /// The end of the partial coverage from `i`: the next empty pixel or stretch of four
        /// full ones (which `addVarying` tells as a run of its own). Eight bytes at a time while
        /// none of them is 0 or 255 (a near-horizontal edge's long partial stretch): no pixel
        /// of those can end the stretch, whatever follows them.
        @inline(__always)
        private static func endOfPartial(_ alpha: UnsafePointer<UInt8>, from i: Int, count: Int) -> Int {
            var i = i
            while i &+ 8 <= count {
                let word = UnsafeRawPointer(alpha + i).loadUnaligned(as: UInt64.self)
                if hasZeroByte(word) || hasZeroByte(~word) { break }
                i &+= 8
            }
            while i < count, alpha[i] != 0, !(alpha[i] == 255 && i + 3 < count && alpha[i + 1] == 255
                                                  && alpha[i + 2] == 255 && alpha[i + 3] == 255) {
                i += 1
            }
            return i
        }

        /// Whether `count` (1...16) bytes are all neither 0 nor 255: read as two words that may
        /// overlap, nothing outside the `count` bytes; false for any other count.
        @inline(__always)
        static func isAllPartial(_ alpha: UnsafePointer<UInt8>, count: Int) -> Bool {
            let raw = UnsafeRawPointer(alpha)
            switch count {
            case 8...16:
                let (a, b) = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
                return !(hasZeroByte(a) || hasZeroByte(~a) || hasZeroByte(b) || hasZeroByte(~b))
            case 4..<8:
                // Each half in the low bytes of a word whose high bytes are partial (1s).
                let fill: UInt64 = 0x0101_0101_0000_0000
                let a = UInt64(raw.loadUnaligned(as: UInt32.self)) | fill
                let b = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)) | fill
                return !(hasZeroByte(a) || hasZeroByte(~a) || hasZeroByte(b) || hasZeroByte(~b))
            case 1..<4:
                for i in 0..<count where alpha[i] == 0 || alpha[i] == 255 { return false }
                return true
            default:
                return false
            }
        }

        /// Whether some byte of `v` is zero (the borrow of subtracting 1 from each byte reaches
        /// its top bit only from a zero byte, the lowest such byte at least; any hit is enough here).
        @inline(__always) static func hasZeroByte(_ v: UInt64) -> Bool {
            (v &- 0x0101_0101_0101_0101) & ~v & 0x8080_8080_8080_8080 != 0
        }

        @inline(__always)
        private mutating func addBytes(y: Int, x: Int, from source: UnsafePointer<UInt8>, count: Int) {
            flushConstant()
            if byteCount &+ count > byteCapacity { growBytes(toHold: byteCount &+ count) }
            addRun(y: y, x: x, count: count, offset: byteCount, value: 0)
            Self.copy(source, to: bytes + byteCount, count: count)
            byteCount &+= count
        }

        /// Copies `count` bytes. An edge's partial stretch is mostly one to a few bytes, for
        /// which a call to `memcpy` (what `update(from:count:)` becomes) costs more than the
        /// copy: up to 16 bytes go as two loads and two stores that may overlap, never
        /// reading or writing outside the `count` bytes.
        @inline(__always)
        static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
            let (s, t) = (UnsafeRawPointer(source), UnsafeMutableRawPointer(target))
            switch count {
            case 8...16:
                let (a, b) = (s.loadUnaligned(as: UInt64.self), s.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
                t.storeBytes(of: a, as: UInt64.self)
                t.storeBytes(of: b, toByteOffset: count &- 8, as: UInt64.self)
            case 4..<8:
                let (a, b) = (s.loadUnaligned(as: UInt32.self), s.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
                t.storeBytes(of: a, as: UInt32.self)
                t.storeBytes(of: b, toByteOffset: count &- 4, as: UInt32.self)
            case 2..<4:
                let (a, b) = (s.loadUnaligned(as: UInt16.self), s.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))
                t.storeBytes(of: a, as: UInt16.self)
                t.storeBytes(of: b, toByteOffset: count &- 2, as: UInt16.self)
            case 1:
                target.pointee = source.pointee
            default:
                if count > 0 { target.update(from: source, count: count) }
            }
        }

        /// Folds the row just added into the bounds, when the first run of the next arrives:
        /// the sweep tells a row's runs left to right, so its first run starts and its last
        /// run ends the row's stretch.
        private mutating func endRow() {
            guard runCount > rowStart else { return }
            let first = runs[rowStart], last = runs[runCount - 1]
            x0 = min(x0, Int(first.x)); x1 = max(x1, Int(last.x) + Int(last.count))
            y0 = min(y0, Int(first.y)); y1 = max(y1, Int(last.y) + 1)
            rowStart = runCount
        }

        fileprivate mutating func made() -> Coverage {
            flushConstant()
            endRow()
            guard runCount > 0 else { return Coverage() }
            return Coverage(runs: Array(UnsafeBufferPointer(start: runs, count: runCount)),
                            bytes: Array(UnsafeBufferPointer(start: bytes, count: byteCount)),
                            longestRun: longest, bounds: PixelRect(x0: x0, y0: y0, x1: x1, y1: y1))
        }
    }

    /// The coverage `body` adds to a builder with room for `rows` rows of a few runs each.
    /// A stroke's row holds up to eight (inside and edge stretches on both of its sides):
    /// the storage is made once for most shapes, and freed when the arrays are made.
    static func build(rows: Int, _ body: (inout Builder) -> Void) -> Coverage {
        var builder = Builder(runs: 8 * rows, bytes: 32 * rows)
        defer { builder.deallocate() }
        body(&builder)
        return builder.made()
    }
}

extension Coverage {
    /// The end of `alpha[start..<end]` less its last pixels of coverage `value`: the index after
    /// the last one that differs, or `start` when none does. Eight bytes at a time from the end
    /// (the highest set bit of a word's difference from eight copies of `value` is in the last
    /// byte that differs), reading nothing outside `start..<end`.
    @inline(__always)
    static func endOfVarying(_ alpha: UnsafePointer<UInt8>, from start: Int, to end: Int, before value: UInt8) -> Int {
        let pattern = UInt64(value) &* 0x0101_0101_0101_0101
        var i = end
        while i &- 8 >= start {
            let difference = UInt64(littleEndian: UnsafeRawPointer(alpha + (i &- 8)).loadUnaligned(as: UInt64.self)) ^ pattern
            if difference != 0 { return i &- difference.leadingZeroBitCount &>> 3 }
            i &-= 8
        }
        while i > start, alpha[i &- 1] == value { i &-= 1 }
        return i
    }
}

extension Rasterizer {
    /// Sweeps the accumulated edges into runs added to `builder` (rows below those it holds).
    mutating func append(rule: FillRule, to builder: inout Coverage.Builder) {
        sweepRuns(rule: rule, opacity: 1, constant: { y, x0, start, count, a in
            builder.addConstant(y: y, x: x0 + start, count: count, value: a)
        }, varying: { y, x0, start, count, alpha in
            builder.addVarying(y: y, x: x0 + start, count: count, alpha: alpha + start)
        })
    }
}
