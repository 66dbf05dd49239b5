import ArgumentParser
import Control
import Display
import Download
import FoundationEssentials
import Glibc
import Input
import Kiosk
import LottieModel
import LottieRender
import Player
import Posix
import Raster

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "The download screen: play the animation while files download, the water rising with the bytes.",
        discussion: """
        The first segment loops while downloading; the layer at --keypath (a position) rises from \
        where it is to --lift display heights above as bytes arrive (eased between curl's bursts; \
        1, or 0.5 for the built-in boat, which stays on screen). The bottom band shows the \
        percentage, size, rate and time left (--progress hide leaves only messages), in \
        --language or the locale's. On \
        success the current loop finishes at 4x and the success segment plays once. Each --url \
        pairs with the --output and the --sha256 at the same place (give --sha256 none for a file \
        without a checksum when a later one has one); files land atomically, verified. \
        Settings come from --config (default /etc/buoy/buoy.toml when it exists); flags override \
        it, and any --url on the command line replaces its [[download]] tables. \
        --display auto:headless:DIR writes PNG frames to DIR when there is no display (paced to the \
        clock like headless:DIR). \
        Exit status with --on-complete exit: 0 after success, 5 when a download failed. \
        psplash's QUIT on --psplash-fifo exits at once with status 0 (see --psplash-quit).
        """ + "\n\n" + EnvironmentHelp.text
    )

    @Option(help: ArgumentHelp("Settings and [[download]] tables (keys mirror the flags); flags override it, any --url replaces its downloads.", valueName: "file"))
    var config: String = ConfigFile.defaultPath

    @Flag(name: .customLong("no-config-downloads"), help: "Use the config file's settings but none of its downloads (a daemon started after the boot job).")
    var noConfigDownloads = false

    @Option(help: "A Lottie file (JSON or .lottie) or URL (cached for offline boots; default: Buoy's own boat on the waves).")
    var animation: String?

    @Option(name: .customLong("url"), help: "A URL to download (repeatable).")
    var urls: [String] = []

    @Option(name: .customLong("output"), help: "Where the URL at the same place goes (repeatable).")
    var outputs: [String] = []

    @Option(name: .customLong("sha256"), help: "Expected SHA-256 of the file at the same place (repeatable), url:URL of a .sha256 file, or none.")
    var checksums: [String] = []

    @OptionGroup var output: DisplayOptions

    @Option(help: "Threads to draw each frame with (default: the cores available, at most 4).")
    var threads: Int?

    @Option(name: .customLong("content-mode"), help: "fit, fill or stretch.")
    var contentMode: ContentMode = .fill

    @Option(help: "The position the download drives.")
    var keypath: String = "Boat.Transform.Position"

    @Option(help: "How far it rises at 100 %, in display heights (default: 0.5 for the built-in animation, whose boat stays on screen; 1 for others).")
    var lift: Double?

    @Option(name: .customLong("loop-segment"), help: "The wave loop: A:B (progress), fA:fB (frames) or marker:NAME.")
    var loopSegment: String = "0:0.5"

    @Option(name: .customLong("success-segment"), help: "The success segment, in the same forms.")
    var successSegment: String = "0.5:1"

    @Option(help: "Key and button codes that start the download (Linux input codes, comma-separated).")
    var keys: String?

    @Option(name: .customLong("on-complete"), help: "hold (keep the last frame), exit, retain (exit leaving the last frame on the panel for the next program), exec:COMMAND (run it with /bin/sh after success) or reboot.")
    var onComplete: String = "exit"

    @Option(help: "Write one JSON line per presented frame to this file.")
    var trace: String?

    @Option(help: "Serve the control socket here (e.g. /run/buoy.sock): fetch, status, cancel, message, quit. Keeps running after a download.")
    var socket: String?

    @Option(name: .customLong("socket-group"), help: "Members of this group may use the control socket too.")
    var socketGroup: String?

    @Option(name: .customLong("download-dir"), help: "Where socket clients' fetches land: their output is a name inside it (an absolute one must lie inside it); nothing outside it is written for them.")
    var downloadDirectory: String = DownloadDirectory.defaultPath

    @Option(name: .customLong("retry-after"), help: "After a failed download, try again after this many seconds, doubling after each failure in a row up to 5 minutes (default: only on a key with --trigger input).")
    var retryAfter: Double?

    @Option(name: .customLong("max-retries"), help: "With --retry-after, give up after this many automatic retries (then exit 5 with --on-complete exit). Default: never give up.")
    var maxRetries: Int?

    @Option(name: .customLong("psplash-fifo"), help: "Accept psplash commands (PROGRESS n, MSG text, QUIT) on this FIFO; without --url they drive the water.")
    var psplashFIFO: String?

    @Option(name: .customLong("psplash-quit"), help: "What psplash's QUIT does: exit (at once, as psplash does), success (play the success segment first, then as --on-complete says) or retain (exit at once, leaving the last frame on the panel).")
    var psplashQuit: KioskConfiguration.PsplashQuit = .exit

    @Option(help: "auto (start at once) or input (wait for Enter, Space, a touch or a button).")
    var trigger: String = "auto"

    @Option(help: "Where a touch (or an absolute pointer's click) starts it: anywhere, or prompt (only on the start prompt at the bottom of the screen). Keys always do.")
    var touch: String = "anywhere"

    @Option(name: .customLong("input-dir"), help: "Where input devices appear.")
    var inputDirectory: String = "/dev/input"

    @Option(help: "Show or hide the progress line (percentage, size, rate, time left) at the bottom of the screen; messages and prompts still show.")
    var progress: ProgressVisibility = .show

    @Option(help: "The screen's language: en, de, fr, es, zh, ja or ar (default: from LC_ALL, LC_MESSAGES or LANG; anything else is English).")
    var language: String?

    @Option(name: .customLong("ca-file"), help: ArgumentHelp("PEM certificate authorities trusted for https (default: $SSL_CERT_FILE, then $CURL_CA_BUNDLE, then the system's).", valueName: "file"))
    var caFile: String?

    func validate() throws {
        guard !urls.isEmpty || psplashFIFO != nil || socket != nil else {
            throw ValidationError("give at least one --url with its --output, --socket or --psplash-fifo")
        }
        guard urls.count == outputs.count else { throw ValidationError("each --url needs an --output (\(urls.count) URLs, \(outputs.count) outputs)") }
        guard checksums.count <= urls.count else { throw ValidationError("more --sha256 than --url") }
        for c in checksums where c != "none" && !c.hasPrefix("url:") && (c.count != 64 || c.contains(where: { !$0.isHexDigit })) {
            throw ValidationError("--sha256 must be 64 hex digits: \(c)")
        }
        try checkCAFile(caFile)
        if let retryAfter, !(retryAfter > 0 && retryAfter.isFinite) { throw ValidationError("--retry-after must be a positive number of seconds") }
        if let maxRetries {
            guard maxRetries >= 0 else { throw ValidationError("--max-retries must be 0 or more") }
            guard retryAfter != nil else { throw ValidationError("--max-retries needs --retry-after") }
        }
        if let lift, !(lift > 0 && lift < 100) { throw ValidationError("--lift must be a positive number of display heights") }
        guard ["auto", "input"].contains(trigger) else { throw ValidationError("--trigger must be auto or input") }
        try validateThreads(threads)
        guard ["anywhere", "prompt"].contains(touch) else { throw ValidationError("--touch must be anywhere or prompt") }
        guard ["hold", "exit", "retain", "reboot"].contains(onComplete) || (onComplete.hasPrefix("exec:") && onComplete.count > 5) else {
            throw ValidationError("--on-complete must be hold, exit, retain, exec:COMMAND or reboot")
        }
    }

    func run() throws {
        // A custom animation that cannot be loaded falls back to the built-in one: the download runs anyway.
        let shown = loadRunAnimation(animation)
        var renderer = shown.renderer
        renderer.threads = threads ?? defaultThreadCount()
        let anim = renderer.animation
        // Handlers first: a signal while the display is being opened (the console already
        // in graphics mode) still ends in `close()`, which restores it.
        let stop = StopRequest()
        let presenter = try output.openPresenter(animationSize: RenderBudget.fittedOutputSize(width: anim.width, height: anim.height))
        defer { presenter.close() }
        let traceFile = try trace.map { path in
            do { return try FrameTrace(path: path) } catch { throw CommandFailure.output("\(error)") }
        }
        defer {
            if let failure = traceFile?.failure { printWarning(failure) }
            traceFile?.close()
        }
        let served = try openControlServer()
        let fifo: PsplashFIFO?
        do { fifo = try psplashFIFO.map { try PsplashFIFO(path: $0) } } catch { throw CommandFailure.badArguments("\(error)") }
        // Only the FIFO made here, and only while it is still that FIFO (never a link).
        defer { fifo?.remove() }
        if let language, Language(locale: language) == nil {
            printWarning("--language \(language): not one of \(Language.allCases.map(\.rawValue).joined(separator: ", ")); the screen speaks English")
        }
        let configuration = try kioskConfiguration(writesFiles: presenter.writesFiles)
        let screen = try screenConfiguration(anim, builtIn: shown.builtIn)
        let viewport = Viewport(width: presenter.width, height: presenter.height, contentMode: contentMode)
        let clock = VirtualClock(now: presenter.nextPresentationTime())
        let waker: Waker
        do { waker = try Waker() } catch { throw CommandFailure(message: "\(error)", exitCode: 1) }
        let frames = FrameWorker(presenter: presenter, viewport: viewport, clock: clock, trace: traceFile, waker: waker,
                                 text: ScreenTextOptions(prompts: configuration.prompts, showsProgress: progress == .show)) {
            DownloadScreen(renderer: renderer, viewport: viewport, clock: clock, configuration: screen)
        }
        if !frames.drivesProperty {
            printWarning("\(shown.name): no 2D position at \(keypath); the download will not move anything")
        }
        let input = try openInput()
        let runtime: KioskRuntime
        let outcome: KioskOutcome
        do {
            runtime = try KioskRuntime(controller: KioskController(configuration: configuration), frames: frames, frameWaker: waker,
                                       stop: stop, presenter: presenter, control: served?.0, downloads: served?.1, policy: downloadPolicy(caFile: caFile), input: input,
                                       fifo: fifo, animationRefresh: shown.refresh, touchPrompt: touch == "prompt")
            // The display, the socket and the FIFO are open: units ordered after this one may start.
            ServiceManager.ready(status: readinessStatus(presenter: presenter, fifo: fifo))
            defer { ServiceManager.stopping() }
            outcome = try runtime.run()
        } catch let error as DisplayError {
            throw CommandFailure.display("\(error)")
        } catch let error as SystemError {
            throw CommandFailure(message: "\(error)", exitCode: 1)
        }
        try complete(outcome, presenter: presenter, received: runtime.session?.status.received)
    }

    /// The control socket and the directory its clients' fetches are confined to.
    func openControlServer() throws -> (ControlServer, DownloadDirectory)? {
        guard let socket else { return nil }
        var group: gid_t?
        if let socketGroup {
            guard let entry = getgrnam(socketGroup) else { throw CommandFailure.badArguments("--socket-group: no group named \(socketGroup)") }
            group = entry.pointee.gr_gid
        }
        let downloads = try ControlSetup.prepareDaemon(downloadDirectory: downloadDirectory)
        do { return (try ControlServer(path: socket, group: group), downloads) } catch { throw CommandFailure.badArguments("\(error)") }
    }

    func openInput() throws -> InputWatcher? {
        guard trigger == "input" else { return nil }
        let codes = try keys.map { text -> Set<UInt32> in
            let parsed = text.split(separator: ",").map { UInt32($0.trimmingWhitespace(lineEnds: false)) }
            guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }) else { throw CommandFailure.badArguments("--keys: expected codes like 28,57") }
            return Set(parsed.map { $0! })
        } ?? InputWatcher.defaultCodes
        let input = InputWatcher(directory: inputDirectory, codes: codes)
        for m in input.takeMessages() { printStatus(m) }
        if input.watched.isEmpty { printStatus("input: no keyboard, button or touch screen yet; waiting for one") }
        return input
    }

    /// The options as the controller's configuration.
    func kioskConfiguration(writesFiles: Bool) throws -> KioskConfiguration {
        var c = KioskConfiguration()
        c.job = urls.indices.map { i -> DownloadRequest in
            // Typed: with TOMLKit imported, Swift 6.0 reads an untyped `nil`/literal mix here as a TOMLValue.
            let given: String? = i < checksums.count ? checksums[i] : nil
            let sum: String? = given == "none" ? nil : given
            // The operator's own URLs (command line or config file): file:// is allowed here, not from the socket.
            if let sum, sum.hasPrefix("url:") {
                return DownloadRequest(url: urls[i], destination: outputs[i], checksumURL: String(sum.dropFirst(4)), allowsFileScheme: true)
            }
            return DownloadRequest(url: urls[i], destination: outputs[i], sha256: sum, allowsFileScheme: true)
        }
        c.trigger = trigger == "input" ? .input : .auto
        c.daemon = socket != nil
        c.retryAfter = retryAfter
        c.maxRetries = maxRetries
        switch onComplete {
        case "hold": c.onComplete = .hold
        case "reboot": c.onComplete = .reboot
        case let command where command.hasPrefix("exec:"): c.onComplete = .exec(String(command.dropFirst(5)))
        default: c.onComplete = .exit
        }
        c.writesFiles = writesFiles
        c.psplashQuit = psplashQuit
        c.prompts = Prompts(language: screenLanguage)
        c.prompt = touch == "prompt" ? c.prompts.touchHereToStart : c.prompts.pressToStart
        return c
    }

    /// --language, else the locale's (an unknown one is English).
    var screenLanguage: Language {
        guard let language else { return Language.fromEnvironment(ProcessInfo.processInfo.environment) }
        return Language(locale: language) ?? .english
    }

    func screenConfiguration(_ anim: Animation, builtIn: Bool = false) throws -> DownloadScreen.Configuration {
        var config = builtIn ? DownloadScreen.Configuration.defaultAnimation : DownloadScreen.Configuration()
        config.progressKeypath = Keypath(keypath)
        if let lift { config.lift = lift }
        config.loopSegment = try SegmentOption(text: loopSegment).progressRange(in: anim)
        config.successSegment = try SegmentOption(text: successSegment).progressRange(in: anim)
        return config
    }
}
