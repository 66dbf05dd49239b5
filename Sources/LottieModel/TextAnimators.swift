import Glibc

/// Which characters a text animator acts on, and how much (After Effects' range selector):
/// a start, end and offset over the text's units, shaped by `shape` and eased.
public struct TextRangeSelector: Sendable {
    /// What the start, end and offset count.
    public enum Units: Int, Sendable { case percentage = 1, index = 2 }
    /// The units a text is divided into.
    public enum Basis: Int, Sendable { case characters = 1, charactersExcludingSpaces = 2, words = 3, lines = 4 }
    /// How the amount falls off across the range.
    public enum Shape: Int, Sendable { case square = 1, rampUp, rampDown, triangle, round, smooth }

    public var units: Units = .percentage
    public var basis: Basis = .characters
    public var shape: Shape = .square
    public var start = Animated<Double>(0)
    public var end = Animated<Double>(100)
    public var offset = Animated<Double>(0)
    /// Percent; negative inverts the selection's effect.
    public var amount = Animated<Double>(100)
    /// Ease high and ease low, percent (-100...100).
    public var easeHigh = Animated<Double>(0)
    public var easeLow = Animated<Double>(0)
    /// Percent, for the square shape: 0 makes each unit all or nothing.
    public var smoothness = Animated<Double>(100)

    public init() {}

    /// The selector's numbers at `frame` for a text of `count` units.
    public func evaluated(at frame: Double, count: Int) -> EvaluatedRangeSelector {
        let perUnit = units == .index ? 1 : Double(count) / 100
        let o = offset.value(at: frame) * perUnit
        var s = start.value(at: frame) * perUnit + o
        var e = end.value(at: frame) * perUnit + o
        if s > e { swap(&s, &e) }
        return EvaluatedRangeSelector(shape: shape, start: s, end: e, amount: amount.value(at: frame) / 100,
                                      easeHigh: min(100, max(-100, easeHigh.value(at: frame))) / 100,
                                      easeLow: min(100, max(-100, easeLow.value(at: frame))) / 100,
                                      smoothness: min(1, max(0, smoothness.value(at: frame) / 100)))
    }

    /// How much unit `index` (0-based) of `count` is selected at `frame`, -1...1.
    public func factor(unit index: Int, count: Int, at frame: Double) -> Double {
        evaluated(at: frame, count: count).factor(unit: index)
    }
}

/// A range selector at one frame: start and end in units, the rest as fractions.
public struct EvaluatedRangeSelector: Sendable {
    public let shape: TextRangeSelector.Shape
    public let start: Double
    public let end: Double
    public let amount: Double
    public let easeHigh: Double
    public let easeLow: Double
    public let smoothness: Double

    /// How much the unit covering [index, index + 1) is selected: 0 (not at all) to 1
    /// (fully), times the amount (so -1...1).
    public func factor(unit index: Int) -> Double {
        let result = ease(shaped(Double(index))) * amount
        return result.isFinite ? min(1, max(-1, result)) : 0
    }

    /// The shape's value for the unit covering [i, i + 1).
    private func shaped(_ i: Double) -> Double {
        let (s, e) = (start, end)
        if shape == .square {
            // The part of the unit the range covers, made sharper by a smoothness below 100 %.
            let covered = min(1, max(0, min(e, i + 1) - max(s, i)))
            guard smoothness < 1 else { return covered }
            let threshold = 0.5 - smoothness / 2
            return covered < threshold ? 0 : smoothness <= 0 ? 1 : min(1, (covered - threshold) / smoothness)
        }
        let width = e - s
        guard width > 0 else {
            switch shape {
            case .rampUp: return i + 0.5 >= e ? 1 : 0
            case .rampDown: return i + 0.5 >= e ? 0 : 1
            default: return 0
            }
        }
        // Where the unit's centre lies across the range, 0...1.
        let t = min(1, max(0, (i + 0.5 - s) / width))
        switch shape {
        case .rampUp: return t
        case .rampDown: return 1 - t
        case .triangle: return t < 0.5 ? 2 * t : 2 * (1 - t)
        case .round:
            let x = 2 * t - 1
            return (1 - x * x).squareRoot()
        case .smooth: return (1 - cos(2 * Double.pi * t)) / 2
        case .square: return 0
        }
    }

    /// Ease high and low bend the shape's value as a cubic curve: ease low flattens it near 0,
    /// ease high near 1 (negative values steepen instead).
    private func ease(_ v: Double) -> Double {
        guard easeLow != 0 || easeHigh != 0 else { return v }
        let out = EasingHandle(x: [max(0, easeLow)], y: [max(0, -easeLow)])
        let into = EasingHandle(x: [1 - max(0, easeHigh)], y: [1 + min(0, easeHigh)])
        return Easing.progress(min(1, max(0, v)), out: out, in: into, dimension: 0)
    }
}

/// What a text animator changes on the characters it selects, each scaled by how much a
/// character is selected. Nil: the property is not animated.
public struct TextAnimatorProperties: Sendable {
    public var anchor: Animated<Vec2>?
    /// Added to the character's position.
    public var position: Animated<Vec2>?
    /// Percent, reached at full selection.
    public var scale: Animated<Vec2>?
    /// Degrees, added.
    public var rotation: Animated<Double>?
    public var skew: Animated<Double>?
    public var skewAxis: Animated<Double>?
    /// Percent, reached at full selection.
    public var opacity: Animated<Double>?
    public var fillColor: Animated<RGBA>?
    public var strokeColor: Animated<RGBA>?
    /// Added to the document's stroke width.
    public var strokeWidth: Animated<Double>?
    /// Thousandths of an em after the character, added to the document's tracking.
    public var tracking: Animated<Double>?

    public init() {}
}

/// One text animator (`t.a[]`): a range selector and the properties it drives.
public struct TextAnimator: Sendable {
    public var name: String
    public var selector: TextRangeSelector
    public var properties: TextAnimatorProperties

    public init(name: String = "", selector: TextRangeSelector = TextRangeSelector(), properties: TextAnimatorProperties = TextAnimatorProperties()) {
        self.name = name
        self.selector = selector
        self.properties = properties
    }
}
