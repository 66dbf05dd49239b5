/// Layer numbers (`ind`) to a number each (a position, a parent), for the parent and matte
/// look-ups: the pairs sorted by layer number and found by binary search.
///
/// Not a `Dictionary`: the first one built with `Int` keys makes the runtime look up
/// `Int: Hashable` by scanning every protocol conformance record of the binary (a quarter of
/// a million instructions at the start of every process that loads an animation), and each
/// key is hashed; a composition has tens of layers, where a binary search takes a handful
/// of comparisons.
public struct LayerIndexTable: Sendable {
    @usableFromInline let keys: [Int]
    @usableFromInline var values: [Int]

    /// `pairs` (layer number, value) in the layers' order; for a number given more than
    /// once, the first value wins.
    public init(_ pairs: [(key: Int, value: Int)]) {
        let order = pairs.indices.sorted { (pairs[$0].key, $0) < (pairs[$1].key, $1) }
        var keys: [Int] = []
        var values: [Int] = []
        keys.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        for i in order where keys.last != pairs[i].key {
            keys.append(pairs[i].key)
            values.append(pairs[i].value)
        }
        self.keys = keys
        self.values = values
    }

    /// How many distinct layer numbers there are (slots are 0..<count).
    public var count: Int { keys.count }

    /// The slot of layer number `key`, nil when no layer has it.
    @inlinable
    public func slot(of key: Int) -> Int? {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < keys.count && keys[lo] == key ? lo : nil
    }

    /// The value of layer number `key`, nil when no layer has it.
    @inlinable
    public subscript(key: Int) -> Int? {
        slot(of: key).map { values[$0] }
    }

    /// The value in slot `slot` (from `slot(of:)`).
    @inlinable
    public subscript(slot slot: Int) -> Int {
        get { values[slot] }
        set { values[slot] = newValue }
    }
}
