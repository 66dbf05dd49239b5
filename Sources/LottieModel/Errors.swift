/// Why an animation could not be loaded: the file, where in its JSON, and what is wrong.
public struct ParseError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// Like `layers[3].shapes[0].it[2].c.k`; empty for problems with the file as a whole.
    public var jsonPath: String
    public var reason: String

    public init(file: String, jsonPath: String, reason: String) {
        self.file = file
        self.jsonPath = jsonPath
        self.reason = reason
    }

    public var description: String {
        jsonPath.isEmpty ? "\(file): \(reason)" : "\(file): at \(jsonPath): \(reason)"
    }
}

/// Something in the file Buoy skipped (an unknown layer type, an expression); the rest loads.
public struct ParseWarning: Equatable, Sendable, CustomStringConvertible {
    public var jsonPath: String
    public var message: String

    public init(jsonPath: String, message: String) {
        self.jsonPath = jsonPath
        self.message = message
    }

    public var description: String { jsonPath.isEmpty ? message : "at \(jsonPath): \(message)" }
}

/// A location in a JSON document: spelled out only when an error or a warning needs it.
enum JSONPath: CustomStringConvertible, Sendable {
    /// A value of the document.
    case node(JSONDocument, Int)
    /// The member `key` of the object at an index, present or missing.
    case member(JSONDocument, Int, String)

    var description: String {
        switch self {
        case .node(let document, let index): return document.path(of: index)
        case .member(let document, let index, let key):
            let p = document.path(of: index)
            return p.isEmpty ? key : p + "." + key
        }
    }
}

/// An error inside the document; the loader adds the file name.
struct DecodeError: Error {
    var path: JSONPath
    var reason: String
}
