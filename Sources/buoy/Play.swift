import ArgumentParser
import Display
import Glibc
import LottieModel
import LottieRender
import Player
import Download
import Kiosk
import Posix
import Raster

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an animation on a display: DRM/KMS, fbdev, PNG frames or a y4m stream.",
        discussion: """
        --display auto tries DRM, then fbdev, and goes on only when there is nothing to show on \
        (no device, no connected display); a display that is there but refused (DRM master held \
        by a compositor, permission denied) stops with its error (exit 4). auto:headless:DIR \
        writes PNG frames to DIR when there is no display at all.

        headless:DIR writes frame-000000.png … at --fps (keeping every --every-th); y4m:PATH (or \
        y4m:-) streams video for ffmpeg. Both are the panel's buffer: --size is the panel's, and \
        --rotate turns the picture into it as on a real panel.

        Frame times are presentation times: a slow frame makes the next one skip ahead, never \
        slows the animation. On a display a still picture (a single instant, or a segment in \
        which nothing in the file moves) is drawn once and held: no frame and no page flip until \
        --duration ends or a signal comes. SIGINT/SIGTERM restore the console and the previous \
        display mode.
        """
    )

    @Argument(help: "The Lottie file (JSON, or a dotLottie container).")
    var animation: String

    @OptionGroup var output: DisplayOptions

    @Option(name: .customLong("content-mode"), help: "fit, fill or stretch.")
    var contentMode: ContentMode = .fit

    @Option(help: "#RRGGBB behind the animation.")
    var background: Background = Background(color: .black)

    @Flag(help: "Loop until stopped (or --duration).")
    var loop = false

    @Option(help: "Stop after this many seconds of animation time.")
    var duration: Double?

    @Option(name: .customLong("from-progress"), help: "Start of the segment, 0...1.")
    var fromProgress: Double = 0

    @Option(name: .customLong("to-progress"), help: "End of the segment, 0...1.")
    var toProgress: Double = 1

    @Option(help: "Playback speed (negative plays backwards).")
    var speed: Double = 1

    @Option(name: .customLong("set"), help: ArgumentHelp("A constant property value, as for `buoy render --set`.", valueName: "KEYPATH=VALUE"))
    var assignments: [PropertyAssignment] = []

    @Option(help: "Write one JSON line per presented frame to this file.")
    var trace: String?

    @Option(help: "Threads to draw each frame with (default: the cores available, at most 4).")
    var threads: Int?

    /// The command as `PlayJob` runs it.
    var job: PlayJob {
        PlayJob(animation: animation, output: output.settings, contentMode: contentMode, background: background, loop: loop,
                duration: duration, fromProgress: fromProgress, toProgress: toProgress, speed: speed, assignments: assignments,
                trace: trace, threads: threads)
    }

    func validate() throws { try job.validate() }

    func run() throws { try job.run() }
}

/// `buoy play` with its options read, and what it does. `Play` (ArgumentParser's reading,
/// with help and errors) fills it, and so does the start-up fast path (`QuickParse.swift`),
/// which makes no property wrapper (see `BenchJob`).
struct PlayJob {
    var animation: String
    var output = DisplaySettings()
    var contentMode: ContentMode = .fit
    var background = Background(color: .black)
    var loop = false
    var duration: Double?
    var fromProgress: Double = 0
    var toProgress: Double = 1
    var speed: Double = 1
    var assignments: [PropertyAssignment] = []
    var trace: String?
    var threads: Int?

    func validate() throws {
        guard speed.isFinite, speed != 0 else { throw ValidationError("--speed must be a non-zero number") }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be positive") }
        for p in [fromProgress, toProgress] where !(p >= 0 && p <= 1) { throw ValidationError("progress must be within 0...1") }
        if loop && duration == nil && output.writesFiles { throw ValidationError("--loop to files needs --duration") }
        try validateThreads(threads)
    }

    func run() throws {
        var renderer = try loadRenderer(path: animation)
        renderer.threads = threads ?? defaultThreadCount()
        for assignment in assignments where assignment.bind(to: &renderer) == 0 {
            throw CommandFailure.badArguments("--set \(assignment.keypath): matches no property of that value type")
        }
        let anim = renderer.animation
        // Handlers first: a signal while the display is being opened (the console already
        // in graphics mode) still ends in `close()`, which restores it.
        let stop = StopRequest()
        let presenter = try output.openPresenter(animationSize: RenderBudget.fittedOutputSize(width: anim.width, height: anim.height))
        defer { presenter.close() }
        if loop && duration == nil && presenter.writesFiles {
            // auto:headless:DIR found no display: looping into files would never end.
            throw CommandFailure.badArguments("--loop to files needs --duration (no display found, writing frames to files)")
        }
        let traceFile = try trace.map { path in
            do { return try FrameTrace(path: path) } catch { throw CommandFailure.output("\(error)") }
        }
        defer {
            if let failure = traceFile?.failure { printWarning(failure) }
            traceFile?.close()
        }
        let runtime = try playbackRuntime(renderer, presenter: presenter, trace: traceFile, stop: stop)
        var figures = PlaybackFigures()
        runtime.framePresented = { result in figures.shown(result, on: presenter) }
        printStatus("playing on \(presenter.description)")
        let outcome: KioskOutcome
        do { outcome = try runtime.run() } catch let error as DisplayError {
            throw CommandFailure.display("\(error)")
        } catch let error as SystemError {
            throw CommandFailure(message: "\(error)", exitCode: 1)
        }
        if let summary = figures.summary(writesFiles: presenter.writesFiles) { printStatus(summary) }
        if case .stopped(let signal) = outcome {
            presenter.close()
            throw CommandFailure(message: "stopped by signal \(signal)", exitCode: 128 + signal)
        }
    }

    /// The kiosk's event loop and frame thread, showing the animation alone: the controller
    /// (with nothing to download) ends the run when the scene is done or a signal comes.
    func playbackRuntime(_ renderer: AnimationRenderer, presenter: Presenter, trace: FrameTrace?, stop: StopRequest) throws -> KioskRuntime {
        let viewport = Viewport(width: presenter.width, height: presenter.height, contentMode: contentMode)
        let clock = VirtualClock(now: presenter.nextPresentationTime())
        let options = PlayScene.Options(fromProgress: fromProgress, toProgress: toProgress, speed: speed, loop: loop, duration: duration)
        let writesFiles = presenter.writesFiles
        do {
            let waker = try Waker()
            let frames = FrameWorker(presenter: presenter, viewport: viewport, clock: clock, trace: trace, waker: waker,
                                     background: background.color, pacesFilesToWallClock: false, warningPrefix: "\(animation): ") {
                PlayScene(renderer: renderer, clock: clock, options: options, writesFiles: writesFiles)
            }
            var configuration = KioskConfiguration()
            configuration.animationOnly = true
            configuration.writesFiles = writesFiles
            return try KioskRuntime(controller: KioskController(configuration: configuration), frames: frames, frameWaker: waker, stop: stop,
                                    presenter: presenter, control: nil, downloads: nil, policy: DownloadPolicy(), input: nil, fifo: nil,
                                    animationRefresh: nil, touchPrompt: false)
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: 1)
        }
    }
}

/// What `buoy play` reports: when the first frame reached the screen, and what pacing and the
/// CPU did after it (startup, parsing and the modeset are left out of the per-frame cost); or,
/// when the picture went still and was held without frames, for how long and at what CPU.
struct PlaybackFigures {
    let opened = Monotonic.now()
    var frames = 0
    var missed = 0
    var first: (time: Double, cpu: Double)?
    /// The last frame presented showed a still picture that stays on screen after it.
    var stillSince: (time: Double, cpu: Double)?

    mutating func shown(_ result: FrameWorker.Result, on presenter: Presenter) {
        guard let shown = result.shown else { return }
        frames += 1
        missed += shown.missed
        stillSince = !result.animating && result.state != .done ? (Monotonic.now(), ProcessClock.cpuSeconds()) : nil
        guard first == nil else { return }
        let sinceStart = ProcessClock.secondsSinceProcessStart().map { String(cFormat: "%.1f ms after process start, ", $0 * 1000) } ?? ""
        printStatus("first frame on screen " + sinceStart
                    + String(cFormat: "%.1f ms after opening the display, on ", (Monotonic.now() - opened) * 1000) + presenter.description)
        first = (shown.time, ProcessClock.cpuSeconds())
    }

    func summary(writesFiles: Bool) -> String? {
        if let stillSince, !writesFiles {
            return String(cFormat: "held a still picture %.2f s: %ld frames presented after the first (each a change of the picture), CPU %.3f s",
                          Monotonic.now() - stillSince.time, max(0, frames - 1), ProcessClock.cpuSeconds() - stillSince.cpu)
        }
        guard let first, frames > 1, !writesFiles else { return nil }
        let after = frames - 1
        let seconds = Monotonic.now() - first.time
        return String(cFormat: "presented %ld frames in %.2f s after the first (%.1f per second), %ld refreshes missed, CPU %.2f ms per frame",
                      after, seconds, Double(after) / max(seconds, 1e-9), missed, (ProcessClock.cpuSeconds() - first.cpu) * 1000 / Double(after))
    }
}

/// The process's own clocks, for the figures `buoy play` reports.
enum ProcessClock {
    /// User plus system CPU time of the whole process.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Seconds since the kernel started this process (exec, loading, runtime start-up
    /// included), from /proc/self/stat's start time in clock ticks since boot; nil without /proc.
    static func secondsSinceProcessStart() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after "pid (comm)": state is field 3, starttime field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        var boot = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        let now = Double(boot.tv_sec) + Double(boot.tv_nsec) / 1e9
        return now - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
