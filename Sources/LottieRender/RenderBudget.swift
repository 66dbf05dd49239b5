import Glibc
import Posix
import Raster

/// How much work and memory one animation may take, however its file nests precomps,
/// repeaters and modifiers. Real files stay far inside every figure (the busiest file of the
/// lottie-ios corpus draws a few hundred layers and some tens of thousands of path elements a
/// frame); a hostile one is cut off: past a budget, what is left of the frame is skipped and
/// the renderer warns once (`AnimationRenderer.warnings`).
public struct RenderBudget: Sendable, Equatable {
    /// Layers drawn in one frame, counting each instance of a precomp's layers.
    public var maxLayerDraws = 20_000
    /// Path elements (moves, lines, curves) evaluated in one frame over all layers.
    public var maxPathElements = 1_000_000
    /// Path elements one shape layer (or one text layer) may evaluate, repeater copies and
    /// modifiers included.
    public var maxPathElementsPerLayer = 250_000
    /// Fills and strokes painted in one frame (each is a rasterization).
    public var maxPaints = 10_000
    /// Copies one repeater draws.
    public var maxRepeaterCopies = 1_000
    /// Dash segments one stroke is cut into.
    public var maxDashSegments = 100_000
    /// Glyphs drawn in one frame.
    public var maxGlyphs = 20_000
    /// Bytes of decoded image pixels kept for the animation's image assets.
    public var maxImageBytes = 512 * 1024 * 1024
    /// Bytes of offscreen surfaces and coverage masks (layers with masks, mattes, blend
    /// modes, group opacity, shadows) alive at once while one frame is drawn, pooled or not
    /// (the bands of a threaded frame share it by their heights). Nested precomps with masks each hold their buffers while their
    /// content draws; past this figure a layer that would need more is drawn straight onto its
    /// target when that gives the same pixels up to overlap (group opacity alone), else skipped,
    /// and the renderer warns once.
    public var maxSurfaceBytes = 256 * 1024 * 1024
    /// The largest output, in pixels a side (a 4K panel fits): larger sizes are refused by the
    /// commands, and an animation drawn at its own size is scaled down to fit.
    public static let maxOutputSide = 4096

    /// `width` x `height` (an animation's own size) scaled down, keeping its shape, to fit
    /// `maxOutputSide`; at least 1x1.
    public static func fittedOutputSize(width: Double, height: Double) -> (width: Int, height: Int) {
        let w = width.isFinite ? max(1, width) : 1, h = height.isFinite ? max(1, height) : 1
        let scale = min(1, Double(maxOutputSide) / max(w, h))
        return (max(1, min(maxOutputSide, Int((w * scale).rounded()))), max(1, min(maxOutputSide, Int((h * scale).rounded()))))
    }

    public init() {}
}

/// Counts one frame's work against the budget; `LayerCompositor` holds one per frame.
struct FrameWork {
    let budget: RenderBudget
    var layersDrawn = 0
    var pathElements = 0
    var paints = 0
    /// Bytes of offscreen buffers held now, and the most held at once this frame.
    var surfaceBytes = 0
    var peakSurfaceBytes = 0
    /// The offscreen bytes this frame may hold: a band of a threaded frame gets the share of
    /// `maxSurfaceBytes` its rows are of the frame, so the bands together keep to the budget.
    var surfaceLimit: Int
    /// Set when something was skipped.
    var exceeded: String?

    init(budget: RenderBudget) {
        self.budget = budget
        surfaceLimit = budget.maxSurfaceBytes
    }

    /// Whether one more layer may be drawn; false (and noted) past the budget.
    mutating func takeLayer() -> Bool {
        guard layersDrawn < budget.maxLayerDraws, pathElements < budget.maxPathElements, paints < budget.maxPaints else {
            if exceeded == nil {
                exceeded = layersDrawn >= budget.maxLayerDraws ? "more than \(budget.maxLayerDraws) layer draws"
                    : paints >= budget.maxPaints ? "more than \(budget.maxPaints) fills and strokes"
                    : "more than \(budget.maxPathElements) path elements"
            }
            return false
        }
        layersDrawn += 1
        return true
    }

    /// Takes `bytes` of offscreen buffers if they fit in the surface budget (give them back with
    /// `releaseSurface`); false when they do not.
    mutating func takeSurface(bytes: Int) -> Bool {
        guard bytes >= 0, bytes <= surfaceLimit - surfaceBytes else { return false }
        surfaceBytes += bytes
        peakSurfaceBytes = max(peakSurfaceBytes, surfaceBytes)
        return true
    }

    mutating func releaseSurface(bytes: Int) {
        surfaceBytes -= bytes
    }
}

/// Notes kept by a renderer across frames (shared by its copies, safe across threads): each
/// budget that was exceeded is reported once.
final class RenderNotes: @unchecked Sendable {
    private let lock = AdaptiveLock()
    private var notes: [String] = []
    private var peakSurface = 0

    /// Records the offscreen bytes one frame (or band) held at most.
    func recordSurfacePeak(_ bytes: Int) {
        lock.lock(); defer { lock.unlock() }
        peakSurface = max(peakSurface, bytes)
    }

    /// The most offscreen bytes any frame (or band) held at once so far.
    var peakSurfaceBytes: Int {
        lock.lock(); defer { lock.unlock() }
        return peakSurface
    }

    func note(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        if !notes.contains(text), notes.count < 100 { notes.append(text) }
    }

    var all: [String] {
        lock.lock(); defer { lock.unlock() }
        return notes
    }
}
