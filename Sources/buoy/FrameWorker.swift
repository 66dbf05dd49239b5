import Display
import Glibc
import Kiosk
import LottieRender
import Player
import Posix
import Raster

/// The frames of a scene (the download screen, or `buoy play`'s animation), on a thread of
/// their own: the event loop hands it the screen commands gathered since the last frame, and
/// it applies them, ticks the scene, renders (when anything changed) and presents, then wakes
/// the loop with the result. The scene, the surface, the status line, the presenter and the
/// trace belong to this thread while a frame is made and are touched by no one else: the loop
/// keeps answering requests, presses and psplash lines while a frame renders or waits for its
/// refresh.
final class FrameWorker: @unchecked Sendable {
    enum Command {
        case screen(ScreenCommand)
        /// The status line's new text.
        case message(String)
        /// The transfer's bytes and rate, for the progress line.
        case figures(TransferFigures)

        /// Whether it changes the screen's state (not just the water or the text).
        var changesState: Bool {
            switch self {
            case .screen(.progress), .message, .figures: return false
            case .screen: return true
            }
        }
    }

    struct Job {
        var commands: [Command] = []

        /// The commands for the next frame: up to the second change of state, so every state
        /// is on screen for at least one frame (a retry that fails at once still shows that it
        /// started). The rest stays for the frame after.
        mutating func takeFrame() -> Job {
            var changes = 0
            let end = commands.firstIndex { command in
                if command.changesState { changes += 1 }
                return changes == 2
            } ?? commands.count
            let frame = Job(commands: Array(commands[..<end]))
            commands.removeFirst(end)
            return frame
        }
    }

    struct Result {
        var state: DownloadScreen.State
        /// The picture may change by itself (frames are wanted even without events).
        var animating: Bool
        /// A still picture wants a frame all the same at this time (the end of `--duration`).
        var wakeTime: Double?
        /// The frame went to the display (or file); false when nothing changed.
        var presented: Bool
        /// The time the frame was rendered for (the presenter's clock).
        var time: Double
        var error: Error?
        /// The frame's page flip is queued: the loop waits for its event on the presenter's
        /// `flipDescriptor`, then calls `flipCompleted`. Its trace line waits with it.
        var flipPending = false
        var trace: FrameTrace.Entry?
        /// When the frame reached the screen, once it did.
        var shown: Presentation?
        /// Renderer warnings that first appeared with this frame: the loop prints them (this
        /// thread does not write to stderr).
        var warnings: [String] = []
    }

    private let presenter: Presenter
    private let viewport: Viewport
    private let makeScene: () -> any FrameScene
    private let clock: VirtualClock
    private let trace: FrameTrace?
    private let waker: Waker
    private let background: Color
    /// Frames to files or a stream follow the wall clock (the kiosk's picture follows the real
    /// download); `play` writes them as fast as they render.
    private let pacesFilesToWallClock: Bool
    /// Put before each renderer warning (the file's name, where the user gave one).
    private let warningPrefix: String
    private var scene: any FrameScene
    private var status: StatusLine
    /// What the status line is made of: the message, the transfer's figures, the words and
    /// fonts; it is set again only when the text it shows changes.
    private let text: ScreenTextOptions
    private let fonts = StatusFonts()
    private var message = ""
    private var figures: TransferFigures?
    private var statusProgress: [String] = []
    /// The rows of the status band last drawn (under `condition`: the loop reads it for touches).
    private var drawnBand: Range<Int>?
    /// The rows the status band was last drawn over on `surface`.
    private var statusRows: Range<Int>?
    private var surface: Surface
    private var version: UInt64 = 0
    private var statusChanged = true
    private var renderTime = RenderTimePrediction()
    private var sequence = 0
    private var reported = ReportedWarnings()
    private let start: Double
    private let wallStart = Monotonic.now()

    private let condition = Condition()
    private var pending: Job?
    private var finished: Result?
    private var stopping = false
    private var thread: PosixThread?

    init(presenter: Presenter, viewport: Viewport, clock: VirtualClock, trace: FrameTrace?, waker: Waker, background: Color = .black,
         pacesFilesToWallClock: Bool = true, warningPrefix: String = "", text: ScreenTextOptions = ScreenTextOptions(),
         makeScene: @escaping () -> any FrameScene) {
        self.text = text
        self.presenter = presenter
        self.viewport = viewport
        self.clock = clock
        self.trace = trace
        self.waker = waker
        self.background = background
        self.pacesFilesToWallClock = pacesFilesToWallClock
        self.warningPrefix = warningPrefix
        self.makeScene = makeScene
        scene = makeScene()
        status = StatusLine(text: "", width: presenter.width, height: presenter.height)
        // Made in the background colour: the first frame's clear then fills nothing again.
        surface = Surface(width: presenter.width, height: presenter.height, clearColor: background)
        start = clock.now
    }

    /// Whether the animation has the property the download drives (before the thread starts).
    var drivesProperty: Bool { (scene as? DownloadScreen)?.drivesProperty ?? false }

    func startThread() throws {
        thread = try PosixThread(name: "buoy-frames") { [self] in self.work() }
    }

    /// Hands the next frame to the thread (the previous one must be finished).
    func submit(_ job: Job) {
        condition.lock()
        pending = job
        condition.signal()
        condition.unlock()
    }

    /// The finished frame, once the waker fired.
    func takeResult() -> Result? {
        condition.lock()
        defer { condition.unlock() }
        let result = finished
        finished = nil
        return result
    }

    /// Ends the thread after the frame it is making; returns when it is gone.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        thread?.join()
    }

    private func work() {
        while true {
            condition.lock()
            while pending == nil && !stopping { condition.wait() }
            guard !stopping, let job = pending else { condition.unlock(); return }
            pending = nil
            condition.unlock()
            let result = frame(job)
            condition.lock()
            finished = result
            condition.unlock()
            waker.wake()
        }
    }

    private func apply(_ job: Job) {
        for item in job.commands {
            guard case .screen(let command) = item else {
                if case .message(let text) = item { message = text }
                if case .figures(let figures) = item { self.figures = figures }
                continue
            }
            // A new job or a retry starts from a fresh screen (and without the last one's figures).
            if case .downloading(fresh: true) = command {
                scene = makeScene()
                figures = nil
            }
            scene.apply(command)
        }
    }

    /// One frame: rendered for the instant it will be seen, presented when it differs from
    /// the last (files and streams get every frame: their time is the frame count).
    private func frame(_ job: Job) -> Result {
        apply(job)
        clock.now = presenter.presentationTime(notBefore: Monotonic.now() + renderTime.seconds)
        if presenter.writesFiles && pacesFilesToWallClock {
            // Virtual time, paced to the wall clock so the picture follows the real download.
            let ahead = (clock.now - start) - (Monotonic.now() - wallStart)
            if ahead > 0 { usleep(useconds_t(min(ahead, 1) * 1e6)) }
        }
        let frame = scene.tick()
        updateStatus()
        let renderStart = Monotonic.now()
        // Rows the status band was drawn over, and will be: a frame drawn over the one before
        // (its damage only) draws them anew.
        let overdrawn = [statusRows, status.band].compactMap { $0 }.reduce(PixelRect.empty) {
            $0.union(PixelRect(x0: 0, y0: $1.lowerBound, x1: surface.width, y1: $1.upperBound))
        }
        var drew = scene.render(frame: frame, viewport: viewport, background: background, into: &surface, overdrawn: overdrawn)
        if statusChanged {
            if !drew { scene.renderer.render(frame: frame, viewport: viewport, background: background, into: &surface) }
            drew = true
        }
        if drew {
            status.draw(into: &surface)
            statusRows = status.band
            statusChanged = false
            version &+= 1
            renderTime.add(Monotonic.now() - renderStart)
        }
        var result = Result(state: scene.state, animating: scene.isAnimating, wakeTime: scene.wakeTime, presented: false, time: clock.now)
        if drew { result.warnings = reported.fresh(scene.renderer.warnings).map { warningPrefix + $0 } }
        guard drew || presenter.writesFiles else { return result }
        result.trace = scene.traceEntry(frame: frame)
        result.trace?.sequence = sequence
        sequence += 1
        do {
            if let shown = try presenter.queue(surface, version: version) {
                record(shown, &result)
            } else {
                result.flipPending = true
            }
        } catch {
            result.error = error
        }
        return result
    }

    /// The status line for the screen's state: set again (and the frame redrawn under it) when
    /// its text changed since the last frame.
    private func updateStatus() {
        // An animation alone (`play`) has no download to show.
        let screen = scene as? DownloadScreen
        let fraction = scene.state == .idle || scene.state == .waiting ? nil : screen?.downloadFraction
        let progress = text.showsProgress && screen != nil
            ? ProgressLine.candidates(state: scene.state, fraction: fraction, figures: figures, prompts: text.prompts) : []
        // The bar in steps of a thousandth: finer steps would set the text again for nothing.
        let bar = text.showsProgress && !progress.isEmpty ? fraction.map { ($0 * 1000).rounded() / 1000 } : nil
        guard message != status.text || progress.first != statusProgress.first || bar != status.fraction else { return }
        status = StatusLine(text: message, progress: progress, fraction: bar, width: presenter.width, height: presenter.height, fonts: fonts)
        statusProgress = progress
        statusChanged = true
        condition.lock()
        drawnBand = status.band
        condition.unlock()
    }

    /// Whether a point (in the screen's pixels) lies on the status band as drawn: a failure's
    /// band also holds the progress line above the message, and a touch there answers it too.
    func statusBandContains(y: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let drawnBand, y.isFinite else { return false }
        return y >= Double(drawnBand.lowerBound) && y < Double(drawnBand.upperBound)
    }

    /// The frame is on screen: its trace line, with the time it showed.
    private func record(_ shown: Presentation, _ result: inout Result) {
        result.presented = true
        result.flipPending = false
        result.shown = shown
        if var entry = result.trace {
            entry.time = shown.time - start
            entry.missed = shown.missed
            trace?.record(entry)
        }
    }

    /// On the loop's thread, when the presenter's `flipDescriptor` is readable and the frame
    /// `pending` waits for its flip (the frame thread is idle meanwhile): the finished frame,
    /// or nil while the flip has not come.
    func flipCompleted(_ pending: Result) throws -> Result? {
        guard let presentation = try presenter.flipCompleted() else { return nil }
        var result = pending
        record(presentation, &result)
        return result
    }
}

/// How long rendering takes, to render each frame for the refresh it can make. Up at once,
/// down slowly: a prediction that falls short shows the frame late (its animation time
/// behind), one that is long holds it back a refresh. The first frame (cold caches) is no guide.
struct RenderTimePrediction {
    private(set) var seconds = 0.0
    private var frames = 0

    mutating func add(_ took: Double) {
        defer { frames += 1 }
        guard frames > 0 else { return }
        seconds = took > seconds ? took : 0.7 * seconds + 0.3 * took
    }
}
