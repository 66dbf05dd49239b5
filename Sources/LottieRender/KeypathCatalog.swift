import LottieModel

/// Every keypath an animation offers to dynamic properties: layer names, then group and item
/// names, then property names, joined with dots (`Boat.Transform.Position`).
public struct KeypathCatalog {
    public let keypaths: [String]

    public init(animation: Animation) {
        var result: [String] = []
        Self.collect(animation.layers, assets: animation.assets, prefix: [], depth: 0, into: &result)
        keypaths = result
    }

    private static func collect(_ layers: [Layer], assets: [String: Asset], prefix: [String], depth: Int, into result: inout [String]) {
        guard depth < 16 else { return }
        for layer in layers {
            let path = prefix + [layer.name]
            result.append(path.joined(separator: "."))
            for property in ["Anchor Point", "Position", "Scale", "Rotation", "Opacity"] {
                result.append((path + ["Transform", property]).joined(separator: "."))
            }
            switch layer.kind {
            case .shape(let items):
                collect(items, prefix: path, into: &result)
            case .precomp(let refId, _, _):
                if case .precomp(_, let children, _)? = assets[refId] {
                    collect(children, assets: assets, prefix: path, depth: depth + 1, into: &result)
                }
            case .solid:
                result.append((path + ["Color"]).joined(separator: "."))
            default:
                break
            }
        }
    }

    private static func collect(_ items: [ShapeItem], prefix: [String], into result: inout [String]) {
        for item in items {
            let path = prefix + [item.name]
            func join(_ property: String) { result.append((path + [property]).joined(separator: ".")) }
            switch item.kind {
            case .group(let children):
                result.append(path.joined(separator: "."))
                collect(children, prefix: path, into: &result)
            case .transform:
                for p in ["Anchor Point", "Position", "Scale", "Rotation", "Opacity"] {
                    result.append((prefix + ["Transform", p]).joined(separator: "."))
                }
            case .path: join("Path")
            case .rectangle: ["Position", "Size", "Roundness"].forEach(join)
            case .ellipse: ["Position", "Size"].forEach(join)
            case .polystar: ["Position", "Points", "Rotation", "Outer Radius", "Inner Radius", "Outer Roundness", "Inner Roundness"].forEach(join)
            case .fill: ["Color", "Opacity"].forEach(join)
            case .stroke: ["Color", "Opacity", "Stroke Width"].forEach(join)
            case .gradientFill: ["Start Point", "End Point", "Colors", "Opacity"].forEach(join)
            case .gradientStroke: ["Start Point", "End Point", "Colors", "Opacity", "Stroke Width"].forEach(join)
            case .trim: ["Start", "End", "Offset"].forEach(join)
            case .repeater: ["Copies", "Offset"].forEach(join)
            case .roundedCorners: join("Radius")
            default: result.append(path.joined(separator: "."))
            }
        }
    }
}
