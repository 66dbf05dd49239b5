import Display
import Glibc
import Kiosk

extension Run {
    /// After the loop: the exit status, and the completion action after a success.
    func complete(_ outcome: KioskOutcome, presenter: Presenter, received: Int64?) throws {
        switch outcome {
        case .stopped(let signal):
            throw CommandFailure(message: "stopped by signal \(signal)", exitCode: 128 + signal)
        case .failed:
            // The reason was logged once when the download failed; this line says only how it ends.
            throw CommandFailure(message: "the download failed; exit status 5", exitCode: 5)
        case .quit:
            return
        case .psplashQuit:
            if psplashQuit == .retain { retainPicture(on: presenter) }
        case .completed:
            // Give the display back before handing over (or leave the last frame on it).
            if onComplete == "retain" { retainPicture(on: presenter) } else { presenter.close() }
            if onComplete == "reboot" {
                printStatus("rebooting")
                try runShell("systemctl reboot || reboot")
            } else if onComplete.hasPrefix("exec:") {
                try runShell(String(onComplete.dropFirst(5)))
            }
            if let received { printStatus("downloaded \(received) bytes to \(outputs.joined(separator: ", "))") }
        }
    }
}

/// Leaves the last frame on the display, or says why it could not.
func retainPicture(on presenter: Presenter) {
    if !presenter.closeRetainingPicture() {
        printWarning("this kernel cannot keep the picture after buoy exits (DRM's CLOSEFB needs Linux 6.8 or later); the console was given back instead")
    }
}

/// Runs a completion command with /bin/sh; its exit status becomes buoy's (a signal's number
/// when a signal ended it, as Foundation's `Process` gave). The shell starts with every signal
/// at its default and none blocked, whatever buoy had set for its own loop.
func runShell(_ command: String) throws {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var all = sigset_t(), none = sigset_t()
    sigfillset(&all)
    sigemptyset(&none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let words: [String] = ["/bin/sh", "-c", command]
    let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { arguments.forEach { free($0) } }
    var pid = pid_t()
    let error = posix_spawn(&pid, "/bin/sh", nil, &attributes, arguments, environ)
    guard error == 0 else {
        throw CommandFailure(message: "cannot run \(command): \(String(cString: strerror(error)))", exitCode: 6)
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift's Glibc module does not export.
    let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    if code != 0 {
        throw CommandFailure(message: "\(command) exited with status \(code)", exitCode: code)
    }
}
