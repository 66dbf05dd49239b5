import LottieModel

/// What the evaluated shapes of a shape layer depend on, decided once from its items: the
/// frame (a property with keyframes, or a provider that reads the frame), only the values
/// of bound providers (which tell a change by their version), or nothing (evaluated once).
/// Every property of every kind of item is looked at (`AnimatedPropertyWalk`).
struct ShapeDependence: AnimatedPropertyWalk {
    /// A property with keyframes or a provider that reads the frame.
    private(set) var frame = false
    /// The providers bound inside the items, in the order met.
    private(set) var providers: [any ValueProvider] = []

    init(items: [ShapeItem]) {
        note(items, depth: 0)
    }

    /// Nothing in the items can change: they are evaluated once.
    var isConstant: Bool { !frame && providers.isEmpty }

    mutating func note<V>(_ property: Animated<V>) {
        if property.keyframes.count > 1 { frame = true }
        if let provider = property.provider {
            providers.append(provider)
            if provider.dependsOnFrame { frame = true }
        }
    }

    mutating func noteTooDeep() { frame = true }
}
