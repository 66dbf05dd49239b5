import ArgumentParser
import LottieModel
import LottieRender

struct Keypaths: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every keypath of an animation, one per line (layer.group.item.property)."
    )

    @Argument(help: "The Lottie JSON file.")
    var animation: String

    func run() throws {
        let renderer = try loadRenderer(path: animation)
        for keypath in KeypathCatalog(animation: renderer.animation).keypaths {
            print(keypath)
        }
    }
}
