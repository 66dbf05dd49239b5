import Posix

/// What is known of the transfer, for the screen's progress line: bytes so far, the total when
/// the server said it, and the recent rate (0: not measured yet).
public struct TransferFigures: Equatable, Sendable {
    public var received: Int64
    public var expected: Int64?
    public var rate: Double

    public init(received: Int64, expected: Int64?, rate: Double) {
        self.received = max(0, received)
        self.expected = expected.flatMap { $0 > 0 ? $0 : nil }
        self.rate = rate.isFinite && rate > 0 ? rate : 0
    }

    /// Seconds until the total, when both the total and a rate are known.
    public var secondsLeft: Double? {
        guard let expected, rate > 0, received < expected else { return nil }
        return Double(expected - received) / rate
    }
}

/// What the screen shows of the download, and how: the screen's words, and whether the
/// progress line is drawn at all (`--progress hide` leaves only the messages).
public struct ScreenTextOptions: Equatable, Sendable {
    public var prompts: Prompts
    public var showsProgress: Bool

    public init(prompts: Prompts = Prompts(language: .english), showsProgress: Bool = true) {
        self.prompts = prompts
        self.showsProgress = showsProgress
    }
}

/// The progress line's text: the percentage first, then the size, the rate and the time left
/// when known. Given as candidates, longest first: a narrow panel shows the longest that fits,
/// so the percentage is always there.
public enum ProgressLine {
    static let separator = " · "

    /// Nothing before a job starts (idle, waiting); while it runs the figures; after a success
    /// the mark, 100 % and the size; after a failure how far it got.
    public static func candidates(state: DownloadScreen.State, fraction: Double?, figures: TransferFigures?,
                                  prompts: Prompts) -> [String] {
        // Nothing heard yet (no byte, no PROGRESS): 0 %, so a download frame never lacks its figure.
        let known = fraction ?? ((figures?.received ?? 0) == 0 ? 0 : nil)
        let percent = known.flatMap { $0.isFinite ? prompts.percent(Int((min(max($0, 0), 1) * 100).rounded(.down))) : nil }
        let size = figures.flatMap { f -> String? in
            guard f.received > 0 || f.expected != nil else { return nil }
            let shown = bytes(f.received, prompts)
            return prompts.leftToRight(f.expected.map { shown + " / " + bytes($0, prompts) } ?? shown)
        }
        switch state {
        case .idle, .waiting:
            return []
        case .success, .done:
            let total = figures.flatMap { f in f.expected ?? (f.received > 0 ? f.received : nil) }.map { prompts.leftToRight(bytes($0, prompts)) }
            let head = "\u{2713} " + prompts.complete
            return ladder([head, prompts.percent(100), total].compactMap { $0 })
        case .failed:
            return ladder([percent, size].compactMap { $0 })
        case .downloading, .finishing:
            // Finishing: the bytes are all in; a rate would be stale.
            let rate = state == .downloading ? figures.flatMap { $0.rate > 0 ? prompts.leftToRight(bytes(Int64($0.rate.rounded()), prompts) + "/s") : nil } : nil
            let left = state == .downloading ? figures?.secondsLeft.map { prompts.remaining(prompts.leftToRight(duration($0))) } : nil
            return ladder([percent, size, rate, left].compactMap { $0 })
        }
    }

    /// The parts joined, then with the last part left out, and so on down to the first.
    static func ladder(_ parts: [String]) -> [String] {
        guard !parts.isEmpty else { return [] }
        return (1...parts.count).reversed().map { parts.prefix($0).joined(separator: separator) }
    }

    /// Decimal units, one decimal below 10 ("950 B", "1.3 MB", "12 MB").
    public static func bytes(_ count: Int64, _ prompts: Prompts) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(max(count, 0))
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let digits = unit == 0 || value >= 10 ? String(Int(value.rounded())) : String(cFormat: "%.1f", value)
        let number = prompts.decimalComma ? digits.replacing(".", with: ",") : digits
        return number + "\u{00A0}" + units[unit]
    }

    /// "12 s", "1:05", "2:03:00".
    public static func duration(_ seconds: Double) -> String {
        let total = seconds.isFinite ? Int(min(max(seconds, 0), 359_999).rounded(.up)) : 0
        if total < 60 { return "\(total)\u{00A0}s" }
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(cFormat: "%ld:%02ld:%02ld", h, m, s) : String(cFormat: "%ld:%02ld", m, s)
    }
}
