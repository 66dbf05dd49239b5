import CPosix
import Glibc

/// Readiness for systemd's `Type=notify` units: the protocol of sd_notify(3), one datagram of
/// `KEY=value` lines to the AF_UNIX socket `$NOTIFY_SOCKET` names. Spoken here rather than
/// through libsystemd, which (with libgcrypt, liblz4, libzstd, liblzma and libcap) every buoy
/// process would otherwise map at start for two messages only `buoy run` sends.
public enum ServiceNotification {
    /// Sends `state` (for instance "READY=1\nSTATUS=showing on DRM") to `socket`, by default
    /// `$NOTIFY_SOCKET`; nothing when there is none (not started by a notify unit). A socket
    /// given as `@name` is abstract.
    public static func send(_ state: String, socket: String? = environmentSocket()) throws {
        guard let socket, !socket.isEmpty else { return }
        let result = state.withCString { buoy_notify_datagram(socket, $0, state.utf8.count) }
        if result != 0 { throw SystemError("sendto", path: socket) }
    }

    /// `$NOTIFY_SOCKET`, when set.
    public static func environmentSocket() -> String? {
        getenv("NOTIFY_SOCKET").map { String(cString: $0) }
    }
}
