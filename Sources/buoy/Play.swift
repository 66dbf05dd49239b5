import ArgumentParser
import Display
import Foundation
import LottieModel
import LottieRender
import Player
import Posix
import Raster
import Synchronization

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

        let viewport = Viewport(width: presenter.width, height: presenter.height, contentMode: contentMode)
        let clock = VirtualClock(now: presenter.nextPresentationTime())
        let player = AnimationPlayer(animation: anim, clock: clock)
        player.speed = speed
        var finished = false
        player.play(fromProgress: fromProgress, toProgress: toProgress, loopMode: loop ? .loop : .playOnce) { _ in finished = true }
        var surface = Surface(width: presenter.width, height: presenter.height)
        let start = clock.now
        var sequence = 0
        printStatus("playing on \(presenter.description)")
        var version: UInt64 = 0
        var renderSeconds = 0.0  // recent rendering time, to predict when a frame will show
        var figures = PlaybackFigures()
        var reported = ReportedWarnings()
        let idle = try IdleWait(stop: stop)
        // After the loop, however it ends.
        defer { if let summary = figures.summary(writesFiles: presenter.writesFiles) { printStatus(summary) } }
        while !stop.requested {
            // Render each frame for the instant it will be seen: the first refresh after
            // rendering can finish. A slow frame thus skips ahead; the animation never slows.
            clock.now = presenter.presentationTime(notBefore: Monotonic.now() + renderSeconds)
            let frame = player.tick()
            let renderStart = Monotonic.now()
            let drew = renderer.renderIfChanged(frame: frame, viewport: viewport, background: background.color, into: &surface)
            if drew {
                version &+= 1
                for warning in reported.fresh(renderer.warnings) { printWarning("\(animation): \(warning)") }
            }
            // Up at once, down slowly: a prediction that falls short shows the frame late (its
            // animation time behind), one that is long holds it back. The first frame (cold
            // caches) is no guide.
            let took = Monotonic.now() - renderStart
            if drew && sequence > 0 { renderSeconds = took > renderSeconds ? took : 0.7 * renderSeconds + 0.3 * took }
            if !drew && sequence > 0 && !presenter.writesFiles {
                // The picture on screen is this one already: no frame, no page flip (as the
                // kiosk's loop does).
                guard try waitForChange(player, idle, nextRefresh: clock.now, start: start, figures: &figures) else { break }
                continue
            }
            let shown: Presentation
            do { shown = try presenter.present(surface, version: version) } catch let error as DisplayError {
                throw CommandFailure.display("\(error)")
            }
            traceFile?.record(FrameTrace.Entry(sequence: sequence, time: shown.time - start, frame: frame,
                                               progress: player.progress(forFrame: frame), download: nil,
                                               state: finished ? "done" : "playing", speed: player.speed, missed: shown.missed))
            figures.shown(shown, on: presenter)
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

extension Play {
    /// Whether the player can no longer change the frame: it stopped, or its segment is a
    /// single instant (a held frame, looping or not).
    static func pictureIsStill(_ player: AnimationPlayer, fromProgress: Double, toProgress: Double) -> Bool {
        !player.isPlaying || fromProgress == toProgress
    }

    /// Nothing new to show. A picture that can no longer change is held until the end (a
    /// stop signal or --duration) with no CPU meanwhile: false, playback is over. Else the
    /// next refresh is waited for: true while --duration has not run out.
    func waitForChange(_ player: AnimationPlayer, _ idle: IdleWait, nextRefresh: Double, start: Double,
                       figures: inout PlaybackFigures) throws -> Bool {
        let end = duration.map { start + $0 }
        if Self.pictureIsStill(player, fromProgress: fromProgress, toProgress: toProgress) {
            try idle.hold(until: end, figures: &figures)
            return false
        }
        try idle.sleep(until: nextRefresh)
        return end.map { nextRefresh < $0 } ?? true
    }
}

/// Where `buoy play` sleeps while the picture on screen stays as it is: one epoll on the
/// stop signals' eventfd, the same loop the kiosk sleeps in, so a held picture costs no
/// CPU and a SIGINT/SIGTERM still ends it at once.
struct IdleWait {
    private let loop: EventLoop
    private let stop: StopRequest

    init(stop: StopRequest) throws {
        self.stop = stop
        loop = try EventLoop()
        if stop.wakeDescriptor >= 0 { try loop.watch(stop.wakeDescriptor, name: "signals") }
    }

    /// Until `deadline` (monotonic seconds) or a stop signal.
    func sleep(until deadline: Double) throws {
        while !stop.requested && Monotonic.now() < deadline {
            for ready in try loop.wait(until: deadline) where ready.fd == stop.wakeDescriptor { stop.drainWake() }
        }
    }

    /// Holds the picture until `end` (nil: until a stop signal), and reports what that cost.
    func hold(until end: Double?, figures: inout PlaybackFigures) throws {
        let since = Monotonic.now()
        let cpu = ProcessClock.cpuSeconds()
        while !stop.requested {
            if let end, Monotonic.now() >= end { break }
            for ready in try loop.wait(until: end) where ready.fd == stop.wakeDescriptor { stop.drainWake() }
        }
        figures.held = (Monotonic.now() - since, ProcessClock.cpuSeconds() - cpu)
    }
}

/// What `buoy play` reports: when the first frame reached the screen, and what pacing and the
/// CPU did after it (startup, parsing and the modeset are left out of the per-frame cost).
struct PlaybackFigures {
    let opened = Monotonic.now()
    var frames = 0
    var missed = 0
    var first: (time: Double, cpu: Double)?
    /// A still picture held without frames: for how long, and the CPU it took meanwhile.
    var held: (seconds: Double, cpu: Double)?

    mutating func shown(_ shown: Presentation, on presenter: Presenter) {
        frames += 1
        missed += shown.missed
        guard first == nil else { return }
        let sinceStart = ProcessClock.secondsSinceProcessStart().map { String(format: "%.1f ms after process start, ", $0 * 1000) } ?? ""
        printStatus("first frame on screen " + sinceStart
                    + String(format: "%.1f ms after opening the display, on ", (Monotonic.now() - opened) * 1000) + presenter.description)
        first = (shown.time, ProcessClock.cpuSeconds())
    }

    func summary(writesFiles: Bool) -> String? {
        if let held {
            return String(format: "held a still picture %.2f s: %d frames presented after the first, no page flip, CPU %.3f s",
                          held.seconds, max(0, frames - 1), held.cpu)
        }
        guard let first, frames > 1, !writesFiles else { return nil }
        let after = frames - 1
        let seconds = Monotonic.now() - first.time
        return String(format: "presented %d frames in %.2f s after the first (%.1f per second), %d refreshes missed, CPU %.2f ms per frame",
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

/// The first SIGINT or SIGTERM received (0: none). A plain handler stores it: it runs on
/// whichever thread the kernel picks and only does an atomic store and a write(2) to an
/// eventfd, both async-signal-safe. (A DispatchSource lost signals on Linux: libdispatch reads
/// them from a signalfd on its own thread after re-raising them on the thread they hit, and a
/// SIGTERM that hit the main thread of `buoy run` with download threads around was never
/// seen, so the daemon ran on.)
private let receivedStopSignal = Atomic<Int32>(0)
/// The eventfd the handler writes to, so an event loop asleep in epoll_wait wakes at once
/// (-1: none yet). Process-wide like the handler itself.
private let stopWakeDescriptor = Atomic<Int32>(-1)
/// The eventfd itself: made once and never closed, so the handler never writes to a number
/// that was closed and reused.
private let stopSignalWaker: Waker? = try? Waker()

/// SIGINT and SIGTERM end the frame loop cleanly (the display is restored on the way out).
/// Loops poll `requested`, or watch `wakeDescriptor`; blocking waits (poll on the DRM device)
/// return early with EINTR.
final class StopRequest: Sendable {
    private var waker: Waker? { stopSignalWaker }

    init() {
        _ = receivedStopSignal.load(ordering: .relaxed)  // initialized before any handler can run
        if let waker { stopWakeDescriptor.store(waker.fd, ordering: .relaxed) }
        for sig in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                _ = receivedStopSignal.compareExchange(expected: 0, desired: sig, ordering: .relaxed)
                var one: UInt64 = 1
                let fd = stopWakeDescriptor.load(ordering: .relaxed)
                if fd >= 0 { _ = write(fd, &one, 8) }
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
    }

    var requested: Bool { signal != nil }

    var signal: Int32? {
        let sig = receivedStopSignal.load(ordering: .relaxed)
        return sig == 0 ? nil : sig
    }

    /// Readable once a stop signal arrived (-1 if no eventfd could be made: loops then wake
    /// on EINTR alone).
    var wakeDescriptor: Int32 { waker?.fd ?? -1 }

    func drainWake() { waker?.drain() }
}
