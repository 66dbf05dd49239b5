import Display
import Foundation
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

/// Runs a completion command; its exit status becomes buoy's.
func runShell(_ command: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    do { try process.run() } catch { throw CommandFailure(message: "cannot run \(command): \(error)", exitCode: 6) }
    process.waitUntilExit()
    if process.terminationStatus != 0 {
        throw CommandFailure(message: "\(command) exited with status \(process.terminationStatus)", exitCode: process.terminationStatus)
    }
}
