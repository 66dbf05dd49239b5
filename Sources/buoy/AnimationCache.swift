import ArgumentParser
import Download
import FoundationEssentials
import Glibc
import LottieModel
import Posix

/// Animations given as URLs are kept on disk under a name derived from the URL, byte for
/// byte as served, so a kiosk that boots offline shows the last one it fetched. A cached copy
/// is shown at once (the network is not waited for at boot) and refreshed while the screen
/// runs; a new copy replaces it only once it has arrived whole and parses as a Lottie
/// animation, so a broken or truncated file on the server never replaces a good one.
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

    /// Where a new copy lands before it is checked (and its `.part` while it downloads).
    static func candidatePath(for path: String) -> String { path + ".new" }

    static var policy: DownloadPolicy {
        var policy = downloadPolicy(caFile: nil)
        policy.maxAttempts = 2
        policy.retryDelay = 0.5
        policy.connectTimeout = 5
        return policy
    }

    /// The local file for `url` and, when it is a cached copy, the refresh to step while it is
    /// shown. Without a cached copy the animation is fetched now (there is nothing else to show).
    static func open(_ url: String) throws -> (path: String, refresh: Refresh?) {
        let path = path(for: url)
        do {
            try FileManager.default.createDirectory(atPath: PathName.parent(path), withIntermediateDirectories: true)
        } catch {
            throw CommandFailure.output("cannot create the cache \(directory): \(SystemError.reason(of: error))")
        }
        if FileManager.default.fileExists(atPath: path) { return (path, Refresh(url: url, path: path)) }
        let refresh = Refresh(url: url, path: path)
        while !refresh.isFinished { refresh.step(timeout: 0.1) }
        switch refresh.outcome {
        case .replaced?: return (path, nil)
        case .rejected(let reason)?: throw CommandFailure.badAnimation("\(url): \(reason) (and no cached copy)")
        case .failed(let reason)?: throw CommandFailure.badAnimation("\(reason) (and no cached copy)")
        case nil: throw CommandFailure.badAnimation("\(url): not fetched (and no cached copy)")
        }
    }

    /// Fetches a new copy beside the cached one, a step at a time (in the frame loop), and
    /// renames it over the cache only if it parses.
    final class Refresh {
        enum Outcome: Equatable {
            case replaced
            /// Downloaded, but not a usable animation: the cached copy stays.
            case rejected(String)
            /// Not downloaded (offline, an HTTP error): the cached copy stays.
            case failed(String)
        }

        let url: String
        let path: String
        private let session: DownloadSession
        private(set) var outcome: Outcome?

        init(url: String, path: String) {
            self.url = url
            self.path = path
            let candidate = AnimationCache.candidatePath(for: path)
            // A partial copy left by an earlier boot may be of another version of the file:
            // start afresh rather than splice it (animations are small).
            unlink(candidate)
            unlink(candidate + ".part")
            session = DownloadSession(requests: [DownloadRequest(url: url, destination: candidate, allowsFileScheme: true)], policy: AnimationCache.policy)
        }

        var isFinished: Bool { outcome != nil }

        func step(timeout: Double = 0) {
            guard outcome == nil else { return }
            session.step(timeout: timeout)
            guard session.isFinished else { return }
            let candidate = AnimationCache.candidatePath(for: path)
            guard session.status.succeeded else {
                outcome = .failed(session.status.errors.first.map { "\($0)" } ?? "\(url): download failed")
                return
            }
            do {
                _ = try Animation.load(path: candidate)
            } catch {
                unlink(candidate)
                outcome = .rejected("not a Lottie animation: \(error)")
                return
            }
            guard rename(candidate, path) == 0 else {
                outcome = .failed("\(path): cannot replace the cached copy: \(String(cString: strerror(errno)))")
                unlink(candidate)
                return
            }
            outcome = .replaced
        }

        /// What to tell the operator once finished.
        var report: String? {
            switch outcome {
            case .replaced?: return "\(url): cached copy refreshed (used from the next start)"
            case .rejected(let reason)?: return "\(url): the new copy is \(reason); keeping the cached copy"
            case .failed(let reason)?: return "\(reason); keeping the cached copy"
            case nil: return nil
            }
        }
    }
}

struct Cache: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Manage the cache of animations fetched from URLs.",
        subcommands: [Clear.self, Show.self]
    )

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every cached animation.")
        func run() throws {
            let dir = AnimationCache.directory + "/animations"
            let count = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).count
            if FileManager.default.fileExists(atPath: dir) {
                do { try FileManager.default.removeItem(atPath: dir) } catch {
                    throw CommandFailure.output("cannot remove \(dir): \(SystemError.reason(of: error))")
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
