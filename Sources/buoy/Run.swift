import ArgumentParser
import Control
import Display
import Download
import Foundation
import Input
import Kiosk
import LottieModel
import LottieRender
import Player
import Raster

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The download screen: play the animation while files download, the water rising with the bytes.",
        discussion: """
        The first segment loops while downloading; the layer at --keypath (a position) rises from \
        where it is to one display height above as bytes arrive (eased between curl's bursts). On \
        success the current loop finishes at 4x and the success segment plays once. Each --url \
        pairs with the --output and the --sha256 at the same place (give --sha256 none for a file \
        without a checksum when a later one has one); files land atomically, verified. \
        Settings come from --config (default /etc/buoy/buoy.toml when it exists); flags override \
        it, and any --url on the command line replaces its [[download]] tables. \
        --display auto:headless:DIR writes PNG frames to DIR when there is no display (paced to the \
        clock like headless:DIR). \
        Exit status with --on-complete exit: 0 after success, 5 when a download failed.
        """
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

    @Option(name: .customLong("content-mode"), help: "fit, fill or stretch.")
    var contentMode: ContentMode = .fill

    @Option(help: "The position the download drives.")
    var keypath: String = "Boat.Transform.Position"

    @Option(help: "How far it rises at 100 %, in display heights.")
    var lift: Double = 1

    @Option(name: .customLong("loop-segment"), help: "The wave loop: A:B (progress), fA:fB (frames) or marker:NAME.")
    var loopSegment: String = "0:0.5"

    @Option(name: .customLong("success-segment"), help: "The success segment, in the same forms.")
    var successSegment: String = "0.5:1"

    @Option(help: "Key and button codes that start the download (Linux input codes, comma-separated).")
    var keys: String?

    @Option(name: .customLong("on-complete"), help: "hold (keep the last frame), exit, exec:COMMAND (run it with /bin/sh after success) or reboot.")
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

    @Option(help: "auto (start at once) or input (wait for Enter, Space, a touch or a button).")
    var trigger: String = "auto"

    @Option(help: "Where a touch (or an absolute pointer's click) starts it: anywhere, or prompt (only on the start prompt at the bottom of the screen). Keys always do.")
    var touch: String = "anywhere"

    @Option(name: .customLong("input-dir"), help: "Where input devices appear.")
    var inputDirectory: String = "/dev/input"

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
        guard lift > 0, lift < 100 else { throw ValidationError("--lift must be a positive number of display heights") }
        guard ["auto", "input"].contains(trigger) else { throw ValidationError("--trigger must be auto or input") }
        guard ["anywhere", "prompt"].contains(touch) else { throw ValidationError("--touch must be anywhere or prompt") }
        guard ["hold", "exit", "reboot"].contains(onComplete) || (onComplete.hasPrefix("exec:") && onComplete.count > 5) else {
            throw ValidationError("--on-complete must be hold, exit, exec:COMMAND or reboot")
        }
    }

    func run() throws {
        // A custom animation that cannot be loaded falls back to the built-in one: the download runs anyway.
        let shown = loadRunAnimation(animation)
        let renderer = shown.renderer
        var animationRefresh = shown.refresh
        let anim = renderer.animation
        let animationName = shown.name
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
        let control: ControlServer?
        var group: gid_t?
        if let socketGroup {
            guard let entry = getgrnam(socketGroup) else { throw CommandFailure.badArguments("--socket-group: no group named \(socketGroup)") }
            group = entry.pointee.gr_gid
        }
        // Control: socket clients' downloads are confined to the download directory.
        let downloads = try socket.map { _ in try ControlSetup.prepareDaemon(downloadDirectory: downloadDirectory) }
        do { control = try socket.map { try ControlServer(path: $0, group: group) } } catch { throw CommandFailure.badArguments("\(error)") }
        let fifo: PsplashFIFO?
        do { fifo = try psplashFIFO.map { try PsplashFIFO(path: $0) } } catch { throw CommandFailure.badArguments("\(error)") }

        let viewport = Viewport(width: presenter.width, height: presenter.height, contentMode: contentMode)
        let clock = VirtualClock(now: presenter.nextPresentationTime())
        var config = DownloadScreen.Configuration()
        config.progressKeypath = Keypath(keypath)
        config.lift = lift
        config.loopSegment = try SegmentOption(text: loopSegment).progressRange(in: anim)
        config.successSegment = try SegmentOption(text: successSegment).progressRange(in: anim)
        // One screen per download sequence; a daemon starts a fresh one for each fetch.
        func makeScreen() -> DownloadScreen { DownloadScreen(renderer: renderer, viewport: viewport, clock: clock, configuration: config) }
        var screen = makeScreen()
        if !screen.drivesProperty {
            printWarning("\(animationName): no 2D position at \(keypath); the download will not move anything")
        }
        let requests = urls.indices.map { i -> DownloadRequest in
            let given = i < checksums.count ? checksums[i] : nil
            let sum = given == "none" ? nil : given
            // The operator's own URLs (command line or config file): file:// is allowed here, not from the socket.
            return sum?.hasPrefix("url:") == true
                ? DownloadRequest(url: urls[i], destination: outputs[i], checksumURL: String(sum!.dropFirst(4)), allowsFileScheme: true)
                : DownloadRequest(url: urls[i], destination: outputs[i], sha256: sum, allowsFileScheme: true)
        }
        var session: DownloadSession? = requests.isEmpty ? nil : DownloadSession(requests: requests, policy: downloadPolicy(caFile: caFile))
        // Without URLs or a socket, the psplash FIFO's PROGRESS drives the water.
        let external = requests.isEmpty && control == nil
        let codes = try keys.map { text -> Set<UInt32> in
            let parsed = text.split(separator: ",").map { UInt32($0.trimmingCharacters(in: .whitespaces)) }
            guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }) else { throw CommandFailure.badArguments("--keys: expected codes like 28,57") }
            return Set(parsed.map { $0! })
        } ?? InputWatcher.defaultCodes
        let input = trigger == "input" ? InputWatcher(directory: inputDirectory, codes: codes) : nil
        if input != nil && session != nil {
            screen.showWaiting()
        } else if session == nil && !external {
            // A daemon with no job yet: the waves roll, nothing to wait for.
            screen.showIdle()
        } else {
            screen.startDownloading()
        }
        if let input {
            for m in input.takeMessages() { printStatus(m) }
            if input.watched.isEmpty { printStatus("input: no keyboard, button or touch screen yet; waiting for one") }
        }

        // Files and streams have virtual time; pace them to the wall clock so the picture
        // follows the real download. Asked of the presenter opened, not of --display's text:
        // auto:headless:DIR writes files only when it found no display.
        let realtime = presenter.writesFiles
        let wallStart = DRMPresenter.monotonicNow()
        let start = clock.now
        var surface = Surface(width: presenter.width, height: presenter.height)
        var version: UInt64 = 0
        var drawnVersion: UInt64 = .max
        var renderSeconds = 0.0
        var sequence = 0
        var reported = false
        var failure: String?
        var failedAt: Double?
        /// How long after `failedAt` the next automatic retry starts; nil when none is due.
        var retryDelay: Double?
        var automaticRetries = 0
        var lastEvent = 0.0
        /// The state last published to subscribers: a change is published at once, once.
        var publishedState: DownloadScreen.State?
        var meter = RateMeter()
        var quit = false
        let prompt = touch == "prompt" ? "Touch here or press Enter to start" : "Press Enter, Space or touch the screen to start"
        var status = StatusLine(text: input != nil && session != nil ? prompt : "", width: presenter.width, height: presenter.height)
        /// Whether a press counts: keys always; a touch with --touch prompt only on the band
        /// that shows the prompt (or the failure it retries).
        func accepts(_ press: InputWatcher.Press) -> Bool {
            guard touch == "prompt", let at = press.position else { return true }
            let p = presenter.rotation.logicalPoint(panelX: at.x, panelY: at.y)
            let x = p.x * Double(presenter.width), y = p.y * Double(presenter.height)
            if status.contains(x: x, y: y) { return true }
            printStatus("input: touch at \(Int(x)),\(Int(y)) is not on the start prompt")
            return false
        }
        func show(_ text: String) {
            if !text.isEmpty { printStatus(text) }
            status = StatusLine(text: text, width: presenter.width, height: presenter.height)
            version &+= 1
        }
        let interactive = isatty(STDERR_FILENO) != 0

        /// Progress in the schema `buoy fetch` prints on every path (ProgressReport).
        func statusEvent(_ name: String) -> [String: Any] {
            if let s = session?.status { meter.add(bytes: s.received, at: DRMPresenter.monotonicNow()) }
            return ProgressReport.event(name, state: screen.state.rawValue, status: session?.status, rate: meter.rate, message: screen.message)
        }

        while !stop.requested && !quit {
            for request in control?.poll() ?? [] {
                switch request.command {
                case "fetch":
                    let fetch: DownloadRequest
                    do { fetch = try FetchCommand.parse(fields: request.fields, downloadDirectory: downloads!) } catch {
                        control?.refuse(request, "refused: \(error)")
                        continue
                    }
                    if let s = session, !s.isFinished {
                        control?.send(["event": "error", "message": "busy: a download is running"], to: request.client)
                        continue
                    }
                    session = DownloadSession(requests: [fetch], policy: downloadPolicy(caFile: caFile))
                    // A new job: its end is published even when it ends in the state the last one did.
                    publishedState = nil
                    screen = makeScreen()
                    screen.startDownloading()
                    meter.reset()
                    reported = false
                    failure = nil
                    control?.subscribe(request.client, watching: false)
                    control?.send(statusEvent("accepted"), to: request.client)
                case "status":
                    control?.send(statusEvent("status"), to: request.client)
                case "watch":
                    // Every progress event from now on, this job's and later ones', until the
                    // client leaves.
                    control?.subscribe(request.client, watching: true)
                    control?.send(statusEvent("status"), to: request.client)
                case "cancel":
                    session?.cancel()
                    control?.send(["event": "ok"], to: request.client)
                case "message":
                    show(LogText.escaped(request.fields["text"] ?? ""))
                    control?.send(["event": "ok"], to: request.client)
                case "quit":
                    control?.send(["event": "ok"], to: request.client)
                    quit = true
                default:
                    control?.send(["event": "error", "message": "unknown command \(request.command)"], to: request.client)
                }
            }
            for m in control?.takeMessages() ?? [] { printStatus(m) }
            if let input, [.downloading, .finishing, .success].contains(screen.state) {
                // Presses while the screen is busy start nothing; read them now so they do not
                // wait in the device's buffer (or overflow it) until a failure.
                _ = input.poll()
                for m in input.takeMessages() { printStatus(m) }
            }
            if let input, screen.state == .waiting || screen.state == .idle || screen.state == .failed, session != nil {
                // After a failure only a press made since it counts as "retry".
                let presses = InputWatcher.presses(input.poll(), madeSince: screen.state == .failed ? failedAt : nil).filter(accepts)
                for m in input.takeMessages() { printStatus(m) }
                if let press = presses.first {
                    if screen.state == .failed {
                        // Try again: a fresh screen and session; the .part files resume.
                        printStatus("input: key \(press.code): retrying the download")
                        automaticRetries = 0
                        retryDelay = nil
                        session = DownloadSession(requests: session!.status.files.map(\.request), policy: downloadPolicy(caFile: caFile))
                        screen = makeScreen()
                        show("")
                        reported = false
                        failure = nil
                    } else {
                        printStatus("input: key \(press.code) on \(press.device): starting the download")
                        show("")
                    }
                    screen.startDownloading()
                }
            }
            if let delay = retryDelay, screen.state == .failed, let since = failedAt, DRMPresenter.monotonicNow() - since >= delay, let s = session {
                automaticRetries += 1
                printStatus("retrying the download (automatic retry \(automaticRetries)\(maxRetries.map { " of \($0)" } ?? ""))")
                session = DownloadSession(requests: s.status.files.map(\.request), policy: downloadPolicy(caFile: caFile))
                screen = makeScreen()
                reported = false
                failure = nil
                failedAt = nil
                retryDelay = nil
                show("")
                screen.startDownloading()
            }
            if let refresh = animationRefresh {
                refresh.step()
                if refresh.isFinished {
                    if let report = refresh.report { printStatus(report) }
                    animationRefresh = nil
                }
            }
            for command in fifo?.poll() ?? [] {
                switch command {
                case .progress(let p): if external { screen.update(downloadFraction: p) }
                case .message(let text): show(text)
                case .quit:
                    if external && !reported { reported = true; screen.downloadSucceeded() }
                }
            }
            if let session, screen.state != .waiting && screen.state != .idle {
                session.step()
                screen.update(downloadFraction: session.status.fraction)
                if session.isFinished && !reported {
                    reported = true
                    if session.status.succeeded {
                        screen.downloadSucceeded()
                    } else {
                        failure = session.status.errors.map { "\($0)" }.joined(separator: "; ")
                        screen.downloadFailed(failure!)
                        failedAt = DRMPresenter.monotonicNow()
                        printWarning(failure!)
                        if let retryAfter, automaticRetries < maxRetries ?? .max {
                            // Back-off: a server that is down is not asked again every few seconds.
                            retryDelay = min(retryAfter * pow(2, Double(min(automaticRetries, 30))), max(retryAfter, 300))
                        } else if retryAfter != nil {
                            printStatus("giving up after \(automaticRetries) automatic retries")
                        }
                        show(input != nil ? "Download failed — press a key to retry"
                             : retryDelay.map { "Download failed — retrying in \(Int($0.rounded(.up))) s" } ?? "Download failed: " + failure!)
                    }
                }
            }
            clock.now = presenter.presentationTime(notBefore: DRMPresenter.monotonicNow() + renderSeconds)
            if realtime {
                let ahead = (clock.now - start) - (DRMPresenter.monotonicNow() - wallStart)
                if ahead > 0 { usleep(useconds_t(min(ahead, 1) * 1e6)) }
            }
            let frame = screen.tick()
            let renderStart = DRMPresenter.monotonicNow()
            let statusVersion = version
            if screen.render(frame: frame, viewport: viewport, background: .black, into: &surface) || statusVersion != drawnVersion {
                if statusVersion != drawnVersion { screen.renderer.render(frame: frame, viewport: viewport, background: .black, into: &surface) }
                status.draw(into: &surface)
                version &+= 1
                drawnVersion = version
                renderSeconds = 0.7 * renderSeconds + 0.3 * (DRMPresenter.monotonicNow() - renderStart)
            }
            let shown: Presentation
            do { shown = try presenter.present(surface, version: version) } catch let error as DisplayError {
                throw CommandFailure.display("\(error)")
            }
            traceFile?.record(FrameTrace.Entry(sequence: sequence, time: shown.time - start, frame: frame,
                                               progress: screen.player.progress(forFrame: frame), download: screen.downloadFraction,
                                               state: screen.state.rawValue, speed: screen.player.speed, missed: shown.missed,
                                               level: screen.drivesProperty ? screen.level : nil))
            let now = DRMPresenter.monotonicNow()
            if now - lastEvent >= 0.2 || screen.state != publishedState {
                lastEvent = now
                let finished = screen.state == .done || screen.state == .failed
                let event = statusEvent(finished ? screen.state.rawValue : "progress")
                if interactive, session != nil { FileHandleWriter.stderr("\r" + ProgressReport.bar(event)) }
                // While a job runs, every 0.2 s; otherwise only a change (done, failed, idle).
                let running = [.downloading, .finishing, .success].contains(screen.state)
                if let control, control.subscriberCount > 0, running || publishedState != screen.state {
                    control.publish(event, jobEnded: finished)
                }
                publishedState = screen.state
            }
            sequence += 1
            if (screen.state == .failed || screen.state == .done) && control == nil {
                // With --trigger input a failure waits for a key to retry.
                let waitsForRetry = screen.state == .failed && ((input != nil && !realtime) || retryDelay != nil)
                if (onComplete != "hold" || realtime) && !waitsForRetry { break }
            }
        }
        if interactive { FileHandleWriter.stderr("\n") }
        if let signal = stop.signal {
            throw CommandFailure(message: "stopped by signal \(signal)", exitCode: 128 + signal)
        }
        if control == nil, let failure { throw CommandFailure(message: "download failed: \(failure)", exitCode: 5) }
        if control == nil, screen.state == .done {
            presenter.close()  // give the display back before handing over
            if onComplete == "reboot" {
                printStatus("rebooting")
                try runShell("systemctl reboot || reboot")
            } else if onComplete.hasPrefix("exec:") {
                try runShell(String(onComplete.dropFirst(5)))
            }
        }
        if let session, control == nil { printStatus("downloaded \(session.status.received) bytes to \(outputs.joined(separator: ", "))") }
    }
}

/// Runs a completion command; its exit status becomes buoy's.
func runShell(_ command: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    do { try process.run() } catch { throw CommandFailure(message: "cannot run \(command): \(error)", exitCode: 6) }
    process.waitUntilExit()
    if process.terminationStatus != 0 {
        throw CommandFailure(message: "\(command) exited with status \(process.terminationStatus)", exitCode: process.terminationStatus)
    }
}
