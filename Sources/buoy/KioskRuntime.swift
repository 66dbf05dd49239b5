import Control
import Display
import Download
import FoundationEssentials
import Glibc
import Input
import Kiosk
import Posix

/// The kiosk's event loop: one epoll over the control socket and its clients, the input
/// devices and their inotify watch, the psplash FIFO, the frame thread's eventfd and the
/// stop signals' eventfd; its timeout is the next timer (a retry, progress to subscribers,
/// the transfer's next step, the next frame of an animation that runs). Each event goes
/// through the `KioskController`, and the loop carries out the effects it returns. When
/// nothing on screen can change and no event comes, it sleeps: no frame, no page flip.
/// `run`, `demo`, `fetch`'s screen and `play` all run here (`play` with no socket, input or
/// FIFO, its scene an animation alone).
final class KioskRuntime {
    enum Timer: Hashable {
        case kiosk(KioskTimer)
        /// The transfer's timer (curl's, a retry of a file, hashing to catch up).
        case download
        /// The next step of the animation's own refresh (a cached animation URL).
        case animationRefresh
        /// The next frame, when the last one showed nothing new and the animation runs.
        case frame
        /// A queued page flip that never came.
        case flipTimeout
        /// The control server again: requests it holds beyond one poll's share, and clients
        /// being let go whose grace ran out.
        case controlPoll
    }

    var controller: KioskController
    let loop: EventLoop
    let frames: FrameWorker
    let frameWaker: Waker
    let stop: StopRequest
    let control: ControlServer?
    /// Where socket clients' fetches are confined.
    let downloads: DownloadDirectory?
    /// Retries, timeouts and trusted authorities of every transfer.
    let policy: DownloadPolicy
    let input: InputWatcher?
    let fifo: PsplashFIFO?
    var animationRefresh: AnimationCache.Refresh?
    let presenter: Presenter
    let touchPrompt: Bool
    let interactive = isatty(STDERR_FILENO) != 0

    var timers = Timers<Timer>()
    var session: DownloadSession?
    var lastFraction: Double??
    var meter = RateMeter()
    /// The status line's text and its geometry (a touch on the prompt answers it).
    var message = ""
    var promptLine: StatusLine
    /// Screen commands and a new message waiting for the next frame.
    var job = FrameWorker.Job()
    var jobDirty = true
    var frameInFlight = false
    /// The last frame asked for more (the animation runs).
    var animating = true
    var frameError: Error?
    /// A frame whose page flip is queued (DRM), waiting for its event.
    var pendingFlip: FrameWorker.Result?
    var watchedSources: [Int32: Bool] = [:]
    var controlDescriptors: Set<Int32> = []
    /// curl's sockets and what it wants them watched for.
    var curlSockets: [Int32: SocketInterest] = [:]
    /// Told of every frame that reached the display or file, on the loop's thread (`play`'s figures).
    var framePresented: ((FrameWorker.Result) -> Void)?

    init(controller: KioskController, frames: FrameWorker, frameWaker: Waker, stop: StopRequest, presenter: Presenter,
         control: ControlServer?, downloads: DownloadDirectory?, policy: DownloadPolicy, input: InputWatcher?, fifo: PsplashFIFO?,
         animationRefresh: AnimationCache.Refresh?, touchPrompt: Bool) throws {
        self.controller = controller
        self.frames = frames
        self.frameWaker = frameWaker
        self.stop = stop
        self.presenter = presenter
        self.control = control
        self.downloads = downloads
        self.policy = policy
        self.input = input
        self.fifo = fifo
        self.animationRefresh = animationRefresh
        self.touchPrompt = touchPrompt
        promptLine = StatusLine(text: "", width: presenter.width, height: presenter.height)
        loop = try EventLoop()
    }

    /// Runs until the controller ends it; returns how it ended.
    func run() throws -> KioskOutcome {
        try loop.watch(frameWaker.fd, name: "frame thread")
        if stop.wakeDescriptor >= 0 { try loop.watch(stop.wakeDescriptor, name: "signals") }
        if let fifo { try loop.watch(fifo.fd, name: fifo.path) }
        try syncWatches()
        if animationRefresh != nil { timers.set(.animationRefresh, at: 0) }
        try frames.startThread()
        defer { frames.stop() }
        perform(controller.handle(.start, at: Monotonic.now()))
        while controller.outcome == nil {
            if let frameError { throw frameError }
            let ready = try loop.wait(until: nextDeadline())
            dispatch(ready)
            if let signal = stop.signal { perform(controller.handle(.signal(signal), at: Monotonic.now())) }
            runTimers()
            submitFrameIfWanted()
            try syncWatches()
        }
        finishLastFrame()
        if interactive && session != nil { FileHandleWriter.stderr("\n") }
        return controller.outcome ?? .quit
    }

    private func nextDeadline() -> Double? {
        // A frame is made as soon as the previous one is done and there is something to show.
        if !frameInFlight && jobDirty { return Monotonic.now() }
        return timers.next
    }

    /// Every descriptor of the control socket (for writing too where a reply waits) and the
    /// input devices, added, changed or dropped as clients and devices come and go.
    func syncWatches() throws {
        var wanted: [Int32: Bool] = [:]
        for p in control?.pollDescriptors ?? [] { wanted[p.fd] = p.events & Int16(POLLOUT) != 0 }
        for fd in input?.descriptors ?? [] { wanted[fd] = false }
        // A number closed here and reused by curl in the meantime is curl's now: left watched.
        for fd in watchedSources.keys where wanted[fd] == nil && curlSockets[fd] == nil { loop.unwatch(fd) }
        for (fd, writable) in wanted { try loop.watch(fd, readable: true, writable: writable, name: "control socket or input device") }
        controlDescriptors = Set((control?.pollDescriptors ?? []).map(\.fd))
        watchedSources = wanted
    }

    private func dispatch(_ ready: [EventLoop.Ready]) {
        var sourcesChanged = false
        var inputRead = false
        for r in ready {
            let now = Monotonic.now()
            if curlSockets[r.fd] != nil, let session {
                session.socketAction(fd: r.fd, readable: r.readable || r.hangup, writable: r.writable)
                transferAdvanced(at: now)
            } else if r.fd == presenter.flipDescriptor {
                flipEvent(at: now)
            } else if r.fd == frameWaker.fd {
                frameWaker.drain()
                frameFinished(at: now)
            } else if r.fd == stop.wakeDescriptor {
                stop.drainWake()
            } else if let fifo, r.fd == fifo.fd {
                handlePsplash(fifo, at: now)
            } else if controlDescriptors.contains(r.fd) {
                if !sourcesChanged { handleControl(at: now) }
                sourcesChanged = true
            } else if watchedSources[r.fd] != nil, !inputRead {
                handleInput(at: now)
                inputRead = true
                sourcesChanged = true
            }
        }
    }

    private func runTimers() {
        for timer in timers.takeDue(at: Monotonic.now()) {
            let now = Monotonic.now()
            switch timer {
            case .kiosk(let t): perform(controller.handle(.timer(t), at: now))
            case .download: stepDownload(at: now)
            case .animationRefresh: stepAnimationRefresh(at: now)
            case .frame: jobDirty = true
            case .controlPoll: handleControl(at: now)
            case .flipTimeout:
                if pendingFlip != nil { frameError = DisplayError(device: presenter.description, reason: "no page-flip event within 1 s") }
            }
        }
    }

    private func stepDownload(at now: Double) {
        guard let session, controller.transferring else { return }
        session.timerFired()
        transferAdvanced(at: now)
    }

    /// After curl ran: the new fraction to the screen, and the end of the transfer.
    func transferAdvanced(at now: Double) {
        guard let session, controller.transferring else { return }
        let fraction = session.status.fraction
        if lastFraction == nil || lastFraction! != fraction {
            lastFraction = fraction
            perform(controller.handle(.progress(fraction: fraction), at: now))
        }
        if session.isFinished {
            let failure = session.status.succeeded ? nil : session.status.errors.map { "\($0)" }.joined(separator: "; ")
            perform(controller.handle(.transferEnded(failure: failure), at: now))
        }
    }

    /// A new transfer, driven by this loop: curl says which sockets to watch and when its
    /// timer is due (`curl_multi_socket_action`), nothing is stepped on a schedule.
    func startTransfer(_ files: [DownloadRequest]) {
        for fd in curlSockets.keys { loop.unwatch(fd) }
        curlSockets = [:]
        session = nil  // the previous one lets go of its sockets first
        let next = DownloadSession(requests: files, policy: policy)
        session = next
        lastFraction = nil
        meter.reset()
        // Weak: a session still running when the loop ends lets go of its sockets after it.
        next.useEventLoop(onSocket: { [weak self] fd, interest in
            guard let self else { return }
            if interest == .remove {
                curlSockets[fd] = nil
                loop.unwatch(fd)
            } else {
                curlSockets[fd] = interest
                try? loop.watch(fd, readable: interest != .write, writable: interest != .read, name: "download socket")
            }
        }, onTimer: { [weak self] milliseconds in
            guard let self else { return }
            if let milliseconds {
                timers.set(.download, at: Monotonic.now() + Double(milliseconds) / 1000)
            } else {
                timers.cancel(.download)
            }
        })
    }

    private func stepAnimationRefresh(at now: Double) {
        guard let refresh = animationRefresh else { return }
        refresh.step()
        if refresh.isFinished {
            if let report = refresh.report { printStatus(report) }
            animationRefresh = nil
        } else {
            timers.set(.animationRefresh, at: now + 0.05)
        }
    }
}
