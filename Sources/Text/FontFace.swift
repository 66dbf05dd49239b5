import CFreeType
import CHarfBuzz
import Glibc
import Raster

/// Why a font file could not be opened.
public struct FontError: Error, CustomStringConvertible {
    public let file: String
    public let reason: String
    public var description: String { "font \(file): \(reason)" }
}

/// One face of a font file: FreeType for coverage and outlines, HarfBuzz for shaping. Both
/// read the same file, so their glyph ids agree. Outlines are cached per glyph in ems.
public final class FontFace {
    public let file: String
    public let index: Int
    public let family: String
    public let style: String
    public let postScriptName: String
    /// Font units per em (the scale HarfBuzz positions are given in).
    public let unitsPerEm: Double
    private let library: FT_Library
    private let face: FT_Face
    let hbFont: OpaquePointer
    private var outlines: [UInt32: Path] = [:]

    public init(file: String, index: Int = 0) throws {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw FontError(file: file, reason: "FreeType did not start") }
        var face: FT_Face?
        guard index >= 0, index < Int(Int32.max), FT_New_Face(library, file, FT_Long(index), &face) == 0, let face,
              face.pointee.units_per_EM > 0, face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            FT_Done_FreeType(library)
            throw FontError(file: file, reason: "not a scalable font FreeType can open (face \(index))")
        }
        guard let font = Self.harfBuzzFont(file: file, index: index) else {
            FT_Done_Face(face); FT_Done_FreeType(library)
            throw FontError(file: file, reason: "HarfBuzz cannot read it")
        }
        self.library = library
        self.face = face
        self.hbFont = font
        self.file = file
        self.index = index
        unitsPerEm = Double(face.pointee.units_per_EM)
        family = face.pointee.family_name.map { String(cString: $0) } ?? ""
        style = face.pointee.style_name.map { String(cString: $0) } ?? ""
        postScriptName = FT_Get_Postscript_Name(face).map { String(cString: $0) } ?? ""
        hb_font_set_scale(font, Int32(face.pointee.units_per_EM), Int32(face.pointee.units_per_EM))
    }

    private static func harfBuzzFont(file: String, index: Int) -> OpaquePointer? {
        guard let blob = hb_blob_create_from_file(file) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard hb_blob_get_length(blob) > 0, let hbFace = hb_face_create(blob, UInt32(index)) else { return nil }
        defer { hb_face_destroy(hbFace) }
        return hb_font_create(hbFace)
    }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// The face's glyph for `scalar`, nil when it has none (it would draw .notdef).
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        let id = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        return id == 0 ? nil : UInt32(id)
    }

    public func covers(_ scalar: Unicode.Scalar) -> Bool { glyph(for: scalar) != nil }

    /// Ascender and descender (positive below the baseline) in ems.
    public var ascent: Double { Double(face.pointee.ascender) / unitsPerEm }
    public var descent: Double { -Double(face.pointee.descender) / unitsPerEm }

    /// The height of capital letters above the baseline in ems: the font's own figure (OS/2),
    /// else the top of its "H", else the ascent.
    public var capHeight: Double {
        var position: hb_position_t = 0
        if hb_ot_metrics_get_position(hbFont, HB_OT_METRICS_TAG_CAP_HEIGHT, &position) != 0, position > 0 {
            return Double(position) / unitsPerEm
        }
        var extents = hb_glyph_extents_t()
        if let h = glyph(for: "H"), hb_font_get_glyph_extents(hbFont, h, &extents) != 0, extents.y_bearing > 0 {
            return Double(extents.y_bearing) / unitsPerEm
        }
        return ascent
    }

    /// The extra space the font asks for between lines (its line gap), in ems.
    public var lineGap: Double {
        var position: hb_position_t = 0
        guard hb_ot_metrics_get_position(hbFont, HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP, &position) != 0 else { return 0 }
        return max(0, Double(position) / unitsPerEm)
    }

    /// The outline of glyph `id` in ems, y pointing down, origin on the baseline; empty for
    /// a glyph that is not in the face or has no outline (a space).
    public func outline(glyph id: UInt32) -> Path {
        if let cached = outlines[id] { return cached }
        var builder = OutlineBuilder(scale: 1 / unitsPerEm)
        if FT_Load_Glyph(face, FT_UInt(id), FT_Int32(FT_LOAD_NO_SCALE)) == 0, let slot = face.pointee.glyph,
           slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            var funcs = OutlineBuilder.callbacks
            withUnsafeMutablePointer(to: &builder) { pointer in
                _ = FT_Outline_Decompose(&slot.pointee.outline, &funcs, UnsafeMutableRawPointer(pointer))
            }
            builder.path.close()
        }
        outlines[id] = builder.path
        return builder.path
    }
}

/// Collects FreeType's outline callbacks into a path, flipping y (fonts point y up).
private struct OutlineBuilder {
    var path = Path()
    let scale: Double
    var started = false

    init(scale: Double) { self.scale = scale }

    static var callbacks: FT_Outline_Funcs {
        FT_Outline_Funcs(
            move_to: { to, user in OutlineBuilder.from(user)?.pointee.move(to); return 0 },
            line_to: { to, user in OutlineBuilder.from(user)?.pointee.line(to); return 0 },
            conic_to: { c, to, user in OutlineBuilder.from(user)?.pointee.conic(c, to); return 0 },
            cubic_to: { c1, c2, to, user in OutlineBuilder.from(user)?.pointee.cubic(c1, c2, to); return 0 },
            shift: 0, delta: 0)
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<OutlineBuilder>? {
        user?.assumingMemoryBound(to: OutlineBuilder.self)
    }

    func point(_ v: UnsafePointer<FT_Vector>?) -> Point {
        guard let v else { return Point(0, 0) }
        return Point(Double(v.pointee.x) * scale, -Double(v.pointee.y) * scale)
    }

    mutating func move(_ to: UnsafePointer<FT_Vector>?) {
        if started { path.close() }
        path.move(to: point(to))
        started = true
    }

    mutating func line(_ to: UnsafePointer<FT_Vector>?) { path.line(to: point(to)) }

    mutating func conic(_ c: UnsafePointer<FT_Vector>?, _ to: UnsafePointer<FT_Vector>?) {
        path.quad(to: point(to), control: point(c))
    }

    mutating func cubic(_ c1: UnsafePointer<FT_Vector>?, _ c2: UnsafePointer<FT_Vector>?, _ to: UnsafePointer<FT_Vector>?) {
        path.cubic(to: point(to), control1: point(c1), control2: point(c2))
    }
}
