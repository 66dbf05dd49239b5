import Glibc
import LottieModel
import Raster
import Text

/// Draws text layers: each document is set in lines (`TextFonts`: the file's glyph shapes or
/// fonts through the text engine), its animators move and paint each glyph (`TextAnimation`),
/// and glyphs of one look are filled and stroked together.
struct TextRenderer {
    private let fontsByName: [String: Font]
    private let fonts: TextFonts
    private(set) var warnings: [String] = []

    init(animation: Animation, fontDirectories: [String] = TextRenderer.defaultFontDirectories(), budget: RenderBudget = RenderBudget(),
         notes: RenderNotes? = nil) {
        // Glyph outlines share one budget of path elements: a file of thousands of glyphs,
        // each under a repeater, must not take the memory of thousands of shape layers.
        var elements = 0
        var glyphs: TextFonts.FileGlyphs = [:]
        for glyph in animation.glyphs {
            var glyphBudget = budget
            glyphBudget.maxPathElementsPerLayer = max(0, min(budget.maxPathElementsPerLayer, budget.maxPathElements - elements))
            // Glyph shapes and advances are stored for a 100-point font.
            let outline = Self.outline(of: glyph.shapes, budget: glyphBudget).transformed(by: .scale(0.01, 0.01))
            elements += outline.elements.count
            glyphs[TextFonts.glyphKey(glyph.character, glyph.family, glyph.style)] = (outline, glyph.advance / 100)
        }
        if elements >= budget.maxPathElements { warnings.append("the file's glyphs have more than \(budget.maxPathElements) path elements; the rest are not drawn") }
        var byName: [String: Font] = [:]
        for font in animation.fonts { byName[font.name] = font }
        fontsByName = byName
        fonts = TextFonts(directories: fontDirectories, fileGlyphs: glyphs, budget: budget, notes: notes)
    }

    static func defaultFontDirectories(first: [String] = []) -> [String] {
        first + ["/usr/local/share/fonts", "/usr/share/fonts"]
    }

    /// Draws a text layer. With a `cache`, glyph runs set and placed as on an earlier frame
    /// (most text does not move) are painted from the coverage found then, not stroked,
    /// flattened and swept again.
    func draw(_ data: TextData, frame: Double, into surface: inout Surface, matrix: Matrix, opacity: Double, clip: Clip?,
              cache: CoverageCache? = nil) {
        let doc = data.document(at: frame)
        guard !doc.text.isEmpty, doc.size > 0, doc.size.isFinite else { return }
        let set = fonts.set(doc, font: fontsByName[doc.fontName])
        let animation = TextAnimation(animators: data.animators, grouping: data.groupingAlignment.value(at: frame),
                                      anchorGrouping: data.anchorGrouping)
        let placed = animation.apply(to: set, doc: doc, frame: frame)
        var i = 0
        // Runs of glyphs that look alike are drawn as one path.
        while i < placed.count {
            let look = placed[i].look
            var path = RasterPath()
            while i < placed.count && placed[i].look == look {
                let outline = set.glyphs[placed[i].glyph].outline
                if !outline.isEmpty { path.append(outline.transformed(by: placed[i].matrix)) }
                i += 1
            }
            paint(path, look: look, strokeOverFill: doc.strokeOverFill, into: &surface, matrix: matrix, opacity: opacity, clip: clip,
                  cache: cache)
        }
    }

    private func paint(_ path: RasterPath, look: GlyphLook, strokeOverFill: Bool, into surface: inout Surface,
                       matrix: Matrix, opacity: Double, clip: Clip?, cache: CoverageCache?) {
        let alpha = opacity * clamp01(look.opacity)
        guard !path.isEmpty, alpha > 0 else { return }
        let drawStroke = { (surface: inout Surface) in
            guard let stroke = look.stroke, look.strokeWidth > 0 else { return }
            var style = StrokeStyle()
            style.width = look.strokeWidth
            style.join = .round
            surface.stroke(path, transform: matrix, style: style, paint: .solid(stroke.color), opacity: alpha, clip: clip, cache: cache)
        }
        if !strokeOverFill { drawStroke(&surface) }
        if let fill = look.fill {
            surface.fill(path, transform: matrix, rule: .nonZero, paint: .solid(fill.color), opacity: alpha, clip: clip, cache: cache)
        }
        if strokeOverFill { drawStroke(&surface) }
    }

    /// All the paths of a glyph's shapes in the glyph's space.
    static func outline(of items: [ShapeItem], budget: RenderBudget = RenderBudget()) -> RasterPath {
        let tree = ShapeTree(items: items, frame: 0, budget: budget)
        var path = RasterPath()
        for node in tree.nodes { path.append(node.path.transformed(by: node.matrix)) }
        return path
    }
}
