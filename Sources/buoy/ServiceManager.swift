import CSystemd
import Display
import Kiosk

/// Readiness for systemd (`Type=notify` units): `READY=1` once the display, the control
/// socket and the psplash FIFO are open, so units ordered after Buoy's start only when it
/// can be talked to. Outside a notify unit (no `$NOTIFY_SOCKET`) sd_notify does nothing.
enum ServiceManager {
    static func ready(status: String) {
        _ = sd_notify(0, "READY=1\nSTATUS=" + status)
    }

    static func stopping() {
        _ = sd_notify(0, "STOPPING=1")
    }
}

/// What `systemctl status` shows once Buoy is ready.
func readinessStatus(presenter: Presenter, fifo: PsplashFIFO?) -> String {
    var text = "showing on " + presenter.description
    if let fifo { text += ", psplash commands on " + fifo.path }
    return text
}
