import CFreeType
import Foundation
import Raster

/// Glyph outlines from a font file through FreeType, for text layers whose file carries no
/// glyph shapes (`chars`). Outlines are taken unscaled, in font units, and scaled as paths,
/// so one face serves every size. A lock keeps a face safe when bands of one frame are drawn
/// on several threads.
final class FontOutlines: @unchecked Sendable {
    private let lock = NSLock()
    private var library: FT_Library?
    private var face: FT_Face?
    let path: String
    let unitsPerEm: Double
    private var cache: [Unicode.Scalar: (RasterPath, Double)] = [:]

    init?(path: String) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        var face: FT_Face?
        guard FT_New_Face(library, path, 0, &face) == 0, let face, face.pointee.units_per_EM > 0 else {
            FT_Done_FreeType(library)
            return nil
        }
        self.library = library
        self.face = face
        self.path = path
        unitsPerEm = Double(face.pointee.units_per_EM)
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// The glyph for `scalar` with y pointing down, in units of one em, and its advance in ems.
    func glyph(_ scalar: Unicode.Scalar) -> (path: RasterPath, advance: Double)? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[scalar] { return cached }
        guard let face else { return nil }
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_SCALE)) == 0, let slot = face.pointee.glyph else { return nil }
        var builder = OutlineBuilder(scale: 1 / unitsPerEm)
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in OutlineBuilder.from(user).pointee.move(to!.pointee); return 0 },
            line_to: { to, user in OutlineBuilder.from(user).pointee.line(to!.pointee); return 0 },
            conic_to: { control, to, user in OutlineBuilder.from(user).pointee.conic(control!.pointee, to!.pointee); return 0 },
            cubic_to: { c1, c2, to, user in OutlineBuilder.from(user).pointee.cubic(c1!.pointee, c2!.pointee, to!.pointee); return 0 },
            shift: 0, delta: 0)
        withUnsafeMutablePointer(to: &builder) { pointer in
            _ = FT_Outline_Decompose(&slot.pointee.outline, &funcs, UnsafeMutableRawPointer(pointer))
        }
        builder.path.close()
        let result = (builder.path, Double(slot.pointee.metrics.horiAdvance) / unitsPerEm)
        cache[scalar] = result
        return result
    }

    /// Collects FreeType's outline callbacks into a path, flipping y (fonts point y up).
    private struct OutlineBuilder {
        var path = RasterPath()
        let scale: Double
        var current = Point(0, 0)
        var started = false

        init(scale: Double) { self.scale = scale }

        static func from(_ user: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<OutlineBuilder> {
            user!.assumingMemoryBound(to: OutlineBuilder.self)
        }

        func point(_ v: FT_Vector) -> Point { Point(Double(v.x) * scale, -Double(v.y) * scale) }

        mutating func move(_ to: FT_Vector) {
            if started { path.close() }
            current = point(to)
            path.move(to: current)
            started = true
        }

        mutating func line(_ to: FT_Vector) {
            current = point(to)
            path.line(to: current)
        }

        mutating func conic(_ control: FT_Vector, _ to: FT_Vector) {
            let c = point(control), end = point(to)
            path.quad(to: end, control: c)
            current = end
        }

        mutating func cubic(_ c1: FT_Vector, _ c2: FT_Vector, _ to: FT_Vector) {
            current = point(to)
            path.cubic(to: current, control1: point(c1), control2: point(c2))
        }
    }
}
