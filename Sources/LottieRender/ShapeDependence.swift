import LottieModel

/// What the evaluated shapes of a shape layer depend on, decided once from its items: the
/// frame (a property with keyframes, or a provider that reads the frame), only the values
/// of bound providers (which tell a change by their version), or nothing (evaluated once).
/// Every property of every kind of item is looked at: the switch names each kind, so a new
/// kind cannot be forgotten.
struct ShapeDependence {
    /// A property with keyframes or a provider that reads the frame.
    private(set) var frame = false
    /// The providers bound inside the items, in the order met.
    private(set) var providers: [any ValueProvider] = []

    init(items: [ShapeItem]) {
        note(items, depth: 0)
    }

    /// Nothing in the items can change: they are evaluated once.
    var isConstant: Bool { !frame && providers.isEmpty }

    private mutating func note<V>(_ property: Animated<V>) {
        if property.keyframes.count > 1 { frame = true }
        if let provider = property.provider {
            providers.append(provider)
            if provider.dependsOnFrame { frame = true }
        }
    }

    private mutating func note<V>(_ property: Animated<V>?) {
        if let property { note(property) }
    }

    private mutating func note(_ position: PositionProperty) {
        switch position {
        case .combined(let p): note(p)
        case .split(let x, let y): note(x); note(y)
        }
    }

    private mutating func note(_ t: LottieModel.Transform) {
        note(t.anchor); note(t.position); note(t.scale); note(t.rotation); note(t.opacity); note(t.skew); note(t.skewAxis)
    }

    private mutating func note(_ dashes: [Dash]) {
        for dash in dashes { note(dash.value) }
    }

    private mutating func note(_ items: [ShapeItem], depth: Int) {
        // Deeper than the evaluation goes (it stops at 64), nothing is drawn: taken to vary.
        guard depth < 64 else { frame = true; return }
        for item in items { note(item.kind, depth: depth) }
    }

    private mutating func note(_ kind: ShapeKind, depth: Int) {
        switch kind {
        case .group(let children): note(children, depth: depth + 1)
        case .path(let path, _): note(path)
        case .rectangle(let position, let size, let roundness, _): note(position); note(size); note(roundness)
        case .ellipse(let position, let size, _): note(position); note(size)
        case .polystar(let s):
            note(s.position); note(s.points); note(s.rotation); note(s.outerRadius); note(s.innerRadius)
            note(s.outerRoundness); note(s.innerRoundness)
        case .fill(let color, let opacity, _): note(color); note(opacity)
        case .stroke(let s): note(s.color); note(s.opacity); note(s.width); note(s.dashes)
        case .gradientFill(let g):
            note(g.opacity); note(g.start); note(g.end); note(g.highlightLength); note(g.highlightAngle); note(g.colors)
        case .gradientStroke(let g):
            note(g.opacity); note(g.start); note(g.end); note(g.highlightLength); note(g.highlightAngle); note(g.colors)
            note(g.width); note(g.dashes)
        case .transform(let t): note(t.transform)
        case .trim(let start, let end, let offset, _): note(start); note(end); note(offset)
        case .repeater(let r):
            note(r.copies); note(r.offset); note(r.transform); note(r.startOpacity); note(r.endOpacity)
        case .roundedCorners(let radius): note(radius)
        case .offsetPath(let amount, _, let miterLimit): note(amount); note(miterLimit)
        case .puckerBloat(let amount): note(amount)
        case .zigZag(let size, let ridges, _): note(size); note(ridges)
        case .twist(let angle, let center): note(angle); note(center)
        case .merge, .unsupported: break
        }
    }
}
