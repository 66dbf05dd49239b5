/// A keypath pattern such as `Boat.Transform.Position` or `**.Fill 1.Color`: names of layers,
/// then groups and items, then a property, separated by dots. `*` matches exactly one name,
/// `**` any number of names (zero or more). A name containing a dot is written with `\.`.
public struct Keypath: Hashable, Sendable, CustomStringConvertible {
    public let components: [String]

    public init(_ string: String) {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for ch in string {
            if escaped { current.append(ch); escaped = false; continue }
            if ch == "\\" { escaped = true; continue }
            if ch == "." { parts.append(current); current = ""; continue }
            current.append(ch)
        }
        parts.append(current)
        components = parts
    }

    public init(components: [String]) { self.components = components }

    public var description: String {
        components.map { $0.replacing(".", with: "\\.") }.joined(separator: ".")
    }

    /// Whether this pattern matches a concrete path of names.
    public func matches(_ names: [String]) -> Bool {
        Self.match(components[...], names[...])
    }

    /// Whether some path starting with `names` could still match (used to skip whole
    /// subtrees while walking an animation).
    public func couldMatch(prefix names: [String]) -> Bool {
        Self.matchPrefix(components[...], names[...])
    }

    private static func match(_ pattern: ArraySlice<String>, _ names: ArraySlice<String>) -> Bool {
        guard let head = pattern.first else { return names.isEmpty }
        if head == "**" {
            // Zero names, or one name and stay on `**`.
            if match(pattern.dropFirst(), names) { return true }
            return !names.isEmpty && match(pattern, names.dropFirst())
        }
        guard let name = names.first, head == "*" || head == name else { return false }
        return match(pattern.dropFirst(), names.dropFirst())
    }

    private static func matchPrefix(_ pattern: ArraySlice<String>, _ names: ArraySlice<String>) -> Bool {
        guard let name = names.first else { return true }
        guard let head = pattern.first else { return false }
        if head == "**" { return true }
        guard head == "*" || head == name else { return false }
        return matchPrefix(pattern.dropFirst(), names.dropFirst())
    }
}
