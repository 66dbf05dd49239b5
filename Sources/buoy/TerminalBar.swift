import Glibc
import Posix

/// `buoy fetch`'s progress line on a terminal, drawn from the same progress events as --json:
///
///     update.img  [######------]  45.0%  12.3/27.3 MB  1.2 MB/s  left 0:12  0:09
///
/// Each redraw returns to the line's start and clears to its end, so nothing of a longer
/// earlier line stays behind. The line never reaches the last column (a terminal wraps or
/// scrolls there): as the width shrinks, fields are dropped, least useful first (the bar's
/// picture, elapsed time, rate, time left, sizes), and the name is cut with an ellipsis.
/// It ends with one summary line in its place.
struct TerminalBar {
    var name: String
    /// When the job started; nil when the drawer does not know (no elapsed time shown).
    var started: Double?

    /// For a drawer that has only the events (`buoy run`'s line): the first file's name.
    init(event: [String: Any]) {
        let output = ((event["files"] as? [[String: Any]])?.first?["output"] as? String) ?? ""
        self.init(name: PathName.last(output), started: nil)
    }

    init(name: String, started: Double?) {
        // A control character in the name would move the cursor; the bar shows it as `?`.
        self.name = String(name.map { $0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } ? "?" : $0 })
        self.started = started
    }

    /// The terminal's width now. The kernel updates it on a resize (the SIGWINCH a terminal
    /// sends), and it is read again at every redraw, so the next line fits the new width.
    static func width(of fd: Int32) -> Int {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// What to write for this event: the line, from its start, cleared to the end.
    func redraw(_ event: [String: Any], now: Double, width: Int) -> String {
        "\r" + line(event, now: now, width: width) + "\u{1B}[K"
    }

    /// The closing line, in place of the bar, with its newline.
    func summary(_ event: [String: Any], now: Double, width: Int) -> String {
        let received = ProgressReport.number(event["received"]) ?? 0
        let elapsed = max(0, now - (started ?? now))
        let state = event["state"] as? String ?? ""
        var text: String
        if state == "done" || state == "success" {
            text = ": done, \(Self.size(received)) in \(Self.clock(elapsed))"
            if elapsed > 0.05 { text += " (\(Self.size(received / elapsed))/s)" }
        } else {
            text = ": \(state) after \(Self.clock(elapsed)), \(Self.size(received)) received"
        }
        // The name gives way first: the outcome is what the line is for.
        let room = max(1, width - 1)
        text = Self.fit(name, max(8, room - Self.columns(text))) + text
        return "\r" + Self.fit(text, room) + "\u{1B}[K\n"
    }

    /// The fields that fit in `width - 1` columns.
    func line(_ event: [String: Any], now: Double, width: Int) -> String {
        let room = max(1, width - 1)
        let fields = Self.fields(event, elapsed: started.map { max(0, now - $0) })
        // Drop fields by priority (lowest first) until the rest and the shortest name fit.
        var kept = fields
        while !kept.isEmpty, kept.map({ $0.text.count + 2 }).reduce(0, +) + min(Self.columns(name), 8) > room {
            let lowest = kept.indices.min { kept[$0].priority < kept[$1].priority }!
            kept.remove(at: lowest)
        }
        let tail = kept.map { "  " + $0.text }.joined()
        let nameRoom = room - tail.count
        guard nameRoom > 0 else { return Self.fit(tail.trimmingWhitespace(lineEnds: false), room) }
        return Self.fit(name, nameRoom) + tail
    }

    struct Field {
        var text: String
        /// Higher stays longer.
        var priority: Int
    }

    /// Percent (or state) first; the bar's picture goes first when room is short.
    static func fields(_ event: [String: Any], elapsed: Double?) -> [Field] {
        let received = ProgressReport.number(event["received"]) ?? 0
        let expected = ProgressReport.number(event["expected"])
        let rate = ProgressReport.number(event["rate"]) ?? 0
        let state = event["state"] as? String ?? ""
        var fields: [Field] = []
        if let fraction = ProgressReport.number(event["fraction"]) {
            let filled = min(12, max(0, Int(fraction * 12)))
            fields.append(Field(text: "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 12 - filled) + "]", priority: 0))
            fields.append(Field(text: String(cFormat: "%5.1f%%", fraction * 100), priority: 9))
        }
        fields.append(Field(text: expected.map { sizes(received, of: $0) } ?? size(received), priority: 5))
        fields.append(Field(text: size(rate) + "/s", priority: 2))
        if let eta = ProgressReport.number(event["eta"]) { fields.append(Field(text: "left " + clock(eta), priority: 4)) }
        if let elapsed { fields.append(Field(text: clock(elapsed), priority: 1)) }
        if state != "downloading" && !state.isEmpty { fields.append(Field(text: state, priority: 8)) }
        return fields
    }

    /// `text` in at most `width` terminal columns, cut with an ellipsis.
    static func fit(_ text: String, _ width: Int) -> String {
        guard columns(text) > width else { return text }
        var kept = "", used = 0
        for character in text {
            let w = columns(String(character))
            if used + w > width - 1 { break }
            kept.append(character)
            used += w
        }
        return width >= 1 ? kept + "…" : ""
    }

    /// Columns a terminal gives the text: East Asian wide and fullwidth characters (CJK, Hangul,
    /// fullwidth forms, most emoji) take two.
    static func columns(_ text: String) -> Int {
        text.reduce(0) { sum, character in
            guard let scalar = character.unicodeScalars.first?.value else { return sum }
            return sum + (wideRanges.contains { $0.contains(scalar) } ? 2 : 1)
        }
    }

    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    static func size(_ bytes: Double) -> String {
        bytes >= 1e9 ? String(cFormat: "%.1f GB", bytes / 1e9)
            : bytes >= 1e6 ? String(cFormat: "%.1f MB", bytes / 1e6)
            : bytes >= 1e3 ? String(cFormat: "%.1f kB", bytes / 1e3) : String(cFormat: "%.0f B", bytes)
    }

    /// `12.3/45.6 MB`, in the total's unit.
    static func sizes(_ received: Double, of total: Double) -> String {
        let (scale, unit): (Double, String) = total >= 1e9 ? (1e9, "GB") : total >= 1e6 ? (1e6, "MB") : total >= 1e3 ? (1e3, "kB") : (1, "B")
        let format = scale == 1 ? "%.0f/%.0f " : "%.1f/%.1f "
        return String(cFormat: format, received / scale, total / scale) + unit
    }

    /// `m:ss`, or `h:mm:ss` from an hour.
    static func clock(_ seconds: Double) -> String {
        let s = seconds.isFinite ? Int(min(max(0, seconds), 359_999).rounded()) : 0
        return s >= 3600 ? String(cFormat: "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60) : String(cFormat: "%ld:%02ld", s / 60, s % 60)
    }
}
