import ArgumentParser
import Foundation

/// The `buoy` command line. Each subcommand lives in its own file.
@main
struct Buoy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "buoy",
        abstract: "A Lottie download screen for embedded Linux.",
        discussion: """
        Exit status: 0 success, 1 bad arguments, 2 bad animation (the message names the file
        and the JSON path), 3 an output file could not be written, 4 no usable display (the
        message names the device), 130/143 stopped by SIGINT/SIGTERM.
        """,
        subcommands: [Run.self, Fetch.self, Status.self, Cancel.self, Play.self, Render.self, Keypaths.self, Bench.self, ParseBench.self]
    )

    /// ArgumentParser exits with 64 on usage errors; Buoy's contract is 1 for bad arguments
    /// and 2 for a bad animation, so errors are mapped here instead of in each command.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CommandFailure {
            FileHandle.standardError.write(Data("buoy: \(error.message)\n".utf8))
            Foundation.exit(error.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(1)
        }
    }
}

/// An error that ends the command with a specific exit status and a one-line message.
struct CommandFailure: Error {
    var message: String
    var exitCode: Int32

    static func badArguments(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 1) }
    static func badAnimation(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 2) }
    static func output(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 3) }
    static func display(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 4) }
}
