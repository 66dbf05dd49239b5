/// Shape items (`shapes`, a group's `it`) by their `ty`.
extension LottieParser {
    mutating func shapes(_ node: JSONNode, depth: Int) throws -> [ShapeItem] {
        guard depth < limits.maxShapeDepth else { throw node.fail("shape groups nested deeper than \(limits.maxShapeDepth)") }
        var items: [ShapeItem] = []
        for item in try node.array() {
            items.append(try shape(item, depth: depth))
        }
        return items
    }

    mutating func shape(_ node: JSONNode, depth: Int) throws -> ShapeItem {
        guard node.isObject else { throw node.fail("expected a shape object, found \(node.kindName)") }
        let type = try node.required("ty").string()
        // `d` is the direction of a geometry item (3 = reversed) but the dashes of a stroke.
        var reversed = false
        if let d = node["d"], case .number = d.value { reversed = try d.int() == 3 }
        let kind: ShapeKind
        switch type {
        case "gr":
            kind = .group(try node["it"].map { try shapes($0, depth: depth + 1) } ?? [])
        case "sh":
            kind = .path(try shapePath(node.required("ks")), reversed: reversed)
        case "rc":
            kind = .rectangle(position: try vector(node.required("p")), size: try vector(node.required("s")),
                              roundness: try node["r"].map { try scalar($0) } ?? Animated(0), reversed: reversed)
        case "el":
            kind = .ellipse(position: try vector(node.required("p")), size: try vector(node.required("s")), reversed: reversed)
        case "sr":
            let star = (try node["sy"]?.int() ?? 1) == 1
            kind = .polystar(Polystar(star: star, position: try vector(node.required("p")), points: try scalar(node.required("pt")),
                                      rotation: try node["r"].map { try scalar($0) } ?? Animated(0),
                                      outerRadius: try scalar(node.required("or")),
                                      innerRadius: try node["ir"].map { try scalar($0) },
                                      outerRoundness: try node["os"].map { try scalar($0) } ?? Animated(0),
                                      innerRoundness: try node["is"].map { try scalar($0) }, reversed: reversed))
        case "fl":
            kind = .fill(color: try color(node.required("c")), opacity: try opacity(node),
                         evenOdd: try node["r"]?.int() == 2)
        case "st":
            kind = .stroke(Stroke(color: try color(node.required("c")), opacity: try opacity(node), width: try scalar(node.required("w")),
                                  lineCap: try node["lc"]?.int() ?? 2, lineJoin: try node["lj"]?.int() ?? 2,
                                  miterLimit: try node.optionalDouble("ml", default: 4), dashes: try dashes(node)))
        case "gf":
            kind = .gradientFill(GradientFill(opacity: try opacity(node), isRadial: try node["t"]?.int() == 2,
                                              start: try vector(node.required("s")), end: try vector(node.required("e")),
                                              highlightLength: try node["h"].map { try scalar($0) },
                                              highlightAngle: try node["a"].map { try scalar($0) },
                                              colors: try gradient(node.required("g")), evenOdd: try node["r"]?.int() == 2))
        case "gs":
            kind = .gradientStroke(GradientStroke(opacity: try opacity(node), isRadial: try node["t"]?.int() == 2,
                                                  start: try vector(node.required("s")), end: try vector(node.required("e")),
                                                  highlightLength: try node["h"].map { try scalar($0) },
                                                  highlightAngle: try node["a"].map { try scalar($0) },
                                                  colors: try gradient(node.required("g")), width: try scalar(node.required("w")),
                                                  lineCap: try node["lc"]?.int() ?? 2, lineJoin: try node["lj"]?.int() ?? 2,
                                                  miterLimit: try node.optionalDouble("ml", default: 4), dashes: try dashes(node)))
        case "tr":
            kind = .transform(ShapeTransform(transform: try transform(node)))
        case "tm":
            kind = .trim(start: try node["s"].map { try scalar($0) } ?? Animated(0), end: try node["e"].map { try scalar($0) } ?? Animated(100),
                         offset: try node["o"].map { try scalar($0) } ?? Animated(0), individually: try node["m"]?.int() == 2)
        case "rp":
            let tr = try node.required("tr")
            kind = .repeater(Repeater(copies: try scalar(node.required("c")), offset: try node["o"].map { try scalar($0) } ?? Animated(0),
                                      composite: try node["m"]?.int() ?? 1, transform: try transform(tr),
                                      startOpacity: try tr["so"].map { try scalar($0) } ?? Animated(100),
                                      endOpacity: try tr["eo"].map { try scalar($0) } ?? Animated(100)))
        case "rd":
            kind = .roundedCorners(radius: try scalar(node.required("r")))
        case "mm":
            warn(node, "merge paths are not applied (as in lottie-ios's main renderer)")
            kind = .merge(mode: try node["mm"]?.int() ?? 1)
        case "op":
            kind = .offsetPath(amount: try scalar(node.required("a")), join: try node["lj"]?.int() ?? 1,
                               miterLimit: try node["ml"].map { try scalar($0) } ?? Animated(4))
        case "pb":
            kind = .puckerBloat(amount: try scalar(node.required("a")))
        case "zz":
            kind = .zigZag(size: try scalar(node.required("s")), ridges: try scalar(node.required("r")),
                           smooth: try node["pt"].map { try scalar($0).value(at: 0) } == 2)
        case "tw":
            warn(node, "twist is not applied")
            kind = .twist(angle: try node["a"].map { try scalar($0) } ?? Animated(0),
                          center: try node["c"].map { try vector($0) } ?? Animated(Vec2(x: 0, y: 0)))
        default:
            warn(node, "shape type \"\(type)\" is not supported; skipped")
            kind = .unsupported(type: type)
        }
        return ShapeItem(name: try node.optionalString("nm") ?? "", matchName: try node.optionalString("mn") ?? "",
                         hidden: try node.optionalBool("hd"), kind: kind)
    }

    mutating func opacity(_ node: JSONNode) throws -> Animated<Double> {
        try node["o"].map { try scalar($0) } ?? Animated(100)
    }

    mutating func dashes(_ node: JSONNode) throws -> [Dash] {
        guard let list = node["d"], list.isArray else { return [] }
        return try list.array().map { d in
            Dash(kind: try d.optionalString("n") ?? "d", value: try scalar(d.required("v")))
        }
    }
}
