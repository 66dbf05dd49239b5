/// The Lottie document as value types: what the file says, nothing evaluated.

/// A layer's or a shape group's transform. Scale is in percent, rotation and skew in degrees,
/// opacity 0...100.
public struct Transform: Sendable {
    public var anchor: Animated<Vec2>
    public var position: PositionProperty
    public var scale: Animated<Vec2>
    public var rotation: Animated<Double>
    public var opacity: Animated<Double>
    public var skew: Animated<Double>
    public var skewAxis: Animated<Double>

    public init(anchor: Animated<Vec2> = Animated(Vec2(x: 0, y: 0)),
                position: PositionProperty = .combined(Animated(Vec2(x: 0, y: 0))),
                scale: Animated<Vec2> = Animated(Vec2(x: 100, y: 100)),
                rotation: Animated<Double> = Animated(0), opacity: Animated<Double> = Animated(100),
                skew: Animated<Double> = Animated(0), skewAxis: Animated<Double> = Animated(0)) {
        self.anchor = anchor
        self.position = position
        self.scale = scale
        self.rotation = rotation
        self.opacity = opacity
        self.skew = skew
        self.skewAxis = skewAxis
    }
}

public enum BlendMode: Int, Sendable {
    case normal = 0, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight
    case difference, exclusion, hue, saturation, color, luminosity, add, hardMix
}

public enum MatteMode: Int, Sendable {
    case none = 0, alpha, alphaInverted, luma, lumaInverted
}

public enum MaskMode: String, Sendable {
    case none = "n", add = "a", subtract = "s", intersect = "i", lighten = "l", darken = "d", difference = "f"
}

public struct Mask: Sendable {
    public var name: String
    public var mode: MaskMode
    public var inverted: Bool
    public var path: Animated<BezierPath>
    public var opacity: Animated<Double>
    public var expansion: Animated<Double>
}

public struct Marker: Sendable, Equatable {
    public var name: String
    public var time: Double
    public var duration: Double

    public init(name: String, time: Double, duration: Double) {
        self.name = name
        self.time = time
        self.duration = duration
    }
}

public struct EffectValue: Sendable {
    public var name: String
    public var type: Int
    public var scalar: Animated<Double>?
    public var color: Animated<RGBA>?
    public var point: Animated<Vec2>?
}

public struct Effect: Sendable {
    public var type: Int
    public var name: String
    public var matchName: String
    public var enabled: Bool
    public var values: [EffectValue]
}

/// A layer style (`sy`), as After Effects' Layer Styles export it. Only the properties Buoy
/// draws are kept; each is nil when the file leaves it out.
public struct LayerStyle: Sendable {
    /// The `ty` numbers of the styles.
    public enum Kind: Int, Sendable {
        case stroke = 0, dropShadow = 1, innerShadow = 2, outerGlow = 3, innerGlow = 4, bevelEmboss = 5, satin = 6
        case colorOverlay = 7, gradientOverlay = 8
    }

    public var kind: Kind?
    public var name: String
    /// `c`: the shadow's or glow's colour.
    public var color: Animated<RGBA>?
    /// `o`: 0 to 100.
    public var opacity: Animated<Double>?
    /// `a`: degrees.
    public var angle: Animated<Double>?
    /// `s`: the size of the blur.
    public var size: Animated<Double>?
    /// `d`: the distance of the offset.
    public var distance: Animated<Double>?
    /// `ch`: spread (drop shadow, glow) or choke (inner shadow, inner glow), 0 to 100.
    public var spread: Animated<Double>?
    /// `sr`: where an inner glow starts, 1 the centre, 2 the edges.
    public var source: Animated<Double>?

    public init(kind: Kind?, name: String) {
        self.kind = kind
        self.name = name
    }
}

public enum LayerKind: Sendable {
    case precomp(refId: String, width: Double, height: Double)
    case solid(color: RGBA, width: Double, height: Double)
    case image(refId: String)
    case null
    case shape([ShapeItem])
    case text(TextData)
    case unsupported(type: Int)
}

/// One layer of a composition. Its values live in one shared, never-changed box (see
/// LayerFields.swift), so that a copy of a layer is one reference, not one for each of its
/// parts; it is still a value: changing a copy's property boxes the changed values anew.
public struct Layer: Sendable {
    @usableFromInline
    var box: LayerBox

    init(name: String, index: Int?, parent: Int?, kind: LayerKind, inPoint: Double, outPoint: Double, startTime: Double,
         timeStretch: Double, transform: Transform, autoOrient: Bool, hidden: Bool, blendMode: BlendMode, masks: [Mask],
         matteMode: MatteMode, matteParent: Int?, isMatteSource: Bool, timeRemap: Animated<Double>?, effects: [Effect],
         styles: [LayerStyle] = []) {
        box = LayerBox(LayerFields(name: name, index: index, parent: parent, kind: kind, inPoint: inPoint, outPoint: outPoint,
                                   startTime: startTime, timeStretch: timeStretch, transform: transform, autoOrient: autoOrient,
                                   hidden: hidden, blendMode: blendMode, masks: masks, matteMode: matteMode,
                                   matteParent: matteParent, isMatteSource: isMatteSource, timeRemap: timeRemap, effects: effects,
                                   styles: styles))
    }
}

public struct ShapeItem: Sendable {
    public var name: String
    public var matchName: String
    public var hidden: Bool
    public var kind: ShapeKind
    /// Where the item sits in the file, for what drawing it may warn of (a dashed stroke's
    /// pattern too fine to draw); empty for items that cannot warn.
    public var jsonPath: String = ""
}

/// A shape group's transform item. Its transform is held in a box of its own: the evaluation
/// reads the transform item of every group of every evaluated layer at every frame, and
/// bound out of the item's kind a plain struct was copied and destroyed, a retain and release
/// for each keyframe list and provider of its seven properties, twice an item; boxed, a copy
/// is one retain, and the transform is read in place.
public struct ShapeTransform: Sendable {
    @usableFromInline
    final class Box: Sendable {
        @usableFromInline let transform: Transform
        init(_ transform: Transform) { self.transform = transform }
    }

    @usableFromInline var box: Box

    /// Inlinable: called across the module, the read was a coroutine whose frame was
    /// allocated and freed at each read.
    public var transform: Transform {
        @inlinable _read { yield box.transform }
        set { box = Box(newValue) }
    }

    public init(transform: Transform) {
        box = Box(transform)
    }
}

public struct Polystar: Sendable {
    public var star: Bool
    public var position: Animated<Vec2>
    public var points: Animated<Double>
    public var rotation: Animated<Double>
    public var outerRadius: Animated<Double>
    public var innerRadius: Animated<Double>?
    public var outerRoundness: Animated<Double>
    public var innerRoundness: Animated<Double>?
    public var reversed: Bool
}

public struct Dash: Sendable {
    /// "d" dash, "g" gap, "o" offset.
    public var kind: String
    public var value: Animated<Double>
}

public struct Stroke: Sendable {
    public var color: Animated<RGBA>
    public var opacity: Animated<Double>
    public var width: Animated<Double>
    /// 1 butt, 2 round, 3 square.
    public var lineCap: Int
    /// 1 miter, 2 round, 3 bevel.
    public var lineJoin: Int
    public var miterLimit: Double
    public var dashes: [Dash]
}

public struct GradientFill: Sendable {
    public var opacity: Animated<Double>
    public var isRadial: Bool
    public var start: Animated<Vec2>
    public var end: Animated<Vec2>
    public var highlightLength: Animated<Double>?
    public var highlightAngle: Animated<Double>?
    public var colors: Animated<GradientColors>
    public var evenOdd: Bool
}

public struct GradientStroke: Sendable {
    public var opacity: Animated<Double>
    public var isRadial: Bool
    public var start: Animated<Vec2>
    public var end: Animated<Vec2>
    public var highlightLength: Animated<Double>?
    public var highlightAngle: Animated<Double>?
    public var colors: Animated<GradientColors>
    public var width: Animated<Double>
    public var lineCap: Int
    public var lineJoin: Int
    public var miterLimit: Double
    public var dashes: [Dash]
}

public struct Repeater: Sendable {
    public var copies: Animated<Double>
    public var offset: Animated<Double>
    /// 1 above, 2 below.
    public var composite: Int
    public var transform: Transform
    public var startOpacity: Animated<Double>
    public var endOpacity: Animated<Double>
}

/// Indirect: each case's values live in one box of their own, so a copy of an item's kind (the
/// evaluation reads every item of every evaluated layer at every frame, and reading a case's
/// values from the item's storage copies them) is one retain, not one for each keyframe list
/// and provider of the case.
public indirect enum ShapeKind: Sendable {
    case group([ShapeItem])
    case path(Animated<BezierPath>, reversed: Bool)
    case rectangle(position: Animated<Vec2>, size: Animated<Vec2>, roundness: Animated<Double>, reversed: Bool)
    case ellipse(position: Animated<Vec2>, size: Animated<Vec2>, reversed: Bool)
    case polystar(Polystar)
    case fill(color: Animated<RGBA>, opacity: Animated<Double>, evenOdd: Bool)
    case stroke(Stroke)
    case gradientFill(GradientFill)
    case gradientStroke(GradientStroke)
    case transform(ShapeTransform)
    case trim(start: Animated<Double>, end: Animated<Double>, offset: Animated<Double>, individually: Bool)
    case repeater(Repeater)
    case roundedCorners(radius: Animated<Double>)
    case merge(mode: Int)
    case offsetPath(amount: Animated<Double>, join: Int, miterLimit: Animated<Double>)
    case puckerBloat(amount: Animated<Double>)
    case zigZag(size: Animated<Double>, ridges: Animated<Double>, smooth: Bool)
    case twist(angle: Animated<Double>, center: Animated<Vec2>)
    case unsupported(type: String)
}

/// One state of a text layer's text.
public struct TextDocument: Sendable, Interpolatable {
    public var text: String
    public var fontName: String
    public var size: Double
    /// 0 left, 1 right, 2 centre.
    public var justification: Int
    public var fillColor: RGBA?
    public var strokeColor: RGBA?
    public var strokeWidth: Double
    /// Between baselines; 0 when the file gives none (the font's own line height is used).
    public var lineHeight: Double
    /// Thousandths of an em between letters.
    public var tracking: Double
    public var baselineShift: Double
    public var boxPosition: Vec2?
    public var boxSize: Vec2?
    /// The stroke is drawn over the fill (`of`); else under it.
    public var strokeOverFill: Bool = false
    /// Capitals (`ca`): 0 as written, 1 all caps, 2 small caps (drawn as all caps).
    public var caps: Int = 0

    /// Text changes in steps.
    public static func interpolate(_ a: TextDocument, _ b: TextDocument, _ t: Double, perComponent: [Double]?) -> TextDocument {
        t < 1 ? a : b
    }
}

public enum TextAnchorGrouping: Int, Sendable { case characters = 1, words, lines, all }

public struct TextData: Sendable {
    public var documents: Animated<TextDocument>
    /// Applied in order to each character.
    public var animators: [TextAnimator] = []
    /// Where a character's anchor lies, in percent of its advance and size from the centre
    /// of its baseline (`m.a`).
    public var groupingAlignment = Animated<Vec2>(Vec2(x: 0, y: 0))
    /// What characters turn and scale about (`m.g`): each its own centre, or the centre of
    /// its word, its line or the whole text.
    public var anchorGrouping: TextAnchorGrouping = .characters

    public func document(at frame: Double) -> TextDocument { documents.value(at: frame) }
}

public struct Font: Sendable {
    public var name: String
    public var family: String
    public var style: String
    public var ascent: Double
    public var path: String?
}

/// A glyph drawn from the file's own shapes, for a 100-point font.
public struct Glyph: Sendable {
    public var character: String
    public var family: String
    public var style: String
    public var size: Double
    public var advance: Double
    public var shapes: [ShapeItem]
}

public struct ImageAsset: Sendable {
    public enum Source: Sendable {
        case embedded([UInt8])
        /// `relativePath` (the file's `u` and `p`) lies beneath `directory` (the animation's
        /// folder): it has no `..` and is not absolute. It is opened beneath the folder without
        /// following symbolic links, so it cannot reach outside it.
        case file(directory: String, relativePath: String)
        case missing
    }

    public var id: String
    public var width: Double
    public var height: Double
    public var source: Source
}

public enum Asset: Sendable {
    case precomp(id: String, layers: [Layer], frameRate: Double?)
    case image(ImageAsset)
}

/// A whole Lottie file.
public struct Animation: Sendable {
    public var name: String
    public var version: String
    public var frameRate: Double
    public var inPoint: Double
    public var outPoint: Double
    public var width: Double
    public var height: Double
    public var layers: [Layer]
    public var assets: [String: Asset]
    public var markers: [Marker]
    public var fonts: [Font]
    public var glyphs: [Glyph]
    /// What was skipped while loading.
    public var warnings: [ParseWarning]
    /// How many properties have more than one keyframe (the parser counts them); nil when
    /// not known (a model made some other way), which counts as animated.
    public var animatedProperties: Int? = nil

    /// Length in seconds.
    public var duration: Double { (outPoint - inPoint) / frameRate }

    public func marker(named name: String) -> Marker? { markers.first { $0.name == name } }
}
