/// TOML's rules for where a value may go: a key is set once, a table is defined once, an
/// inline table or a plain array is complete as written, `[[x]]` appends to an array of tables.
extension TOMLReader {
    /// Puts `value` at `key` (maybe dotted) inside the table at `path`.
    mutating func insert(_ value: TOMLValue, at path: [String], key: [String], line: Int) throws {
        try Self.update(path[...], below: [], in: &root, arrays: headerArrays, line: line) { table in
            try Self.set(value, key: key[...], in: &table, line: line)
        }
    }

    /// `[path]`: a table that is new, or was only implied by an earlier header.
    mutating func defineTable(at path: [String]) throws {
        let name = path.joined(separator: "."), line = self.line
        try Self.update(path.dropLast(), below: [], in: &root, arrays: headerArrays, line: line) { parent in
            switch parent[path.last!] {
            case nil: parent[path.last!] = .table(TOMLTable(origin: .header))
            case .table(var table) where table.origin == .implicit:
                table.origin = .header
                parent[path.last!] = .table(table)
            default: throw TOMLParseError(line: line, reason: "[\(name)] is defined twice")
            }
        }
    }

    /// `[[path]]`: a new table at the end of the array of tables.
    mutating func appendTable(at path: [String]) throws {
        let name = path.joined(separator: "."), known = headerArrays.contains(path), line = self.line
        try Self.update(path.dropLast(), below: [], in: &root, arrays: headerArrays, line: line) { parent in
            switch parent[path.last!] {
            case nil: parent[path.last!] = .array([.table(TOMLTable(origin: .header))])
            case .array(let tables) where known: parent[path.last!] = .array(tables + [.table(TOMLTable(origin: .header))])
            default: throw TOMLParseError(line: line, reason: "[[\(name)]] names something that is not an array of tables")
            }
        }
        headerArrays.insert(path)
    }

    /// Runs `body` on the table at `path` below `table` (whose own path is `prefix`), making
    /// the tables on the way (implied), and taking the last table of an array that `[[…]]`
    /// headers made, as TOML means.
    static func update(_ path: ArraySlice<String>, below prefix: [String], in table: inout TOMLTable, arrays: Set<[String]>,
                       line: Int, _ body: (inout TOMLTable) throws -> Void) throws {
        guard let first = path.first else { return try body(&table) }
        guard prefix.count < maxDepth else { throw TOMLParseError(line: line, reason: "tables nested more than \(maxDepth) deep") }
        let here = prefix + [first]
        switch table[first] {
        case nil:
            var child = TOMLTable(origin: .implicit)
            try update(path.dropFirst(), below: here, in: &child, arrays: arrays, line: line, body)
            table[first] = .table(child)
        case .table(var child) where child.origin != .inline:
            try update(path.dropFirst(), below: here, in: &child, arrays: arrays, line: line, body)
            table[first] = .table(child)
        case .array(var elements) where arrays.contains(here):
            guard case .table(var last)? = elements.last else { throw TOMLParseError(line: line, reason: "\(first) is not a table") }
            try update(path.dropFirst(), below: here, in: &last, arrays: arrays, line: line, body)
            elements[elements.count - 1] = .table(last)
            table[first] = .array(elements)
        default:
            throw TOMLParseError(line: line, reason: "\(here.joined(separator: ".")) is already a value, not a table")
        }
    }

    /// Sets a (maybe dotted) key in `table`: tables named on the way are made by the dotted key.
    static func set(_ value: TOMLValue, key: ArraySlice<String>, in table: inout TOMLTable, line: Int) throws {
        let name = key.first!
        if key.count == 1 {
            guard table[name] == nil else { throw TOMLParseError(line: line, reason: "\(name) is set twice") }
            table[name] = value
            return
        }
        var child: TOMLTable
        switch table[name] {
        case nil: child = TOMLTable(origin: .dotted)
        case .table(let existing) where existing.origin == .dotted: child = existing
        default: throw TOMLParseError(line: line, reason: "\(key.joined(separator: ".")): \(name) is already defined")
        }
        try set(value, key: key.dropFirst(), in: &child, line: line)
        table[name] = .table(child)
    }
}
