import Glibc
import LottieModel
import Raster

/// How one glyph is painted after the animators.
struct GlyphLook: Equatable {
    var opacity: Double
    var fill: RGBA?
    var stroke: RGBA?
    var strokeWidth: Double
}

/// A glyph ready to draw: its outline's placement in the layer and its paint.
struct AnimatedGlyph {
    var glyph: Int
    var matrix: Matrix
    var look: GlyphLook
}

/// The units a range selector counts, for each character of a text.
struct TextUnits {
    let characterCount: Int
    let nonSpaceCount: Int
    let wordCount: Int
    let lineCount: Int
    /// Per character: its index among the characters that are not spaces, and its word's
    /// index (a space takes the unit of the character before it).
    private let nonSpaceIndex: [Int]
    private let wordIndex: [Int]

    init(scalars: [Unicode.Scalar], lineCount: Int) {
        var nonSpace: [Int] = [], words: [Int] = []
        nonSpace.reserveCapacity(scalars.count)
        words.reserveCapacity(scalars.count)
        var nonSpaces = 0, wordCount = 0, inWord = false
        for s in scalars {
            if s.properties.isWhitespace {
                inWord = false
                nonSpace.append(max(0, nonSpaces - 1))
                words.append(max(0, wordCount - 1))
            } else {
                if !inWord { wordCount += 1; inWord = true }
                nonSpace.append(nonSpaces)
                nonSpaces += 1
                words.append(wordCount - 1)
            }
        }
        characterCount = scalars.count
        nonSpaceCount = nonSpaces
        self.wordCount = wordCount
        self.lineCount = lineCount
        nonSpaceIndex = nonSpace
        wordIndex = words
    }

    func count(_ basis: TextRangeSelector.Basis) -> Int {
        switch basis {
        case .characters: return characterCount
        case .charactersExcludingSpaces: return nonSpaceCount
        case .words: return wordCount
        case .lines: return lineCount
        }
    }

    func unit(_ basis: TextRangeSelector.Basis, character: Int, line: Int) -> Int {
        let c = min(max(0, character), max(0, characterCount - 1))
        switch basis {
        case .characters: return character
        case .charactersExcludingSpaces: return nonSpaceIndex.isEmpty ? 0 : nonSpaceIndex[c]
        case .words: return wordIndex.isEmpty ? 0 : wordIndex[c]
        case .lines: return line
        }
    }
}

/// Applies a text layer's animators to its set glyphs at one frame, as After Effects does per
/// character: each property is scaled by how much the character is selected; position,
/// anchor, rotation, skew, stroke width and tracking add, scale and opacity reach their value
/// at full selection, colours blend towards theirs.
struct TextAnimation {
    let animators: [TextAnimator]
    let grouping: Vec2
    var anchorGrouping: TextAnchorGrouping = .characters

    func apply(to set: SetText, doc: TextDocument, frame: Double) -> [AnimatedGlyph] {
        let base = GlyphLook(opacity: 1, fill: doc.fillColor, stroke: doc.strokeColor, strokeWidth: doc.strokeWidth)
        guard !animators.isEmpty else {
            return set.glyphs.indices.map { i in
                let g = set.glyphs[i]
                return AnimatedGlyph(glyph: i, matrix: Matrix.scale(set.size, set.size).concatenating(.translation(g.x, g.y)), look: base)
            }
        }
        let units = TextUnits(scalars: set.scalars, lineCount: set.lineCount)
        let selectors = animators.map { a in (a.selector.basis, a.selector.evaluated(at: frame, count: units.count(a.selector.basis))) }
        let factors: [[Double]] = set.glyphs.map { g in
            selectors.map { basis, selector in selector.factor(unit: units.unit(basis, character: g.character, line: g.line)) }
        }
        let shifts = trackingShifts(set, factors: factors, frame: frame)
        let values = animators.map { AnimatorValues($0.properties, at: frame) }
        let anchors = anchorCentres(set, units: units)
        return set.glyphs.indices.map { i in
            let g = set.glyphs[i]
            var look = base
            let m = glyphMatrix(g, anchorX: anchors[i], size: set.size, factors: factors[i], values: values, look: &look)
            return AnimatedGlyph(glyph: i, matrix: m.concatenating(.translation(shifts[i], 0)), look: look)
        }
    }

    /// The x each glyph turns and scales about: the middle of its own advance, or of the
    /// advances of its word, its line or the whole text (the anchor grouping).
    private func anchorCentres(_ set: SetText, units: TextUnits) -> [Double] {
        func group(_ g: SetGlyph) -> Int {
            switch anchorGrouping {
            case .characters: return -1
            case .words: return g.line << 32 | units.unit(.words, character: g.character, line: g.line)
            case .lines: return g.line
            case .all: return 0
            }
        }
        guard anchorGrouping != .characters else { return set.glyphs.map { $0.x + $0.advance / 2 } }
        var extents: [Int: (Double, Double)] = [:]
        for g in set.glyphs where !g.outline.isEmpty {
            let e = extents[group(g)] ?? (g.x, g.x + g.advance)
            extents[group(g)] = (min(e.0, g.x), max(e.1, g.x + g.advance))
        }
        return set.glyphs.map { g in extents[group(g)].map { ($0.0 + $0.1) / 2 } ?? g.x + g.advance / 2 }
    }

    /// How far each glyph moves right for the animators' tracking: the extra space after every
    /// glyph before it on its line, less the line's share of its growth by its alignment.
    private func trackingShifts(_ set: SetText, factors: [[Double]], frame: Double) -> [Double] {
        let tracking = animators.map { $0.properties.tracking?.value(at: frame) }
        guard tracking.contains(where: { $0 != nil && $0 != 0 }) else { return Array(repeating: 0, count: set.glyphs.count) }
        var shifts = [Double](repeating: 0, count: set.glyphs.count)
        var lineGrowth: [Int: Double] = [:]
        var line = -1, pen = 0.0
        for (i, g) in set.glyphs.enumerated() {
            if g.line != line { line = g.line; pen = 0 }
            shifts[i] = pen
            for (k, t) in tracking.enumerated() { if let t { pen += t / 1000 * set.size * factors[i][k] } }
            lineGrowth[line] = pen
        }
        for (i, g) in set.glyphs.enumerated() { shifts[i] -= set.alignment * (lineGrowth[g.line] ?? 0) }
        return shifts
    }

    /// The glyph's outline (in ems) to the layer: scaled to the size, its anchor (the middle of
    /// its advance on the baseline, moved by the grouping alignment) taken to the origin, the
    /// animators' anchor, scale, skew and rotation applied there, then moved to its place plus
    /// the animators' position. Paint properties are blended into `look`.
    private func glyphMatrix(_ g: SetGlyph, anchorX: Double, size: Double, factors: [Double], values: [AnimatorValues],
                             look: inout GlyphLook) -> Matrix {
        var anchor = Vec2(x: 0, y: 0), position = Vec2(x: 0, y: 0), scale = Vec2(x: 1, y: 1)
        var rotation = 0.0, skew = 0.0, skewAxis = 0.0
        for (k, v) in values.enumerated() {
            let f = factors[k]
            guard f != 0 else { continue }
            if let a = v.anchor { anchor.x += a.x * f; anchor.y += a.y * f }
            if let p = v.position { position.x += p.x * f; position.y += p.y * f }
            if let s = v.scale { scale.x *= 1 + (s.x / 100 - 1) * f; scale.y *= 1 + (s.y / 100 - 1) * f }
            if let r = v.rotation { rotation += r * f }
            if let sk = v.skew { skew += sk * f; skewAxis = v.skewAxis ?? skewAxis }
            if let o = v.opacity { look.opacity *= max(0, 1 + (o / 100 - 1) * f) }
            if let c = v.fillColor { look.fill = blend(look.fill, c, f) }
            if let c = v.strokeColor { look.stroke = blend(look.stroke, c, f) }
            if let w = v.strokeWidth { look.strokeWidth = max(0, look.strokeWidth + w * f) }
        }
        let centre = Vec2(x: anchorX - g.x + grouping.x / 100 * g.advance / 2, y: grouping.y / 100 * size / 2)
        var m = Matrix.scale(size, size).concatenating(.translation(-centre.x - anchor.x, -centre.y - anchor.y))
        m = m.concatenating(.scale(scale.x, scale.y))
        if skew != 0 {
            let axis = skewAxis * degreesToRadians
            let shear = Matrix(a: 1, b: 0, c: tan(-min(85, max(-85, skew)) * degreesToRadians), d: 1, tx: 0, ty: 0)
            m = m.concatenating(.rotation(radians: axis)).concatenating(shear).concatenating(.rotation(radians: -axis))
        }
        if rotation != 0 { m = m.concatenating(.rotation(radians: rotation * degreesToRadians)) }
        return m.concatenating(.translation(g.x + centre.x + position.x, g.y + centre.y + position.y))
    }

    /// The colour `f` of the way from `from` (black when the document has none) to `to`.
    private func blend(_ from: RGBA?, _ to: RGBA, _ f: Double) -> RGBA {
        let a = from ?? RGBA(r: 0, g: 0, b: 0)
        return RGBA(r: a.r + (to.r - a.r) * f, g: a.g + (to.g - a.g) * f, b: a.b + (to.b - a.b) * f, a: 1)
    }
}

/// An animator's properties at one frame (evaluated once, applied to every glyph).
private struct AnimatorValues {
    var anchor, position, scale: Vec2?
    var rotation, skew, skewAxis, opacity, strokeWidth: Double?
    var fillColor, strokeColor: RGBA?

    init(_ p: TextAnimatorProperties, at frame: Double) {
        anchor = p.anchor?.value(at: frame)
        position = p.position?.value(at: frame)
        scale = p.scale?.value(at: frame)
        rotation = p.rotation?.value(at: frame)
        skew = p.skew?.value(at: frame)
        skewAxis = p.skewAxis?.value(at: frame)
        opacity = p.opacity?.value(at: frame)
        strokeWidth = p.strokeWidth?.value(at: frame)
        fillColor = p.fillColor?.value(at: frame)
        strokeColor = p.strokeColor?.value(at: frame)
    }
}
