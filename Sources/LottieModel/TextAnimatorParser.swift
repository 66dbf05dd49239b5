/// Text animators (`t.a[]`): a range selector (`s`) and animated properties (`a`).
extension LottieParser {
    mutating func textAnimator(_ node: JSONNode) throws -> TextAnimator {
        var animator = TextAnimator(name: try node.optionalString("nm") ?? "")
        if let selector = node["s"] { animator.selector = textRangeSelector(selector) }
        if let properties = node["a"] { animator.properties = textAnimatorProperties(properties) }
        return animator
    }

    mutating func textRangeSelector(_ node: JSONNode) -> TextRangeSelector {
        var s = TextRangeSelector()
        s.units = enumValue(node, "r", s.units, "range units")
        s.basis = enumValue(node, "b", s.basis, "range basis")
        s.shape = enumValue(node, "sh", s.shape, "range shape")
        s.start = optional(node, "s", s.start) { try $0.scalar($1) }
        s.end = optional(node, "e", s.end) { try $0.scalar($1) }
        s.offset = optional(node, "o", s.offset) { try $0.scalar($1) }
        s.amount = optional(node, "a", s.amount) { try $0.scalar($1) }
        s.easeHigh = optional(node, "xe", s.easeHigh) { try $0.scalar($1) }
        s.easeLow = optional(node, "ne", s.easeLow) { try $0.scalar($1) }
        s.smoothness = optional(node, "sm", s.smoothness) { try $0.scalar($1) }
        if let random = node["rn"], (try? random.bool()) == true {
            warn(random, "randomized range order is not applied; characters are selected in order")
        }
        if let mode = node["m"], let value = try? mode.int(), value != 1 {
            warn(mode, "selector mode \(value) is drawn as add (a text animator has one selector)")
        }
        return s
    }

    mutating func textAnimatorProperties(_ node: JSONNode) -> TextAnimatorProperties {
        var p = TextAnimatorProperties()
        p.anchor = optional(node, "a", nil) { try $0.vector($1) }
        p.position = optional(node, "p", nil) { try $0.vector($1) }
        p.scale = optional(node, "s", nil) { try $0.vector($1) }
        p.rotation = optional(node, "r", nil) { try $0.scalar($1) }
        p.skew = optional(node, "sk", nil) { try $0.scalar($1) }
        p.skewAxis = optional(node, "sa", nil) { try $0.scalar($1) }
        p.opacity = optional(node, "o", nil) { try $0.scalar($1) }
        p.fillColor = optional(node, "fc", nil) { try $0.color($1) }
        p.strokeColor = optional(node, "sc", nil) { try $0.color($1) }
        p.strokeWidth = optional(node, "sw", nil) { try $0.scalar($1) }
        p.tracking = optional(node, "t", nil) { try $0.scalar($1) }
        for (key, what) in [("fh", "fill hue"), ("fs", "fill saturation"), ("fb", "fill brightness"),
                            ("rx", "x rotation"), ("ry", "y rotation"), ("bl", "blur"), ("ls", "line spacing")] where node[key] != nil {
            warn(node, "the text animator's \(what) is not applied")
        }
        return p
    }

    /// An integer-coded option, or `fallback` with a warning when the code is not known.
    private mutating func enumValue<E: RawRepresentable>(_ node: JSONNode, _ key: String, _ fallback: E, _ what: String) -> E where E.RawValue == Int {
        guard let member = node[key] else { return fallback }
        let code = recover(member, "the default is used") { _ in try member.int() }
        guard let code else { return fallback }
        guard let value = E(rawValue: code) else {
            warn(member, "\(what) \(code) is not known; the default is used")
            return fallback
        }
        return value
    }
}
