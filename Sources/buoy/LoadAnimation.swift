import FoundationEssentials
import Kiosk
import LottieModel
import LottieRender

/// `BUOY_FONT_DIRS` (colon-separated): where text layers' fonts are looked for before the
/// system's font folders. Read here, by the CLI; the renderer is given the list.
func fontDirectoriesFromEnvironment() -> [String] {
    let environment = Environment()
    return (environment["BUOY_FONT_DIRS"] ?? "").split(separator: ":").map(String.init)
}

/// Loads and prepares an animation (Lottie JSON, or a dotLottie container told by its zip
/// magic), turning any failure into exit status 2 with the file and
/// JSON path in the message.
func loadRenderer(path: String) throws -> AnimationRenderer {
    do {
        let animation = try Animation.load(path: path)
        for warning in animation.warnings.prefix(5) {
            printWarning("\(path): \(warning)")
        }
        if animation.warnings.count > 5 { printWarning("\(path): … and \(animation.warnings.count - 5) more warnings") }
        return AnimationRenderer(animation: animation, fontDirectories: fontDirectoriesFromEnvironment())
    } catch let error as ParseError {
        throw CommandFailure.badAnimation("\(error)")
    } catch {
        throw CommandFailure.badAnimation("\(path): \(error)")
    }
}

/// Problems the renderer met while drawing (an image that would not decode, a budget
/// reached), each once, after the frames they concern.
func printRendererWarnings(_ renderer: AnimationRenderer, path: String) {
    var seen = Set<String>()
    for warning in renderer.warnings where seen.insert(warning).inserted {
        printWarning("\(path): \(warning)")
    }
}

func printWarning(_ text: String) {
    var stderr = StandardError()
    print("buoy: warning: \(text)", to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandleWriter.stderr(string)
    }
}

/// A progress or status line on standard error (standard output may carry a video stream).
func printStatus(_ text: String) {
    FileHandleWriter.stderr("buoy: \(text)\n")
}

/// What `buoy run` shows: the custom animation (a file, or a URL through the cache), or the
/// built-in one.
struct RunAnimation {
    var renderer: AnimationRenderer
    /// A cached copy is shown at once and refreshed while the screen runs.
    var refresh: AnimationCache.Refresh?
    /// For messages: the path or URL given, or "the default animation".
    var name: String
    /// Buoy's own animation (its water rises `DefaultAnimation.lift` display heights).
    var builtIn = false
}

/// Loads the animation for `buoy run`. A custom animation that is missing, truncated,
/// unparseable or unreachable (with no cached copy) is not a reason to skip the download it
/// was meant to decorate: the built-in animation is shown instead, with one warning.
func loadRunAnimation(_ animation: String?) -> RunAnimation {
    do {
        if let animation, animation.contains("://") {
            let cached = try AnimationCache.open(animation)
            return RunAnimation(renderer: try loadRenderer(path: cached.path), refresh: cached.refresh, name: animation)
        } else if let animation {
            return RunAnimation(renderer: try loadRenderer(path: animation), refresh: nil, name: animation)
        }
    } catch {
        printWarning("\(error); showing the built-in animation instead")
    }
    return RunAnimation(renderer: defaultRenderer(), refresh: nil, name: "the default animation", builtIn: true)
}

/// The built-in animation, which ships with Buoy and is tested to parse.
func defaultRenderer() -> AnimationRenderer {
    do {
        return AnimationRenderer(animation: try Animation.parse(Array(DefaultAnimation.json.utf8), name: "buoy-default", baseDirectory: nil),
                                 fontDirectories: fontDirectoriesFromEnvironment())
    } catch {
        fatalError("the built-in animation does not parse: \(error)")
    }
}

/// The renderer warnings already printed, so that a command drawing many frames prints each
/// one once, when it first appears, not once a frame.
struct ReportedWarnings {
    private var seen: Set<String> = []

    /// The warnings of `all` not returned before.
    mutating func fresh(_ all: [String]) -> [String] {
        all.filter { seen.insert($0).inserted }
    }
}
