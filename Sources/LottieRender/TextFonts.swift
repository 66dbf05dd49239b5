import FoundationEssentials
import Glibc
import LottieModel
import Posix
import Raster
import Text

/// Sets text documents in lines, from the file's own glyph shapes (`chars`) when it has every
/// character, else from fonts through the text engine (HarfBuzz shaping, bidi, fallback faces
/// for characters the font lacks). Fonts are found by PostScript name, family and style in the
/// caller's folders and the system's (fontconfig); a font that is not installed is replaced by
/// Helvetica's stand-in, as Core Text does for lottie-ios.
///
/// A reference type so the immutable renderer can fill its caches lazily; it is owned by one
/// renderer. A lock: bands of one frame may be drawn on several threads, and the font library
/// is not thread-safe.
final class TextFonts: @unchecked Sendable {
    /// The file's glyphs by character, family and style: outline in ems and advance in ems.
    typealias FileGlyphs = [String: (outline: RasterPath, advance: Double)]

    private let lock = AdaptiveLock()
    private let directories: [String]
    private let fileGlyphs: FileGlyphs
    private let budget: RenderBudget
    /// Opened on the first text drawn from a font (nil inside: fontconfig failed).
    private var library: FontLibrary??
    /// Why the text libraries could not be loaded (FreeType, HarfBuzz, Fontconfig, FriBidi are
    /// opened with dlopen on the first text drawn from a font), when they could not.
    private var missingLibrary: TextLibraryError?
    private var stacks: [String: FontStack?] = [:]
    /// The keys of `stacks` whose faces are the font the animation names (not a stand-in).
    private var namedStacks: Set<String> = []
    /// The font files of `directories`, listed on the first font not known to fontconfig.
    private var fontFiles: [String]?
    private var layouts: [String: SetText] = [:]
    private static let maxCachedLayouts = 256

    /// Where what cannot be drawn is reported (once each).
    private let notes: RenderNotes?

    init(directories: [String], fileGlyphs: FileGlyphs, budget: RenderBudget, notes: RenderNotes? = nil) {
        self.directories = directories
        self.notes = notes
        self.fileGlyphs = fileGlyphs
        self.budget = budget
    }

    static func glyphKey(_ character: String, _ family: String, _ style: String) -> String {
        "\(character)\u{1}\(family)\u{1}\(style)"
    }

    /// `doc` set in lines (cached: documents change in steps, animators act on the result).
    func set(_ doc: TextDocument, font: Font?) -> SetText {
        let key = [doc.text, doc.fontName, "\(doc.size)", "\(doc.tracking)", "\(doc.lineHeight)", "\(doc.justification)",
                   "\(doc.baselineShift)", "\(doc.caps)", "\(String(describing: doc.boxPosition))", "\(String(describing: doc.boxSize))"].joined(separator: "\u{1}")
        lock.lock()
        defer { lock.unlock() }
        if let known = layouts[key] { return known }
        var text = doc.text.replacing("\u{3}", with: "\r")
        if doc.caps != 0 { text = text.uppercased() }
        var result = setFromFileGlyphs(doc, text: text, font: font) ?? setFromFont(doc, text: text, font: font)
        result.scalars = Array(text.unicodeScalars)
        if let warning = result.warning { notes?.note(warning) }
        if layouts.count >= Self.maxCachedLayouts { layouts.removeAll() }
        layouts[key] = result
        return result
    }

    // MARK: Fonts

    private func stackKey(for doc: TextDocument, font: Font?) -> String {
        (font?.name ?? doc.fontName) + "\u{1}" + (font?.family ?? "") + "\u{1}" + (font?.style ?? "")
    }

    /// Whether the font the document names is installed (its stack is not Helvetica's stand-in).
    private func hasNamedFont(for doc: TextDocument, font: Font?) -> Bool {
        _ = stack(for: doc, font: font)
        return namedStacks.contains(stackKey(for: doc, font: font))
    }

    /// The font library, nil when fontconfig fails or a text library is missing (remembered:
    /// the warning names it, and every other layer still draws).
    private func openLibrary() -> FontLibrary? {
        do {
            return try FontLibrary(extraDirectories: directories)
        } catch let error as TextLibraryError {
            missingLibrary = error
            return nil
        } catch {
            return nil
        }
    }

    private func stack(for doc: TextDocument, font: Font?) -> FontStack? {
        let name = font?.name ?? doc.fontName, family = font?.family ?? "", style = font?.style ?? ""
        let key = stackKey(for: doc, font: font)
        if let known = stacks[key] { return known }
        if library == nil { library = .some(openLibrary()) }
        guard let library = library ?? nil else { return nil }
        let request = FontRequest(family: family.isEmpty ? name : family, style: style, postScriptName: name)
        let found: FontStack?
        if library.namedFace(for: request) != nil {
            found = try? library.stack(for: request)
            if found != nil { namedStacks.insert(key) }
        } else if let file = fileNamed(name: name, family: family, style: style),
                  let stack = try? library.stack(file: file, fallbackFor: request) {
            found = stack
            namedStacks.insert(key)
        } else {
            // Core Text answers a name it does not know with Helvetica: so do we (fontconfig
            // gives its metric twin where installed, else its default face).
            found = try? library.stack(for: FontRequest(family: "Helvetica"))
        }
        stacks[key] = found
        return found
    }

    /// A font file in the caller's folders named like the font (its PostScript name, or family
    /// and style, spaces left out), for fonts whose files carry other names inside.
    private func fileNamed(name: String, family: String, style: String) -> String? {
        if fontFiles == nil {
            var found: [String] = []
            for dir in directories where !dir.isEmpty {
                guard let items = try? FileManager.default.subpathsOfDirectory(atPath: dir) else { continue }
                for item in items where found.count < 10_000 {
                    let lower = item.lowercased()
                    if lower.hasSuffix(".ttf") || lower.hasSuffix(".otf") || lower.hasSuffix(".ttc") {
                        found.append(PathName.join(dir, item))
                    }
                }
            }
            fontFiles = found
        }
        func stem(_ path: String) -> String { PathName.stem(path).lowercased() }
        let compact = family.replacing(" ", with: "")
        let wanted = [name, compact + "-" + style.replacing(" ", with: ""), compact].map { $0.lowercased() }
        for w in wanted where !w.isEmpty && w != "-" {
            if let hit = fontFiles?.first(where: { stem($0) == w }) { return hit }
        }
        return nil
    }

    private func setFromFont(_ doc: TextDocument, text: String, font: Font?) -> SetText {
        var set = SetText(alignment: justificationFactor(doc.justification), size: doc.size)
        guard let stack = stack(for: doc, font: font) else {
            set.warning = missingLibrary.map { "\($0.reason); text is not drawn" }
                ?? "no font could be found for \"\(doc.fontName)\"; the text is not drawn"
            return set
        }
        let face = stack.primary
        // Helvetica's stand-in is placed by Helvetica's line metrics, which Core Text sets it in.
        let metrics = hasNamedFont(for: doc, font: font) ? LineMetrics(ascent: face.ascent, descent: face.descent, lineGap: face.lineGap)
                                                         : LineMetrics.helvetica
        let placement = LinePlacement(doc: doc, capHeight: face.capHeight * doc.size,
                                      naturalLineHeight: (face.ascent + face.descent + face.lineGap) * doc.size, metrics: metrics)
        var options = LayoutOptions(width: placement.wrapWidth, alignment: .left, lineHeight: placement.lineHeight / doc.size)
        options.tracking = doc.tracking / 1000
        // No pair kerning and no optional ligatures: Lottie players (lottie-ios, lottie-web) set
        // each character by its own advance plus the tracking, as the file's glyph advances do.
        let layout = TextShaper(stack: stack, kerning: false, ligatures: false).layout(text, size: doc.size, options: options)
        let scalars = Array(text.unicodeScalars)
        func isSpace(_ i: Int) -> Bool { i >= 0 && i < scalars.count && scalars[i].properties.isWhitespace }
        var elements = 0
        for (index, line) in layout.lines.enumerated() {
            let baseline = placement.firstBaseline + line.baseline
            guard placement.fits(baseline: baseline) else { break }
            let end = line.textRange.upperBound
            let endsParagraph = end >= scalars.count || scalars[end] == "\r" || scalars[end] == "\n"
            let spaces = line.glyphs.filter { isSpace(line.textRange.lowerBound + $0.cluster) }.count
            let (start, stretch) = placement.lineStart(width: line.width, endsParagraph: endsParagraph, spaces: spaces)
            var gained = 0.0
            for (k, g) in line.glyphs.enumerated() {
                guard set.glyphs.count < budget.maxGlyphs, elements < budget.maxPathElementsPerLayer else {
                    set.warning = "the text has more glyphs than the budget allows; the rest are not drawn"
                    break
                }
                let outline = g.face.outline(glyph: g.glyph)
                elements += outline.elements.count
                let next = k + 1 < line.glyphs.count ? line.glyphs[k + 1].x : line.x + line.width
                let character = line.textRange.lowerBound + g.cluster
                let extra = isSpace(character) ? stretch : 0
                set.glyphs.append(SetGlyph(outline: outline, x: start + g.x - line.x + gained, y: baseline + g.y - line.baseline,
                                           advance: max(0, next - g.x) + extra, character: character, line: index))
                gained += extra
            }
            set.lineCount = index + 1
        }
        return set
    }

    // MARK: The file's glyphs

    /// Whether a font is one of Apple's San Francisco system families (SF Pro, SF Compact,
    /// SF Mono, SF UI). Apple platforms hold them only as the system font, under hidden names,
    /// so Core Text does not find them by the names After Effects exports ("SFProDisplay-Medium")
    /// and lottie-ios draws such text in Helvetica. Where the font is not installed here either,
    /// Buoy draws Helvetica's stand-in too rather than the file's glyphs (which stand in for
    /// fonts the reference player does find, such as Avenir Next).
    static func isSanFrancisco(_ family: String, name: String) -> Bool {
        let compactFamily = family.replacing(" ", with: "").lowercased()
        let compactName = name.replacing(" ", with: "").lowercased()
        let prefixes = ["sfpro", "sfcompact", "sfmono", "sfui"]
        return prefixes.contains { compactFamily.hasPrefix($0) || compactName.hasPrefix($0) }
    }

    /// One character from the font the document names (or its fallbacks), unshaped.
    private func fontGlyph(_ scalar: Unicode.Scalar, doc: TextDocument, font: Font?) -> (outline: RasterPath, advance: Double)? {
        guard let stack = stack(for: doc, font: font),
              let g = TextShaper(stack: stack).shape([scalar]).runs.first?.glyphs.first else { return nil }
        return (g.face.outline(glyph: g.glyph), g.xAdvance)
    }

    /// The text set from the file's glyph shapes and advances (After Effects' own measures);
    /// nil when the file has none of the text's glyphs, or lacks some while the font it names
    /// is installed (then the font sets the whole text, so one line never mixes two sets of
    /// shapes and advances). Without the font, characters the file lacks come from its stand-in.
    private func setFromFileGlyphs(_ doc: TextDocument, text: String, font: Font?) -> SetText? {
        guard !fileGlyphs.isEmpty else { return nil }
        if Self.isSanFrancisco(font?.family ?? "", name: font?.name ?? doc.fontName), !hasNamedFont(for: doc, font: font) {
            return nil
        }
        let family = font?.family ?? doc.fontName, style = font?.style ?? ""
        var paragraphs: [[(scalar: Unicode.Scalar, glyph: (outline: RasterPath, advance: Double)?)]] = [[]]
        var fromFile = 0
        for scalar in text.unicodeScalars {
            if scalar == "\r" || scalar == "\n" {
                paragraphs.append([])
                continue
            }
            var glyph = fileGlyphs[Self.glyphKey(String(scalar), family, style)]
            if glyph != nil {
                fromFile += 1
            } else if hasNamedFont(for: doc, font: font) {
                return nil
            } else {
                glyph = fontGlyph(scalar, doc: doc, font: font)
            }
            paragraphs[paragraphs.count - 1].append((scalar, glyph))
        }
        guard fromFile > 0 else { return nil }
        // The file gives no cap height: its fonts list's ascent stands in for it.
        let ascent = (font?.ascent ?? 75) / 100 * doc.size
        let placement = LinePlacement(doc: doc, capHeight: ascent)
        var set = SetText(alignment: placement.alignment, size: doc.size)
        let tracking = doc.tracking / 1000 * doc.size
        var lineIndex = 0, paragraphStart = 0, elements = 0
        for paragraph in paragraphs {
            // A space the file has no glyph for advances by half an em.
            let advances = paragraph.map { ($0.glyph?.advance ?? 0.5) * doc.size + tracking }
            for range in LineBreaking.lines(paragraph.map(\.scalar), advances: advances, width: placement.wrapWidth) {
                let baseline = placement.firstBaseline + Double(lineIndex) * placement.lineHeight
                guard placement.fits(baseline: baseline) else { return set }
                var end = range.upperBound
                while end > range.lowerBound && paragraph[end - 1].scalar.properties.isWhitespace { end -= 1 }
                let spaces = paragraph[range.lowerBound..<end].filter { $0.scalar.properties.isWhitespace }.count
                let start = placement.lineStart(width: advances[range.lowerBound..<end].reduce(0, +),
                                                endsParagraph: range.upperBound >= paragraph.count, spaces: spaces)
                var x = start.x
                let stretch = start.stretch
                for i in range {
                    guard set.glyphs.count < budget.maxGlyphs, elements < budget.maxPathElementsPerLayer else { return set }
                    let outline = paragraph[i].glyph?.outline ?? RasterPath()
                    elements += outline.elements.count
                    let advance = advances[i] + (i < end && paragraph[i].scalar.properties.isWhitespace ? stretch : 0)
                    set.glyphs.append(SetGlyph(outline: outline, x: x, y: baseline, advance: advance,
                                               character: paragraphStart + i, line: lineIndex))
                    x += advance
                }
                lineIndex += 1
                set.lineCount = lineIndex
            }
            paragraphStart += paragraph.count + 1
        }
        return set
    }
}
