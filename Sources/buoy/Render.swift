import ArgumentParser
import FoundationEssentials
import LottieModel
import LottieRender
import Posix
import Raster

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render frames of a Lottie animation to PNG files.",
        discussion: """
        With one frame OUT is a PNG file (default: the animation's name with .png); with several
        frames OUT is a directory of frame-000000.png, frame-000001.png, …
        --batch FILE renders TSV lines: animation<TAB>frame<TAB>width<TAB>height<TAB>out.png,
        each frame aspect-fit from the top-left corner (the lottie-ios snapshot layout).
        """
    )

    @Argument(help: "The Lottie file (JSON, or a dotLottie container).")
    var animation: String?

    @Option(name: .shortAndLong, help: "Output PNG file, or directory when rendering several frames.")
    var output: String?

    @Option(help: "The absolute frame to render (may be fractional).")
    var frame: Double?

    @Option(help: "Render frame ip + P*(op-ip), P in 0...1.")
    var progress: Double?

    @Option(help: "Render frames A to B inclusive, every STEP frames (default 1).")
    var frames: FrameRange?

    @Option(help: "Output size WxH.")
    var size: Size?

    @Option(name: .customLong("content-mode"), help: "How the animation fits the output: fit, fill or stretch.")
    var contentMode: ContentMode = .fit

    @Option(help: "transparent or #RRGGBB.")
    var background: Background = Background(color: .clear)

    @Option(help: "A TSV file of frames to render (see above).")
    var batch: String?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Give a property a constant value, e.g. 'Boat.Transform.Position=417,-800' or '**.Fill 1.Color=#ff0000' (repeatable).",
        valueName: "KEYPATH=VALUE"))
    var assignments: [PropertyAssignment] = []

    @Option(help: "Threads to draw each frame with (default: the cores available, at most 4).")
    var threads: Int?

    /// The command as `RenderJob` runs it.
    var job: RenderJob {
        RenderJob(animation: animation, output: output, frame: frame, progress: progress, frames: frames, size: size,
                  contentMode: contentMode, background: background, batch: batch, assignments: assignments, threads: threads)
    }

    func validate() throws { try job.validate() }

    func run() throws { try job.run() }
}

/// `buoy render` with its options read, and what it does. `Render` (ArgumentParser's
/// reading, with help and errors) fills it, and so does the start-up fast path
/// (`QuickParse.swift`), which makes no property wrapper (see `BenchJob`).
struct RenderJob {
    var animation: String?
    var output: String?
    var frame: Double?
    var progress: Double?
    var frames: FrameRange?
    var size: Size?
    var contentMode: ContentMode = .fit
    var background = Background(color: .clear)
    var batch: String?
    var assignments: [PropertyAssignment] = []
    var threads: Int?

    func validate() throws {
        try validateThreads(threads)
        if batch != nil {
            guard animation == nil, frame == nil, progress == nil, frames == nil else {
                throw ValidationError("--batch takes no animation and no frame options")
            }
            // The batch renders each file as the snapshot layout has it; a value given with
            // --set would be silently left out, so it is refused instead.
            guard assignments.isEmpty else {
                throw ValidationError("--set cannot be used with --batch (batch lines render the files as they are)")
            }
            return
        }
        guard animation != nil else { throw ValidationError("missing ANIMATION (or --batch FILE)") }
        let chosen = [frame != nil, progress != nil, frames != nil].filter { $0 }.count
        guard chosen <= 1 else { throw ValidationError("give only one of --frame, --progress, --frames") }
        if let p = progress, !(p.isFinite && p >= 0 && p <= 1) {
            throw ValidationError("--progress must be between 0 and 1")
        }
        if let f = frame, !f.isFinite { throw ValidationError("--frame must be a finite number") }
    }

    func run() throws {
        if let batch { return try runBatch(batch) }
        guard let path = animation else { return }
        var renderer = try loadRenderer(path: path)
        renderer.threads = threads ?? defaultThreadCount()
        for assignment in assignments {
            let matched = assignment.bind(to: &renderer)
            if matched == 0 {
                throw CommandFailure.badArguments("--set \(assignment.keypath): matches no property of that value type (see `buoy keypaths \(path)`)")
            }
        }
        let anim = renderer.animation
        // What drawing skipped (an image that would not decode, a budget exceeded), once each.
        defer { printRendererWarnings(renderer, path: path) }
        let fitted = RenderBudget.fittedOutputSize(width: anim.width, height: anim.height)
        let width = size?.width ?? fitted.width
        let height = size?.height ?? fitted.height
        let viewport = Viewport(width: width, height: height, contentMode: contentMode)

        let frameList: [Double]
        if let frames { frameList = frames.frames }
        else if let progress { frameList = [anim.inPoint + progress * (anim.outPoint - anim.inPoint)] }
        else { frameList = [frame ?? anim.inPoint] }

        if frameList.count == 1 && frames == nil {
            let out = output ?? defaultOutputName(for: path)
            let surface = renderer.render(frame: frameList[0], viewport: viewport, background: background.color)
            try writePNG(surface, to: out)
            return
        }
        let directory = output ?? defaultOutputName(for: path, ext: "")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure.output("cannot create directory \(directory): \(SystemError.reason(of: error))")
        }
        for (i, f) in frameList.enumerated() {
            let surface = renderer.render(frame: f, viewport: viewport, background: background.color)
            try writePNG(surface, to: PathName.join(directory, String(cFormat: "frame-%06ld.png", i)))
        }
    }

    private func runBatch(_ file: String) throws {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw CommandFailure.badArguments("cannot read batch file \(file)")
        }
        var renderers: [String: Result<AnimationRenderer, CommandFailure>] = [:]
        var failures = 0
        for (lineNumber, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let f = Double(fields[1]), f.isFinite,
                  let w = Int(fields[2]), let h = Int(fields[3]), (1...RenderBudget.maxOutputSide).contains(w), (1...RenderBudget.maxOutputSide).contains(h) else {
                printWarning("\(file):\(lineNumber + 1): expected animation<TAB>frame<TAB>width<TAB>height<TAB>out")
                failures += 1
                continue
            }
            let result = renderers[fields[0]] ?? Result {
                var loaded = try loadRenderer(path: fields[0])
                loaded.threads = threads ?? defaultThreadCount()
                return loaded
            }.mapError { $0 as? CommandFailure ?? .badAnimation("\($0)") }
            renderers[fields[0]] = result
            switch result {
            case .failure(let error):
                printWarning(error.message)
                failures += 1
            case .success(let renderer):
                let viewport = Viewport(width: w, height: h, contentMode: .fit, alignment: .topLeft)
                let surface = renderer.render(frame: f, viewport: viewport, background: background.color)
                do { try writePNG(surface, to: fields[4]) } catch {
                    printWarning("\(error)")
                    failures += 1
                }
            }
        }
        if failures > 0 { throw CommandFailure(message: "\(failures) batch lines failed", exitCode: 2) }
    }
}

func defaultOutputName(for path: String, ext: String = ".png") -> String {
    let base = PathName.stem(path)
    return base + ext
}

func writePNG(_ surface: Surface, to path: String) throws {
    do { try PNG.write(surface, to: path) } catch {
        throw CommandFailure.output("\(error)")
    }
}
