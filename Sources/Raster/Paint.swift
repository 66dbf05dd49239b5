/// A straight (not premultiplied) colour with components 0...1.
public struct Color: Equatable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double

    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)
    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 1, g: 1, b: 1)

    /// Premultiplied 0xAARRGGBB, the surface's pixel layout.
    public var premultiplied: UInt32 {
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
        let alpha = unit(a)
        let a8 = UInt32(alpha * 255 + 0.5)
        let r8 = UInt32(unit(r) * alpha * 255 + 0.5), g8 = UInt32(unit(g) * alpha * 255 + 0.5), b8 = UInt32(unit(b) * alpha * 255 + 0.5)
        return a8 << 24 | r8 << 16 | g8 << 8 | b8
    }

    /// The straight colour of a premultiplied pixel.
    public init(premultiplied p: UInt32) {
        let a = Double(p >> 24)
        guard a > 0 else { self = .clear; return }
        self.init(r: Double((p >> 16) & 0xff) / a, g: Double((p >> 8) & 0xff) / a, b: Double(p & 0xff) / a, a: a / 255)
    }
}

public struct GradientStop: Equatable, Sendable {
    public var offset: Double
    public var color: Color

    public init(offset: Double, color: Color) {
        self.offset = offset
        self.color = color
    }
}

/// Gradients are padded: beyond their ends they keep the end colours.
public enum Gradient: Equatable, Sendable {
    case linear(start: Point, end: Point, stops: [GradientStop])
    /// Offset 0 is at `focal`, offset 1 on the circle; the focal point lies inside the circle.
    case radial(center: Point, radius: Double, focal: Point, stops: [GradientStop])
}

/// A picture in premultiplied 0xAARRGGBB pixels, row after row.
public struct Image: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "image size and pixel count disagree")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// What a fill or stroke paints with. The transform of a gradient or image maps its own space
/// into the space of the path being painted.
public enum Paint: Equatable, Sendable {
    case solid(Color)
    case gradient(Gradient, Transform)
    case image(Image, Transform)
}
