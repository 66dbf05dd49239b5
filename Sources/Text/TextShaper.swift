internal import CTextLibraries
import Glibc

/// A glyph as HarfBuzz placed it, in ems: `cluster` is the index of the first character
/// (Unicode scalar) of the text it stands for.
public struct ShapedGlyph {
    public let face: FontFace
    public let glyph: UInt32
    public let cluster: Int
    public let xAdvance: Double
    public let yAdvance: Double
    public let xOffset: Double
    public let yOffset: Double
}

/// A run of one direction, script and face, its glyphs in visual order.
public struct ShapedRun {
    public let face: FontFace
    public let level: UInt8
    public let range: Range<Int>
    public let glyphs: [ShapedGlyph]
    public var isRightToLeft: Bool { level & 1 == 1 }
    public var advance: Double { glyphs.reduce(0) { $0 + $1.xAdvance } }
}

/// Splits a line into directional runs (FriBidi), picks a face for each character from a
/// font stack (fallbacks for what the primary lacks) and shapes each run (HarfBuzz):
/// kerning, ligatures, Arabic joining, marks.
public struct TextShaper {
    public let stack: FontStack
    /// Whether the font's pair kerning applies (its `kern` feature). Lottie players set each
    /// character by its own advance, as After Effects' exported glyph advances do.
    public var kerning: Bool
    /// Whether the font's optional ligatures (`liga`, `clig`) replace letter sequences; the
    /// ones a script needs (Arabic's lam-alef: `rlig`) are always made.
    public var ligatures: Bool

    public init(stack: FontStack, kerning: Bool = true, ligatures: Bool = true) {
        self.stack = stack
        self.kerning = kerning
        self.ligatures = ligatures
    }

    /// The HarfBuzz features turned off for this shaper's settings.
    var disabledFeatures: [hb_feature_t] {
        var tags: [String] = []
        if !kerning { tags.append("kern") }
        if !ligatures { tags += ["liga", "clig"] }
        return tags.map { tag in
            let code = tag.unicodeScalars.reduce(UInt32(0)) { $0 << 8 | $1.value }
            return hb_feature_t(tag: code, value: 0, start: 0, end: UInt32.max)
        }
    }

    /// The runs of `scalars` in visual order (left to right on the screen), and whether the
    /// paragraph is right to left. `rightToLeft` nil finds the direction from the first strong character.
    public func shape(_ scalars: [Unicode.Scalar], rightToLeft: Bool? = nil) -> (runs: [ShapedRun], rightToLeft: Bool) {
        // HarfBuzz and FriBidi count in 32-bit integers: a longer text is not shaped.
        // The libraries are loaded: the stack's faces could not exist otherwise.
        guard !scalars.isEmpty, scalars.count < Int(Int32.max), let lib = buoy_text_libraries() else { return ([], rightToLeft ?? false) }
        let (levels, rtl) = Self.bidiLevels(scalars, rightToLeft: rightToLeft, lib: lib)
        let logical = itemize(scalars, levels: levels, lib: lib)
        let runs = logical.map { shapeRun(scalars, range: $0.range, level: $0.level, face: $0.face, lib: lib) }
        return (Self.visualOrder(runs), rtl)
    }

    /// The embedding level of each character (odd: right to left) by the Unicode bidi
    /// algorithm, and the paragraph's direction.
    static func bidiLevels(_ scalars: [Unicode.Scalar], rightToLeft: Bool?, lib: TextLibraries.Table) -> ([UInt8], Bool) {
        let n = scalars.count
        var chars = scalars.map { FriBidiChar($0.value) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var levels = [FriBidiLevel](repeating: 0, count: n)
        lib.pointee.fribidi_get_bidi_types(&chars, FriBidiStrIndex(n), &types)
        lib.pointee.fribidi_get_bracket_types(&chars, FriBidiStrIndex(n), &types, &brackets)
        var base: FriBidiParType
        switch rightToLeft {
        case .some(true): base = FriBidiParType(FRIBIDI_PAR_RTL.rawValue)
        case .some(false): base = FriBidiParType(FRIBIDI_PAR_LTR.rawValue)
        case .none: base = FriBidiParType(FRIBIDI_PAR_ON.rawValue)
        }
        let maxLevel = lib.pointee.fribidi_get_par_embedding_levels_ex(&types, &brackets, FriBidiStrIndex(n), &base, &levels)
        // FriBidi answers 0 on failure (memory): draw left to right rather than nothing.
        guard maxLevel > 0 else { return ([UInt8](repeating: rightToLeft == true ? 1 : 0, count: n), rightToLeft ?? false) }
        let rtl = base == FriBidiParType(FRIBIDI_PAR_RTL.rawValue)
        return (levels.map { UInt8(clamping: $0) }, rtl)
    }

    /// Logical runs: maximal spans of one level, one script and one face. Spaces, punctuation
    /// and marks (script Common or Inherited) stay with the run before them when its face has them.
    private func itemize(_ scalars: [Unicode.Scalar], levels: [UInt8], lib: TextLibraries.Table) -> [(range: Range<Int>, level: UInt8, face: FontFace)] {
        let unicode = lib.pointee.hb_unicode_funcs_get_default()
        var runs: [(range: Range<Int>, level: UInt8, face: FontFace)] = []
        var start = 0
        var face = stack.face(for: scalars[0])
        var script = lib.pointee.hb_unicode_script(unicode, scalars[0].value)
        for i in 1..<max(1, scalars.count) where i < scalars.count {
            let s = lib.pointee.hb_unicode_script(unicode, scalars[i].value)
            let neutral = s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN
            let f = neutral && face.covers(scalars[i]) ? face : stack.face(for: scalars[i])
            let scriptChanges = !neutral && s != script && !Self.isNeutral(script)
            if levels[i] != levels[start] || f !== face || scriptChanges {
                runs.append((start..<i, levels[start], face))
                start = i
                face = f
                script = s
            } else if Self.isNeutral(script) {
                script = s
            }
        }
        runs.append((start..<scalars.count, levels[start], face))
        return runs
    }

    private static func isNeutral(_ s: hb_script_t) -> Bool {
        s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN
    }

    /// Shapes one run with the whole line as context (so joining across runs is right).
    private func shapeRun(_ scalars: [Unicode.Scalar], range: Range<Int>, level: UInt8, face: FontFace, lib: TextLibraries.Table) -> ShapedRun {
        guard let buffer = lib.pointee.hb_buffer_create() else { return ShapedRun(face: face, level: level, range: range, glyphs: []) }
        defer { lib.pointee.hb_buffer_destroy(buffer) }
        let text = scalars.map { $0.value }
        lib.pointee.hb_buffer_add_utf32(buffer, text, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
        lib.pointee.hb_buffer_set_direction(buffer, level & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        lib.pointee.hb_buffer_guess_segment_properties(buffer)
        let features = disabledFeatures
        lib.pointee.hb_shape(face.hbFont, buffer, features, UInt32(features.count))
        var count: UInt32 = 0
        guard let infos = lib.pointee.hb_buffer_get_glyph_infos(buffer, &count), let positions = lib.pointee.hb_buffer_get_glyph_positions(buffer, &count) else {
            return ShapedRun(face: face, level: level, range: range, glyphs: [])
        }
        let em = face.unitsPerEm
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let p = positions[i]
            glyphs.append(ShapedGlyph(face: face, glyph: infos[i].codepoint, cluster: Int(infos[i].cluster),
                                      xAdvance: Double(p.x_advance) / em, yAdvance: Double(p.y_advance) / em,
                                      xOffset: Double(p.x_offset) / em, yOffset: Double(p.y_offset) / em))
        }
        return ShapedRun(face: face, level: level, range: range, glyphs: glyphs)
    }

    /// Rule L2 of the bidi algorithm on runs: from the highest level down to the lowest odd
    /// one, every maximal sequence of runs at that level or higher is reversed.
    static func visualOrder(_ runs: [ShapedRun]) -> [ShapedRun] {
        guard let highest = runs.map(\.level).max(), let lowest = runs.map(\.level).min() else { return runs }
        var out = runs
        let lowestOdd = lowest | 1
        var level = highest
        while level >= lowestOdd && level > 0 {
            var i = 0
            while i < out.count {
                guard out[i].level >= level else { i += 1; continue }
                var j = i
                while j < out.count && out[j].level >= level { j += 1 }
                out[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return out
    }
}
