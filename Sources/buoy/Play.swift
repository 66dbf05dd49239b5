import ArgumentParser
import Display
import Foundation
import LottieModel
import LottieRender
import Player
import Raster

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
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
        slows the animation. SIGINT/SIGTERM restore the console and the previous display mode.
        """
    )

    @Argument(help: "The Lottie JSON file.")
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

    func validate() throws {
        guard speed.isFinite, speed != 0 else { throw ValidationError("--speed must be a non-zero number") }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be positive") }
        for p in [fromProgress, toProgress] where !(p >= 0 && p <= 1) { throw ValidationError("progress must be within 0...1") }
        if loop && duration == nil && output.writesFiles { throw ValidationError("--loop to files needs --duration") }
    }

    func run() throws {
        var renderer = try loadRenderer(path: animation)
        for assignment in assignments where assignment.bind(to: &renderer) == 0 {
            throw CommandFailure.badArguments("--set \(assignment.keypath): matches no property of that value type")
        }
        let anim = renderer.animation
        // Handlers first: a signal while the display is being opened (the console already
        // in graphics mode) still ends in `close()`, which restores it.
        let stop = StopRequest()
        let presenter = try output.openPresenter(animationSize: (Int(anim.width.rounded()), Int(anim.height.rounded())))
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

        let viewport = Viewport(width: presenter.width, height: presenter.height, contentMode: contentMode)
        let clock = VirtualClock(now: presenter.nextPresentationTime())
        let player = AnimationPlayer(animation: anim, clock: clock)
        player.speed = speed
        var finished = false
        player.play(fromProgress: fromProgress, toProgress: toProgress, loopMode: loop ? .loop : .playOnce) { _ in finished = true }
        var surface = Surface(width: presenter.width, height: presenter.height)
        let start = clock.now
        var sequence = 0
        let wallStart = DRMPresenter.monotonicNow()
        printStatus("playing on \(presenter.description)")
        var version: UInt64 = 0
        var renderSeconds = 0.0  // recent rendering time, to predict when a frame will show
        while !stop.requested {
            // Render each frame for the instant it will be seen: the first refresh after
            // rendering can finish. A slow frame thus skips ahead; the animation never slows.
            clock.now = presenter.presentationTime(notBefore: DRMPresenter.monotonicNow() + renderSeconds)
            let frame = player.tick()
            let renderStart = DRMPresenter.monotonicNow()
            if renderer.renderIfChanged(frame: frame, viewport: viewport, background: background.color, into: &surface) {
                version &+= 1
                renderSeconds = 0.7 * renderSeconds + 0.3 * (DRMPresenter.monotonicNow() - renderStart)
            }
            let shown: Presentation
            do { shown = try presenter.present(surface, version: version) } catch let error as DisplayError {
                throw CommandFailure.display("\(error)")
            }
            traceFile?.record(FrameTrace.Entry(sequence: sequence, time: shown.time - start, frame: frame,
                                               progress: player.progress(forFrame: frame), download: nil,
                                               state: finished ? "done" : "playing", speed: player.speed, missed: shown.missed))
            if sequence == 0 {
                printStatus(String(format: "first frame on screen %.1f ms after start", (DRMPresenter.monotonicNow() - wallStart) * 1000)
                            + " on \(presenter.description)")
            }
            sequence += 1
            if finished && !player.isPlaying { break }
            if let duration, clock.now - start >= duration { break }
        }
        if let signal = stop.signal {
            presenter.close()
            throw CommandFailure(message: "stopped by signal \(signal)", exitCode: 128 + signal)
        }
    }
}

/// SIGINT and SIGTERM end the frame loop cleanly (the display is restored on the way out).
final class StopRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32?
    private var sources: [DispatchSourceSignal] = []

    init() {
        for sig in [SIGINT, SIGTERM] {
            Glibc.signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in self?.set(sig) }
            source.resume()
            sources.append(source)
        }
    }

    private func set(_ sig: Int32) {
        lock.lock(); defer { lock.unlock() }
        if received == nil { received = sig }
    }

    var requested: Bool { signal != nil }

    var signal: Int32? {
        lock.lock(); defer { lock.unlock() }
        return received
    }
}
