/// Shape items (`shapes`, a group's `it`) by their `ty`.
extension LottieParser {
    /// The items of a shape list; a malformed item is skipped with a warning.
    mutating func shapes(_ node: JSONNode, depth: Int) -> [ShapeItem] {
        guard depth < limits.maxShapeDepth else {
            warn(node, "shape groups nested deeper than \(limits.maxShapeDepth); the deeper ones are skipped")
            return []
        }
        guard let nodes = recover(node, "no shape is read", { _ in try node.array() }) else { return [] }
        return nodes.compactMap { item in recover(item, "the shape is skipped") { try $0.shape(item, depth: depth) } }
    }

    mutating func shape(_ node: JSONNode, depth: Int) throws -> ShapeItem {
        guard node.isObject else { throw node.fail("expected a shape object, found \(node.kindName)") }
        let type = try node.required("ty").string()
        // `d` is the direction of a geometry item (3 = reversed) but the dashes of a stroke.
        var reversed = false
        if let d = node["d"], d.isNumber { reversed = (try? d.int()) == 3 }
        let kind: ShapeKind
        switch type {
        case "gr":
            kind = .group(node["it"].map { shapes($0, depth: depth + 1) } ?? [])
        case "sh":
            kind = .path(try shapePath(node.required("ks")), reversed: reversed)
        case "rc":
            kind = .rectangle(position: try vector(node.required("p")), size: try vector(node.required("s")),
                              roundness: optional(node, "r", Animated(0)) { try $0.scalar($1) }, reversed: reversed)
        case "el":
            kind = .ellipse(position: try vector(node.required("p")), size: try vector(node.required("s")), reversed: reversed)
        case "sr":
            let star = (optional(node, "sy", 1) { try $1.int() }) == 1
            kind = .polystar(Polystar(star: star, position: try vector(node.required("p")), points: try scalar(node.required("pt")),
                                      rotation: optional(node, "r", Animated(0)) { try $0.scalar($1) },
                                      outerRadius: try scalar(node.required("or")),
                                      innerRadius: optional(node, "ir", nil) { try $0.scalar($1) },
                                      outerRoundness: optional(node, "os", Animated(0)) { try $0.scalar($1) },
                                      innerRoundness: optional(node, "is", nil) { try $0.scalar($1) }, reversed: reversed))
        case "fl", "st", "gf", "gs":
            kind = try paint(type, node)
        case "tr":
            kind = .transform(ShapeTransform(transform: transform(node)))
        case "tm":
            kind = .trim(start: optional(node, "s", Animated(0)) { try $0.scalar($1) }, end: optional(node, "e", Animated(100)) { try $0.scalar($1) },
                         offset: optional(node, "o", Animated(0)) { try $0.scalar($1) }, individually: optional(node, "m", 0) { try $1.int() } == 2)
        case "rp":
            let tr = try node.required("tr")
            kind = .repeater(Repeater(copies: try scalar(node.required("c")), offset: optional(node, "o", Animated(0)) { try $0.scalar($1) },
                                      composite: optional(node, "m", 1) { try $1.int() }, transform: transform(tr),
                                      startOpacity: optional(tr, "so", Animated(100)) { try $0.scalar($1) },
                                      endOpacity: optional(tr, "eo", Animated(100)) { try $0.scalar($1) }))
        case "rd":
            kind = .roundedCorners(radius: try scalar(node.required("r")))
        case "mm":
            let mode = optional(node, "mm", 1) { try $1.int() }
            if !(1...5).contains(mode) { warn(node, "merge mode \(mode) is not known; the paths are merged as they are") }
            kind = .merge(mode: mode)
        case "op":
            kind = .offsetPath(amount: try scalar(node.required("a")), join: optional(node, "lj", 1) { try $1.int() },
                               miterLimit: optional(node, "ml", Animated(4)) { try $0.scalar($1) })
        case "pb":
            kind = .puckerBloat(amount: try scalar(node.required("a")))
        case "zz":
            kind = .zigZag(size: try scalar(node.required("s")), ridges: try scalar(node.required("r")),
                           smooth: optional(node, "pt", nil) { try $0.scalar($1) }?.value(at: 0) == 2)
        case "tw":
            warn(node, "twist is not applied")
            kind = .twist(angle: optional(node, "a", Animated(0)) { try $0.scalar($1) },
                          center: optional(node, "c", Animated(Vec2(x: 0, y: 0))) { try $0.vector($1) })
        default:
            warn(node, "shape type \"\(type)\" is not supported; skipped")
            kind = .unsupported(type: type)
        }
        return ShapeItem(name: optional(node, "nm", "") { try $1.string() }, matchName: optional(node, "mn", "") { try $1.string() },
                         hidden: optional(node, "hd", false) { try $1.bool() }, kind: kind,
                         jsonPath: Self.mayWarnWhenDrawn(kind) ? node.path.description : "")
    }

    /// Whether drawing the item may warn (a dashed stroke whose pattern proves too fine along
    /// its path), so that it keeps its JSON path.
    static func mayWarnWhenDrawn(_ kind: ShapeKind) -> Bool {
        switch kind {
        case .stroke(let s): return !s.dashes.isEmpty
        case .gradientStroke(let g): return !g.dashes.isEmpty
        default: return false
        }
    }

    /// A paint item: solid or gradient, fill or stroke.
    mutating func paint(_ type: String, _ node: JSONNode) throws -> ShapeKind {
        switch type {
        case "fl":
            return .fill(color: try color(node.required("c")), opacity: try opacity(node),
                         evenOdd: optional(node, "r", 0) { try $1.int() } == 2)
        case "st":
            return .stroke(Stroke(color: try color(node.required("c")), opacity: try opacity(node), width: try scalar(node.required("w")),
                                  lineCap: optional(node, "lc", 2) { try $1.int() }, lineJoin: optional(node, "lj", 2) { try $1.int() },
                                  miterLimit: optional(node, "ml", 4) { try $1.double() }, dashes: try dashes(node)))
        case "gf":
            return .gradientFill(GradientFill(opacity: try opacity(node), isRadial: optional(node, "t", 0) { try $1.int() } == 2,
                                              start: try vector(node.required("s")), end: try vector(node.required("e")),
                                              highlightLength: optional(node, "h", nil) { try $0.scalar($1) },
                                              highlightAngle: optional(node, "a", nil) { try $0.scalar($1) },
                                              colors: try gradient(node.required("g")), evenOdd: optional(node, "r", 0) { try $1.int() } == 2))
        case "gs":
            return .gradientStroke(GradientStroke(opacity: try opacity(node), isRadial: optional(node, "t", 0) { try $1.int() } == 2,
                                                  start: try vector(node.required("s")), end: try vector(node.required("e")),
                                                  highlightLength: optional(node, "h", nil) { try $0.scalar($1) },
                                                  highlightAngle: optional(node, "a", nil) { try $0.scalar($1) },
                                                  colors: try gradient(node.required("g")), width: try scalar(node.required("w")),
                                                  lineCap: optional(node, "lc", 2) { try $1.int() }, lineJoin: optional(node, "lj", 2) { try $1.int() },
                                                  miterLimit: optional(node, "ml", 4) { try $1.double() }, dashes: try dashes(node)))
        default:
            throw node.fail("shape type \"\(type)\" is not a paint")
        }
    }

    mutating func opacity(_ node: JSONNode) throws -> Animated<Double> {
        optional(node, "o", Animated(100)) { try $0.scalar($1) }
    }

    mutating func dashes(_ node: JSONNode) throws -> [Dash] {
        guard let list = node["d"], list.isArray else { return [] }
        return self.list(node, "d", "the dash is skipped") { p, d in
            Dash(kind: try d.optionalString("n") ?? "d", value: try p.scalar(d.required("v")))
        }
    }
}
