import ArgumentParser
import FoundationEssentials
import Glibc
import Posix

/// The `buoy` command line. Each subcommand lives in its own file.
///
/// Every command names itself (`commandName:`): without it ArgumentParser derives the name from
/// `String(describing:)` of the type, whose runtime conformance lookups scan every conformance
/// record of the binary, about a million instructions per command at every start (16 M of
/// the 75 M `buoy --version` executed, before any command runs).
@main
struct Buoy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "buoy",
        abstract: "A Lottie download screen for embedded Linux.",
        discussion: """
        Exit status: 0 success, 1 bad arguments, 2 bad animation (the message names the file \
        and the JSON path), 3 an output file could not be written, 4 no usable display (the \
        message names the device), 130/143 stopped by SIGINT/SIGTERM.
        """ + "\n\n" + EnvironmentHelp.text,
        version: buoyVersion,
        subcommands: [Run.self, Fetch.self, Status.self, Cancel.self, Message.self, Demo.self, Cache.self, Serve.self, Play.self, Render.self, Keypaths.self, Bench.self, ParseBench.self, PresentBench.self]
    )

    /// ArgumentParser exits with 64 on usage errors; Buoy's contract is 1 for bad arguments
    /// and 2 for a bad animation, so errors are mapped here instead of in each command.
    static func main() {
        AllocatorTuning.apply()
        do {
            let arguments = try withConfigFile(Array(CommandLine.arguments.dropFirst()))
            // The drawing commands' usual command lines skip ArgumentParser's reflection
            // (QuickParse.swift); everything else, help and errors included, is its.
            if let quick = quickCommand(arguments) {
                try quick.run()
            } else {
                var command = try parseAsRoot(arguments)
                try command.run()
            }
        } catch let error as CommandFailure {
            FileHandleWriter.stderr("buoy: \(error.message)\n")
            Glibc.exit(error.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            FileHandleWriter.stderr(fullMessage(for: error) + "\n")
            Glibc.exit(1)
        }
    }
}

/// For `buoy run`: the config file's settings go first so the command line's override them.
/// `--config FILE` names it; otherwise /etc/buoy/buoy.toml is read when it exists. The file's
/// downloads are used only when the command line names none: a `--url` there replaces them all
/// (flags override the file), and `--no-config-downloads` drops them (the daemon started after
/// the boot job, which did them). `--config` itself stays for Run to show in its help.
func withConfigFile(_ arguments: [String]) throws -> [String] {
    guard arguments.first == "run" else { return arguments }
    let rest = Array(arguments.dropFirst())
    var path: String?
    for (i, argument) in rest.enumerated() {
        if argument == "--" { break }
        if argument == "--config" {
            guard i + 1 < rest.count else { throw CommandFailure.badArguments("--config needs a file") }
            path = rest[i + 1]
        } else if argument.hasPrefix("--config=") {
            path = String(argument.dropFirst("--config=".count))
        }
    }
    if path == nil, FileManager.default.fileExists(atPath: ConfigFile.defaultPath) {
        path = ConfigFile.defaultPath
    }
    guard let path else { return arguments }
    let file = try ConfigFile.arguments(path: path)
    let ownDownloads = rest.contains { $0 == "--url" || $0.hasPrefix("--url=") || $0 == "--no-config-downloads" }
    return ["run"] + file.settings + (ownDownloads ? [] : file.downloads.flatMap { $0 }) + rest
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
