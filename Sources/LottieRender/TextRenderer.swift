import Foundation
import LottieModel
import Raster

/// Draws text layers from the glyph outlines embedded in the file (`chars`).
struct TextRenderer {
    private var glyphs: [String: Glyph] = [:]
    private var fontsByName: [String: Font] = [:]
    private(set) var warnings: [String] = []

    init(animation: Animation) {
        for glyph in animation.glyphs {
            glyphs[Self.key(glyph.character, glyph.family, glyph.style)] = glyph
        }
        for font in animation.fonts { fontsByName[font.name] = font }
    }

    private static func key(_ character: String, _ family: String, _ style: String) -> String {
        "\(character)\u{1}\(family)\u{1}\(style)"
    }

    func draw(_ data: TextData, frame: Double, into surface: inout Surface, matrix: Matrix, opacity: Double, clip: CoverageMask?) {
        let doc = data.document(at: frame)
        guard !doc.text.isEmpty, doc.size > 0 else { return }
        let font = fontsByName[doc.fontName]
        let family = font?.family ?? doc.fontName, style = font?.style ?? ""
        let scale = doc.size / 100
        let tracking = doc.tracking / 1000 * doc.size
        let lines = doc.text.split(omittingEmptySubsequences: false) { $0 == "\r" || $0 == "\n" || $0 == "\u{3}" }
        var fillPath = RasterPath()
        var y = 0.0
        for line in lines {
            var glyphRuns: [(Glyph, Double)] = []
            var x = 0.0
            for ch in line {
                guard let glyph = glyphs[Self.key(String(ch), family, style)] ?? glyphs.first(where: { $0.value.character == String(ch) })?.value else {
                    x += doc.size * 0.5 + tracking
                    continue
                }
                glyphRuns.append((glyph, x))
                x += glyph.advance * scale + tracking
            }
            let lineWidth = max(0, x - tracking)
            let shift: Double
            switch doc.justification {
            case 1: shift = -lineWidth
            case 2: shift = -lineWidth / 2
            default: shift = 0
            }
            for (glyph, gx) in glyphRuns {
                let placement = Matrix.scale(scale, scale).concatenating(.translation(gx + shift, y))
                fillPath.append(Self.outline(of: glyph.shapes).transformed(by: placement))
            }
            y += doc.lineHeight > 0 ? doc.lineHeight : doc.size * 1.2
        }
        let boxOffset = doc.boxPosition.map { Matrix.translation($0.x, $0.y + doc.size) } ?? .identity
        let toDevice = boxOffset.concatenating(matrix)
        if let fill = doc.fillColor {
            surface.fill(fillPath, transform: toDevice, rule: .nonZero, paint: .solid(fill.color), opacity: opacity, clip: clip)
        }
        if let stroke = doc.strokeColor, doc.strokeWidth > 0 {
            var style = StrokeStyle()
            style.width = doc.strokeWidth
            surface.stroke(fillPath, transform: toDevice, style: style, paint: .solid(stroke.color), opacity: opacity, clip: clip)
        }
    }

    /// All the paths of a glyph's shapes in the glyph's space.
    static func outline(of items: [ShapeItem]) -> RasterPath {
        let tree = ShapeTree(items: items, frame: 0)
        var path = RasterPath()
        for node in tree.nodes { path.append(node.path.transformed(by: node.matrix)) }
        return path
    }
}
