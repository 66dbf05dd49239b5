import ArgumentParser
import Download
import Foundation

/// Animations given as URLs are kept on disk under a name derived from the URL, byte for
/// byte as served, so a kiosk that boots offline shows the last one it fetched.
enum AnimationCache {
    static var directory: String {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["BUOY_CACHE_DIR"] { return dir }
        if getuid() == 0 { return "/var/cache/buoy" }
        if let xdg = env["XDG_CACHE_HOME"] { return xdg + "/buoy" }
        return (env["HOME"] ?? "/tmp") + "/.cache/buoy"
    }

    static func path(for url: String) -> String {
        var hasher = SHA256()
        hasher.update(Array(url.utf8))
        return directory + "/animations/" + SHA256.hex(hasher.finalize()) + ".json"
    }

    /// The local file for `url`: fetched now when possible, else the cached copy.
    static func fetch(_ url: String) throws -> String {
        let path = path(for: url)
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure.output("cannot create the cache \(directory): \(error.localizedDescription)")
        }
        var policy = DownloadPolicy()
        policy.maxAttempts = 2
        policy.retryDelay = 0.5
        policy.connectTimeout = 5
        let status = DownloadSession(requests: [DownloadRequest(url: url, destination: path)], policy: policy).run()
        if status.succeeded { return path }
        if FileManager.default.fileExists(atPath: path) {
            printWarning("\(url): \(status.errors.first.map { "\($0)" } ?? "failed"); using the cached copy")
            return path
        }
        throw CommandFailure.badAnimation("\(status.errors.first.map { "\($0)" } ?? url) (and no cached copy)")
    }
}

struct Cache: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the cache of animations fetched from URLs.",
        subcommands: [Clear.self, Show.self]
    )

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every cached animation.")
        func run() throws {
            let dir = AnimationCache.directory + "/animations"
            let count = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).count
            if FileManager.default.fileExists(atPath: dir) {
                do { try FileManager.default.removeItem(atPath: dir) } catch {
                    throw CommandFailure.output("cannot remove \(dir): \(error.localizedDescription)")
                }
            }
            printStatus("removed \(count) cached animation\(count == 1 ? "" : "s") from \(dir)")
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the cached animations.")
        func run() throws {
            let dir = AnimationCache.directory + "/animations"
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() { print(dir + "/" + name) }
        }
    }
}
