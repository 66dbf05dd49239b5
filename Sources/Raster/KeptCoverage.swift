/// What a store of coverage (`CoverageCache`, `CoverageSlots`) holds: how many entries, and
/// what their bytes are made of (packed coverage: runs and coverage bytes; the keys' paths).
public struct KeptCoverage: Sendable, Equatable {
    public var entries = 0
    public var runs = 0
    public var coverageBytes = 0
    public var pathBytes = 0
    public var packedBytes = 0
    /// The bytes counted against the store's limit.
    public var bytes = 0

    public init() {}

    public static func + (a: KeptCoverage, b: KeptCoverage) -> KeptCoverage {
        var sum = a
        sum.entries += b.entries
        sum.runs += b.runs
        sum.coverageBytes += b.coverageBytes
        sum.pathBytes += b.pathBytes
        sum.packedBytes += b.packedBytes
        sum.bytes += b.bytes
        return sum
    }

    mutating func add(_ coverage: PackedCoverage?, path: Path, size: Int) {
        entries += 1
        bytes += size
        pathBytes += path.elements.count * MemoryLayout<Path.Element>.stride
        guard let coverage else { return }
        runs += coverage.runCount
        coverageBytes += coverage.coverageByteCount
        packedBytes += coverage.memorySize
    }

    mutating func add(_ coverage: Coverage?, path: Path, size: Int) {
        entries += 1
        bytes += size
        pathBytes += path.elements.count * MemoryLayout<Path.Element>.stride
        guard let coverage else { return }
        runs += coverage.runs.count
        coverageBytes += coverage.bytes.count
    }
}
