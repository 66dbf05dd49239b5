import LottieModel
import LottieRender

/// Loads and prepares an animation, turning any failure into exit status 2 with the file and
/// JSON path in the message.
func loadRenderer(path: String) throws -> AnimationRenderer {
    do {
        let animation = try Animation.load(path: path)
        for warning in animation.warnings.prefix(5) {
            printWarning("\(path): \(warning)")
        }
        if animation.warnings.count > 5 { printWarning("\(path): … and \(animation.warnings.count - 5) more warnings") }
        return AnimationRenderer(animation: animation)
    } catch let error as ParseError {
        throw CommandFailure.badAnimation("\(error)")
    } catch {
        throw CommandFailure.badAnimation("\(path): \(error)")
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
