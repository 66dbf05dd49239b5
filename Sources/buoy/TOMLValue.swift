/// A TOML document's values (TOML 1.0), as `buoy run`'s config file is read. Buoy reads it
/// itself (`TOMLReader`) rather than through a TOML library: the one it used, TOMLKit, imports
/// full Foundation, which put ICU's 35 MB and CoreFoundation into every buoy process.
enum TOMLValue: Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// A date, time or date-time, kept as written: no setting takes one.
    case dateTime(String)
    case array([TOMLValue])
    case table(TOMLTable)

    var string: String? { if case .string(let text) = self { return text } else { return nil } }
    var int: Int? { if case .integer(let number) = self { return number } else { return nil } }
    var double: Double? { if case .float(let number) = self { return number } else { return nil } }
    var array: [TOMLValue]? { if case .array(let values) = self { return values } else { return nil } }
    var table: TOMLTable? { if case .table(let table) = self { return table } else { return nil } }

    /// What the value is, in TOML's words, for an error message.
    var kindDescription: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .boolean: return "a boolean"
        case .array: return "an array"
        case .table: return "a table"
        case .dateTime: return "a date or time"
        }
    }
}

/// A table: its keys in the order the file gives them, and how it came to be, which decides
/// what may still be added to it (TOML forbids defining a table twice).
struct TOMLTable: Equatable {
    enum Origin: Equatable {
        /// Made as the parent of a header's table (`[a]` for `[a.b]`): a header may still define it.
        case implicit
        /// Defined by its own header.
        case header
        /// Made by a dotted key (`a.b = 1`): more dotted keys may add to it, a header may not.
        case dotted
        /// Written inline (`{ … }`): complete as written.
        case inline
    }

    private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]
    var origin: Origin

    init(origin: Origin) { self.origin = origin }

    subscript(key: String) -> TOMLValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }
}

/// A config file that is not valid TOML: the line (1-based) and what is wrong there.
struct TOMLParseError: Error, Equatable {
    var line: Int
    var reason: String
}
