/// The parts of a path as text, as NSString's path methods take them apart (`/` separates,
/// runs of `/` count as one, a trailing `/` is ignored), for messages and names derived from
/// paths without linking Foundation.
public enum PathName {
    /// The last component: "b" for "/a/b" and "/a/b/", "/" for "/", "" for "".
    public static func last(_ path: String) -> String {
        let parts = path.split(separator: "/")
        guard let last = parts.last else { return path.hasPrefix("/") ? "/" : "" }
        return String(last)
    }

    /// The path without its last component: "/a" for "/a/b", "/" for "/a" and "/", "" for "a".
    public static func parent(_ path: String) -> String {
        let parts = path.split(separator: "/").dropLast()
        let absolute = path.hasPrefix("/")
        guard !parts.isEmpty else { return absolute ? "/" : "" }
        // Appended one by one, not `joined(separator:)`: that generic method looks its
        // element type up at run time (a scan of every conformance record, 0.2 M instructions
        // at the start of every command that opens an animation).
        var result = absolute ? "/" : ""
        for (k, part) in parts.enumerated() {
            if k > 0 { result.append("/") }
            result.append(contentsOf: part)
        }
        return result
    }

    /// `name` under `directory`: "a/b" for ("a", "b") and ("a/", "b"), "b" for ("", "b").
    public static func join(_ directory: String, _ name: String) -> String {
        guard !directory.isEmpty else { return name }
        guard !name.isEmpty else { return directory }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let tail = name.hasPrefix("/") ? String(name.dropFirst()) : name
        return base + "/" + tail
    }

    /// The last component without its extension: "anim" for "/a/anim.json", ".rc" for "/a/.rc",
    /// "x.tar" for "x.tar.gz".
    public static func stem(_ path: String) -> String {
        let name = last(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
