internal import CTextLibraries
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
    let lib: TextLibraries.Table
    private let face: OpaquePointer
    private let ascender: Double
    private let descender: Double
    let hbFont: OpaquePointer
    private var outlines: [UInt32: Path] = [:]

    /// Throws TextLibraryError when the text libraries cannot be loaded, FontError when the file
    /// is not a font they can read.
    public init(file: String, index: Int = 0) throws {
        let lib = try TextLibraries.load()
        var metrics = buoy_font_metrics()
        guard index >= 0, index < Int(Int32.max), let face = buoy_font_face_open(file, index, &metrics) else {
            throw FontError(file: file, reason: "not a scalable font FreeType can open (face \(index))")
        }
        guard let font = Self.harfBuzzFont(file: file, index: index, lib: lib) else {
            buoy_font_face_close(face)
            throw FontError(file: file, reason: "HarfBuzz cannot read it")
        }
        self.lib = lib
        self.face = face
        self.hbFont = font
        self.file = file
        self.index = index
        unitsPerEm = Double(metrics.units_per_em)
        ascender = Double(metrics.ascender)
        descender = Double(metrics.descender)
        family = metrics.family.map { String(cString: $0) } ?? ""
        style = metrics.style.map { String(cString: $0) } ?? ""
        postScriptName = metrics.postscript_name.map { String(cString: $0) } ?? ""
        lib.pointee.hb_font_set_scale(font, Int32(clamping: metrics.units_per_em), Int32(clamping: metrics.units_per_em))
    }

    private static func harfBuzzFont(file: String, index: Int, lib: TextLibraries.Table) -> OpaquePointer? {
        guard let blob = lib.pointee.hb_blob_create_from_file(file) else { return nil }
        defer { lib.pointee.hb_blob_destroy(blob) }
        guard lib.pointee.hb_blob_get_length(blob) > 0, let hbFace = lib.pointee.hb_face_create(blob, UInt32(index)) else { return nil }
        defer { lib.pointee.hb_face_destroy(hbFace) }
        return lib.pointee.hb_font_create(hbFace)
    }

    deinit {
        lib.pointee.hb_font_destroy(hbFont)
        buoy_font_face_close(face)
    }

    /// The face's glyph for `scalar`, nil when it has none (it would draw .notdef).
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        let id = buoy_font_face_glyph(face, UInt(scalar.value))
        return id == 0 ? nil : UInt32(id)
    }

    public func covers(_ scalar: Unicode.Scalar) -> Bool { glyph(for: scalar) != nil }

    /// Ascender and descender (positive below the baseline) in ems.
    public var ascent: Double { ascender / unitsPerEm }
    public var descent: Double { -descender / unitsPerEm }

    /// The height of capital letters above the baseline in ems: the font's own figure (OS/2),
    /// else the top of its "H", else the ascent.
    public var capHeight: Double {
        var position: hb_position_t = 0
        if lib.pointee.hb_ot_metrics_get_position(hbFont, HB_OT_METRICS_TAG_CAP_HEIGHT, &position) != 0, position > 0 {
            return Double(position) / unitsPerEm
        }
        var extents = hb_glyph_extents_t()
        if let h = glyph(for: "H"), lib.pointee.hb_font_get_glyph_extents(hbFont, h, &extents) != 0, extents.y_bearing > 0 {
            return Double(extents.y_bearing) / unitsPerEm
        }
        return ascent
    }

    /// The extra space the font asks for between lines (its line gap), in ems.
    public var lineGap: Double {
        var position: hb_position_t = 0
        guard lib.pointee.hb_ot_metrics_get_position(hbFont, HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP, &position) != 0 else { return 0 }
        return max(0, Double(position) / unitsPerEm)
    }

    /// The outline of glyph `id` in ems, y pointing down, origin on the baseline; empty for
    /// a glyph that is not in the face or has no outline (a space).
    public func outline(glyph id: UInt32) -> Path {
        if let cached = outlines[id] { return cached }
        var builder = OutlineBuilder(scale: 1 / unitsPerEm)
        let drawn = withUnsafeMutablePointer(to: &builder) { pointer in
            var sink = OutlineBuilder.sink(UnsafeMutableRawPointer(pointer))
            return buoy_font_face_outline(face, id, &sink)
        }
        if drawn != 0 { builder.path.close() }
        outlines[id] = builder.path
        return builder.path
    }
}

/// Collects FreeType's outline segments into a path, flipping y (fonts point y up).
private struct OutlineBuilder {
    var path = Path()
    let scale: Double
    var started = false

    init(scale: Double) { self.scale = scale }

    static func sink(_ user: UnsafeMutableRawPointer) -> buoy_outline_sink {
        buoy_outline_sink(
            user: user,
            move: { user, x, y in OutlineBuilder.from(user)?.pointee.move(x, y) },
            line: { user, x, y in OutlineBuilder.from(user)?.pointee.line(x, y) },
            quad: { user, cx, cy, x, y in OutlineBuilder.from(user)?.pointee.quad(cx, cy, x, y) },
            cubic: { user, c1x, c1y, c2x, c2y, x, y in OutlineBuilder.from(user)?.pointee.cubic(c1x, c1y, c2x, c2y, x, y) })
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<OutlineBuilder>? {
        user?.assumingMemoryBound(to: OutlineBuilder.self)
    }

    func point(_ x: Double, _ y: Double) -> Point { Point(x * scale, -y * scale) }

    mutating func move(_ x: Double, _ y: Double) {
        if started { path.close() }
        path.move(to: point(x, y))
        started = true
    }

    mutating func line(_ x: Double, _ y: Double) { path.line(to: point(x, y)) }

    mutating func quad(_ cx: Double, _ cy: Double, _ x: Double, _ y: Double) {
        path.quad(to: point(x, y), control: point(cx, cy))
    }

    mutating func cubic(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, _ x: Double, _ y: Double) {
        path.cubic(to: point(x, y), control1: point(c1x, c1y), control2: point(c2x, c2y))
    }
}
