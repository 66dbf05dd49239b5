import Raster

/// How an animation is laid out on an output surface of another size.
public enum ContentMode: String, Sendable, CaseIterable {
    /// Scale uniformly so the whole animation is visible (letter-box).
    case fit
    /// Scale uniformly so the output is covered (the edges are cropped).
    case fill
    /// Scale each axis independently to the output size.
    case stretch
}

/// Where a fitted animation sits when it does not fill the surface on one axis.
public enum Alignment: Sendable {
    case center
    /// The lottie-ios snapshot layout: the animation starts at the top-left corner.
    case topLeft
}

/// The output surface an animation is drawn on, and how it is laid out there.
public struct Viewport: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var contentMode: ContentMode
    public var alignment: Alignment

    public init(width: Int, height: Int, contentMode: ContentMode = .fit, alignment: Alignment = .center) {
        self.width = width
        self.height = height
        self.contentMode = contentMode
        self.alignment = alignment
    }

    /// The transform from animation coordinates (0...w, 0...h) to surface pixels.
    public func transform(animationWidth w: Double, animationHeight h: Double) -> Transform {
        guard w > 0, h > 0 else { return .identity }
        let sx = Double(width) / w, sy = Double(height) / h
        let scaleX: Double, scaleY: Double
        switch contentMode {
        case .fit: scaleX = min(sx, sy); scaleY = scaleX
        case .fill: scaleX = max(sx, sy); scaleY = scaleX
        case .stretch: scaleX = sx; scaleY = sy
        }
        let offsetX: Double, offsetY: Double
        switch alignment {
        case .center:
            offsetX = (Double(width) - w * scaleX) / 2
            offsetY = (Double(height) - h * scaleY) / 2
        case .topLeft:
            offsetX = 0
            offsetY = 0
        }
        return Transform.scale(scaleX, scaleY).concatenating(.translation(offsetX, offsetY))
    }
}
