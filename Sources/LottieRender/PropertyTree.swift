import LottieModel

/// Something done to every animatable property of an animation, told the property's
/// keypath names (`Boat`, `Transform`, `Position`).
protocol PropertyVisitor {
    /// Whether anything below these names may interest the visitor (to skip subtrees).
    func wants(prefix names: [String]) -> Bool
    mutating func visit<Value>(_ names: [String], _ property: inout Animated<Value>)
    /// A layer or shape group (addressable, but not a property itself).
    mutating func visitContainer(_ names: [String])
}

extension PropertyVisitor {
    mutating func visitContainer(_ names: [String]) {}
}

/// Walks the model's properties by keypath, the way lottie-ios names them: layer names
/// (through precomps), then group and item names, then the property name.
enum PropertyTree {
    static func walk<V: PropertyVisitor>(_ animation: inout Animation, _ visitor: inout V) {
        walk(&animation.layers, assets: &animation.assets, prefix: [], depth: 0, &visitor)
    }

    static func walk<V: PropertyVisitor>(_ layers: inout [Layer], assets: inout [String: Asset], prefix: [String], depth: Int,
                                         _ visitor: inout V) {
        guard depth < 16 else { return }
        for i in layers.indices {
            let names = prefix + [layers[i].name]
            guard visitor.wants(prefix: names) else { continue }
            visitor.visitContainer(names)
            transform(&layers[i].transform, names + ["Transform"], &visitor)
            switch layers[i].kind {
            case .shape(var items):
                self.items(&items, names, &visitor)
                layers[i].kind = .shape(items)
            case .precomp(let refId, _, _):
                // A precomp's layers live in a shared asset: a provider set through one
                // precomp layer applies wherever that asset is shown.
                if case .precomp(let id, var children, let rate)? = assets[refId] {
                    walk(&children, assets: &assets, prefix: names, depth: depth + 1, &visitor)
                    assets[refId] = .precomp(id: id, layers: children, frameRate: rate)
                }
            default:
                break
            }
        }
    }

    static func transform<V: PropertyVisitor>(_ t: inout LottieModel.Transform, _ names: [String], _ visitor: inout V) {
        guard visitor.wants(prefix: names) else { return }
        visitor.visit(names + ["Anchor Point"], &t.anchor)
        switch t.position {
        case .combined(var p):
            visitor.visit(names + ["Position"], &p)
            t.position = .combined(p)
        case .split(var x, var y):
            visitor.visit(names + ["X Position"], &x)
            visitor.visit(names + ["Y Position"], &y)
            // A 2D provider on a split position turns it into one 2D property.
            var combined = Animated(Vec2(x: x.value(at: 0), y: y.value(at: 0)))
            visitor.visit(names + ["Position"], &combined)
            t.position = combined.provider != nil ? .combined(combined) : .split(x: x, y: y)
        }
        visitor.visit(names + ["Scale"], &t.scale)
        visitor.visit(names + ["Rotation"], &t.rotation)
        visitor.visit(names + ["Opacity"], &t.opacity)
        visitor.visit(names + ["Skew"], &t.skew)
        visitor.visit(names + ["Skew Axis"], &t.skewAxis)
    }

    static func items<V: PropertyVisitor>(_ items: inout [ShapeItem], _ prefix: [String], _ visitor: inout V) {
        for i in items.indices {
            let names = prefix + [items[i].name]
            if case .transform(var t) = items[i].kind {
                // A group's transform is addressed as `Group.Transform.Position`.
                transform(&t.transform, prefix + ["Transform"], &visitor)
                items[i].kind = .transform(t)
                continue
            }
            guard visitor.wants(prefix: names) else { continue }
            func v<T>(_ name: String, _ p: inout Animated<T>) { visitor.visit(names + [name], &p) }
            switch items[i].kind {
            case .group(var children):
                visitor.visitContainer(names)
                self.items(&children, names, &visitor)
                items[i].kind = .group(children)
            case .path(var path, let reversed):
                v("Path", &path)
                items[i].kind = .path(path, reversed: reversed)
            case .rectangle(var position, var size, var roundness, let reversed):
                v("Position", &position); v("Size", &size); v("Roundness", &roundness)
                items[i].kind = .rectangle(position: position, size: size, roundness: roundness, reversed: reversed)
            case .ellipse(var position, var size, let reversed):
                v("Position", &position); v("Size", &size)
                items[i].kind = .ellipse(position: position, size: size, reversed: reversed)
            case .polystar(var s):
                v("Position", &s.position); v("Points", &s.points); v("Rotation", &s.rotation)
                v("Outer Radius", &s.outerRadius); v("Outer Roundness", &s.outerRoundness)
                if var r = s.innerRadius { v("Inner Radius", &r); s.innerRadius = r }
                if var r = s.innerRoundness { v("Inner Roundness", &r); s.innerRoundness = r }
                items[i].kind = .polystar(s)
            case .fill(var color, var opacity, let evenOdd):
                v("Color", &color); v("Opacity", &opacity)
                items[i].kind = .fill(color: color, opacity: opacity, evenOdd: evenOdd)
            case .stroke(var s):
                v("Color", &s.color); v("Opacity", &s.opacity); v("Stroke Width", &s.width)
                items[i].kind = .stroke(s)
            case .gradientFill(var g):
                v("Start Point", &g.start); v("End Point", &g.end); v("Colors", &g.colors); v("Opacity", &g.opacity)
                items[i].kind = .gradientFill(g)
            case .gradientStroke(var g):
                v("Start Point", &g.start); v("End Point", &g.end); v("Colors", &g.colors); v("Opacity", &g.opacity)
                v("Stroke Width", &g.width)
                items[i].kind = .gradientStroke(g)
            case .trim(var start, var end, var offset, let individually):
                v("Start", &start); v("End", &end); v("Offset", &offset)
                items[i].kind = .trim(start: start, end: end, offset: offset, individually: individually)
            case .repeater(var r):
                v("Copies", &r.copies); v("Offset", &r.offset)
                transform(&r.transform, names + ["Transform"], &visitor)
                items[i].kind = .repeater(r)
            case .roundedCorners(var radius):
                v("Radius", &radius)
                items[i].kind = .roundedCorners(radius: radius)
            default:
                break
            }
        }
    }
}

/// Binds providers to the properties their keypaths match; a property matched by several
/// takes the one set last.
struct ProviderBinder: PropertyVisitor {
    let keypath: Keypath
    let provider: AnyObject
    var matched = 0

    func wants(prefix names: [String]) -> Bool { keypath.couldMatch(prefix: names) }

    mutating func visit<Value>(_ names: [String], _ property: inout Animated<Value>) {
        guard keypath.matches(names), let typed = provider as? any ValueProvider<Value> else { return }
        property.provider = typed
        matched += 1
    }
}

/// Lists every keypath: layers and groups (no type), and properties with their value type.
struct PropertyLister: PropertyVisitor {
    var found: [(keypath: String, type: String?)] = []

    func wants(prefix names: [String]) -> Bool { true }

    mutating func visit<Value>(_ names: [String], _ property: inout Animated<Value>) {
        found.append((Keypath(components: names).description, "\(Value.self)"))
    }

    mutating func visitContainer(_ names: [String]) {
        found.append((Keypath(components: names).description, nil))
    }
}
