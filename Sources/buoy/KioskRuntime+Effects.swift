import Control
import Display
import Download
import FoundationEssentials
import Glibc
import Input
import Kiosk
import Posix

extension KioskRuntime {
    /// Carries out the controller's effects, in order.
    func perform(_ effects: [KioskEffect]) {
        for effect in effects {
            switch effect {
            case .startTransfer(let files):
                startTransfer(files)
            case .cancelTransfer:
                session?.cancel()
                transferAdvanced(at: Monotonic.now())
            case .screen(let command):
                job.commands.append(.screen(command))
                if case .progress = command, let figures = screenFigures() { job.commands.append(figures) }
                jobDirty = true
            case .showMessage(let text):
                // Logged when it changes; a failure's line carries its reason and the hint.
                if logsStatusLine(text) { printStatus(text.replacing("\n", with: " — ")) }
                message = text
                promptLine = StatusLine(text: text, width: presenter.width, height: presenter.height)
                job.commands.append(.message(text))
                jobDirty = true
            case .reply(let client, let reply): send(reply, to: client)
            case .subscribe(let client, let watching): control?.subscribe(client, watching: watching)
            case .publish(let name, let jobEnded): publish(name, jobEnded: jobEnded)
            case .log(let text): printStatus(text)
            case .warn(let text): if logsWarning(text) { printWarning(text) }
            case .setTimer(let timer, let time): timers.set(.kiosk(timer), at: time)
            case .cancelTimer(let timer): timers.cancel(.kiosk(timer))
            case .exit: break  // the loop ends on the controller's outcome
            }
        }
    }

    private func send(_ reply: KioskReply, to client: Int32) {
        switch reply {
        case .progress(let name): control?.send(statusEvent(name), to: client)
        case .ok: control?.send(["event": "ok"], to: client)
        case .error(let text): control?.send(["event": "error", "message": text], to: client)
        }
    }

    /// Progress in the schema `buoy fetch` prints on every path (ProgressReport).
    func statusEvent(_ name: String) -> [String: Any] {
        if let s = session?.status { meter.add(bytes: s.received, at: Monotonic.now()) }
        let message = controller.state == .failed ? controller.failure : nil
        return ProgressReport.event(name, state: controller.state.rawValue, status: session?.status, rate: meter.rate, message: message)
    }

    private func publish(_ name: String, jobEnded: Bool) {
        let event = statusEvent(name)
        // The rate and time left move on between the transfer's bursts too.
        if let figures = screenFigures() {
            job.commands.append(figures)
            jobDirty = true
        }
        if interactive, session != nil { FileHandleWriter.stderr(TerminalBar(event: event).redraw(event, now: Monotonic.now(), width: TerminalBar.width(of: STDERR_FILENO))) }
        if let control, control.subscriberCount > 0 { control.publish(event, jobEnded: jobEnded) }
    }

    func handleControl(at now: Double) {
        guard let control else { return }
        let requests = control.poll()
        for request in requests {
            guard let parsed = kioskRequest(request) else { continue }
            perform(controller.handle(.request(client: request.client, parsed), at: now))
        }
        for m in control.takeMessages() { printStatus(m) }
        // A poll takes a bounded share of each client's lines: the rest (already read from the
        // socket, so epoll will not tell) at once; with clients connected, a look each second
        // for the ones being let go.
        if !requests.isEmpty {
            timers.set(.controlPoll, at: now)
        } else if !control.connectedClients.isEmpty {
            timers.set(.controlPoll, at: now + 1)
        } else {
            timers.cancel(.controlPoll)
        }
    }

    /// A request line as the controller's value; a fetch is checked here (its URL, and its
    /// output confined to the download directory) and a refused one answered and logged with
    /// the asker's uid (nil: nothing more to do).
    func kioskRequest(_ request: ControlServer.Request) -> KioskRequest? {
        switch request.command {
        case "fetch":
            guard let downloads else { return .invalid("refused: no download directory") }
            do { return .fetch(try FetchCommand.parse(fields: request.fields, downloadDirectory: downloads)) } catch {
                control?.refuse(request, "refused: \(error)")
                return nil
            }
        case "status": return .status
        case "watch": return .watch
        case "cancel": return .cancel
        case "quit": return .quit
        case "message": return .message(LogText.escaped(request.fields["text"] ?? ""))
        default: return .invalid("unknown command \(request.command)")
        }
    }

    func handleInput(at now: Double) {
        guard let input else { return }
        let presses = input.poll()
        for m in input.takeMessages() { printStatus(m) }
        for press in presses {
            perform(controller.handle(.press(code: press.code, device: press.device, time: press.time, offPrompt: offPrompt(press)), at: now))
        }
    }

    /// With --touch prompt, why a touch away from the prompt band does not count (keys always do).
    private func offPrompt(_ press: InputWatcher.Press) -> String? {
        guard touchPrompt, let at = press.position else { return nil }
        let p = presenter.rotation.logicalPoint(panelX: at.x, panelY: at.y)
        let x = p.x * Double(presenter.width), y = p.y * Double(presenter.height)
        return promptLine.contains(x: x, y: y) || frames.statusBandContains(y: y) ? nil : "input: touch at \(Int(x)),\(Int(y)) is not on the start prompt"
    }

    /// The frame thread finished a frame: done, or waiting for its page flip.
    func frameFinished(at now: Double) {
        guard let result = frames.takeResult() else { return }
        for warning in result.warnings { printWarning(warning) }
        if result.flipPending && result.error == nil, let flips = presenter.flipDescriptor {
            // The display's descriptor is watched only while a flip of ours is queued and the
            // frame thread is idle: the presenter is then the loop's alone (epoll reports an
            // event that came before this at once).
            pendingFlip = result
            timers.set(.flipTimeout, at: now + 1)
            do { try loop.watch(flips, name: presenter.description) } catch { frameError = error }
            return
        }
        frameDone(result, at: now)
    }

    /// The presenter's descriptor is readable: the queued flip may have come.
    func flipEvent(at now: Double) {
        guard let pending = pendingFlip else { return }
        do {
            guard let result = try frames.flipCompleted(pending) else { return }
            pendingFlip = nil
            timers.cancel(.flipTimeout)
            if let flips = presenter.flipDescriptor { loop.unwatch(flips) }
            frameDone(result, at: now)
        } catch {
            frameError = error
        }
    }

    func frameDone(_ result: FrameWorker.Result, at now: Double) {
        frameInFlight = false
        if let error = result.error { frameError = error; return }
        animating = result.animating
        if result.shown != nil { framePresented?(result) }
        // A frame made before a newer change of state shows an older one: its report would be stale.
        if !job.commands.contains(where: \.changesState) { perform(controller.handle(.screen(result.state), at: now)) }
        guard animating, !jobDirty else {
            // A still picture: nothing until an event, or the time the scene asked to be woken.
            if !animating, !jobDirty, let wake = result.wakeTime { timers.set(.frame, at: wake) }
            return
        }
        if result.presented || presenter.writesFiles {
            jobDirty = true  // the presenter paced it: the next one follows at once
        } else {
            // Nothing new to show yet: the next frame when the animation's time has moved on.
            timers.set(.frame, at: max(now, result.time) + presenter.refreshInterval / 2)
        }
    }

    /// Hands the frame thread the next frame when one is wanted and none is being made. On
    /// files and streams frames keep coming while anything can still change (their time is
    /// the frame count); on a display only while the picture changes.
    func submitFrameIfWanted() {
        guard !frameInFlight, controller.outcome == nil else { return }
        if !jobDirty, presenter.writesFiles, animating || controller.transferring || timers.deadline(of: .kiosk(.retry)) != nil {
            jobDirty = true
        }
        guard jobDirty else { return }
        timers.cancel(.frame)
        frames.submit(job.takeFrame())
        jobDirty = !job.commands.isEmpty
        frameInFlight = true
    }

    /// Waits for the frame being made, so the last state (failed, done) is on screen and in
    /// the trace before the display is given back.
    func finishLastFrame() {
        if pendingFlip != nil {
            // The presenter waits for a queued flip itself when it is closed.
            pendingFlip = nil
            frameInFlight = false
        }
        while frameInFlight {
            frameWaker.drain()
            if frames.takeResult() != nil {
                frameInFlight = false
            } else {
                usleep(1000)
            }
        }
    }
}
