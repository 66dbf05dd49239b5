import ArgumentParser
import Kiosk
import LottieRender
import Posix
import Raster

/// `WxH`, e.g. `1920x1080`; each side at most `RenderBudget.maxOutputSide`.
struct Size: ExpressibleByArgument, Equatable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) { self.width = width; self.height = height }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...RenderBudget.maxOutputSide).contains(w), (1...RenderBudget.maxOutputSide).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    /// How a default shows in --help (`480x270`, as it is typed).
    var defaultValueDescription: String { "\(width)x\(height)" }
}

extension ContentMode: ExpressibleByArgument {}
extension KioskConfiguration.PsplashQuit: ExpressibleByArgument {}

/// `transparent` or `#RRGGBB`.
struct Background: ExpressibleByArgument {
    var color: Color

    init(color: Color) { self.color = color }

    init?(argument: String) {
        if argument == "transparent" { self.init(color: .clear); return }
        guard let rgb = parseHexColor(argument) else { return nil }
        self.init(color: rgb)
    }

    /// How a default shows in --help: as it is typed (`#000000`, `transparent`), not a Swift value.
    var defaultValueDescription: String {
        guard color.a > 0 else { return "transparent" }
        func byte(_ v: Double) -> Int { Int((min(1, max(0, v)) * 255).rounded()) }
        return String(cFormat: "#%02lX%02lX%02lX", byte(color.r), byte(color.g), byte(color.b))
    }
}

/// `#RRGGBB` or `RRGGBB` → an opaque colour.
func parseHexColor(_ text: String) -> Color? {
    var hex = Substring(text)
    if hex.hasPrefix("#") { hex = hex.dropFirst() }
    guard hex.count == 6, let v = UInt32(hex, radix: 16) else { return nil }
    return Color(r: Double((v >> 16) & 0xff) / 255, g: Double((v >> 8) & 0xff) / 255,
                 b: Double(v & 0xff) / 255, a: 1)
}

/// `A:B[:STEP]`, B included.
struct FrameRange: ExpressibleByArgument {
    var start: Double
    var end: Double
    var step: Double

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite, a <= b else { return nil }
        let s = parts.count == 3 ? Double(parts[2]) : 1
        guard let step = s, step.isFinite, step > 0 else { return nil }
        start = a; end = b; self.step = step
    }

    /// Every frame from start to end inclusive; the count is bounded so a typo cannot fill a disk.
    var frames: [Double] {
        var result: [Double] = []
        var i = 0
        while true {
            let f = start + Double(i) * step
            if f > end + 1e-9 || result.count >= 100_000 { break }
            result.append(f)
            i += 1
        }
        return result
    }
}
