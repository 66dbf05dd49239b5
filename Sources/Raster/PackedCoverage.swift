/// A `Coverage` packed for keeping, in a fifth to a sixth of the bytes: a run's header takes 20
/// bytes in a `Coverage` (row, column, count and offset as 32-bit integers, so that painting
/// reads them directly), while its coverage bytes are few (most runs are the inside of a
/// shape, one value told once, or an edge of one to three pixels), so the headers are most
/// of what a kept coverage takes. Packed, a run is a tag byte and a few bytes of small
/// differences (its row from the last run's, its column from where the last run ended),
/// and its coverage bytes follow the headers, in run order, in the same array: one
/// allocation rather than two, which also leaves the heap in fewer pieces.
///
/// It is not painted: `unpacked` gives the `Coverage` back, with the same runs (row, column,
/// count, value and coverage bytes; a run's `offset` may differ, which no painter compares),
/// bounds, longest run and footprint. Unpacking is a pass over the bytes, far cheaper than
/// rasterizing the shape again, so a store may keep the coverage it does not expect to paint
/// in the next frame packed (`CoverageCache`).
struct PackedCoverage {
    /// The runs' headers, then their coverage bytes.
    private(set) var data: [UInt8]
    let runCount: Int
    /// Where the coverage bytes start in `data`.
    private let bytesStart: Int
    private let longestRun: Int
    private let bounds: PixelRect
    private var footprint: [PixelRect]?
    private var footprintKnown: Bool

    /// A run's tag: its kind in the low two bits, whether its row is the last run's in
    /// bit 2, and its count, when under `countFollows`, in the rest.
    private static let varying: UInt8 = 0, full: UInt8 = 1, constant: UInt8 = 2
    private static let sameRow: UInt8 = 4
    private static let countFollows = 31

    /// How many coverage bytes its runs hold (one a pixel of the runs told byte by byte).
    var coverageByteCount: Int { data.count - bytesStart }

    /// What keeping it costs, in bytes.
    var memorySize: Int { data.count + (footprint?.count ?? 0) * MemoryLayout<PixelRect>.stride }

    init(_ coverage: Coverage) {
        runCount = coverage.runs.count
        longestRun = coverage.longestRun
        bounds = coverage.bounds
        footprint = coverage.footprint
        footprintKnown = coverage.footprintKnown
        var byteCount = 0
        for run in coverage.runs where run.offset >= 0 { byteCount &+= Int(run.count) }
        // A run takes at most a tag, three numbers of five bytes each (differences of 32-bit
        // coordinates) and a value.
        let capacity = coverage.runs.count * Self.mostBytesPerRun + byteCount
        var headers = 0
        data = [UInt8](unsafeUninitializedCapacity: capacity) { data, written in
            let out = data.baseAddress!
            var i = 0
            coverage.runs.withUnsafeBufferPointer { runs in
                var row = 0, rowStartX = 0, end = 0
                for index in 0..<runs.count {
                    let run = runs[index]
                    let (y, x, count) = (Int(run.y), Int(run.x), Int(run.count))
                    let kind = run.offset >= 0 ? Self.varying : run.value == 255 ? Self.full : Self.constant
                    let same = index > 0 && y == row
                    let small = count < Self.countFollows
                    out[i] = kind | (same ? Self.sameRow : 0) | UInt8(small ? count : Self.countFollows) << 3
                    i &+= 1
                    if same {
                        Self.writeSigned(x &- end, to: out, at: &i)
                    } else {
                        Self.writeSigned(y &- row, to: out, at: &i)
                        Self.writeSigned(x &- rowStartX, to: out, at: &i)
                        row = y
                        rowStartX = x
                    }
                    end = x &+ count
                    if !small { Self.writeUnsigned(count, to: out, at: &i) }
                    if kind == Self.constant {
                        out[i] = run.value
                        i &+= 1
                    }
                }
                headers = i
                coverage.bytes.withUnsafeBufferPointer { bytes in
                    for run in runs where run.offset >= 0 {
                        (out + i).update(from: bytes.baseAddress! + Int(run.offset), count: Int(run.count))
                        i &+= Int(run.count)
                    }
                }
            }
            written = i
        }
        bytesStart = headers
        // Sized for the worst case, copied to what it holds (runs take about a fifth of it).
        data = data.withUnsafeBufferPointer { Array($0) }
    }

    /// The most bytes a run's header takes packed.
    private static let mostBytesPerRun = 1 + 3 * 5 + 1

    /// Keeps the footprint `coverage` (this one, unpacked) worked out.
    mutating func keepFootprint(of coverage: Coverage) {
        guard !footprintKnown, coverage.footprintKnown else { return }
        footprint = coverage.footprint
        footprintKnown = true
    }

    /// The coverage it holds, ready to paint.
    var unpacked: Coverage {
        let (data, runCount) = (self.data, self.runCount)
        let runs = [Coverage.Run](unsafeUninitializedCapacity: runCount) { runs, written in
            data.withUnsafeBufferPointer { data in
                let out = runs.baseAddress!
                var i = 0, row = 0, rowStartX = 0, end = 0, offset = 0
                for index in 0..<runCount {
                    let tag = data[i]
                    i &+= 1
                    let kind = tag & 3
                    var count = Int(tag >> 3)
                    let x: Int
                    if tag & Self.sameRow != 0 {
                        x = end &+ Self.signed(data, at: &i)
                    } else {
                        row &+= Self.signed(data, at: &i)
                        x = rowStartX &+ Self.signed(data, at: &i)
                        rowStartX = x
                    }
                    if count == Self.countFollows { count = Self.unsigned(data, at: &i) }
                    end = x &+ count
                    var value: UInt8 = 255
                    var runOffset = -1
                    if kind == Self.varying {
                        value = 0
                        runOffset = offset
                        offset &+= count
                    } else if kind == Self.constant {
                        value = data[i]
                        i &+= 1
                    }
                    (out + index).initialize(to: Coverage.Run(y: Int32(truncatingIfNeeded: row), x: Int32(truncatingIfNeeded: x),
                                                              count: Int32(truncatingIfNeeded: count),
                                                              offset: Int32(truncatingIfNeeded: runOffset), value: value))
                }
            }
            written = runCount
        }
        let bytes = Array(data[bytesStart...])
        return Coverage(runs: runs, bytes: bytes, longestRun: longestRun, bounds: bounds, footprint: footprint,
                        footprintKnown: footprintKnown)
    }

    /// Writes `value` seven bits a byte, least significant first, the top bit set on every
    /// byte but the last.
    @inline(__always)
    private static func writeUnsigned(_ value: Int, to out: UnsafeMutablePointer<UInt8>, at i: inout Int) {
        var v = UInt(bitPattern: value)
        while v >= 0x80 {
            out[i] = UInt8(truncatingIfNeeded: v) | 0x80
            i &+= 1
            v >>= 7
        }
        out[i] = UInt8(v)
        i &+= 1
    }

    /// Writes `value` with its sign in the lowest bit (zigzag), so that small negative
    /// differences take one byte too.
    @inline(__always)
    private static func writeSigned(_ value: Int, to out: UnsafeMutablePointer<UInt8>, at i: inout Int) {
        writeUnsigned(Int(bitPattern: UInt(bitPattern: value << 1) ^ UInt(bitPattern: value >> (Int.bitWidth - 1))), to: out, at: &i)
    }

    @inline(__always)
    private static func unsigned(_ data: UnsafeBufferPointer<UInt8>, at i: inout Int) -> Int {
        var byte = data[i]
        i &+= 1
        if byte < 0x80 { return Int(byte) }
        var value = UInt(byte & 0x7F), shift: UInt = 7
        repeat {
            byte = data[i]
            i &+= 1
            value |= UInt(byte & 0x7F) << shift
            shift &+= 7
        } while byte >= 0x80
        return Int(bitPattern: value)
    }

    @inline(__always)
    private static func signed(_ data: UnsafeBufferPointer<UInt8>, at i: inout Int) -> Int {
        let v = UInt(bitPattern: unsigned(data, at: &i))
        return Int(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }
}
