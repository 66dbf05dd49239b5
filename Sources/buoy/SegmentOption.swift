import LottieModel

/// `--loop-segment` / `--success-segment`: `0:0.5` (progress), `f0:f120` (frames) or
/// `marker:NAME` (the marker's span), resolved to progress once the animation is loaded.
struct SegmentOption {
    let text: String

    func progressRange(in animation: Animation) throws -> ClosedRange<Double> {
        let span = animation.outPoint - animation.inPoint
        func progress(ofFrame f: Double) -> Double { span > 0 ? (f - animation.inPoint) / span : 0 }
        if text.hasPrefix("marker:") {
            let name = String(text.dropFirst(7))
            guard let m = animation.marker(named: name) else {
                throw CommandFailure.badArguments("segment \(text): the animation has no marker \"\(name)\" (it has: \(animation.markers.map(\.name).joined(separator: ", ")))")
            }
            return progress(ofFrame: m.time)...progress(ofFrame: m.time + m.duration)
        }
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count == 2 else { throw CommandFailure.badArguments("segment \(text): expected A:B, fA:fB or marker:NAME") }
        func value(_ s: String) -> Double? {
            if s.hasPrefix("f"), let f = Double(s.dropFirst()) { return progress(ofFrame: f) }
            return Double(s)
        }
        guard let a = value(parts[0]), let b = value(parts[1]), a.isFinite, b.isFinite, 0 <= a, a < b, b <= 1 else {
            throw CommandFailure.badArguments("segment \(text): must lie within the animation, start before end")
        }
        return a...b
    }
}
