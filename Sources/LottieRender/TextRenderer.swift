import Foundation
import LottieModel
import Raster
import Text

/// Draws text layers. Glyph outlines come from the file's own glyph shapes (`chars`) when it
/// has them, else from a font file through FreeType: the font named by the file, found in
/// the directories the caller gives (the CLI: `BUOY_FONT_DIRS`) or the system font folders by
/// file name, else by PostScript name or family and style through fontconfig (the Text module),
/// else DejaVu Sans.
struct TextRenderer {
    private var glyphs: [String: Glyph] = [:]
    /// The outlines of the file's glyphs, evaluated once, in ems.
    private var glyphOutlines: [String: RasterPath] = [:]
    private let budget: RenderBudget
    private var fontsByName: [String: Font] = [:]
    private let faces: FaceCache
    private(set) var warnings: [String] = []

    init(animation: Animation, fontDirectories: [String] = TextRenderer.defaultFontDirectories(), budget: RenderBudget = RenderBudget()) {
        self.budget = budget
        // Glyph outlines share one budget of path elements: a file of thousands of glyphs,
        // each under a repeater, must not take the memory of thousands of shape layers.
        var elements = 0
        for glyph in animation.glyphs {
            let key = Self.key(glyph.character, glyph.family, glyph.style)
            glyphs[key] = glyph
            var glyphBudget = budget
            glyphBudget.maxPathElementsPerLayer = max(0, min(budget.maxPathElementsPerLayer, budget.maxPathElements - elements))
            // Glyph shapes and advances are stored for a 100-point font.
            let outline = Self.outline(of: glyph.shapes, budget: glyphBudget).transformed(by: .scale(0.01, 0.01))
            elements += outline.elements.count
            glyphOutlines[key] = outline
        }
        if elements >= budget.maxPathElements { warnings.append("the file's glyphs have more than \(budget.maxPathElements) path elements; the rest are not drawn") }
        for font in animation.fonts { fontsByName[font.name] = font }
        faces = FaceCache(directories: fontDirectories)
    }

    static func defaultFontDirectories(first: [String] = []) -> [String] {
        first + ["/usr/local/share/fonts", "/usr/share/fonts"]
    }

    private static func key(_ character: String, _ family: String, _ style: String) -> String {
        "\(character)\u{1}\(family)\u{1}\(style)"
    }

    /// A glyph's outline in units of the font size (1 = one em), and its advance in ems.
    private func outline(for character: Character, font: Font?, fontName: String) -> (RasterPath, Double)? {
        let family = font?.family ?? fontName, style = font?.style ?? ""
        let key = Self.key(String(character), family, style)
        if let glyph = glyphs[key] {
            return (glyphOutlines[key] ?? RasterPath(), glyph.advance / 100)
        }
        guard let face = faces.face(named: font?.name ?? fontName, family: family, style: style),
              let scalar = character.unicodeScalars.first else { return nil }
        return face.glyph(scalar)
    }

    func draw(_ data: TextData, frame: Double, into surface: inout Surface, matrix: Matrix, opacity: Double, clip: Clip?) {
        let doc = data.document(at: frame)
        guard !doc.text.isEmpty, doc.size > 0, doc.size.isFinite else { return }
        let font = fontsByName[doc.fontName]
        let size = doc.size
        let tracking = doc.tracking / 1000 * size
        let lines = doc.text.split(omittingEmptySubsequences: false) { $0 == "\r" || $0 == "\n" || $0 == "\u{3}" }
        var textPath = RasterPath()
        var y = 0.0
        // Glyphs and their path elements are counted against the budget; past it the rest of the text is not drawn.
        var glyphCount = 0, elementCount = 0
        let lineHeight = doc.lineHeight > 0 ? doc.lineHeight : size * 1.2
        for line in lines.prefix(1000) {
            var placed: [(RasterPath, Double)] = []
            var x = 0.0
            for ch in line.prefix(10_000) {
                guard glyphCount < budget.maxGlyphs, elementCount < budget.maxPathElementsPerLayer else { break }
                glyphCount += 1
                if let (path, advance) = outline(for: ch, font: font, fontName: doc.fontName) {
                    elementCount += path.elements.count
                    placed.append((path, x))
                    x += advance * size + tracking
                } else {
                    x += size * 0.5 + tracking
                }
            }
            let width = max(0, x - tracking)
            let shift = doc.justification == 1 ? -width : doc.justification == 2 ? -width / 2 : 0
            for (path, gx) in placed {
                textPath.append(path.transformed(by: Matrix.scale(size, size).concatenating(.translation(gx + shift, y))))
            }
            y += lineHeight
        }
        // Box text starts its first baseline one line below the box's top.
        var placement = Matrix.identity
        if let box = doc.boxPosition {
            let boxWidth = doc.boxSize?.x ?? 0
            let x = doc.justification == 1 ? box.x + boxWidth : doc.justification == 2 ? box.x + boxWidth / 2 : box.x
            placement = .translation(x, box.y + size)
        }
        let toDevice = placement.concatenating(matrix)
        if let fill = doc.fillColor {
            surface.fill(textPath, transform: toDevice, rule: .nonZero, paint: .solid(fill.color), opacity: opacity, clip: clip)
        }
        if let stroke = doc.strokeColor, doc.strokeWidth > 0 {
            var style = StrokeStyle()
            style.width = doc.strokeWidth
            style.join = .round
            surface.stroke(textPath, transform: toDevice, style: style, paint: .solid(stroke.color), opacity: opacity, clip: clip)
        }
    }

    /// All the paths of a glyph's shapes in the glyph's space.
    static func outline(of items: [ShapeItem], budget: RenderBudget = RenderBudget()) -> RasterPath {
        let tree = ShapeTree(items: items, frame: 0, budget: budget)
        var path = RasterPath()
        for node in tree.nodes { path.append(node.path.transformed(by: node.matrix)) }
        return path
    }
}

/// Font files found by name, opened once. A reference type so the immutable renderer can fill
/// it lazily; it is owned by one renderer, not shared (a lock: the renderer may draw bands
/// of a frame on several threads).
final class FaceCache: @unchecked Sendable {
    private let lock = NSLock()
    private let directories: [String]
    private var faces: [String: FontOutlines?] = [:]
    private var files: [String]?
    /// Opened on the first font not found by file name (nil inside: fontconfig failed).
    private var library: FontLibrary??

    init(directories: [String]) { self.directories = directories }

    func face(named name: String, family: String, style: String) -> FontOutlines? {
        let key = name + "\u{1}" + family + "\u{1}" + style
        lock.lock()
        defer { lock.unlock() }
        if let known = faces[key] { return known }
        let face = find(name: name, family: family, style: style).flatMap { FontOutlines(path: $0) }
        faces[key] = face
        return face
    }

    private func find(name: String, family: String, style: String) -> String? {
        let all = fontFiles()
        func stem(_ path: String) -> String { ((path as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased() }
        let wanted = [name, family.replacingOccurrences(of: " ", with: "") + "-" + style.replacingOccurrences(of: " ", with: ""),
                      family.replacingOccurrences(of: " ", with: "")].map { $0.lowercased() }
        for w in wanted where !w.isEmpty {
            if let hit = all.first(where: { stem($0) == w }) { return hit }
        }
        if let hit = fontconfigFile(name: name, family: family, style: style) { return hit }
        let bold = (name + style).lowercased().contains("bold")
        let fallback = bold ? "dejavusans-bold" : "dejavusans"
        return all.first { stem($0) == fallback }
    }

    /// The file fontconfig finds for the font's PostScript name (`fName`) or its family and
    /// style, searching the same folders; nil when it has no face of that name or family.
    private func fontconfigFile(name: String, family: String, style: String) -> String? {
        if library == nil { library = .some(try? FontLibrary(extraDirectories: directories)) }
        guard let library = library ?? nil else { return nil }
        let request = FontRequest(family: family.isEmpty ? name : family, style: style, postScriptName: name)
        // FontOutlines opens the first face of a file: a later face of a collection is not used.
        guard let face = library.namedFace(for: request), face.index == 0 else { return nil }
        return face.file
    }

    private func fontFiles() -> [String] {
        if let files { return files }
        var found: [String] = []
        for dir in directories {
            guard let e = FileManager.default.enumerator(atPath: dir) else { continue }
            while let item = e.nextObject() as? String, found.count < 10_000 {
                let lower = item.lowercased()
                if lower.hasSuffix(".ttf") || lower.hasSuffix(".otf") { found.append((dir as NSString).appendingPathComponent(item)) }
            }
        }
        files = found
        return found
    }
}
