/// Hard limits that keep a hostile or broken file from exhausting the device. Real files are
/// far inside them (the largest in the lottie-ios corpus has a few thousand keyframes).
/// Only `maxFileBytes` and `maxDimension` refuse a file; past the others the rest of that
/// list (layers, assets, vertices, keyframes of a property, deeper groups) is skipped with a
/// warning. Numbers beyond ±1e15 are clamped. What a renderer may spend drawing a frame is
/// `RenderBudget` (LottieRender).
public struct ParseLimits: Sendable {
    public var maxFileBytes = 64 * 1024 * 1024
    public var maxDimension = 16384.0
    public var maxFrameRate = 1000.0
    public var maxLayersPerComposition = 10_000
    public var maxKeyframes = 1_000_000
    public var maxShapeDepth = 64
    public var maxAssets = 10_000
    public var maxPathVertices = 100_000
    /// Text animators per text layer (each is evaluated for every glyph of every frame).
    public var maxTextAnimators = 100

    public init() {}
}
