import Foundation
import LottieModel
import Raster

/// Draws frames of one animation. Everything that does not change from frame to frame
/// (decoded images, layer look-ups, fonts) is prepared once here.
public struct AnimationRenderer {
    public let animation: Animation
    /// Problems found while preparing (an image that would not decode, a missing font).
    public private(set) var warnings: [String] = []

    let root: Composition
    let precomps: [String: Composition]
    let images: [String: Image]
    let text: TextRenderer

    public init(animation: Animation) {
        self.animation = animation
        root = Composition(layers: animation.layers)
        var precomps: [String: Composition] = [:]
        var images: [String: Image] = [:]
        var warnings: [String] = []
        for (id, asset) in animation.assets {
            switch asset {
            case .precomp(_, let layers, _):
                precomps[id] = Composition(layers: layers)
            case .image(let image):
                switch ImageDecoding.decode(image) {
                case .success(let decoded): images[id] = decoded
                case .failure(let error): warnings.append("image asset \(id): \(error)")
                }
            }
        }
        self.precomps = precomps
        self.images = images
        text = TextRenderer(animation: animation)
        warnings += text.warnings
        self.warnings = warnings
    }

    /// Renders `frame` into a new surface of the viewport's size.
    public func render(frame: Double, viewport: Viewport, background: Color = .clear) -> Surface {
        var surface = Surface(width: viewport.width, height: viewport.height, clearColor: background)
        draw(frame: frame, into: &surface, matrix: viewport.transform(animationWidth: animation.width, animationHeight: animation.height))
        return surface
    }

    /// Renders `frame` into an existing surface of the viewport's size (no allocation per frame).
    public func render(frame: Double, viewport: Viewport, background: Color = .clear, into surface: inout Surface) {
        surface.clear(background)
        draw(frame: frame, into: &surface, matrix: viewport.transform(animationWidth: animation.width, animationHeight: animation.height))
    }

    /// Draws `frame` over whatever the surface holds, with `matrix` mapping animation
    /// coordinates to surface pixels. The animation is clipped to its own bounds.
    public func draw(frame: Double, into surface: inout Surface, matrix: Raster.Transform) {
        guard frame.isFinite else { return }
        let clip = LayerCompositor.clipRegion(width: animation.width, height: animation.height, matrix: matrix, surface: surface)
        var compositor = LayerCompositor(renderer: self, surfaceWidth: surface.width, surfaceHeight: surface.height)
        compositor.drawComposition(root, frame: frame, into: &surface, matrix: matrix, opacity: 1, clip: clip, depth: 0)
    }
}
