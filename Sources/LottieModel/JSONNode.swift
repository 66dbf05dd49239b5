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

/// A JSON value and where it sits, with typed accessors that throw errors naming the path.
/// Numbers beyond ±`largestMagnitude` (including ones JSON spells too large for a Double) are
/// clamped to it with a warning: no later arithmetic has to fear infinities.
struct JSONNode {
    let value: JSONValue
    let path: JSONPath
    let log: ParseLog

    static let largestMagnitude = 1e15

    init(_ value: JSONValue, path: JSONPath, log: ParseLog) {
        self.value = value
        self.path = path
        self.log = log
    }

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
        guard let member = value[key] else { return nil }
        if case .null = member { return nil }
        return JSONNode(member, path: .key(path, key), log: log)
    }

    func required(_ key: String) throws -> JSONNode {
        guard case .object = value else { throw fail("expected an object, found \(kindName)") }
        guard let node = self[key] else { throw DecodeError(path: .key(path, key), reason: "required field is missing") }
        return node
    }

    var isObject: Bool { if case .object = value { return true }; return false }
    var isArray: Bool { if case .array = value { return true }; return false }

    var keys: [String] {
        if case .object(let members) = value { return members.map(\.key) }
        return []
    }

    var kindName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func array() throws -> [JSONNode] {
        guard case .array(let items) = value else { throw fail("expected an array, found \(kindName)") }
        var result: [JSONNode] = []
        result.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { result.append(JSONNode(item, path: .index(path, i), log: log)) }
        return result
    }

    var count: Int {
        if case .array(let items) = value { return items.count }
        return 0
    }

    /// A finite number; a one-element array counts as its element (common in Lottie files).
    func double() throws -> Double {
        switch value {
        case .number(let v):
            return v.isFinite && abs(v) <= Self.largestMagnitude ? v : clamped(v)
        case .bool(let b): return b ? 1 : 0
        case .array(let items) where !items.isEmpty:
            return try JSONNode(items[0], path: .index(path, 0), log: log).double()
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
        switch value {
        case .string(let s): return s
        case .number(let v): return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
        default: throw fail("expected a string, found \(kindName)")
        }
    }

    /// Lottie writes flags as true/false or 0/1.
    func bool() throws -> Bool {
        switch value {
        case .bool(let b): return b
        case .number(let v): return v != 0
        default: throw fail("expected a boolean, found \(kindName)")
        }
    }

    /// All numbers of an array (or a single number as one element).
    func doubles() throws -> [Double] {
        switch value {
        case .number: return [try double()]
        case .array(let items):
            var result: [Double] = []
            result.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                // The common case reads the number in place; the path is built only for an error.
                if case .number(let v) = item, v.isFinite, abs(v) <= 1e15 {
                    result.append(v)
                } else {
                    result.append(try JSONNode(item, path: .index(path, i), log: log).double())
                }
            }
            return result
        default: throw fail("expected a number or an array of numbers, found \(kindName)")
        }
    }

    func optionalDouble(_ key: String, default fallback: Double) throws -> Double {
        if case .number(let v)? = value[key], v.isFinite, abs(v) <= 1e15 { return v }
        return try self[key]?.double() ?? fallback
    }

    func optionalString(_ key: String) throws -> String? {
        try self[key]?.string()
    }

    func optionalBool(_ key: String) throws -> Bool {
        try self[key]?.bool() ?? false
    }
}
