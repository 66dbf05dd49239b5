import Kiosk
import LottieRender

/// Every `buoy run` setting a config file may hold: its key (the flag's long name; `_` and `-`
/// are one), the `[section]` it may also be written under, and the TOML type it takes. The
/// file's values are checked here, so a wrong one is reported against the file, its line and
/// key, not later as if it were a mistyped flag.
struct ConfigKey: Sendable {
    enum Kind: Sendable {
        case string
        case integer
        /// An integer or a float.
        case number
        /// A string that must be one of these.
        case choice([String])
        /// `"WxH"`.
        case size
        /// Input codes: an array of integers, or a string "28,57".
        case codes
    }

    var name: String
    var section: String?
    var kind: Kind
    /// Beyond the type: nil when the value is acceptable, else what is wrong with it.
    var check: (@Sendable (Double) -> String?)? = nil

    var flag: String { "--" + name }

    var expected: String {
        switch kind {
        case .string: return "a string"
        case .integer: return "an integer"
        case .number: return "a number"
        case .choice(let values): return "one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
        case .size: return "a string \"WxH\" (e.g. \"640x480\")"
        case .codes: return "an array of input codes (e.g. [28, 57]) or a string \"28,57\""
        }
    }
}

enum ConfigSchema {
    // Not "display" or "animation": those are keys, and TOML cannot have a key and a table of one name.
    static let sections = ["screen", "playback", "input", "control", "fetch"]

    static let keys: [ConfigKey] = [
        ConfigKey(name: "animation", section: "playback", kind: .string),
        ConfigKey(name: "content-mode", section: "playback", kind: .choice(ContentMode.allCases.map(\.rawValue))),
        ConfigKey(name: "keypath", section: "playback", kind: .string),
        ConfigKey(name: "lift", section: "playback", kind: .number, check: { $0 > 0 && $0 < 100 ? nil : "must be above 0 and below 100" }),
        ConfigKey(name: "loop-segment", section: "playback", kind: .string),
        ConfigKey(name: "success-segment", section: "playback", kind: .string),
        ConfigKey(name: "display", section: "screen", kind: .string),
        ConfigKey(name: "size", section: "screen", kind: .size),
        ConfigKey(name: "mode", section: "screen", kind: .string),
        ConfigKey(name: "fps", section: "screen", kind: .number, check: { $0 > 0 && $0 <= 1000 ? nil : "must be above 0 and at most 1000" }),
        ConfigKey(name: "every", section: "screen", kind: .integer, check: { $0 >= 1 ? nil : "must be at least 1" }),
        ConfigKey(name: "rotate", section: "screen", kind: .integer, check: { [0, 90, 180, 270].contains($0) ? nil : "must be 0, 90, 180 or 270" }),
        ConfigKey(name: "pixel-format", section: "screen", kind: .choice(["auto", "xrgb8888", "rgb565"])),
        ConfigKey(name: "progress", section: "screen", kind: .choice(ProgressVisibility.allCases.map(\.rawValue))),
        ConfigKey(name: "language", section: "screen", kind: .string),
        ConfigKey(name: "threads", section: "screen", kind: .integer, check: { (1...64).contains($0) ? nil : "must be between 1 and 64" }),
        ConfigKey(name: "trigger", section: "input", kind: .choice(["auto", "input"])),
        ConfigKey(name: "touch", section: "input", kind: .choice(["anywhere", "prompt"])),
        ConfigKey(name: "keys", section: "input", kind: .codes),
        ConfigKey(name: "input-dir", section: "input", kind: .string),
        ConfigKey(name: "socket", section: "control", kind: .string),
        ConfigKey(name: "socket-group", section: "control", kind: .string),
        ConfigKey(name: "download-dir", section: "control", kind: .string),
        ConfigKey(name: "psplash-fifo", section: "control", kind: .string),
        ConfigKey(name: "psplash-quit", section: "control", kind: .choice(KioskConfiguration.PsplashQuit.allCases.map(\.rawValue))),
        ConfigKey(name: "ca-file", section: "fetch", kind: .string),
        ConfigKey(name: "retry-after", section: "fetch", kind: .number, check: { $0 > 0 && $0.isFinite ? nil : "must be a positive number of seconds" }),
        ConfigKey(name: "max-retries", section: "fetch", kind: .integer, check: { $0 >= 0 ? nil : "must be 0 or more" }),
        ConfigKey(name: "on-complete", section: nil, kind: .string),
        ConfigKey(name: "trace", section: nil, kind: .string),
    ]

    /// The keys of a `[[download]]` table.
    static let downloadKeys = ["url", "output", "sha256"]

    static func key(named name: String) -> ConfigKey? { keys.first { $0.name == name } }

    /// The closest known name, when it is close enough to be a typo.
    static func suggestion(for name: String, among names: [String]) -> String? {
        let best = names.map { ($0, editDistance(name, $0)) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= max(1, min(3, name.count / 3)) else { return nil }
        return best.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
