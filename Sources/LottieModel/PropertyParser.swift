/// Animated properties: `{"a": 0|1, "k": value or keyframes}`.
extension LottieParser {
    mutating func scalar(_ node: JSONNode) throws -> Animated<Double> {
        try animated(node) { try $0.double() }
    }

    /// A 2D vector; a third (z) component is ignored.
    mutating func vector(_ node: JSONNode) throws -> Animated<Vec2> {
        // Any 2D keyframe may carry spatial tangents; they are attached only when non-zero.
        try animated(node, spatial: true) { n in
            // The common `[x, y]` (or `[x, y, z]`) read in place: no array made to read it.
            if let (x, y) = n.plainPair { return Vec2(x: x, y: y) }
            let v = try n.doubles()
            guard let x = v.first else { throw n.fail("expected a vector, found an empty array") }
            if v.count == 1 { n.warn("a vector given as one number; used for both x and y") }
            return Vec2(x: x, y: v.count > 1 ? v[1] : x)
        }
    }

    /// Colours are 0...1 by the spec; files with 0...255 components are read as such.
    mutating func color(_ node: JSONNode) throws -> Animated<RGBA> {
        try animated(node) { n in
            var v = try n.doubles()
            if v.count < 3 {
                n.warn("expected a colour of 3 or 4 numbers, found \(v.count); padded with 0")
                v += Array(repeating: 0, count: 3 - v.count)
            }
            let scale = v.prefix(3).contains { $0 > 1 } ? 1.0 / 255 : 1
            // A 4th (alpha) component is ignored, as lottie-ios and other players do: the
            // opacity property says how opaque a fill or stroke is.
            return RGBA(r: v[0] * scale, g: v[1] * scale, b: v[2] * scale, a: 1)
        }
    }

    mutating func shapePath(_ node: JSONNode) throws -> Animated<BezierPath> {
        let maxVertices = limits.maxPathVertices
        return try animated(node) { n in
            // Keyframe values wrap the shape in a one-element array.
            var shape = n
            if n.isArray {
                guard let first = try n.array().first else { throw n.fail("expected a shape, found an empty array") }
                shape = first
            }
            guard shape.isObject else { throw shape.fail("expected a shape object, found \(shape.kindName)") }
            func points(_ key: String) throws -> [Vec2] {
                guard let list = shape[key] else { return [] }
                var items = try list.array()
                if items.count > maxVertices {
                    list.warn("\(items.count) vertices; the limit is \(maxVertices), the rest are dropped")
                    items = Array(items.prefix(maxVertices))
                }
                var result: [Vec2] = []
                result.reserveCapacity(items.count)
                for p in items {
                    // Fast path: [x, y] of plain numbers, read in place.
                    if let (x, y) = p.plainPair {
                        result.append(Vec2(x: x, y: y))
                        continue
                    }
                    let v = try p.doubles()
                    guard v.count >= 2 else { throw p.fail("expected a point of 2 numbers") }
                    result.append(Vec2(x: v[0], y: v[1]))
                }
                return result
            }
            return BezierPath(closed: try shape.optionalBool("c"), vertices: try points("v"),
                              inTangents: try points("i"), outTangents: try points("o"))
        }
    }

    mutating func gradient(_ node: JSONNode) throws -> Animated<GradientColors> {
        let count = optional(node, "p", 0) { try $1.int() }
        return try animated(node.required("k")) { n in
            let raw = try n.doubles()
            return GradientColors(colorCount: max(0, min(count, raw.count / 4)), raw: raw)
        }
    }

    /// The generic reader. `convert` turns one value (`k`, or a keyframe's `s`/`e`) into the
    /// model type.
    mutating func animated<T>(_ node: JSONNode, spatial: Bool = false, _ convert: (JSONNode) throws -> T) throws -> Animated<T> {
        guard node.isObject else {
            // Some exporters write a bare value where a property is expected.
            return Animated(try convert(node))
        }
        if node["x"]?.isString == true { warn(node, "expressions are not evaluated; the keyframed value is used") }
        let k = try node.required("k")
        guard isKeyframeList(k) else { return Animated(try convert(k)) }
        let items = try k.array()
        guard !items.isEmpty else { throw k.fail("keyframe list is empty") }
        keyframeCount += items.count
        guard keyframeCount <= limits.maxKeyframes else { throw k.fail("more than \(limits.maxKeyframes) keyframes in the file") }
        var keyframes: [Keyframe<T>] = []
        var tangents: [(out: Vec2?, in: Vec2?)] = []
        keyframes.reserveCapacity(items.count)
        var previousEnd: T?
        for item in items {
            let read = recover(item, "the keyframe is dropped") { p -> (Keyframe<T>, (out: Vec2?, in: Vec2?)) in
                try p.keyframe(item, previousEnd: previousEnd, previous: keyframes.last?.value, spatial: spatial, convert)
            }
            guard let (kf, handles) = read else { continue }
            previousEnd = kf.endValue
            keyframes.append(kf)
            if spatial { tangents.append(handles) }
        }
        guard !keyframes.isEmpty else { throw k.fail("no keyframe could be read") }
        // Files are written in order; sort defensively so lookup stays correct.
        for i in 1..<keyframes.count where keyframes[i].time < keyframes[i - 1].time {
            warn(k, "keyframes are not in time order; sorted")
            let order = keyframes.indices.sorted { keyframes[$0].time < keyframes[$1].time }
            keyframes = order.map { keyframes[$0] }
            tangents = tangents.isEmpty ? [] : order.map { tangents[$0] }
            break
        }
        if spatial { attachSpatialCurves(&keyframes, tangents) }
        if keyframes.count > 1 { animatedProperties += 1 }
        return Animated(keyframes: keyframes)
    }

    /// One keyframe of a list; one without a value of its own takes the previous one's end
    /// (or value), and the first one without a value is refused (it is dropped).
    func keyframe<T>(_ item: JSONNode, previousEnd: T?, previous: T?, spatial: Bool,
                     _ convert: (JSONNode) throws -> T) throws -> (Keyframe<T>, (out: Vec2?, in: Vec2?)) {
        guard item.isObject else { throw item.fail("expected a keyframe object, found \(item.kindName)") }
        let time = try item.required("t").double()
        let start: T
        if let s = item["s"] { start = try convert(s) }
        else if let end = previousEnd { start = end }
        else if let last = previous { start = last }
        else { throw DecodeError(path: item.memberPath("s"), reason: "the first keyframe has no value") }
        let end = try item["e"].map { try convert($0) }
        var kf = Keyframe(time: time, value: start, endValue: end, hold: try item.optionalBool("h"))
        if let o = item["o"] { kf.easeOut = try easing(o) }
        if let i = item["i"] { kf.easeIn = try easing(i) }
        let handles = spatial ? (try item["to"].map(point), try item["ti"].map(point)) : (nil, nil)
        return (kf, handles)
    }

    func isKeyframeList(_ k: JSONNode) -> Bool {
        guard let first = k.firstItem, first.isObject else { return false }
        return first.has("t") || first.has("s")
    }

    func easing(_ node: JSONNode) throws -> EasingHandle {
        guard node.isObject else { throw node.fail("expected an easing handle object") }
        let x = try node["x"]?.doubles() ?? [0]
        let y = try node["y"]?.doubles() ?? [0]
        return EasingHandle(x: x.isEmpty ? [0] : x, y: y.isEmpty ? [0] : y)
    }

    func point(_ node: JSONNode) throws -> Vec2 {
        if let (x, y) = node.plainPair { return Vec2(x: x, y: y) }
        let v = try node.doubles()
        return Vec2(x: v.first ?? 0, y: v.count > 1 ? v[1] : 0)
    }

    /// Position keyframes with `to`/`ti` travel along a curve rather than a straight line,
    /// unless the curve is one: control points on the line through its ends travel it straight
    /// at the eased speed (`SpatialCurve.isStraight`).
    func attachSpatialCurves<T>(_ keyframes: inout [Keyframe<T>], _ tangents: [(out: Vec2?, in: Vec2?)]) {
        guard T.self == Vec2.self, tangents.count == keyframes.count, keyframes.count > 1 else { return }
        for i in 0..<(keyframes.count - 1) {
            guard let out = tangents[i].out, let inT = tangents[i].in,
                  out.x != 0 || out.y != 0 || inT.x != 0 || inT.y != 0,
                  let from = keyframes[i].value as? Vec2,
                  let to = (keyframes[i].endValue ?? keyframes[i + 1].value) as? Vec2 else { continue }
            let curve = SpatialCurve(from: from, control1: Vec2(x: from.x + out.x, y: from.y + out.y),
                                     control2: Vec2(x: to.x + inT.x, y: to.y + inT.y), to: to)
            if !curve.isStraight { keyframes[i].spatial = curve }
        }
    }
}
