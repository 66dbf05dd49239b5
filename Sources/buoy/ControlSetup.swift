import Control
import Glibc

/// What `buoy run --socket` prepares before serving the socket.
enum ControlSetup {
    /// Raises the open-file limit (a daemon is about to serve clients) and returns the
    /// checked download directory, created when missing.
    static func prepareDaemon(downloadDirectory path: String) throws -> DownloadDirectory {
        DescriptorLimit.raiseSoftLimit()
        do {
            let directory = try DownloadDirectory(path)
            try directory.prepare()
            return directory
        } catch {
            throw CommandFailure.badArguments("--download-dir: \(error)")
        }
    }
}
