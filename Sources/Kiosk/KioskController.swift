import Download
import Glibc

/// The kiosk's decisions as a state machine: events in (requests, presses, psplash lines,
/// transfer progress and results, timers, the screen's state after a frame), effects out. It
/// does no I/O and reads no clock: every event comes with its time, so a test drives it with
/// numbers, event by event, and the event loop carries out what it returns.
public struct KioskController {
    public let configuration: KioskConfiguration
    /// The screen's state as last commanded or reported.
    public private(set) var state: DownloadScreen.State = .idle
    /// The files of the current (or last) job; empty before the first.
    public private(set) var job: [DownloadRequest]
    /// A transfer is running (started and not yet ended).
    public private(set) var transferring = false
    /// Why the last transfer failed, until a new one starts.
    public private(set) var failure: String?
    public private(set) var failedAt: Double?
    /// How long after the failure the automatic retry starts; nil when none is due.
    public private(set) var retryDelay: Double?
    public private(set) var automaticRetries = 0
    /// The transfer's result reached the screen (success or failure), once per job.
    private var reported = false
    /// The state last published to subscribers.
    private var publishedState: DownloadScreen.State?
    public private(set) var outcome: KioskOutcome?

    /// Progress goes to subscribers this often while a job runs.
    public static let publishInterval = 0.2
    /// The longest wait between automatic retries (unless --retry-after is longer).
    public static let maxRetryDelay = 300.0

    public init(configuration: KioskConfiguration) {
        self.configuration = configuration
        job = configuration.job
    }

    static let running: Set<DownloadScreen.State> = [.downloading, .finishing, .success]

    public mutating func handle(_ event: KioskEvent, at now: Double) -> [KioskEffect] {
        guard outcome == nil else { return [] }
        switch event {
        case .start: return start(at: now)
        case .request(let client, let request): return handle(request, from: client, at: now)
        case .press(let code, let device, let time, let offPrompt): return press(code, device, time, offPrompt, at: now)
        case .psplash(let command): return psplash(command)
        case .progress(let fraction):
            return Self.running.contains(state) ? [.screen(.progress(fraction))] : []
        case .transferEnded(let failure): return transferEnded(failure, at: now)
        case .timer(.retry): return automaticRetry(at: now)
        case .timer(.publish):
            guard Self.running.contains(state) else { return [] }
            return [.publish(event: "progress", jobEnded: false), .setTimer(.publish, at: now + Self.publishInterval)]
        case .screen(let shown): return screenShown(shown, at: now)
        case .signal(let signal): return finish(.stopped(signal: signal))
        }
    }

    private mutating func start(at now: Double) -> [KioskEffect] {
        if configuration.trigger == .input && !job.isEmpty {
            state = .waiting
            return [.screen(.waiting), .showMessage(configuration.prompt)]
        }
        if job.isEmpty && !configuration.external {
            // A daemon with no job yet: the waves roll, nothing to wait for.
            state = .idle
            return [.screen(.idle)]
        }
        return beginJob(fresh: false, at: now)
    }

    /// The screen starts downloading and, when there are files, the transfer with it.
    private mutating func beginJob(fresh: Bool, at now: Double) -> [KioskEffect] {
        state = .downloading
        // A new job: its end is published even when it ends in the state the last one did.
        publishedState = nil
        reported = false
        failure = nil
        failedAt = nil
        retryDelay = nil
        var effects: [KioskEffect] = [.screen(.downloading(fresh: fresh))]
        if !job.isEmpty {
            transferring = true
            effects.append(.startTransfer(job))
        }
        return effects + [.cancelTimer(.retry), .setTimer(.publish, at: now + Self.publishInterval)]
    }

    private mutating func handle(_ request: KioskRequest, from client: Int32, at now: Double) -> [KioskEffect] {
        switch request {
        case .fetch(let file):
            if transferring { return [.reply(client: client, .error("busy: a download is running"))] }
            job = [file]
            automaticRetries = 0
            return [.showMessage("")] + beginJob(fresh: true, at: now)
                + [.subscribe(client: client, watching: false), .reply(client: client, .progress("accepted"))]
        case .status:
            return [.reply(client: client, .progress("status"))]
        case .watch:
            // Every progress event from now on, this job's and later ones', until the client leaves.
            return [.subscribe(client: client, watching: true), .reply(client: client, .progress("status"))]
        case .cancel:
            return (transferring ? [.cancelTransfer] : []) + [.reply(client: client, .ok)]
        case .message(let text):
            return [.showMessage(text), .reply(client: client, .ok)]
        case .quit:
            return [.reply(client: client, .ok)] + finish(.quit)
        case .invalid(let reason):
            return [.reply(client: client, .error(reason))]
        }
    }

    private mutating func press(_ code: UInt32, _ device: String, _ time: Double?, _ offPrompt: String?, at now: Double) -> [KioskEffect] {
        // Presses while the screen is busy, or with nothing to start, start nothing.
        guard !job.isEmpty, state == .waiting || state == .idle || state == .failed else { return [] }
        // After a failure only a press made since it counts as "retry".
        if state == .failed, let failedAt, let time, time < failedAt { return [] }
        if let offPrompt { return [.log(offPrompt)] }
        if state == .failed {
            // Try again: a fresh screen and transfer; the .part files resume.
            automaticRetries = 0
            return [.log("input: key \(code): retrying the download"), .showMessage("")] + beginJob(fresh: true, at: now)
        }
        return [.log("input: key \(code) on \(device): starting the download"), .showMessage("")] + beginJob(fresh: false, at: now)
    }

    private mutating func psplash(_ command: PsplashFIFO.Command) -> [KioskEffect] {
        switch command {
        case .progress(let p):
            return configuration.external && Self.running.contains(state) ? [.screen(.progress(p))] : []
        case .message(let text):
            return [.showMessage(text)]
        case .quit:
            guard configuration.external, !reported else { return [] }
            reported = true
            // psplash exits at once on QUIT; the success segment only when asked for.
            guard configuration.psplashQuit == .success else { return [.log("psplash: QUIT")] + finish(.psplashQuit) }
            return [.screen(.succeeded)]
        }
    }

    private mutating func transferEnded(_ failure: String?, at now: Double) -> [KioskEffect] {
        guard transferring else { return [] }
        transferring = false
        guard !reported else { return [] }
        reported = true
        guard let failure else { return [.screen(.succeeded)] }
        self.failure = failure
        state = .failed
        failedAt = now
        var effects: [KioskEffect] = [.screen(.failed(failure)), .warn(failure), .cancelTimer(.publish)]
        if let retryAfter = configuration.retryAfter, automaticRetries < configuration.maxRetries ?? .max {
            // Back-off: a server that is down is not asked again every few seconds.
            let delay = min(retryAfter * pow(2, Double(min(automaticRetries, 30))), max(retryAfter, Self.maxRetryDelay))
            retryDelay = delay
            effects.append(.setTimer(.retry, at: now + delay))
        } else if configuration.retryAfter != nil {
            effects.append(.log("giving up after \(automaticRetries) automatic retries"))
        }
        return effects + [.showMessage(configuration.prompts.failure(failure, retry: retryHint))]
    }

    /// How this failure can be tried again, as the screen tells it: the automatic retry's
    /// countdown, a press, the daemon's next fetch, or nothing (the run ends with the failure).
    private var retryHint: RetryHint {
        if let retryDelay { return .automatic(seconds: Int(retryDelay.rounded(.up))) }
        if configuration.trigger == .input { return .press }
        return configuration.daemon ? .fetchAgain : .none
    }

    private mutating func automaticRetry(at now: Double) -> [KioskEffect] {
        guard state == .failed, retryDelay != nil else { return [] }
        automaticRetries += 1
        let of = configuration.maxRetries.map { " of \($0)" } ?? ""
        return [.log("retrying the download (automatic retry \(automaticRetries)\(of))"), .showMessage("")] + beginJob(fresh: true, at: now)
    }

    /// After a frame: publish a change of state at once, and end the run when it is over.
    private mutating func screenShown(_ shown: DownloadScreen.State, at now: Double) -> [KioskEffect] {
        // A screen still showing the previous state (commanded between frames) is no news.
        if state == .failed && shown != .failed { return [] }
        state = shown
        var effects: [KioskEffect] = []
        if shown != publishedState {
            let finished = shown == .done || shown == .failed
            publishedState = shown
            effects.append(.publish(event: finished ? shown.rawValue : "progress", jobEnded: finished))
        }
        guard !configuration.daemon, shown == .done || shown == .failed else { return effects }
        // With --trigger input (on a screen) or automatic retries a failure waits for the retry.
        let waitsForRetry = shown == .failed && ((configuration.trigger == .input && !configuration.writesFiles) || retryDelay != nil)
        if waitsForRetry || (shown == .done && configuration.onComplete == .hold) { return effects }
        return effects + finish(shown == .done ? .completed : .failed(failure ?? "download failed"))
    }

    private mutating func finish(_ outcome: KioskOutcome) -> [KioskEffect] {
        self.outcome = outcome
        return [.cancelTimer(.retry), .cancelTimer(.publish), .exit(outcome)]
    }
}
