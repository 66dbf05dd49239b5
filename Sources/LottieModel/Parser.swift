import FoundationEssentials
import Glibc
import Posix

extension Animation {
    /// Loads a Lottie JSON file. Images named by the file are looked for beside it.
    public static func load(path: String, limits: ParseLimits = ParseLimits()) throws -> Animation {
        let size = fileSize(atPath: path)
        if let size, size > limits.maxFileBytes {
            throw ParseError(file: path, jsonPath: "", reason: "file is \(size) bytes; the limit is \(limits.maxFileBytes)")
        }
        let data = try readFile(path, limit: limits.maxFileBytes, expectedSize: size)
        if data.count > limits.maxFileBytes {
            throw ParseError(file: path, jsonPath: "", reason: "file is larger than the limit of \(limits.maxFileBytes) bytes")
        }
        let name = PathName.stem(path)
        // A dotLottie container is told by its zip magic, whatever the file is called.
        if ZipArchive.isZip([UInt8](data.prefix(4))) {
            return try DotLottie.parse([UInt8](data), name: name, file: path, limits: limits)
        }
        return try parse(data, name: name, file: path, baseDirectory: PathName.parent(path), limits: limits)
    }

    public static func parse(_ bytes: [UInt8], name: String, baseDirectory: String?, limits: ParseLimits = ParseLimits()) throws -> Animation {
        try parse(Data(bytes), name: name, file: name, baseDirectory: baseDirectory, limits: limits)
    }

    public static func parse(_ data: Data, name: String, file: String, baseDirectory: String?,
                             limits: ParseLimits = ParseLimits()) throws -> Animation {
        try parse(data, name: name, file: file, baseDirectory: baseDirectory, limits: limits, containerFile: nil)
    }

    /// `containerFile` gives an image asset's bytes from a container (dotLottie) by its `u` and `p`.
    static func parse(_ data: Data, name: String, file: String, baseDirectory: String?, limits: ParseLimits,
                      containerFile: ((String, String) throws -> [UInt8]?)?) throws -> Animation {
        guard data.count <= limits.maxFileBytes else {
            throw ParseError(file: file, jsonPath: "", reason: "data is larger than the limit of \(limits.maxFileBytes) bytes")
        }
        guard !data.isEmpty else { throw ParseError(file: file, jsonPath: "", reason: "the file is empty") }
        let document: JSONDocument
        do { document = try data.withUnsafeBytes { try JSONDocument(bytes: $0) } } catch let error as JSONSyntaxError {
            throw ParseError(file: file, jsonPath: "", reason: error.description)
        }
        var parser = LottieParser(baseDirectory: baseDirectory, limits: limits)
        parser.containerFile = containerFile
        do {
            var animation = try parser.animation(JSONNode(document, index: 0))
            if animation.name.isEmpty { animation.name = name }
            animation.warnings = document.log.report
            return animation
        } catch let error as DecodeError {
            throw ParseError(file: file, jsonPath: error.path.description, reason: error.reason)
        }
    }
}

/// Walks the JSON tree into the model, counting what it makes against the limits. It is
/// forgiving: only a file with nothing to draw is refused (no size, no readable layer). A
/// malformed part is skipped, or defaulted, with a warning naming its JSON path
/// (`recover`/`optional`); only the top level throws.
struct LottieParser {
    let baseDirectory: String?
    let limits: ParseLimits
    var keyframeCount = 0
    /// Properties with more than one keyframe: where none is, only layers' in and out points
    /// make one frame differ from another.
    var animatedProperties = 0
    /// Image files inside a container (dotLottie), by the asset's `u` and `p`.
    var containerFile: ((String, String) throws -> [UInt8]?)? = nil
    /// The top composition's in and out points: a layer that lacks its own takes these.
    var compositionRange = (inPoint: 0.0, outPoint: 60.0)

    init(baseDirectory: String?, limits: ParseLimits) {
        self.baseDirectory = baseDirectory
        self.limits = limits
    }

    func warn(_ node: JSONNode, _ message: String) { node.warn(message) }

    /// Runs `body`; when the part it reads is malformed, warns with the reason and `instead`
    /// (what happens in its place) and returns nil.
    mutating func recover<T>(_ node: JSONNode, _ instead: String, _ body: (inout LottieParser) throws -> T) -> T? {
        do { return try body(&self) } catch let error as DecodeError {
            node.log.add(error.path, "\(error.reason); \(instead)")
        } catch {
            node.warn("\(error); \(instead)")
        }
        return nil
    }

    /// The member `key` read by `read`, or `fallback` when it is absent or malformed (with a warning).
    mutating func optional<T>(_ node: JSONNode, _ key: String, _ fallback: T, _ read: (inout LottieParser, JSONNode) throws -> T) -> T {
        guard let member = node[key] else { return fallback }
        return recover(member, "the default is used") { try read(&$0, member) } ?? fallback
    }

    mutating func animation(_ root: JSONNode) throws -> Animation {
        guard root.isObject else { throw root.fail("expected the animation object at the top level, found \(root.kindName)") }
        let frameRate = self.frameRate(root)
        let width = try dimension(root.required("w"))
        let height = try dimension(root.required("h"))
        let layerList = try root.required("layers")
        guard layerList.isArray else { throw layerList.fail("expected an array of layers, found \(layerList.kindName)") }
        compositionRange = timeRange(root, layers: layerList)
        let (assets, references) = self.assets(root)
        var rootRefs: [(String, JSONPath)] = []
        let layers = self.layers(layerList, references: &rootRefs)
        if layers.isEmpty && layerList.count > 0 { throw layerList.fail("no layer could be read; nothing to draw") }
        let drawable = breakPrecompCycles(root: rootRefs, references: references, assets: assets, log: root.log)
        let (fonts, glyphs) = self.fontsAndGlyphs(root)
        if root["ddd"].map({ (try? $0.bool()) ?? false }) == true { warn(root, "3D layers are drawn flat") }
        var animation = Animation(name: optional(root, "nm", "") { try $1.string() }, version: optional(root, "v", "") { try $1.string() },
                                  frameRate: frameRate, inPoint: compositionRange.inPoint, outPoint: compositionRange.outPoint,
                                  width: width, height: height, layers: layers, assets: drawable, markers: markers(root),
                                  fonts: fonts, glyphs: glyphs, warnings: [])
        animation.animatedProperties = animatedProperties
        return animation
    }

    /// `fr`, or 30 when it is missing or unusable.
    mutating func frameRate(_ root: JSONNode) -> Double {
        let rate = optional(root, "fr", Double.nan) { try $1.double() }
        if rate > 0, rate <= limits.maxFrameRate { return rate }
        if let node = root["fr"] { warn(node, "frame rate \(rate) is out of range (0, \(limits.maxFrameRate)]; 30 is used") } else {
            warn(root, "no frame rate (fr); 30 is used")
        }
        return 30
    }

    /// `ip` and `op`; a missing `op` is the latest layer's, an `op` not after `ip` one frame after it.
    mutating func timeRange(_ root: JSONNode, layers: JSONNode) -> (inPoint: Double, outPoint: Double) {
        let inPoint = optional(root, "ip", 0) { try $1.double() }
        if root["ip"] == nil { warn(root, "no in point (ip); 0 is used") }
        var outPoint = optional(root, "op", Double.nan) { try $1.double() }
        if outPoint.isNaN {
            let layerEnds = ((try? layers.array()) ?? []).compactMap { try? $0["op"]?.double() }
            outPoint = layerEnds.max() ?? inPoint + 60
            warn(root, "no out point (op); \(outPoint) is used")
        }
        if !(outPoint > inPoint) {
            warn(root["op"] ?? root, "out point \(outPoint) is not after in point \(inPoint); \(inPoint + 1) is used")
            outPoint = inPoint + 1
        }
        return (inPoint, outPoint)
    }

    mutating func assets(_ root: JSONNode) -> ([String: Asset], [String: [(String, JSONPath)]]) {
        var assets: [String: Asset] = [:]
        var references: [String: [(String, JSONPath)]] = [:]  // precomp id → (referenced id, where)
        guard let list = root["assets"] else { return (assets, references) }
        guard var nodes = recover(list, "no asset is read", { _ in try list.array() }) else { return (assets, references) }
        if nodes.count > limits.maxAssets {
            warn(list, "\(nodes.count) assets; the limit is \(limits.maxAssets), the rest are skipped")
            nodes = Array(nodes.prefix(limits.maxAssets))
        }
        for node in nodes {
            guard let (asset, refs) = recover(node, "the asset is skipped", { try $0.asset(node) }) ?? nil else { continue }
            switch asset {
            case .precomp(let id, _, _):
                if assets[id] != nil { warn(node, "duplicate asset id \"\(id)\"; the later one is used") }
                assets[id] = asset
                references[id] = refs
            case .image(let image):
                assets[image.id] = asset
            }
        }
        return (assets, references)
    }

    mutating func markers(_ root: JSONNode) -> [Marker] {
        guard let list = root["markers"], let nodes = recover(list, "markers are skipped", { _ in try list.array() }) else { return [] }
        return nodes.compactMap { node in
            recover(node, "the marker is skipped") { p in
                Marker(name: try node.optionalString("cm") ?? "", time: try node.optionalDouble("tm", default: 0),
                       duration: try node.optionalDouble("dr", default: 0))
            }
        }
    }

    mutating func fontsAndGlyphs(_ root: JSONNode) -> ([Font], [Glyph]) {
        var fonts: [Font] = []
        if let list = root["fonts"]?["list"], let nodes = recover(list, "fonts are skipped", { _ in try list.array() }) {
            fonts = nodes.compactMap { node in
                recover(node, "the font is skipped") { _ in
                    Font(name: try node.optionalString("fName") ?? "", family: try node.optionalString("fFamily") ?? "",
                         style: try node.optionalString("fStyle") ?? "", ascent: try node.optionalDouble("ascent", default: 75),
                         path: try node.optionalString("fPath"))
                }
            }
        }
        var glyphs: [Glyph] = []
        if let list = root["chars"], let nodes = recover(list, "glyphs are skipped", { _ in try list.array() }) {
            glyphs = nodes.compactMap { node in
                recover(node, "the glyph is skipped") { p in
                    var shapes: [ShapeItem] = []
                    if let data = node["data"], let items = data["shapes"] { shapes = p.shapes(items, depth: 0) }
                    return Glyph(character: try node.optionalString("ch") ?? "", family: try node.optionalString("fFamily") ?? "",
                                 style: try node.optionalString("style") ?? "", size: try node.optionalDouble("size", default: 100),
                                 advance: try node.optionalDouble("w", default: 0), shapes: shapes)
                }
            }
        }
        return (fonts, glyphs)
    }

    func dimension(_ node: JSONNode) throws -> Double {
        let v = try node.double()
        guard v >= 1, v <= limits.maxDimension else { throw node.fail("size \(v) is out of range 1...\(Int(limits.maxDimension))") }
        return v
    }

    /// A precomp that contains itself, directly or through others, would draw forever: the
    /// asset where the cycle closes is dropped (its layers draw nothing), with a warning.
    func breakPrecompCycles(root: [(String, JSONPath)], references: [String: [(String, JSONPath)]],
                            assets: [String: Asset], log: ParseLog) -> [String: Asset] {
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var dropped: Set<String> = []
        // Depth-first with an explicit stack: a chain of thousands of precomps must not overflow the call stack.
        func visit(_ start: String) {
            guard state[start] == nil else { return }
            var stack: [(id: String, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = stack.last {
                let children = references[top.id] ?? []
                if top.next == children.count {
                    state[top.id] = 2
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let (child, path) = children[top.next]
                if state[child] == 1 {
                    log.add(path, "precomp \"\(child)\" contains itself (a reference cycle); it is not drawn")
                    dropped.insert(child)
                } else if state[child] == nil {
                    state[child] = 1
                    stack.append((child, 0))
                }
            }
        }
        for (id, _) in root { visit(id) }
        for id in references.keys.sorted() { visit(id) }
        return dropped.isEmpty ? assets : assets.filter { !dropped.contains($0.key) }
    }

    mutating func asset(_ node: JSONNode) throws -> (Asset, [(String, JSONPath)])? {
        let id = try node.required("id").string()
        if let layerList = node["layers"] {
            guard layerList.isArray else { throw layerList.fail("expected an array of layers, found \(layerList.kindName)") }
            var refs: [(String, JSONPath)] = []
            let layers = self.layers(layerList, references: &refs)
            let frameRate = optional(node, "fr", nil) { try $1.double() } as Double?
            return (.precomp(id: id, layers: layers, frameRate: frameRate.flatMap { $0 > 0 ? $0 : nil }), refs)
        }
        guard let p = try node.optionalString("p") else {
            warn(node, "asset \"\(id)\" has neither layers nor an image; skipped")
            return nil
        }
        let u = optional(node, "u", "") { try $1.string() }
        let image = ImageAsset(id: id, width: optional(node, "w", 0) { try $1.double() }, height: optional(node, "h", 0) { try $1.double() },
                               source: imageSource(node, id: id, directory: u, name: p))
        return (.image(image), [])
    }

    /// Where an image asset's pixels come from: embedded data, or a file beneath the
    /// animation's folder. A path that would leave the folder is refused with a warning.
    func imageSource(_ node: JSONNode, id: String, directory: String, name: String) -> ImageAsset.Source {
        if name.hasPrefix("data:") {
            if let comma = name.firstIndex(of: ","),
               let data = Data(base64Encoded: String(name[name.index(after: comma)...]), options: .ignoreUnknownCharacters) {
                return .embedded([UInt8](data))
            }
            warn(node, "image \"\(id)\" has invalid base64 data")
            return .missing
        }
        if let containerFile {
            do {
                if let bytes = try containerFile(directory, name) { return .embedded(bytes) }
                warn(node, "image \"\(id)\" (\(directory)\(name)) is not in the container; not drawn")
            } catch {
                warn(node, "image \"\(id)\": \(error); not drawn")
            }
            return .missing
        }
        guard let base = baseDirectory else { return .missing }
        let relative = directory.isEmpty ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name)
        let components = relative.split(separator: "/", omittingEmptySubsequences: true)
        if relative.hasPrefix("/") || components.contains("..") || components.isEmpty || relative.utf8.contains(0) {
            warn(node, "image \"\(id)\" path \"\(relative)\" leaves the animation's folder; not drawn")
            return .missing
        }
        return .file(directory: base.isEmpty ? "." : base, relativePath: components.joined(separator: "/"))
    }

    // MARK: Layers

    mutating func layers(_ node: JSONNode, references: inout [(String, JSONPath)]) -> [Layer] {
        guard var nodes = recover(node, "no layer is read", { _ in try node.array() }) else { return [] }
        if nodes.count > limits.maxLayersPerComposition {
            warn(node, "\(nodes.count) layers; the limit is \(limits.maxLayersPerComposition), the rest are skipped")
            nodes = Array(nodes.prefix(limits.maxLayersPerComposition))
        }
        var result: [Layer] = []
        var kept: [JSONNode] = []
        result.reserveCapacity(nodes.count)
        for item in nodes {
            guard let layer = recover(item, "the layer is skipped", { try $0.layer(item) }) else { continue }
            if case .precomp(let refId, _, _) = layer.kind {
                references.append((refId, item.memberPath("refId")))
            }
            result.append(layer)
            kept.append(item)
        }
        breakParentLoops(&result, nodes: kept)
        markMatteSourcesByPosition(&result)
        return result
    }

    /// A layer with a track matte (`tt`) and no `tp` is matted by the layer just before it;
    /// that layer is a matte source, not content, even when it lacks `td` (lottie-ios goes by
    /// position the same way).
    func markMatteSourcesByPosition(_ layers: inout [Layer]) {
        for position in layers.indices.dropFirst()
        where layers[position].matteMode != .none && layers[position].matteParent == nil {
            layers[position - 1].isMatteSource = true
        }
    }

    /// A layer that is its own ancestor has no defined position: its parent link is dropped.
    func breakParentLoops(_ layers: inout [Layer], nodes: [JSONNode]) {
        // Each layer number's parent (Int.min: none), that of the first layer with the number.
        var parents = LayerIndexTable(layers.compactMap { layer in layer.index.map { ($0, layer.parent ?? Int.min) } })
        // Which walk (the position it started from) last passed each number: the numbers
        // that walk has seen, without a set per walk.
        var seenBy = [Int](repeating: -1, count: parents.count)
        for position in layers.indices {
            guard let start = layers[position].index, let parent = layers[position].parent,
                  let startSlot = parents.slot(of: start) else { continue }
            seenBy[startSlot] = position
            var current = parent
            var loops = parent == start
            while !loops, let slot = parents.slot(of: current), parents[slot: slot] != Int.min {
                if seenBy[slot] == position { loops = true; break }
                seenBy[slot] = position
                current = parents[slot: slot]
            }
            guard loops else { continue }
            nodes[position].log.add(nodes[position].memberPath("parent"),
                                    parent == start ? "layer \(start) is its own parent; the link is dropped"
                                                    : "parent chain of layer \(start) loops through layer \(current); the link is dropped")
            layers[position].parent = nil
            parents[slot: startSlot] = Int.min
        }
    }

    mutating func layerKind(_ node: JSONNode) throws -> LayerKind {
        let type = try node.required("ty").int()
        switch type {
        case 0:
            return .precomp(refId: try node.required("refId").string(), width: optional(node, "w", 0) { try $1.double() },
                            height: optional(node, "h", 0) { try $1.double() })
        case 1:
            let color = optional(node, "sc", RGBA(r: 0, g: 0, b: 0)) { try $0.hexColor($1) }
            if node["sc"] == nil { warn(node, "solid layer without a colour (sc); black is used") }
            return .solid(color: color, width: optional(node, "sw", 0) { try $1.double() }, height: optional(node, "sh", 0) { try $1.double() })
        case 2:
            return .image(refId: try node.required("refId").string())
        case 3:
            return .null
        case 4:
            return .shape(node["shapes"].map { shapes($0, depth: 0) } ?? [])
        case 5:
            return .text(try text(node.required("t")))
        default:
            warn(node, "layer type \(type) is not supported; the layer is skipped")
            return .unsupported(type: type)
        }
    }

    mutating func layer(_ node: JSONNode) throws -> Layer {
        guard node.isObject else { throw node.fail("expected a layer object, found \(node.kindName)") }
        let kind = try layerKind(node)
        let inPoint = optional(node, "ip", compositionRange.inPoint) { try $1.double() }
        let outPoint = optional(node, "op", compositionRange.outPoint) { try $1.double() }
        if node["ip"] == nil || node["op"] == nil { warn(node, "layer without ip or op; the composition's is used") }
        var stretch = optional(node, "sr", 1) { try $1.double() }
        if stretch == 0 {
            warn(node, "time stretch 0 treated as 1")
            stretch = 1
        }
        let masks = list(node, "masksProperties", "the mask is skipped") { try $0.mask($1) }
        let effects = list(node, "ef", "the effect is skipped") { try $0.effect($1) }
        let blend = optional(node, "bm", 0) { try $1.int() }
        let matte = optional(node, "tt", 0) { try $1.int() }
        if node["ddd"].map({ (try? $0.bool()) ?? false }) == true { warn(node, "3D layer drawn flat") }
        return Layer(name: optional(node, "nm", "") { try $1.string() }, index: optional(node, "ind", nil) { try $1.int() },
                     parent: optional(node, "parent", nil) { try $1.int() },
                     kind: kind, inPoint: inPoint, outPoint: outPoint, startTime: optional(node, "st", 0) { try $1.double() },
                     timeStretch: stretch, transform: optional(node, "ks", Transform()) { $0.transform($1) },
                     autoOrient: optional(node, "ao", false) { try $1.bool() }, hidden: optional(node, "hd", false) { try $1.bool() },
                     blendMode: BlendMode(rawValue: blend) ?? .normal, masks: masks,
                     matteMode: MatteMode(rawValue: matte) ?? .none, matteParent: optional(node, "tp", nil) { try $1.int() },
                     isMatteSource: optional(node, "td", false) { try $1.bool() },
                     timeRemap: optional(node, "tm", nil) { try $0.scalar($1) }, effects: effects,
                     styles: list(node, "sy", "the layer style is skipped") { try $0.layerStyle($1) })
    }

    /// The items of the array `key` read by `read`; a malformed item is skipped with a warning.
    mutating func list<T>(_ node: JSONNode, _ key: String, _ instead: String, _ read: (inout LottieParser, JSONNode) throws -> T) -> [T] {
        guard let member = node[key], let items = recover(member, "the list is skipped", { _ in try member.array() }) else { return [] }
        return items.compactMap { item in recover(item, instead) { try read(&$0, item) } }
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
        let modeText = optional(node, "mode", "a") { try $1.string() }
        let mode = MaskMode(rawValue: modeText) ?? {
            warn(node, "mask mode \"\(modeText)\" is not known; treated as add")
            return .add
        }()
        return Mask(name: optional(node, "nm", "") { try $1.string() }, mode: mode, inverted: optional(node, "inv", false) { try $1.bool() },
                    path: try shapePath(node.required("pt")), opacity: optional(node, "o", Animated(100)) { try $0.scalar($1) },
                    expansion: optional(node, "x", Animated(0)) { try $0.scalar($1) })
    }

    /// The effect types Buoy draws: tint, fill, drop shadow, Gaussian blur. (An array: a
    /// `Set<Int>` would have the runtime scan every conformance record for `Int: Hashable`.)
    static let drawnEffectTypes = [20, 21, 25, 29]

    mutating func effect(_ node: JSONNode) throws -> Effect {
        guard node.isObject else { throw node.fail("expected an effect object, found \(node.kindName)") }
        let values = list(node, "ef", "the effect value is skipped") { try $0.effectValue($1) }
        let type = optional(node, "ty", -1) { try $1.int() }
        let matchName = optional(node, "mn", "") { try $1.string() }
        if !Self.drawnEffectTypes.contains(type), !Self.isExpressionControl(matchName) {
            warn(node, "effect type \(type) is not drawn")
        }
        return Effect(type: type, name: optional(node, "nm", "") { try $1.string() }, matchName: matchName,
                      enabled: optional(node, "en", true) { try $1.bool() }, values: values)
    }

    /// Expression controls (sliders, checkboxes, colour and point controls...) only hold
    /// values for expressions: they draw nothing, so they are no loss worth a warning.
    static func isExpressionControl(_ matchName: String) -> Bool {
        matchName.hasPrefix("ADBE ") && matchName.hasSuffix(" Control")
    }

    /// A layer style; the kinds Buoy does not draw are kept (with a warning) but draw nothing.
    mutating func layerStyle(_ node: JSONNode) throws -> LayerStyle {
        guard node.isObject else { throw node.fail("expected a layer style object, found \(node.kindName)") }
        let type = optional(node, "ty", -1) { try $1.int() }
        var style = LayerStyle(kind: LayerStyle.Kind(rawValue: type), name: optional(node, "nm", "") { try $1.string() })
        switch style.kind {
        case .dropShadow?, .innerShadow?, .outerGlow?, .innerGlow?: break
        default: warn(node, "layer style type \(type) is not drawn")
        }
        style.color = optional(node, "c", nil) { try $0.color($1) }
        style.opacity = optional(node, "o", nil) { try $0.scalar($1) }
        style.angle = optional(node, "a", nil) { try $0.scalar($1) }
        style.size = optional(node, "s", nil) { try $0.scalar($1) }
        style.distance = optional(node, "d", nil) { try $0.scalar($1) }
        style.spread = optional(node, "ch", nil) { try $0.scalar($1) }
        style.source = optional(node, "sr", nil) { try $0.scalar($1) }
        return style
    }

    mutating func effectValue(_ node: JSONNode) throws -> EffectValue {
        guard node.isObject else { throw node.fail("expected an effect value object, found \(node.kindName)") }
        let type = optional(node, "ty", -1) { try $1.int() }
        var value = EffectValue(name: optional(node, "nm", "") { try $1.string() }, type: type)
        switch type {
        case 2: value.color = optional(node, "v", nil) { try $0.color($1) }
        case 3: value.point = optional(node, "v", nil) { try $0.vector($1) }
        case 0, 1, 4, 7, 10: value.scalar = optional(node, "v", nil) { try $0.scalar($1) }
        default: break
        }
        return value
    }

    mutating func transform(_ node: JSONNode) -> Transform {
        var t = Transform()
        t.anchor = optional(node, "a", t.anchor) { try $0.vector($1) }
        if let p = node["p"] {
            t.position = recover(p, "the default position is used") { parser -> PositionProperty in
                if p["s"].map({ (try? $0.bool()) ?? false }) == true {
                    return .split(x: try parser.scalar(p.required("x")), y: try parser.scalar(p.required("y")))
                }
                return .combined(try parser.vector(p))
            } ?? t.position
        }
        t.scale = optional(node, "s", t.scale) { try $0.vector($1) }
        t.rotation = optional(node, node["r"] == nil ? "rz" : "r", t.rotation) { try $0.scalar($1) }
        t.opacity = optional(node, "o", t.opacity) { try $0.scalar($1) }
        t.skew = optional(node, "sk", t.skew) { try $0.scalar($1) }
        t.skewAxis = optional(node, "sa", t.skewAxis) { try $0.scalar($1) }
        return t
    }

    // MARK: Text

    mutating func text(_ node: JSONNode) throws -> TextData {
        let d = try node.required("d")
        let keyframes = list(d, "k", "the text keyframe is skipped") { p, k -> Keyframe<TextDocument> in
            let doc = try p.textDocument(k.required("s"))
            return Keyframe(time: try k.optionalDouble("t", default: 0), value: doc, hold: true)
        }
        guard !keyframes.isEmpty else { throw d.fail("text has no documents") }
        keyframeCount += keyframes.count
        if keyframes.count > 1 { animatedProperties += 1 }
        var data = TextData(documents: Animated(keyframes: keyframes.sorted { $0.time < $1.time }))
        data.animators = list(node, "a", "the text animator is skipped") { p, a in try p.textAnimator(a) }
        if data.animators.count > limits.maxTextAnimators {
            if let list = node["a"] { warn(list, "more than \(limits.maxTextAnimators) text animators; the rest are not applied") }
            data.animators.removeLast(data.animators.count - limits.maxTextAnimators)
        }
        if let more = node["m"] {
            data.groupingAlignment = optional(more, "a", data.groupingAlignment) { try $0.vector($1) }
            data.anchorGrouping = optional(more, "g", data.anchorGrouping) { _, g in
                guard let grouping = TextAnchorGrouping(rawValue: try g.int()) else { throw g.fail("anchor grouping is not one of 1...4") }
                return grouping
            }
        }
        if let path = node["p"], path["m"] != nil { warn(path, "text on a path is drawn on a straight line") }
        return data
    }

    func textDocument(_ node: JSONNode) throws -> TextDocument {
        func rgba(_ key: String) throws -> RGBA? {
            guard let n = node[key] else { return nil }
            let v = try n.doubles()
            guard v.count >= 3 else { return nil }
            let scale = v.prefix(3).contains { $0 > 1 } ? 1.0 / 255 : 1
            // The 4th (alpha) component is ignored, as for every colour.
            return RGBA(r: v[0] * scale, g: v[1] * scale, b: v[2] * scale, a: 1)
        }
        func point(_ key: String) throws -> Vec2? {
            guard let n = node[key] else { return nil }
            let v = try n.doubles()
            return v.count >= 2 ? Vec2(x: v[0], y: v[1]) : nil
        }
        let size = try node.optionalDouble("s", default: 10)
        return TextDocument(text: try node.optionalString("t") ?? "", fontName: try node.optionalString("f") ?? "", size: size,
                            justification: try node["j"]?.int() ?? 0, fillColor: try rgba("fc"), strokeColor: try rgba("sc"),
                            strokeWidth: try node.optionalDouble("sw", default: 0), lineHeight: try node.optionalDouble("lh", default: 0),
                            tracking: try node.optionalDouble("tr", default: 0), baselineShift: try node.optionalDouble("ls", default: 0),
                            boxPosition: try point("ps"), boxSize: try point("sz"),
                            strokeOverFill: try node["of"]?.bool() ?? false, caps: (try? node["ca"]?.int()) ?? 0)
    }
}

/// The size stat(2) gives for `path` (following links), nil when it cannot be read. Not
/// FileManager's attributes: their `[FileAttributeKey: Any]` and its `as? Int` cost 1.5 M
/// instructions at every start (owner lookups, a conformance scan) for one number.
func fileSize(atPath path: String) -> Int? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Int(status.st_size)
}
