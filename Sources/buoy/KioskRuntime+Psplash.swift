import Control
import Kiosk

extension KioskRuntime {
    /// psplash lines to the controller, their text escaped for the log and the screen, and what
    /// the writer got wrong (an out-of-range PROGRESS, an unknown command) logged once in a row.
    func handlePsplash(_ fifo: PsplashFIFO, at now: Double) {
        for command in fifo.poll() {
            if case .message(let text) = command {
                perform(controller.handle(.psplash(.message(LogText.escaped(text))), at: now))
            } else {
                perform(controller.handle(.psplash(command), at: now))
            }
        }
        for m in fifo.takeMessages() { printStatus(m) }
    }

    /// Whether a new status line goes to the log: only when it changes (SWUpdate repeats the
    /// same MSG with every PROGRESS).
    func logsStatusLine(_ text: String) -> Bool {
        !text.isEmpty && text != message
    }

    /// Whether a warning goes to the log: not the failure's own reason, which the status line
    /// that follows it logs once, with what the screen says to do about it.
    func logsWarning(_ text: String) -> Bool {
        !(controller.state == .failed && controller.failure == text)
    }
}
