/// Where the parse of one document records what it skipped, defaulted or clamped. Shared by
/// every node of that document (a reference: nodes are values made on the fly), and by nothing else.
final class ParseLog {
    private(set) var warnings: [ParseWarning] = []
    /// Warnings beyond this are counted, not kept: a hostile file could make millions.
    let maxWarnings: Int
    private(set) var dropped = 0

    init(maxWarnings: Int = 1000) { self.maxWarnings = maxWarnings }

    func add(_ path: JSONPath, _ message: String) {
        if warnings.count < maxWarnings { warnings.append(ParseWarning(jsonPath: path.description, message: message)) } else { dropped += 1 }
    }

    /// The warnings, with one more saying how many were left out.
    var report: [ParseWarning] {
        dropped == 0 ? warnings : warnings + [ParseWarning(jsonPath: "", message: "\(dropped) more warnings not shown")]
    }
}

/// A value of a `JSONDocument` and where it sits, with typed accessors that throw errors naming
/// the path. Numbers beyond ±`largestMagnitude` (including ones JSON spells too large for a
/// Double) are clamped to it with a warning: no later arithmetic has to fear infinities.
struct JSONNode {
    let document: JSONDocument
    /// The node's entry in `document`.
    let index: Int

    static let largestMagnitude = 1e15

    init(_ document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    var log: ParseLog { document.log }
    var path: JSONPath { .node(document, index) }
    /// The path of the member `key` of this object, whether or not it is there.
    func memberPath(_ key: String) -> JSONPath { .member(document, index, key) }

    private var entry: JSONEntry { document.entries[index] }
    private func node(_ index: Int) -> JSONNode { JSONNode(document, index: index) }

    func fail(_ reason: String) -> DecodeError { DecodeError(path: path, reason: reason) }

    func warn(_ message: String) { log.add(path, message) }

    private func clamped(_ v: Double) -> Double {
        if v.isNaN {
            warn("number is not a number; 0 used")
            return 0
        }
        let limit = Self.largestMagnitude
        warn("number \(v) is out of range; clamped to \(v < 0 ? -limit : limit)")
        return v < 0 ? -limit : limit
    }

    /// The member `key`, or nil when it is absent or null.
    subscript(key: String) -> JSONNode? {
        guard let member = document.member(index, key), document.entries[member].kind != .null else { return nil }
        return node(member)
    }

    /// Whether the object has a member `key`, null or not.
    func has(_ key: String) -> Bool { document.member(index, key) != nil }

    func required(_ key: String) throws -> JSONNode {
        guard isObject else { throw fail("expected an object, found \(kindName)") }
        guard let node = self[key] else { throw DecodeError(path: memberPath(key), reason: "required field is missing") }
        return node
    }

    var isObject: Bool { entry.kind == .object }
    var isArray: Bool { entry.kind == .array }
    var isNumber: Bool { entry.kind == .number }
    var isString: Bool { entry.kind == .string || entry.kind == .escapedString }

    var keys: [String] {
        guard isObject else { return [] }
        var result: [String] = []
        var i = index + 1
        for _ in 0..<entry.count {
            result.append(document.string(i))
            i = document.next(i + 1)
        }
        return result
    }

    var kindName: String {
        switch entry.kind {
        case .null: return "null"
        case .false, .true: return "a boolean"
        case .number: return "a number"
        case .string, .escapedString: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func array() throws -> [JSONNode] {
        guard isArray else { throw fail("expected an array, found \(kindName)") }
        let n = entry.count
        var result: [JSONNode] = []
        result.reserveCapacity(n)
        var i = index + 1
        for _ in 0..<n {
            result.append(node(i))
            i = document.next(i)
        }
        return result
    }

    /// The first item of an array, nil for anything else or an empty one.
    var firstItem: JSONNode? { isArray && entry.count > 0 ? node(index + 1) : nil }

    var count: Int { isArray ? entry.count : 0 }

    /// The first two items of an array when both are numbers that need no clamping (the
    /// common point `[x, y]`), read in place; nil otherwise.
    var plainPair: (Double, Double)? {
        let entries = document.entries
        guard entries[index].kind == .array, entries[index].count >= 2,
              entries[index + 1].kind == .number, entries[index + 2].kind == .number else { return nil }
        let x = entries[index + 1].number, y = entries[index + 2].number
        guard x.isFinite, y.isFinite, abs(x) <= Self.largestMagnitude, abs(y) <= Self.largestMagnitude else { return nil }
        return (x, y)
    }

    /// A finite number; a one-element array counts as its element (common in Lottie files).
    func double() throws -> Double {
        let entry = self.entry
        switch entry.kind {
        case .number:
            let v = entry.number
            return v.isFinite && abs(v) <= Self.largestMagnitude ? v : clamped(v)
        case .false: return 0
        case .true: return 1
        case .array where entry.count > 0:
            return try node(index + 1).double()
        default:
            throw fail("expected a number, found \(kindName)")
        }
    }

    func int() throws -> Int {
        let v = try double()
        guard abs(v) < 1e12 else {
            warn("integer \(v) is out of range; clamped")
            return v < 0 ? -1_000_000_000_000 : 1_000_000_000_000
        }
        return Int(v.rounded())
    }

    func string() throws -> String {
        let entry = self.entry
        switch entry.kind {
        case .string, .escapedString: return document.string(index)
        case .number:
            let v = entry.number
            return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
        default: throw fail("expected a string, found \(kindName)")
        }
    }

    /// Lottie writes flags as true/false or 0/1.
    func bool() throws -> Bool {
        let entry = self.entry
        switch entry.kind {
        case .false: return false
        case .true: return true
        case .number: return entry.number != 0
        default: throw fail("expected a boolean, found \(kindName)")
        }
    }

    /// All numbers of an array (or a single number as one element).
    func doubles() throws -> [Double] {
        let entry = self.entry
        switch entry.kind {
        case .number: return [try double()]
        case .array:
            var result: [Double] = []
            result.reserveCapacity(entry.count)
            var i = index + 1
            for _ in 0..<entry.count {
                // The common case reads the number in place; a node is made only for the rest.
                let item = document.entries[i]
                if item.kind == .number, item.number.isFinite, abs(item.number) <= Self.largestMagnitude {
                    result.append(item.number)
                    i += 1
                } else {
                    result.append(try node(i).double())
                    i = document.next(i)
                }
            }
            return result
        default: throw fail("expected a number or an array of numbers, found \(kindName)")
        }
    }

    func optionalDouble(_ key: String, default fallback: Double) throws -> Double {
        if let member = document.member(index, key) {
            let entry = document.entries[member]
            if entry.kind == .number, entry.number.isFinite, abs(entry.number) <= Self.largestMagnitude { return entry.number }
        }
        return try self[key]?.double() ?? fallback
    }

    func optionalString(_ key: String) throws -> String? {
        try self[key]?.string()
    }

    func optionalBool(_ key: String) throws -> Bool {
        try self[key]?.bool() ?? false
    }
}
