internal import CTextLibraries

/// Why text cannot be drawn here: FreeType, HarfBuzz, Fontconfig or FriBidi is missing, or too
/// old to have a function Buoy calls. `reason` names the library.
public struct TextLibraryError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

/// The text libraries' functions (Sources/CTextLibraries), opened on the first call: a process
/// that never draws text never maps them. Every FontLibrary and FontFace holds the table.
enum TextLibraries {
    typealias Table = UnsafePointer<buoy_text_functions>

    static func load() throws -> Table {
        if let table = buoy_text_libraries() { return table }
        let reason = buoy_text_libraries_unavailable().map { String(cString: $0) } ?? "the text libraries could not be loaded"
        throw TextLibraryError(reason: reason)
    }
}
