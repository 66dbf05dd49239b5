/// The entries of a `CoverageCache`, found by key: an open-addressing hash table written for
/// this one key and value type. A `Dictionary<CoverageCache.Key, …>` made its storage's
/// metadata from a mangled name on the first frame, and that checks `Key: Hashable` by a
/// runtime scan of every conformance record in the binary (about 0.24 M instructions once
/// per process). Plain arrays of a concrete element need no such check. Hashing is the
/// key's own `hash(into:)`, equality its `==`, exactly as the dictionary used them.
struct CoverageTable {
    struct Item {
        let key: CoverageCache.Key
        let hash: Int
        var entry: CoverageCache.Entry
    }

    /// The entries, in no particular order.
    private(set) var items: [Item] = []
    /// Power-of-two many slots, each an index into `items` or -1 when empty; at most half full.
    private var slots: [Int32] = []

    var count: Int { items.count }

    /// The slot holding `key`, or the empty slot where it would go.
    private func slot(of key: CoverageCache.Key, hash: Int) -> (slot: Int, found: Bool) {
        let mask = slots.count - 1
        var i = hash & mask
        while true {
            let index = slots[i]
            if index < 0 { return (i, false) }
            let item = items[Int(index)]
            if item.hash == hash && item.key == key { return (i, true) }
            i = (i + 1) & mask
        }
    }

    /// Marks the entry of `key`, if any, as used at `time`, and returns it.
    mutating func touch(_ key: CoverageCache.Key, at time: UInt64) -> CoverageCache.Entry? {
        guard !slots.isEmpty else { return nil }
        let found = slot(of: key, hash: key.hashValue)
        guard found.found else { return nil }
        let index = Int(slots[found.slot])
        items[index].entry.lastUse = time
        return items[index].entry
    }

    /// Changes the entry of `key` in place, if there is one (not its key).
    mutating func modifyEntry(of key: CoverageCache.Key, _ body: (inout CoverageCache.Entry) -> Void) {
        guard !slots.isEmpty else { return }
        let found = slot(of: key, hash: key.hashValue)
        guard found.found else { return }
        body(&items[Int(slots[found.slot])].entry)
    }

    /// Changes every entry in place (not its key).
    mutating func updateEach(_ body: (inout CoverageCache.Entry) -> Void) {
        for i in items.indices { body(&items[i].entry) }
    }

    /// Keeps `entry` for `key`; returns the entry it replaces, if any.
    mutating func updateValue(_ entry: CoverageCache.Entry, forKey key: CoverageCache.Key) -> CoverageCache.Entry? {
        let hash = key.hashValue
        if (items.count + 1) * 2 > slots.count { rebuild(slotCount: max(16, slots.count * 2)) }
        let found = slot(of: key, hash: hash)
        if found.found {
            let index = Int(slots[found.slot])
            let old = items[index].entry
            items[index].entry = entry
            return old
        }
        slots[found.slot] = Int32(items.count)
        items.append(Item(key: key, hash: hash, entry: entry))
        return nil
    }

    /// Drops the `count` entries used least recently.
    mutating func dropLeastRecent(_ count: Int) {
        items.sort { $0.entry.lastUse < $1.entry.lastUse }
        items.removeFirst(min(count, items.count))
        rebuild(slotCount: slots.count)
    }

    /// Places every item again in `slotCount` empty slots.
    private mutating func rebuild(slotCount: Int) {
        slots = [Int32](repeating: -1, count: slotCount)
        let mask = slotCount - 1
        for (index, item) in items.enumerated() {
            var i = item.hash & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(index)
        }
    }
}
