import ArgumentParser
import LottieModel
import LottieRender

struct Keypaths: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keypaths",
        abstract: "List every keypath of an animation, one per line (layer.group.item.property).",
        discussion: "With --types each property is followed by a tab and its value type (Double, Vec2, RGBA, BezierPath, GradientColors)."
    )

    @Argument(help: "The Lottie file (JSON, or a dotLottie container).")
    var animation: String

    @Flag(help: "Print each property's value type too.")
    var types = false

    func run() throws {
        let renderer = try loadRenderer(path: animation)
        for entry in AnimationRenderer.keypaths(of: renderer.animation) {
            if let type = entry.type, types { print("\(entry.keypath)\t\(type)") } else { print(entry.keypath) }
        }
    }
}
