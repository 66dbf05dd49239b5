import Control
import Foundation

/// What `buoy run --socket` prepares before serving the socket.
enum ControlSetup {
    /// The checked, existing download directory; also raises the open-file limit, since a
    /// daemon is about to serve clients.
    static func downloadDirectory(_ path: String) throws -> DownloadDirectory {
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
