import Foundation
import Raster

/// lottie-ios's snapshot criterion (swift-snapshot-testing's perceptual comparison as its
/// SnapshotTests configure it), so corpus frames can be judged inside `swift test`: a pixel
/// matches when its CIE94 ΔE against the reference is at most (1 - perceptualPrecision) * 100
/// composited over black and over white; a frame passes when the matching fraction reaches
/// `precision`. Works on premultiplied pixels, where "over black" is the pixel itself.
struct SnapshotCriterion {
    var precision = 0.985
    var perceptualPrecision = 0.97

    struct Verdict {
        var matchFraction: Double
        var passed: Bool
    }

    func judge(reference: Image, rendered: Surface) -> Verdict {
        guard reference.width == rendered.width, reference.height == rendered.height else {
            return Verdict(matchFraction: 0, passed: false)
        }
        let threshold = Double(Float((Float(1) - Float(perceptualPrecision)) * Float(100)))
        var failing = 0
        var cache: [UInt64: Bool] = [:]
        for i in reference.pixels.indices {
            let r = reference.pixels[i], p = rendered.pixels[i]
            if r == p { continue }
            let key = UInt64(r) << 32 | UInt64(p)
            if let bad = cache[key] { failing += bad ? 1 : 0; continue }
            var bad = false
            for background in [0.0, 1.0] {
                let de = Self.deltaE94(reference: Self.lab(r, over: background), Self.lab(p, over: background))
                if de > threshold { bad = true; break }
            }
            if cache.count < 1 << 20 { cache[key] = bad }
            failing += bad ? 1 : 0
        }
        let fraction = Double(reference.pixels.count - failing) / Double(max(1, reference.pixels.count))
        return Verdict(matchFraction: fraction, passed: Float(fraction) >= Float(precision))
    }

    /// Premultiplied ARGB over an opaque grey level → CIE L*a*b* (D65).
    static func lab(_ pixel: UInt32, over background: Double) -> (Double, Double, Double) {
        let a = Double(pixel >> 24) / 255
        func channel(_ shift: UInt32) -> Double {
            let c = Double((pixel >> shift) & 0xff) / 255 + (1 - a) * background
            let v = min(1, max(0, c))
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let r = channel(16), g = channel(8), b = channel(0)
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    static func deltaE94(reference: (Double, Double, Double), _ other: (Double, Double, Double)) -> Double {
        let (l1, a1, b1) = reference, (l2, a2, b2) = other
        let c1 = (a1 * a1 + b1 * b1).squareRoot(), c2 = (a2 * a2 + b2 * b2).squareRoot()
        let dl = l1 - l2, dc = c1 - c2, da = a1 - a2, db = b1 - b2
        let dh2 = max(da * da + db * db - dc * dc, 0)
        let sc = 1 + 0.045 * c1, sh = 1 + 0.015 * c1
        return (dl * dl + (dc / sc) * (dc / sc) + dh2 / (sh * sh)).squareRoot()
    }
}
