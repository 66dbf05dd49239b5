import LottieModel

/// What makes one frame's picture differ from another's, so that a caller drawing only what
/// changed can tell two frame numbers that draw the same pixels. A property with keyframes,
/// or a bound provider that reads the frame, makes every frame number a picture of its own.
/// Without any, only layers entering and leaving (their in and out points, through the time
/// of the precomps that hold them) change the picture: frames with the same layers shown are
/// the same picture. Decided from the model alone, for any file.
extension AnimationRenderer {
    /// Identifies the picture a frame draws (with the providers' values and the viewport).
    enum ContentKey: Equatable {
        case frame(Double)
        case layersShown([Bool])
    }

    /// Beyond this many layer instances (precomps shown many times over) frames are simply
    /// compared by number: working out which layers show must stay far cheaper than drawing.
    static let maxLayersCompared = 4096

    /// Whether some property's value depends on the frame: one with keyframes (or a model
    /// whose count is unknown), or one driven by a provider that reads the frame.
    public var hasTimeVaryingProperties: Bool {
        (animation.animatedProperties ?? 1) > 0 || framedProviderBound
    }

    func contentKey(at frame: Double) -> ContentKey {
        guard !hasTimeVaryingProperties else { return .frame(frame) }
        var shown: [Bool] = []
        let compositor = LayerCompositor(renderer: self)
        guard collectShown(root, frame: frame, depth: 0, compositor, into: &shown) else { return .frame(frame) }
        return .layersShown(shown)
    }

    /// Appends whether each layer of `comp` (and of the precomps it shows) is shown at
    /// `frame`; false when there are too many to be worth it.
    private func collectShown(_ comp: Composition, frame: Double, depth: Int, _ compositor: LayerCompositor,
                              into shown: inout [Bool]) -> Bool {
        guard depth < LayerCompositor.maxDepth else { return true }
        for layer in comp.layers {
            guard shown.count < Self.maxLayersCompared else { return false }
            let visible = compositor.isVisible(layer, at: frame)
            shown.append(visible)
            guard visible, case .precomp(let refId, _, _) = layer.kind, let child = precomps[refId] else { continue }
            guard collectShown(child, frame: compositor.localFrame(of: layer, at: frame), depth: depth + 1, compositor, into: &shown) else {
                return false
            }
        }
        return true
    }

    /// Whether the picture can differ between two frames of `range` (a player's segment):
    /// false when nothing varies with time there, so a player looping over it shows one still
    /// picture and need not draw again.
    public func pictureChanges(over range: ClosedRange<Double>) -> Bool {
        guard range.lowerBound < range.upperBound else { return false }
        guard !hasTimeVaryingProperties else { return true }
        var budget = Self.maxLayersCompared
        return visibilityChanges(root, over: range, depth: 0, LayerCompositor(renderer: self), budget: &budget)
    }

    /// Whether a layer of `comp` enters or leaves within `range` (of the composition's time).
    private func visibilityChanges(_ comp: Composition, over range: ClosedRange<Double>, depth: Int, _ compositor: LayerCompositor,
                                   budget: inout Int) -> Bool {
        guard depth < LayerCompositor.maxDepth else { return false }
        for layer in comp.layers {
            budget -= 1
            guard budget > 0 else { return true }  // too many to tell: taken to change
            let start = compositor.isVisible(layer, at: range.lowerBound)
            // Shown over [inPoint, outPoint], both ends included.
            let throughout = start && compositor.isVisible(layer, at: range.upperBound)
            let never = layer.outPoint < range.lowerBound || layer.inPoint > range.upperBound
            guard throughout || never else { return true }
            guard throughout, case .precomp(let refId, _, _) = layer.kind, let child = precomps[refId] else { continue }
            // Without animated properties a precomp's time is a straight line of the outer time.
            let a = compositor.localFrame(of: layer, at: range.lowerBound), b = compositor.localFrame(of: layer, at: range.upperBound)
            guard a.isFinite, b.isFinite else { return true }
            if visibilityChanges(child, over: min(a, b)...max(a, b), depth: depth + 1, compositor, budget: &budget) { return true }
        }
        return false
    }
}
