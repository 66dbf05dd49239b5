import Kiosk
import Posix

extension KioskRuntime {
    /// The transfer's bytes, total and recent rate for the screen's progress line, nil when no
    /// transfer ran (psplash's PROGRESS gives the percentage alone).
    func screenFigures() -> FrameWorker.Command? {
        guard let status = session?.status else { return nil }
        meter.add(bytes: status.received, at: Monotonic.now())
        return .figures(TransferFigures(received: status.received, expected: status.expected, rate: meter.rate))
    }
}
