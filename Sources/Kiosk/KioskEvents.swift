import Download

/// What the kiosk does, as a value: the CLI parses options into it, the controller decides
/// with it. No I/O and no clock inside.
public struct KioskConfiguration: Equatable, Sendable {
    public enum Trigger: String, Sendable { case auto, input }
    public enum Completion: Equatable, Sendable {
        case hold, exit, reboot
        case exec(String)
    }

    /// The files of the boot job (empty: none; a daemon waits for a fetch).
    public var job: [DownloadRequest] = []
    public var trigger: Trigger = .auto
    /// The control socket serves fetches: the kiosk runs until `quit` or a signal.
    public var daemon = false
    /// After a failure, retry after this many seconds, doubling up to 5 minutes; nil: only on a press.
    public var retryAfter: Double?
    public var maxRetries: Int?
    public var onComplete: Completion = .exit
    /// Frames go to files or a stream: a failure with --trigger input does not wait for a key.
    public var writesFiles = false
    /// What psplash's `QUIT` does: exit at once (as psplash does, the console given back),
    /// play the success segment first, or exit at once leaving the last frame on the panel.
    public enum PsplashQuit: String, Sendable, CaseIterable { case exit, success, retain }
    public var psplashQuit: PsplashQuit = .exit
    /// What the status line says while waiting for a press.
    public var prompt = "Press Enter, Space or touch the screen to start"
    /// An animation shown on its own (`buoy play`): nothing to download or wait for; the run
    /// ends when the screen reports `done` (the player finished, or its time ran out).
    public var animationOnly = false
    /// The screen's words (the failure's two lines) in the chosen language.
    public var prompts = Prompts(language: .english)

    public init() {}

    /// Without files or a socket, psplash's PROGRESS drives the water.
    public var external: Bool { job.isEmpty && !daemon && !animationOnly }
}

/// A control request, as parsed from its JSON line.
public enum KioskRequest: Equatable, Sendable {
    case fetch(DownloadRequest)
    case status, watch, cancel, quit
    case message(String)
    /// A request the controller answers with an error (unknown command, missing fields).
    case invalid(String)
}

public enum KioskTimer: Hashable, Sendable {
    /// The automatic retry after a failure.
    case retry
    /// Progress to subscribers while a job runs.
    case publish
}

public enum KioskEvent: Equatable, Sendable {
    /// The kiosk starts (once, first).
    case start
    case request(client: Int32, KioskRequest)
    /// A key, button or touch. `time`: the kernel's (monotonic) time of the press; `offPrompt`:
    /// why a touch does not count (not on the start prompt), nil when it may.
    case press(code: UInt32, device: String, time: Double?, offPrompt: String?)
    case psplash(PsplashFIFO.Command)
    case progress(fraction: Double?)
    /// The transfer ended: nil on success, else why it failed.
    case transferEnded(failure: String?)
    case timer(KioskTimer)
    /// The screen's state after a frame was shown (the player moves it through finishing,
    /// success and done by itself).
    case screen(DownloadScreen.State)
    case signal(Int32)
}

/// Commands for the download screen (applied between frames).
public enum ScreenCommand: Equatable, Sendable {
    case idle, waiting
    /// `fresh`: a new screen (a new job or a retry), else the waiting screen starts.
    case downloading(fresh: Bool)
    case progress(Double?)
    case succeeded
    case failed(String)
}

public enum KioskReply: Equatable, Sendable {
    /// The progress event named so ("status", "accepted").
    case progress(String)
    case ok
    case error(String)
}

public enum KioskOutcome: Equatable, Sendable {
    /// The job is done: the completion action runs (exit 0, exec, reboot).
    case completed
    case failed(String)
    case stopped(signal: Int32)
    /// Asked to quit over the socket, or a daemon's end.
    case quit
    /// psplash's `QUIT` (without the success segment): exit at once.
    case psplashQuit
}

public enum KioskEffect: Equatable, Sendable {
    case startTransfer([DownloadRequest])
    case cancelTransfer
    case screen(ScreenCommand)
    /// The status line's text ("" clears it).
    case showMessage(String)
    case reply(client: Int32, KioskReply)
    case subscribe(client: Int32, watching: Bool)
    /// A progress event to subscribers (and the terminal bar); `jobEnded` lets fetch clients go.
    case publish(event: String, jobEnded: Bool)
    case log(String)
    case warn(String)
    case setTimer(KioskTimer, at: Double)
    case cancelTimer(KioskTimer)
    case exit(KioskOutcome)
}
