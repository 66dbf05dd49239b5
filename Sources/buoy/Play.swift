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
        --display auto tries DRM, then fbdev. headless:DIR writes frame-000000.png … at --fps
        (keeping every --every-th); y4m:PATH (or y4m:-) streams video for ffmpeg. Frame times are
        presentation times: a slow frame makes the next one skip ahead, never slows the
        animation. SIGINT/SIGTERM restore the console and the previous display mode.
        """
    )

    @Argument(help: "The Lottie JSON file.")
    var animation: String

    @Option(help: "auto, drm[:/dev/dri/cardN], fbdev[:/dev/fbN], headless:DIR or y4m:PATH|-")
    var display: String = "auto"

    @Option(help: "Output size WxH for headless and y4m (default: the animation's size).")
    var size: Size?

    @Option(help: "DRM mode WxH[@HZ] (default: the connector's preferred mode).")
    var mode: String?

    @Option(help: "Virtual refresh rate for headless and y4m.")
    var fps: Double = 60

    @Option(help: "Keep every Nth frame (headless).")
    var every: Int = 1

    @Option(help: "Turn the picture 0, 90, 180 or 270 degrees clockwise (on top of the panel's own orientation).")
    var rotate: Int = 0

    @Option(name: .customLong("pixel-format"), help: "DRM scan-out format: auto (XRGB8888, else RGB565), xrgb8888 or rgb565.")
    var pixelFormat: String = "auto"

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
        guard DisplaySpec(display) != nil else { throw ValidationError("--display: expected auto, drm[:DEV], fbdev[:DEV], headless:DIR or y4m:PATH") }
        guard Rotation(rawValue: rotate) != nil else { throw ValidationError("--rotate must be 0, 90, 180 or 270") }
        guard ["auto", "xrgb8888", "rgb565"].contains(pixelFormat) else { throw ValidationError("--pixel-format must be auto, xrgb8888 or rgb565") }
        if let mode, ModeRequest(mode) == nil { throw ValidationError("--mode: expected WxH or WxH@HZ, e.g. 1280x720@60") }
        guard fps > 0, fps <= 1000 else { throw ValidationError("--fps must be in (0, 1000]") }
        guard every >= 1 else { throw ValidationError("--every must be at least 1") }
        guard speed.isFinite, speed != 0 else { throw ValidationError("--speed must be a non-zero number") }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be positive") }
        for p in [fromProgress, toProgress] where !(p >= 0 && p <= 1) { throw ValidationError("progress must be within 0...1") }
        if loop && duration == nil, let spec = DisplaySpec(display) {
            switch spec {
            case .headless, .y4m: throw ValidationError("--loop to files needs --duration")
            default: break
            }
        }
    }

    func run() throws {
        var renderer = try loadRenderer(path: animation)
        for assignment in assignments where assignment.bind(to: &renderer) == 0 {
            throw CommandFailure.badArguments("--set \(assignment.keypath): matches no property of that value type")
        }
        let anim = renderer.animation
        let presenter: Presenter
        do {
            presenter = try openPresenter(DisplaySpec(display)!, animationSize: (Int(anim.width.rounded()), Int(anim.height.rounded())))
        } catch let error as DisplayError {
            throw CommandFailure.display("\(error)")
        }
        let stop = StopRequest()
        defer { presenter.close() }
        let traceFile = try trace.map { path in
            do { return try FrameTrace(path: path) } catch { throw CommandFailure.output("\(error)") }
        }
        defer { traceFile?.close() }

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

    func openPresenter(_ spec: DisplaySpec, animationSize: (Int, Int)) throws -> Presenter {
        let turn = Rotation(rawValue: rotate)!
        let w = size?.width ?? animationSize.0, h = size?.height ?? animationSize.1
        switch spec {
        case .headless(let dir): return try HeadlessPresenter(directory: dir, width: w, height: h, fps: fps, every: every)
        case .y4m(let path): return try Y4MPresenter(path: path, width: w, height: h, fps: fps)
        case .drm(let device):
            return try DRMPresenter(device: device, modeRequest: mode.flatMap(ModeRequest.init), rotate: turn,
                                    format: PixelFormat(rawValue: pixelFormat))
        case .fbdev(let device): return try FBDevPresenter(device: device, rotate: turn)
        case .auto:
            do {
                return try DRMPresenter(device: nil, modeRequest: mode.flatMap(ModeRequest.init), rotate: turn)
            } catch let drmError as DisplayError {
                do { return try FBDevPresenter(device: "/dev/fb0", rotate: turn) } catch let fbError as DisplayError {
                    throw DisplayError(device: "auto", reason: "no display: DRM (\(drmError)); fbdev (\(fbError))")
                }
            }
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
