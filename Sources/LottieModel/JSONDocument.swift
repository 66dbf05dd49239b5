/// A JSON document read into one flat array of entries, the way the model is built from it.
///
/// `JSONReader` (a tree of `JSONValue`s) is the reference; this reads the same text with the
/// same limits and the same errors (`JSONDocumentTests` holds them to it) but costs far less
/// per value: no array or member list is allocated per object or array, keys are compared in
/// place in the text and never made into `String`s, and nothing is freed value by value when
/// the load ends. Each entry knows its parent and its place there, so a JSON path is spelled
/// out only when an error or a warning names it (`path(of:)`), never while loading.
final class JSONDocument: @unchecked Sendable {  // immutable once read
    /// Values in document order; a container's members follow it (an object's as key, value).
    /// Owned memory read through a pointer: the lookups that run for nearly every member the
    /// model reads take no reference counts and no exclusivity checks.
    let entries: UnsafeBufferPointer<JSONEntry>
    /// The JSON text, then the strings that had escapes, decoded (the text itself stays as it
    /// was, for the line numbers of errors). A string entry is a span of it.
    private let text: UnsafeBufferPointer<UInt8>
    /// What the load of this document skipped, defaulted or clamped.
    let log: ParseLog

    /// Reads `bytes`; throws the `JSONSyntaxError` the reference reader gives for the same text.
    init(bytes: UnsafeRawBufferPointer, log: ParseLog = ParseLog()) throws {
        self.log = log
        let source = bytes.bindMemory(to: UInt8.self)
        // Lottie files have one value per 3.5 to 6 bytes (4.2 at the median of the corpus):
        // room for one per 3 is one allocation and no copy for nearly every file. (At one per
        // 4, half the files grew it once: a copy of every entry, and its pages touched twice.)
        // Pages never written are never faulted in.
        var storage = JSONEntryStorage(capacity: source.count / 3 + 16)
        var unescaped: [UInt8] = []
        do {
            var reader = JSONTapeReader(bytes: source)
            reader.skipWhitespace()
            try reader.value(parent: JSONEntry.noParent, ordinal: 0, depth: 0, into: &storage, unescaped: &unescaped)
            reader.skipWhitespace()
            guard reader.index == source.count else { throw reader.error("unexpected data after the end of the document") }
        } catch {
            storage.deallocate()
            throw error
        }
        // The decoded strings follow the text (the reader counted their starts from its end).
        let ownedText = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: source.count + unescaped.count)
        _ = ownedText.initialize(from: source)
        _ = UnsafeMutableBufferPointer(rebasing: ownedText[source.count...]).initialize(from: unescaped)
        entries = storage.entries
        text = UnsafeBufferPointer(ownedText)
    }

    /// Reads `bytes` (the document keeps its own copy).
    static func read(_ bytes: [UInt8]) throws -> JSONDocument {
        try bytes.withUnsafeBytes { try JSONDocument(bytes: $0) }
    }

    deinit {
        entries.deallocate()
        text.deallocate()
    }

    /// The bytes of the string or key at `index`.
    @inline(__always)
    func stringBytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = entries[index]
        return UnsafeBufferPointer(rebasing: text[entry.start..<(entry.start + entry.length)])
    }

    func string(_ index: Int) -> String {
        String(decoding: stringBytes(index), as: UTF8.self)
    }

    /// The member `key` of the object at `index` (null members included), first match wins.
    /// Keys are compared byte by byte in the text: this runs for nearly every member the
    /// model reads.
    func member(_ index: Int, _ key: String) -> Int? {
        guard entries[index].kind == .object else { return nil }
        var key = key
        return key.withUTF8 { wanted in
            var i = index + 1
            for _ in 0..<entries[index].count {
                let entry = entries[i]
                if entry.length == wanted.count {
                    var k = 0
                    while k < wanted.count, text[entry.start + k] == wanted[k] { k += 1 }
                    if k == wanted.count { return i + 1 }
                }
                let value = entries[i + 1]
                i = value.kind.isContainer ? value.end : i + 2
            }
            return nil
        }
    }

    /// The entry after `index` and everything it contains.
    @inline(__always)
    func next(_ index: Int) -> Int {
        let entry = entries[index]
        return entry.kind.isContainer ? entry.end : index + 1
    }

    /// Like `layers[3].shapes[0].it[2].c.k`: the same spelling `JSONPath` gave as a chain.
    func path(of index: Int) -> String {
        var steps: [Int] = []
        var i = index
        while i > 0 {
            steps.append(i)
            i = entries[i].parent
        }
        var text = ""
        for step in steps.reversed() {
            let parent = entries[step].parent
            if entries[parent].kind == .object {
                if !text.isEmpty { text += "." }
                text += string(step - 1)
            } else {
                text += "[\(entries[step].ordinal)]"
            }
        }
        return text
    }

    /// The reference tree of the value at `index` (for tests and for small documents read whole).
    func value(at index: Int) -> JSONValue {
        let entry = entries[index]
        switch entry.kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(entry.number)
        case .string, .escapedString: return .string(string(index))
        case .array:
            var items: [JSONValue] = []
            var i = index + 1
            for _ in 0..<entry.count { items.append(value(at: i)); i = next(i) }
            return .array(items)
        case .object:
            var members: [JSONMember] = []
            var i = index + 1
            for _ in 0..<entry.count { members.append(JSONMember(key: string(i), value: value(at: i + 1))); i = next(i + 1) }
            return .object(members)
        }
    }
}

/// One value of a `JSONDocument`, 16 bytes.
struct JSONEntry {
    enum Kind: UInt8 {
        case null, `false`, `true`, number, string, escapedString, array, object
        var isContainer: Bool { self == .array || self == .object }
    }

    static let noParent = -1

    /// A number's bits; a string's start and length; a container's end (the index after its
    /// last entry) and its count of items or members.
    private var payload: UInt64
    private var parentIndex: Int32
    /// The kind in the low 3 bits, the place in the parent (item or member number) above.
    private var info: UInt32

    init(kind: Kind, parent: Int, ordinal: Int, payload: UInt64) {
        self.payload = payload
        parentIndex = Int32(truncatingIfNeeded: parent)
        info = UInt32(truncatingIfNeeded: ordinal) << 3 | UInt32(kind.rawValue)
    }

    /// Every 3-bit value is a kind, so the raw value is read as one without a check.
    var kind: Kind { unsafeBitCast(UInt8(truncatingIfNeeded: info & 7), to: Kind.self) }
    var parent: Int { Int(parentIndex) }
    var ordinal: Int { Int(info >> 3) }
    var number: Double { Double(bitPattern: payload) }
    var start: Int { Int(payload & 0xFFFF_FFFF) }
    var length: Int { Int(payload >> 32) }
    var end: Int { Int(payload & 0xFFFF_FFFF) }
    var count: Int { Int(payload >> 32) }

    static func pair(_ low: Int, _ high: Int) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: low)) | UInt64(UInt32(truncatingIfNeeded: high)) << 32 }

    /// A container is written before its members; its end and count are filled in after them.
    mutating func close(end: Int, count: Int) { payload = Self.pair(end, count) }
}

/// The entries a reader appends, in memory the document then owns: grown by doubling, with
/// no uniqueness check or reference count per value as an array has.
struct JSONEntryStorage {
    private var base: UnsafeMutablePointer<JSONEntry>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ entry: JSONEntry) {
        if count == capacity { grow() }
        (base + count).initialize(to: entry)
        count += 1
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<JSONEntry>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// A container's end and count, once its members are read.
    mutating func close(_ index: Int, end: Int, count: Int) { base[index].close(end: end, count: count) }

    /// The entries; the memory is the caller's to free from now on.
    var entries: UnsafeBufferPointer<JSONEntry> { UnsafeBufferPointer(start: base, count: count) }

    /// For a read that failed.
    func deallocate() { base.deallocate() }
}
