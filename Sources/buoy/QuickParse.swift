import ArgumentParser

/// A start-up fast path for the commands that draw a file (`bench`, `render`, `play`): their
/// arguments read by a plain scan instead of ArgumentParser's.
///
/// Why: before `run()` ArgumentParser reflects every property of the root command and of the
/// subcommand (`Mirror`), casts each to its protocols and instantiates each property
/// wrapper's generic type from its mangled name. Each new type or cast scans every protocol
/// conformance record of the binary (about 6,000): 13.6 M of the 34 M instructions a small
/// file's `buoy bench` ran, 40 % of its start-up.
///
/// ArgumentParser stays the reference. The scan takes only what it reads exactly as
/// ArgumentParser would: long options it declares (`--name VALUE`, `--name=VALUE`), flags,
/// and positional arguments, each value converted by the same `init?(argument:)`. Anything
/// else (help, `--version`, a short or unknown option, a repeated option, a value starting
/// with `-`, `--`, a value refused, a `validate()` that fails) returns nil and the command
/// line goes to ArgumentParser, so help, errors and their exit statuses are its own.
/// `QuickParseTests` holds both to the same values for each command.
struct QuickArguments {
    private(set) var positionals: [String] = []
    // Arrays, searched in order: a handful of names, and no Set or Dictionary (whose first
    // use seeds the hasher: a third of a million instructions at start).
    private var values: [(name: String, value: String)] = []
    private var flags: [String] = []

    /// A value ArgumentParser would take but `init?(argument:)` refuses.
    struct Refused: Error {}

    /// nil when the command line has anything but `options` (taking a value), `flags` and
    /// positional arguments, each option at most once.
    init?(_ arguments: [String], options: [String], flags flagNames: [String]) {
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            guard argument.hasPrefix("-") else { positionals.append(argument); continue }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard name.hasPrefix("--"), !values.contains(where: { $0.name == name }), !flags.contains(name) else { return nil }
            if flagNames.contains(name), inline == nil {
                flags.append(name)
            } else if options.contains(name) {
                if inline == nil {
                    guard i < arguments.count, !arguments[i].hasPrefix("-") else { return nil }
                    inline = arguments[i]
                    i += 1
                }
                values.append((name, inline ?? ""))
            } else {
                return nil
            }
        }
    }

    /// The option's value converted as ArgumentParser converts it; nil when it is absent.
    func value<T: ExpressibleByArgument>(_ name: String) throws -> T? {
        guard let text = values.first(where: { $0.name == name })?.value else { return nil }
        guard let value = T(argument: text) else { throw Refused() }
        return value
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A command the fast path read. (An enum, not an existential: a protocol type's optional
/// is built from its mangled name at run time.)
enum QuickCommand {
    case bench(BenchJob)
    case render(RenderJob)
    case play(PlayJob)

    func validate() throws {
        switch self {
        case .bench(let job): try job.validate()
        case .render(let render): try render.validate()
        case .play(let play): try play.validate()
        }
    }

    func run() throws {
        switch self {
        case .bench(let job): try job.run()
        case .render(let render): try render.run()
        case .play(let play): try play.run()
        }
    }
}

/// The command for `arguments` read by the fast path, validated; nil to let ArgumentParser
/// read them.
func quickCommand(_ arguments: [String]) -> QuickCommand? {
    guard let name = arguments.first else { return nil }
    let rest = Array(arguments.dropFirst())
    let command: QuickCommand?
    switch name {
    case "bench": command = Bench.quickParse(rest).map { .bench($0) }
    case "render": command = Render.quickParse(rest).map { .render($0) }
    case "play": command = Play.quickParse(rest).map { .play($0) }
    default: command = nil
    }
    guard let command, (try? command.validate()) != nil else { return nil }
    return command
}

extension Bench {
    static func quickParse(_ arguments: [String]) -> BenchJob? {
        guard let a = QuickArguments(arguments, options: ["--size", "--content-mode", "--count", "--threads", "--t0-ns"],
                                     flags: ["--per-frame", "--damage"]),
              a.positionals.count == 1 else { return nil }
        var bench = BenchJob(animation: a.positionals[0])
        do {
            bench.size = try a.value("--size")
            bench.contentMode = try a.value("--content-mode") ?? .fit
            bench.count = try a.value("--count")
            bench.threads = try a.value("--threads")
            bench.perFrame = a.flag("--per-frame")
            bench.damage = a.flag("--damage")
            bench.spawnedAt = try a.value("--t0-ns")
        } catch {
            return nil
        }
        return bench
    }
}

extension Render {
    /// `--set` (repeatable) and `-o` are left to ArgumentParser.
    static func quickParse(_ arguments: [String]) -> RenderJob? {
        guard let a = QuickArguments(arguments, options: ["--output", "--frame", "--progress", "--frames", "--size", "--content-mode",
                                                          "--background", "--batch", "--threads"], flags: []),
              a.positionals.count <= 1 else { return nil }
        var render = RenderJob()
        do {
            render.animation = a.positionals.first
            render.output = try a.value("--output")
            render.frame = try a.value("--frame")
            render.progress = try a.value("--progress")
            render.frames = try a.value("--frames")
            render.size = try a.value("--size")
            render.contentMode = try a.value("--content-mode") ?? .fit
            render.background = try a.value("--background") ?? Background(color: .clear)
            render.batch = try a.value("--batch")
            render.assignments = []
            render.threads = try a.value("--threads")
        } catch {
            return nil
        }
        return render
    }
}

extension Play {
    /// `--set` (repeatable) is left to ArgumentParser. The display options are validated here
    /// as ArgumentParser validates an option group.
    static func quickParse(_ arguments: [String]) -> PlayJob? {
        let displayOptions = ["--display", "--size", "--mode", "--fps", "--every", "--rotate", "--pixel-format"]
        guard let a = QuickArguments(arguments, options: displayOptions + ["--content-mode", "--background", "--duration", "--from-progress",
                                                                          "--to-progress", "--speed", "--trace", "--threads"],
                                     flags: ["--loop"]),
              a.positionals.count == 1 else { return nil }
        var play = PlayJob(animation: a.positionals[0])
        do {
            var output = DisplaySettings()
            output.display = try a.value("--display") ?? "auto"
            output.size = try a.value("--size")
            output.mode = try a.value("--mode")
            output.fps = try a.value("--fps") ?? 60
            output.every = try a.value("--every") ?? 1
            output.rotate = try a.value("--rotate") ?? 0
            output.pixelFormat = try a.value("--pixel-format") ?? "auto"
            try output.validate()
            play.animation = a.positionals[0]
            play.output = output
            play.contentMode = try a.value("--content-mode") ?? .fit
            play.background = try a.value("--background") ?? Background(color: .black)
            play.loop = a.flag("--loop")
            play.duration = try a.value("--duration")
            play.fromProgress = try a.value("--from-progress") ?? 0
            play.toProgress = try a.value("--to-progress") ?? 1
            play.speed = try a.value("--speed") ?? 1
            play.assignments = []
            play.trace = try a.value("--trace")
            play.threads = try a.value("--threads")
        } catch {
            return nil
        }
        return play
    }
}
