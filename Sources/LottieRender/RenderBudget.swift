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
    /// The peak memory (RSS) the process drawing the frames should stay within: the coverage
    /// kept from frame to frame gets what is left of it (`keptCoverageBytes`).
    public var processMemoryTarget = 20 << 20
    /// The least and the most bytes of coverage kept, whatever the frame's size.
    public var keptCoverageRange = (256 << 10)...(16 << 20)

    /// What a process playing an animation takes besides its frame and the coverage it keeps
    /// (code, runtime, model, buffers of a frame's work, the player): measured, `buoy play`
    /// at 1080p with no coverage kept peaks at 18.7 MB, 8.3 MB of which are the frame; with
    /// 0.8 MB to spare (files differ, and so do runs: a quarter MB less to spare peaked at
    /// 20.2 MB, and saved 5 % of the instructions of 8 frames of a masked logo at 1080p).
    static let processFixedBytes = (11 << 20) + (256 << 10)
    /// Bytes a pixel of the frame takes (its surface: one 32-bit pixel).
    static let frameBytesPerPixel = 4
    /// What a byte of kept coverage costs the process, measured: about 2.5 bytes (entries
    /// come and go and leave the heap in pieces; each array has its header).
    static let keptCoverageCost = 2.5

    /// Bytes of shape coverage kept from one frame to the next (`CoverageSlots`,
    /// `CoverageCache`) for frames of `width` x `height`: what `processMemoryTarget` leaves
    /// once the process and the frame are counted, over what a byte kept costs, within
    /// `keptCoverageRange`. The trade: a shape found there is painted without being
    /// rasterized again, but what is kept stays in the process for as long as it plays, and a
    /// long play fills any store (a loop of a few seconds shows thousands of shapes). At 1080p
    /// that leaves about 0.35 MB (a sixth of a byte a pixel), and a long loop whose shapes
    /// come back after more than that (a loader's repeated precomps) rasterizes them again
    /// (about +19 % ms a frame on such a file, drawn frame after frame); at 512x512 it is 3.2 MB.
    public func keptCoverageBytes(width: Int, height: Int) -> Int {
        let frame = Double(max(0, width)) * Double(max(0, height)) * Double(Self.frameBytesPerPixel)
        let left = (Double(processMemoryTarget) - Double(Self.processFixedBytes) - frame) / Self.keptCoverageCost
        let bytes = left.isFinite ? Int(max(0, min(left, Double(keptCoverageRange.upperBound)))) : 0
        return min(keptCoverageRange.upperBound, max(keptCoverageRange.lowerBound, bytes))
    }

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
