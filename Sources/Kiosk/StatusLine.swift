import Foundation
import LottieModel
import LottieRender
import Raster

/// A line of text along the bottom of the screen (psplash's `MSG`, a failure's cause), drawn
/// with the text engine (FreeType, DejaVu Sans) over the animation.
public struct StatusLine {
    public let text: String
    private let renderer: AnimationRenderer?
    /// The rows the band covers, nil when there is no text.
    public let band: Range<Int>?

    public init(text: String, width: Int, height: Int) {
        self.text = text
        guard !text.isEmpty, width > 0, height > 0 else { renderer = nil; band = nil; return }
        let size = max(12, Double(min(width, height)) / 22)
        let band = size * 2
        self.band = max(0, height - Int(band.rounded()))..<height
        let escaped = String(text.prefix(200)).unicodeScalars.map { s -> String in
            switch s {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            default: return s.value < 0x20 ? " " : String(s)
            }
        }.joined()
        let json = """
        {"v":"5.7.0","fr":60,"ip":0,"op":1,"w":\(width),"h":\(height),
         "fonts":{"list":[{"fName":"DejaVuSans","fFamily":"DejaVu Sans","fStyle":"Book","ascent":76}]},
         "layers":[
          {"ty":5,"nm":"Status","ind":1,"ip":0,"op":1,"st":0,
           "ks":{"p":{"a":0,"k":[\(Double(width) / 2),\(Double(height) - band / 2 + size * 0.35)]}},
           "t":{"d":{"k":[{"t":0,"s":{"t":"\(escaped)","f":"DejaVuSans","s":\(size),"j":2,"fc":[1,1,1],"lh":\(size * 1.2),"tr":0}}]}}},
          {"ty":1,"nm":"Band","ind":2,"ip":0,"op":1,"st":0,"sc":"#0b1f33","sw":\(width),"sh":\(Int(band.rounded())),
           "ks":{"o":{"a":0,"k":72},"p":{"a":0,"k":[0,\(Double(height) - band)]}}}]}
        """
        renderer = (try? Animation.parse(Array(json.utf8), name: "status", baseDirectory: nil)).map { AnimationRenderer(animation: $0) }
    }

    /// Whether the point (in pixels of the screen) lies on the band: a touch there answers
    /// the prompt it shows.
    public func contains(x: Double, y: Double) -> Bool {
        guard let band, x.isFinite, y.isFinite else { return false }
        return y >= Double(band.lowerBound) && y < Double(band.upperBound)
    }

    /// Draws the line over what the surface holds.
    public func draw(into surface: inout Surface) {
        renderer?.draw(frame: 0, into: &surface, matrix: .identity)
    }
}
