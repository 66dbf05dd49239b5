internal import CTextLibraries
import Glibc

/// What a text asks for: a family and style (as fontconfig names them, e.g. "DejaVu Sans",
/// "Bold") and, when the source gives one, a PostScript name, which wins when installed.
public struct FontRequest: Hashable, Sendable {
    public var family: String
    public var style: String
    public var postScriptName: String

    public init(family: String, style: String = "", postScriptName: String = "") {
        self.family = family
        self.style = style
        self.postScriptName = postScriptName
    }
}

/// The fonts of the system (fontconfig's configuration) plus extra folders given by the
/// caller. Faces are opened once and shared. Not thread-safe: one library per thread.
public final class FontLibrary {
    private let lib: TextLibraries.Table
    private let config: OpaquePointer
    private var faces: [String: FontFace] = [:]

    /// - Parameter extraDirectories: font folders searched besides the system's, e.g. an
    ///   animation's `fonts/` folder; a folder that does not exist is skipped.
    ///   Throws TextLibraryError when the text libraries cannot be loaded (its reason names the library).
    public init(extraDirectories: [String] = []) throws {
        let lib = try TextLibraries.load()
        self.lib = lib
        guard let config = lib.pointee.FcInitLoadConfigAndFonts() else { throw FontError(file: "fontconfig", reason: "no configuration could be loaded") }
        self.config = config
        // A system without fontconfig's configuration files (a bare initramfs) loads a config
        // that lists no font: look in the usual folders then, as the rest of Buoy does.
        let systemFonts = lib.pointee.FcConfigGetFonts(config, FcSetSystem)
        let standard = (systemFonts?.pointee.nfont ?? 0) == 0 ? ["/usr/local/share/fonts", "/usr/share/fonts"] : []
        for dir in standard + extraDirectories where !dir.isEmpty && !dir.contains("\0") {
            var status = stat()
            guard stat(dir, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { continue }
            _ = lib.pointee.FcConfigAppFontAddDir(config, dir)
        }
    }

    deinit { lib.pointee.FcConfigDestroy(config) }

    /// The face and its fallbacks for `request`: fontconfig's best match (some face is always
    /// found while any font is installed), then every other face in its order of preference.
    /// Each call sorts the system's fonts: keep the stack while the text's font stays the same.
    public func stack(for request: FontRequest) throws -> FontStack {
        let candidates = sortedCandidates(for: request)
        let named = request.postScriptName.isEmpty ? nil : face(postScriptName: request.postScriptName)
        guard let primary = named ?? candidates.lazy.compactMap({ try? self.face(file: $0.file, index: $0.index) }).first else {
            throw FontError(file: request.family, reason: "no usable font is installed")
        }
        return FontStack(primary: primary, candidates: candidates, library: self)
    }

    /// A stack whose primary face is the first face of the font file `file` (a font the caller
    /// found by its file name), falling back on the faces fontconfig prefers for `request`.
    public func stack(file: String, fallbackFor request: FontRequest) throws -> FontStack {
        FontStack(primary: try face(file: file, index: 0), candidates: sortedCandidates(for: request), library: self)
    }

    /// The installed face `request` names, nil when none does: the face with its PostScript
    /// name, else fontconfig's best match when that is of the requested family (fontconfig
    /// otherwise answers with a default face, which a caller may want to choose itself).
    public func namedFace(for request: FontRequest) -> FontFace? {
        if !request.postScriptName.isEmpty, let face = face(postScriptName: request.postScriptName) { return face }
        guard !request.family.isEmpty else { return nil }
        let wanted = request.family.lowercased()
        for candidate in sortedCandidates(for: request).prefix(1) {
            guard let face = try? face(file: candidate.file, index: candidate.index) else { continue }
            if face.family.lowercased() == wanted || face.postScriptName.lowercased() == wanted { return face }
        }
        return nil
    }

    /// The face a file holds at `index`, opened once.
    public func face(file: String, index: Int = 0) throws -> FontFace {
        let key = "\(index)\u{1}\(file)"
        if let face = faces[key] { return face }
        let face = try FontFace(file: file, index: index)
        faces[key] = face
        return face
    }

    /// The installed face with exactly this PostScript name, if any.
    func face(postScriptName: String) -> FontFace? {
        guard !postScriptName.contains("\0"), let pattern = lib.pointee.FcPatternCreate() else { return nil }
        defer { lib.pointee.FcPatternDestroy(pattern) }
        _ = lib.pointee.FcPatternAddString(pattern, FC_POSTSCRIPT_NAME, postScriptName)
        guard let objects = objectSet([FC_FILE, FC_INDEX]) else { return nil }
        defer { lib.pointee.FcObjectSetDestroy(objects) }
        guard let list = lib.pointee.FcFontList(config, pattern, objects) else { return nil }
        defer { lib.pointee.FcFontSetDestroy(list) }
        return entries(of: list).lazy.compactMap { try? self.face(file: $0.file, index: $0.index) }.first
    }

    /// Every face fontconfig knows, best match for `request` first, with the characters each covers.
    private func sortedCandidates(for request: FontRequest) -> [FontStack.Candidate] {
        guard let pattern = lib.pointee.FcPatternCreate() else { return [] }
        defer { lib.pointee.FcPatternDestroy(pattern) }
        let family = request.family.replacing("\0", with: "")
        let style = request.style.replacing("\0", with: "")
        if !family.isEmpty { _ = lib.pointee.FcPatternAddString(pattern, FC_FAMILY, family) }
        if !style.isEmpty { _ = lib.pointee.FcPatternAddString(pattern, FC_STYLE, style) }
        _ = lib.pointee.FcPatternAddBool(pattern, FC_SCALABLE, FcBool(FcTrue))
        _ = lib.pointee.FcConfigSubstitute(config, pattern, FcMatchPattern)
        lib.pointee.FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = lib.pointee.FcFontSort(config, pattern, FcBool(FcFalse), nil, &result) else { return [] }
        defer { lib.pointee.FcFontSetDestroy(set) }
        return entries(of: set)
    }

    private func objectSet(_ names: [String]) -> UnsafeMutablePointer<FcObjectSet>? {
        guard let set = lib.pointee.FcObjectSetCreate() else { return nil }
        for name in names { _ = lib.pointee.FcObjectSetAdd(set, name) }
        return set
    }

    /// The file, face index and charset of each pattern in a font set.
    private func entries(of set: UnsafeMutablePointer<FcFontSet>) -> [FontStack.Candidate] {
        let count = Int(set.pointee.nfont)
        guard count > 0, let fonts = set.pointee.fonts else { return [] }
        var out: [FontStack.Candidate] = []
        for i in 0..<count {
            guard let font = fonts[i] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard lib.pointee.FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
            var index: Int32 = 0
            if lib.pointee.FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
            var charset: OpaquePointer?
            let covered = lib.pointee.FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch ? charset.flatMap { lib.pointee.FcCharSetCopy($0) } : nil
            out.append(FontStack.Candidate(file: String(cString: file), index: Int(index), charset: CharSet(covered, lib: lib)))
        }
        return out
    }
}

/// A fontconfig charset, owned (released with its last reference).
final class CharSet {
    private let set: OpaquePointer?
    private let lib: TextLibraries.Table
    init(_ set: OpaquePointer?, lib: TextLibraries.Table) {
        self.set = set
        self.lib = lib
    }
    deinit { if let set { lib.pointee.FcCharSetDestroy(set) } }
    /// Whether the face claims `scalar`; a face whose charset is unknown may have it.
    func has(_ scalar: Unicode.Scalar) -> Bool {
        guard let set else { return true }
        return lib.pointee.FcCharSetHasChar(set, FcChar32(scalar.value)) != 0
    }
}

/// A primary face and the faces to fall back on, in fontconfig's order, for characters the
/// primary lacks: CJK, Arabic and the like shown in a Latin font.
public final class FontStack {
    struct Candidate {
        let file: String
        let index: Int
        let charset: CharSet
    }

    public let primary: FontFace
    private let candidates: [Candidate]
    /// Faces are opened through the library so stacks share them; the stack keeps it alive.
    private let library: FontLibrary
    private var chosen: [Unicode.Scalar: FontFace] = [:]

    init(primary: FontFace, candidates: [Candidate], library: FontLibrary) {
        self.primary = primary
        self.candidates = candidates
        self.library = library
    }

    /// The first face of the stack that has a glyph for `scalar`; the primary when none has.
    public func face(for scalar: Unicode.Scalar) -> FontFace {
        if primary.covers(scalar) { return primary }
        if let face = chosen[scalar] { return face }
        var found = primary
        for candidate in candidates where candidate.charset.has(scalar) {
            if let face = try? library.face(file: candidate.file, index: candidate.index), face.covers(scalar) {
                found = face
                break
            }
        }
        chosen[scalar] = found
        return found
    }
}
