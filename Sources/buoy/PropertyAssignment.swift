import ArgumentParser
import LottieModel
import LottieRender

/// `KEYPATH=VALUE` from `--set`: a constant value provider tried from the shell. The value's
/// shape picks its type: `#RRGGBB` or three or four numbers are a colour (0...1), two numbers
/// a point or size, one number a number (or, for scale-like properties, both axes).
struct PropertyAssignment: ExpressibleByArgument {
    enum Value {
        case number(Double)
        case vector(Vec2)
        case color(RGBA)
    }

    let keypath: Keypath
    let value: Value

    init?(argument: String) {
        // The value follows the last '='; keypath names may themselves contain '='.
        guard let equals = argument.lastIndex(of: "=") else { return nil }
        let path = String(argument[..<equals]), text = String(argument[argument.index(after: equals)...])
        guard !path.isEmpty, !text.isEmpty else { return nil }
        keypath = Keypath(path)
        if text.hasPrefix("#") {
            guard let c = parseHexColor(text) else { return nil }
            value = .color(RGBA(r: c.r, g: c.g, b: c.b, a: c.a))
            return
        }
        let numbers = text.split(separator: ",").map { Double($0.trimmingWhitespace(lineEnds: false)) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0?.isFinite == true }) else { return nil }
        let v = numbers.map { $0! }
        switch v.count {
        case 1: value = .number(v[0])
        case 2: value = .vector(Vec2(x: v[0], y: v[1]))
        case 3, 4: value = .color(RGBA(r: v[0], g: v[1], b: v[2], a: v.count == 4 ? v[3] : 1))
        default: return nil
        }
    }

    /// Binds the value; returns how many properties took it.
    func bind(to renderer: inout AnimationRenderer) -> Int {
        switch value {
        case .number(let n):
            let matched = renderer.setValueProvider(ConstantValueProvider(n), keypath: keypath)
            if matched > 0 { return matched }
            return renderer.setValueProvider(ConstantValueProvider(Vec2(x: n, y: n)), keypath: keypath)
        case .vector(let v):
            return renderer.setValueProvider(ConstantValueProvider(v), keypath: keypath)
        case .color(let c):
            return renderer.setValueProvider(ConstantValueProvider(c), keypath: keypath)
        }
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
