import Display
import Kiosk
import Posix

/// Readiness for systemd (`Type=notify` units): `READY=1` once the display, the control
/// socket and the psplash FIFO are open, so units ordered after Buoy's start only when it
/// can be talked to. Outside a notify unit (no `$NOTIFY_SOCKET`) nothing is sent. A message
/// that cannot be sent changes nothing else (systemd then reports the unit's start timeout).
enum ServiceManager {
    static func ready(status: String) {
        try? ServiceNotification.send("READY=1\nSTATUS=" + status)
    }

    static func stopping() {
        try? ServiceNotification.send("STOPPING=1")
    }
}

/// What `systemctl status` shows once Buoy is ready.
func readinessStatus(presenter: Presenter, fifo: PsplashFIFO?) -> String {
    var text = "showing on " + presenter.description
    if let fifo { text += ", psplash commands on " + fifo.path }
    return text
}
