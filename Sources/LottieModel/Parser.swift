import Foundation

extension Animation {
    /// Loads a Lottie JSON file. Images named by the file are looked for beside it.
    public static func load(path: String, limits: ParseLimits = ParseLimits()) throws -> Animation {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? Int, size > limits.maxFileBytes {
            throw ParseError(file: path, jsonPath: "", reason: "file is \(size) bytes; the limit is \(limits.maxFileBytes)")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ParseError(file: path, jsonPath: "", reason: exists ? "cannot open the file (permission?)" : "no such file")
        }
        defer { try? handle.close() }
        // Read at most one byte past the limit, in case the size changed under us.
        let data = (try? handle.read(upToCount: limits.maxFileBytes + 1)) ?? Data()
        if data.count > limits.maxFileBytes {
            throw ParseError(file: path, jsonPath: "", reason: "file is larger than the limit of \(limits.maxFileBytes) bytes")
        }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return try parse(data, name: name, file: path, baseDirectory: (path as NSString).deletingLastPathComponent, limits: limits)
    }

    public static func parse(_ bytes: [UInt8], name: String, baseDirectory: String?, limits: ParseLimits = ParseLimits()) throws -> Animation {
        try parse(Data(bytes), name: name, file: name, baseDirectory: baseDirectory, limits: limits)
    }

    public static func parse(_ data: Data, name: String, file: String, baseDirectory: String?,
                             limits: ParseLimits = ParseLimits()) throws -> Animation {
        guard data.count <= limits.maxFileBytes else {
            throw ParseError(file: file, jsonPath: "", reason: "data is larger than the limit of \(limits.maxFileBytes) bytes")
        }
        guard !data.isEmpty else { throw ParseError(file: file, jsonPath: "", reason: "the file is empty") }
        let json: JSONValue
        do { json = try JSONReader.parse(data) } catch let error as JSONSyntaxError {
            throw ParseError(file: file, jsonPath: "", reason: error.description)
        }
        var parser = LottieParser(baseDirectory: baseDirectory, limits: limits)
        do {
            var animation = try parser.animation(JSONNode(json, path: .root))
            if animation.name.isEmpty { animation.name = name }
            return animation
        } catch let error as DecodeError {
            throw ParseError(file: file, jsonPath: error.path.description, reason: error.reason)
        }
    }
}

/// Walks the JSON tree into the model, counting what it makes against the limits and
/// collecting warnings for what it skips.
struct LottieParser {
    let baseDirectory: String?
    let limits: ParseLimits
    var warnings: [ParseWarning] = []
    var keyframeCount = 0

    init(baseDirectory: String?, limits: ParseLimits) {
        self.baseDirectory = baseDirectory
        self.limits = limits
    }

    mutating func warn(_ node: JSONNode, _ message: String) {
        if warnings.count < 1000 { warnings.append(ParseWarning(jsonPath: node.path.description, message: message)) }
    }

    mutating func animation(_ root: JSONNode) throws -> Animation {
        guard root.isObject else { throw root.fail("expected the animation object at the top level, found \(root.kindName)") }
        let frameRate = try root.required("fr").double()
        guard frameRate > 0, frameRate <= limits.maxFrameRate else {
            throw try root.required("fr").fail("frame rate \(frameRate) is out of range (0, \(limits.maxFrameRate)]")
        }
        let width = try dimension(root.required("w"))
        let height = try dimension(root.required("h"))
        let inPoint = try root.required("ip").double()
        let outPoint = try root.required("op").double()
        guard outPoint > inPoint else {
            throw try root.required("op").fail("out point \(outPoint) is not after in point \(inPoint)")
        }
        var assets: [String: Asset] = [:]
        var references: [String: [(String, String)]] = [:]  // precomp id → (referenced id, json path)
        if let list = root["assets"] {
            let nodes = try list.array()
            guard nodes.count <= limits.maxAssets else { throw list.fail("\(nodes.count) assets; the limit is \(limits.maxAssets)") }
            for node in nodes {
                guard let (asset, refs) = try self.asset(node) else { continue }
                switch asset {
                case .precomp(let id, _, _):
                    if assets[id] != nil { warn(node, "duplicate asset id \"\(id)\"; the later one is used") }
                    assets[id] = asset
                    references[id] = refs
                case .image(let image):
                    assets[image.id] = asset
                }
            }
        }
        var rootRefs: [(String, String)] = []
        let layers = try self.layers(try root.required("layers"), references: &rootRefs)
        try checkPrecompCycles(root: rootRefs, references: references)
        var markers: [Marker] = []
        if let list = root["markers"] {
            for node in try list.array() {
                markers.append(Marker(name: try node.optionalString("cm") ?? "", time: try node.optionalDouble("tm", default: 0),
                                      duration: try node.optionalDouble("dr", default: 0)))
            }
        }
        var fonts: [Font] = []
        if let list = root["fonts"]?["list"] {
            for node in try list.array() {
                fonts.append(Font(name: try node.optionalString("fName") ?? "", family: try node.optionalString("fFamily") ?? "",
                                  style: try node.optionalString("fStyle") ?? "", ascent: try node.optionalDouble("ascent", default: 75),
                                  path: try node.optionalString("fPath")))
            }
        }
        var glyphs: [Glyph] = []
        if let list = root["chars"] {
            for node in try list.array() {
                var shapes: [ShapeItem] = []
                if let data = node["data"], let items = data["shapes"] { shapes = try self.shapes(items, depth: 0) }
                glyphs.append(Glyph(character: try node.optionalString("ch") ?? "", family: try node.optionalString("fFamily") ?? "",
                                    style: try node.optionalString("style") ?? "", size: try node.optionalDouble("size", default: 100),
                                    advance: try node.optionalDouble("w", default: 0), shapes: shapes))
            }
        }
        if root["ddd"].map({ (try? $0.bool()) ?? false }) == true { warn(root, "3D layers are drawn flat") }
        return Animation(name: try root.optionalString("nm") ?? "", version: try root.optionalString("v") ?? "",
                         frameRate: frameRate, inPoint: inPoint, outPoint: outPoint, width: width, height: height,
                         layers: layers, assets: assets, markers: markers, fonts: fonts, glyphs: glyphs, warnings: warnings)
    }

    func dimension(_ node: JSONNode) throws -> Double {
        let v = try node.double()
        guard v >= 1, v <= limits.maxDimension else { throw node.fail("size \(v) is out of range 1...\(Int(limits.maxDimension))") }
        return v
    }

    /// A precomp that contains itself, directly or through others, would draw forever.
    func checkPrecompCycles(root: [(String, String)], references: [String: [(String, String)]]) throws {
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        func visit(_ id: String, via path: String) throws {
            if state[id] == 2 { return }
            if state[id] == 1 { throw DecodeError(path: .key(.root, path), reason: "precomp \"\(id)\" contains itself (a reference cycle)") }
            state[id] = 1
            for (child, childPath) in references[id] ?? [] { try visit(child, via: childPath) }
            state[id] = 2
        }
        for (id, path) in root { try visit(id, via: path) }
        for id in references.keys.sorted() { try visit(id, via: "assets") }
    }

    mutating func asset(_ node: JSONNode) throws -> (Asset, [(String, String)])? {
        let id = try node.required("id").string()
        if let layerList = node["layers"] {
            var refs: [(String, String)] = []
            let layers = try self.layers(layerList, references: &refs)
            let frameRate = try node["fr"]?.double()
            return (.precomp(id: id, layers: layers, frameRate: frameRate), refs)
        }
        guard let p = try node.optionalString("p") else {
            warn(node, "asset \"\(id)\" has neither layers nor an image; skipped")
            return nil
        }
        let u = try node.optionalString("u") ?? ""
        let source: ImageAsset.Source
        if p.hasPrefix("data:") {
            if let comma = p.firstIndex(of: ","), let data = Data(base64Encoded: String(p[p.index(after: comma)...]), options: .ignoreUnknownCharacters) {
                source = .embedded([UInt8](data))
            } else {
                warn(node, "image \"\(id)\" has invalid base64 data")
                source = .missing
            }
        } else if let base = baseDirectory {
            let relative = (u as NSString).appendingPathComponent(p)
            source = .file(path: relative.hasPrefix("/") ? relative : (base as NSString).appendingPathComponent(relative))
        } else {
            source = .missing
        }
        let image = ImageAsset(id: id, width: try node.optionalDouble("w", default: 0), height: try node.optionalDouble("h", default: 0),
                               source: source)
        return (.image(image), [])
    }

    // MARK: Layers

    mutating func layers(_ node: JSONNode, references: inout [(String, String)]) throws -> [Layer] {
        let nodes = try node.array()
        guard nodes.count <= limits.maxLayersPerComposition else {
            throw node.fail("\(nodes.count) layers; the limit is \(limits.maxLayersPerComposition)")
        }
        var result: [Layer] = []
        result.reserveCapacity(nodes.count)
        for item in nodes {
            let layer = try self.layer(item)
            if case .precomp(let refId, _, _) = layer.kind {
                references.append((refId, item.path.description + ".refId"))
            }
            result.append(layer)
        }
        try checkParents(result, nodes: nodes)
        return result
    }

    /// A layer that is its own ancestor has no defined position.
    func checkParents(_ layers: [Layer], nodes: [JSONNode]) throws {
        var parentByIndex: [Int: Int] = [:]
        for layer in layers { if let index = layer.index, parentByIndex[index] == nil { parentByIndex[index] = layer.parent ?? Int.min } }
        for (position, layer) in layers.enumerated() {
            guard let start = layer.index, let parent = layer.parent else { continue }
            let path = JSONPath.key(nodes[position].path, "parent")
            if parent == start { throw DecodeError(path: path, reason: "layer \(start) is its own parent") }
            var seen: Set<Int> = [start]
            var current = parent
            while let next = parentByIndex[current], next != Int.min {
                if seen.contains(current) { throw DecodeError(path: path, reason: "parent chain of layer \(start) loops through layer \(current)") }
                seen.insert(current)
                current = next
            }
        }
    }

    mutating func layer(_ node: JSONNode) throws -> Layer {
        guard node.isObject else { throw node.fail("expected a layer object, found \(node.kindName)") }
        let type = try node.required("ty").int()
        let kind: LayerKind
        switch type {
        case 0:
            kind = .precomp(refId: try node.required("refId").string(), width: try node.optionalDouble("w", default: 0),
                            height: try node.optionalDouble("h", default: 0))
        case 1:
            kind = .solid(color: try hexColor(node.required("sc")), width: try node.optionalDouble("sw", default: 0),
                          height: try node.optionalDouble("sh", default: 0))
        case 2:
            kind = .image(refId: try node.required("refId").string())
        case 3:
            kind = .null
        case 4:
            kind = .shape(try node["shapes"].map { try shapes($0, depth: 0) } ?? [])
        case 5:
            kind = .text(try text(node.required("t")))
        default:
            warn(node, "layer type \(type) is not supported; the layer is skipped")
            kind = .unsupported(type: type)
        }
        let inPoint = try node.required("ip").double()
        let outPoint = try node.required("op").double()
        var stretch = try node.optionalDouble("sr", default: 1)
        if stretch == 0 {
            warn(node, "time stretch 0 treated as 1")
            stretch = 1
        }
        var masks: [Mask] = []
        if let list = node["masksProperties"] {
            for m in try list.array() { masks.append(try mask(m)) }
        }
        var effects: [Effect] = []
        if let list = node["ef"] {
            for e in try list.array() { effects.append(try effect(e)) }
        }
        let blend = try node["bm"]?.int() ?? 0
        let matte = try node["tt"]?.int() ?? 0
        if node["ddd"].map({ (try? $0.bool()) ?? false }) == true { warn(node, "3D layer drawn flat") }
        return Layer(name: try node.optionalString("nm") ?? "", index: try node["ind"]?.int(), parent: try node["parent"]?.int(),
                     kind: kind, inPoint: inPoint, outPoint: outPoint, startTime: try node.optionalDouble("st", default: 0),
                     timeStretch: stretch, transform: try node["ks"].map { try transform($0) } ?? Transform(),
                     autoOrient: try node.optionalBool("ao"), hidden: try node.optionalBool("hd"),
                     blendMode: BlendMode(rawValue: blend) ?? .normal, masks: masks,
                     matteMode: MatteMode(rawValue: matte) ?? .none, matteParent: try node["tp"]?.int(),
                     isMatteSource: try node.optionalBool("td"), timeRemap: try node["tm"].map { try scalar($0) }, effects: effects)
    }

    func hexColor(_ node: JSONNode) throws -> RGBA {
        let text = try node.string()
        var hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6 || hex.count == 8, let v = UInt32(hex, radix: 16) else { throw node.fail("invalid colour \"\(text)\"") }
        let rgb = hex.count == 8 ? v >> 8 : v
        return RGBA(r: Double((rgb >> 16) & 0xff) / 255, g: Double((rgb >> 8) & 0xff) / 255, b: Double(rgb & 0xff) / 255)
    }

    mutating func mask(_ node: JSONNode) throws -> Mask {
        let modeText = try node.optionalString("mode") ?? "a"
        let mode = MaskMode(rawValue: modeText) ?? {
            warn(node, "mask mode \"\(modeText)\" is not known; treated as add")
            return .add
        }()
        return Mask(name: try node.optionalString("nm") ?? "", mode: mode, inverted: try node.optionalBool("inv"),
                    path: try shapePath(node.required("pt")), opacity: try node["o"].map { try scalar($0) } ?? Animated(100),
                    expansion: try node["x"].map { try scalar($0) } ?? Animated(0))
    }

    mutating func effect(_ node: JSONNode) throws -> Effect {
        var values: [EffectValue] = []
        if let list = node["ef"] {
            for v in try list.array() {
                let type = try v["ty"]?.int() ?? -1
                var value = EffectValue(name: try v.optionalString("nm") ?? "", type: type)
                if let property = v["v"] {
                    switch type {
                    case 2: value.color = try color(property)
                    case 3: value.point = try vector(property)
                    case 0, 1, 4, 7, 10: value.scalar = try scalar(property)
                    default: break
                    }
                }
                values.append(value)
            }
        }
        let type = try node["ty"]?.int() ?? -1
        if ![20, 21, 25].contains(type) { warn(node, "effect type \(type) is not drawn") }
        return Effect(type: type, name: try node.optionalString("nm") ?? "", matchName: try node.optionalString("mn") ?? "",
                      enabled: try node["en"]?.bool() ?? true, values: values)
    }

    mutating func transform(_ node: JSONNode) throws -> Transform {
        var t = Transform()
        if let a = node["a"] { t.anchor = try vector(a) }
        if let p = node["p"] {
            if p["s"].map({ (try? $0.bool()) ?? false }) == true {
                t.position = .split(x: try scalar(p.required("x")), y: try scalar(p.required("y")))
            } else {
                t.position = .combined(try vector(p))
            }
        }
        if let s = node["s"] { t.scale = try vector(s) }
        if let r = node["r"] ?? node["rz"] { t.rotation = try scalar(r) }
        if let o = node["o"] { t.opacity = try scalar(o) }
        if let sk = node["sk"] { t.skew = try scalar(sk) }
        if let sa = node["sa"] { t.skewAxis = try scalar(sa) }
        return t
    }

    // MARK: Text

    mutating func text(_ node: JSONNode) throws -> TextData {
        let d = try node.required("d")
        let list = try d.required("k").array()
        var keyframes: [Keyframe<TextDocument>] = []
        for k in list {
            let doc = try textDocument(k.required("s"))
            keyframes.append(Keyframe(time: try k.optionalDouble("t", default: 0), value: doc, hold: true))
        }
        guard !keyframes.isEmpty else { throw d.fail("text has no documents") }
        keyframeCount += keyframes.count
        if node["a"].map({ $0.count > 0 }) == true { warn(node, "text animators are not applied") }
        return TextData(documents: Animated(keyframes: keyframes.sorted { $0.time < $1.time }))
    }

    func textDocument(_ node: JSONNode) throws -> TextDocument {
        func rgba(_ key: String) throws -> RGBA? {
            guard let n = node[key] else { return nil }
            let v = try n.doubles()
            guard v.count >= 3 else { return nil }
            let scale = v.prefix(3).contains { $0 > 1 } ? 1.0 / 255 : 1
            return RGBA(r: v[0] * scale, g: v[1] * scale, b: v[2] * scale, a: v.count > 3 ? min(1, v[3]) : 1)
        }
        func point(_ key: String) throws -> Vec2? {
            guard let n = node[key] else { return nil }
            let v = try n.doubles()
            return v.count >= 2 ? Vec2(x: v[0], y: v[1]) : nil
        }
        let size = try node.optionalDouble("s", default: 10)
        return TextDocument(text: try node.optionalString("t") ?? "", fontName: try node.optionalString("f") ?? "", size: size,
                            justification: try node["j"]?.int() ?? 0, fillColor: try rgba("fc"), strokeColor: try rgba("sc"),
                            strokeWidth: try node.optionalDouble("sw", default: 0), lineHeight: try node.optionalDouble("lh", default: size * 1.2),
                            tracking: try node.optionalDouble("tr", default: 0), baselineShift: try node.optionalDouble("ls", default: 0),
                            boxPosition: try point("ps"), boxSize: try point("sz"))
    }
}
