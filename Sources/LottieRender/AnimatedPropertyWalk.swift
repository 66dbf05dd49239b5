import LottieModel

/// A walk over every animatable property of shape items and transforms, one `note` per
/// property: what `ShapeDependence` (what a layer's shapes depend on, once) and `HeldJudge`
/// (whether a layer holds between two frames, for the damage) both need. The switch over
/// `ShapeKind` names each kind, so a new kind cannot be forgotten by either.
protocol AnimatedPropertyWalk {
    mutating func note<V>(_ property: Animated<V>)
    /// Items nested deeper than the evaluation goes (it stops at 64), of which nothing is
    /// drawn: each walker takes them to vary.
    mutating func noteTooDeep()
    /// False once the answer is known: the walk stops looking at further items.
    var keepsLooking: Bool { get }
}

extension AnimatedPropertyWalk {
    var keepsLooking: Bool { true }

    mutating func note<V>(_ property: Animated<V>?) {
        if let property { note(property) }
    }

    mutating func note(_ position: PositionProperty) {
        switch position {
        case .combined(let p): note(p)
        case .split(let x, let y): note(x); note(y)
        }
    }

    mutating func note(_ t: LottieModel.Transform) {
        note(t.anchor); note(t.position); note(t.scale); note(t.rotation); note(t.opacity); note(t.skew); note(t.skewAxis)
    }

    mutating func note(_ dashes: [Dash]) {
        for dash in dashes { note(dash.value) }
    }

    mutating func note(_ items: [ShapeItem], depth: Int) {
        guard depth < 64 else { noteTooDeep(); return }
        for item in items where keepsLooking { note(item.kind, depth: depth) }
    }

    mutating func note(_ kind: ShapeKind, depth: Int) {
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
