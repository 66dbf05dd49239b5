/// The languages the screen's own words come in. The CLI picks one from `--language` or the
/// locale (LC_ALL, LC_MESSAGES, LANG) and passes it as a value; anything else is English.
public enum Language: String, CaseIterable, Sendable {
    case english = "en", german = "de", french = "fr", spanish = "es", chinese = "zh", japanese = "ja", arabic = "ar"

    /// The language of a locale name or language tag: `de_DE.UTF-8`, `fr-CA`, `zh_CN@x`, `ar`;
    /// nil for an unknown language and for C/POSIX.
    public init?(locale: String) {
        let code = locale.prefix { $0.isLetter }.lowercased()
        guard let language = Language(rawValue: code) else { return nil }
        self = language
    }

    /// The language a POSIX program takes its messages in: the first set of LC_ALL,
    /// LC_MESSAGES and LANG decides (an unknown one means English, as C does).
    public static func fromEnvironment(_ environment: [String: String]) -> Language {
        let name = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return name.flatMap { Language(locale: $0) } ?? .english
    }
}

/// How a failed download is tried again, as the runtime really supports it.
public enum RetryHint: Equatable, Sendable {
    /// A key, a button or a touch starts it again (--trigger input).
    case press
    /// The automatic retry (--retry-after), in this many seconds.
    case automatic(seconds: Int)
    /// The daemon waits for the next `buoy fetch`.
    case fetchAgain
    /// Nothing here retries (the program ends with the failure's exit status).
    case none
}

/// The screen's words in one language: the prompts, the failure's two lines and the units of the
/// progress line. Values, so a test reads them and the controller stays free of locale lookups.
public struct Prompts: Equatable, Sendable {
    public var language: Language
    /// Waiting for a key, a button or a touch anywhere / on the prompt.
    public var pressToStart: String
    public var touchHereToStart: String
    /// "Download failed: %@" (the reason).
    var failedBecause: String
    var pressToRetry: String
    /// "%@" is a number of seconds.
    var retryingIn: String
    var fetchAgain: String
    /// "%@" is a duration ("1:05", "12 s").
    var timeLeft: String
    public var complete: String
    /// Between a number and "%": "" or a (narrow) no-break space, as the language writes it.
    var percentSpace: String
    /// "1,3 MB" rather than "1.3 MB".
    var decimalComma: Bool

    public init(language: Language) {
        self.language = language
        decimalComma = [.german, .french, .spanish].contains(language)
        switch language {
        case .english:
            (pressToStart, touchHereToStart) = ("Press Enter, Space or touch the screen to start", "Touch here or press Enter to start")
            (failedBecause, pressToRetry) = ("Download failed: %@", "Press a key or touch the screen to try again")
            (retryingIn, fetchAgain, timeLeft, complete, percentSpace) = ("Trying again in %@ s", "Run buoy fetch to try again", "%@ left", "Complete", "")
        case .german:
            (pressToStart, touchHereToStart) = ("Zum Starten Enter oder Leertaste drücken oder den Bildschirm berühren", "Hier berühren oder Enter drücken, um zu starten")
            (failedBecause, pressToRetry) = ("Download fehlgeschlagen: %@", "Zum erneuten Versuch eine Taste drücken oder den Bildschirm berühren")
            (retryingIn, fetchAgain, timeLeft, complete, percentSpace) = ("Neuer Versuch in %@ s", "Mit buoy fetch erneut versuchen", "noch %@", "Fertig", "\u{202F}")
        case .french:
            (pressToStart, touchHereToStart) = ("Appuyez sur Entrée ou Espace, ou touchez l’écran pour commencer", "Touchez ici ou appuyez sur Entrée pour commencer")
            (failedBecause, pressToRetry) = ("Échec du téléchargement : %@", "Appuyez sur une touche ou touchez l’écran pour réessayer")
            (retryingIn, fetchAgain, timeLeft, complete, percentSpace) = ("Nouvel essai dans %@ s", "Lancez buoy fetch pour réessayer", "encore %@", "Terminé", "\u{202F}")
        case .spanish:
            (pressToStart, touchHereToStart) = ("Pulse Intro o Espacio, o toque la pantalla para empezar", "Toque aquí o pulse Intro para empezar")
            (failedBecause, pressToRetry) = ("La descarga ha fallado: %@", "Pulse una tecla o toque la pantalla para reintentar")
            (retryingIn, fetchAgain, timeLeft, complete, percentSpace) = ("Reintento en %@ s", "Ejecute buoy fetch para reintentar", "quedan %@", "Completado", "\u{00A0}")
        case .chinese:
            (pressToStart, touchHereToStart) = ("按回车键或空格键，或触摸屏幕开始", "触摸此处或按回车键开始")
            (failedBecause, pressToRetry) = ("下载失败：%@", "按任意键或触摸屏幕重试")
            (retryingIn, fetchAgain, timeLeft, complete, percentSpace) = ("%@ 秒后重试", "运行 buoy fetch 重试", "剩余 %@", "完成", "")
        case .japanese:
            (pressToStart, touchHereToStart) = ("Enter キーかスペースキーを押すか、画面に触れると開始します", "ここに触れるか Enter キーを押すと開始します")
            (failedBecause, pressToRetry) = ("ダウンロードに失敗しました：%@", "キーを押すか画面に触れると再試行します")
            (retryingIn, fetchAgain, timeLeft, complete, percentSpace) = ("%@ 秒後に再試行します", "buoy fetch を実行すると再試行します", "残り %@", "完了", "")
        case .arabic:
            (pressToStart, touchHereToStart) = ("اضغط Enter أو المسافة أو المس الشاشة للبدء", "المس هنا أو اضغط Enter للبدء")
            (failedBecause, pressToRetry) = ("فشل التنزيل: %@", "اضغط أي مفتاح أو المس الشاشة لإعادة المحاولة")
            (retryingIn, fetchAgain, timeLeft, complete, percentSpace) = ("إعادة المحاولة بعد %@ ث", "شغّل buoy fetch لإعادة المحاولة", "متبقٍ %@", "اكتمل", "")
        }
    }

    /// The failure as two paragraphs: why, and how to try again (when anything here can).
    public func failure(_ reason: String, retry: RetryHint) -> String {
        let why = Self.fill(failedBecause, reason)
        switch retry {
        case .press: return why + "\n" + pressToRetry
        case .automatic(let seconds): return why + "\n" + Self.fill(retryingIn, String(seconds))
        case .fetchAgain: return why + "\n" + fetchAgain
        case .none: return why
        }
    }

    /// A percentage as the language writes it ("42%", "42 %").
    public func percent(_ value: Int) -> String { "\(value)\(percentSpace)%" }

    public func remaining(_ duration: String) -> String { Self.fill(timeLeft, duration) }

    /// Figures with Latin units ("3.0 MB", "1:05") kept in their order inside right-to-left
    /// text: a left-to-right isolate (the bidi algorithm would show "MB 3.0"); as they are elsewhere.
    public func leftToRight(_ text: String) -> String {
        language == .arabic ? "\u{2066}" + text + "\u{2069}" : text
    }

    /// The template with its one `%@` replaced (a reason may itself hold "%@": it is not re-read).
    static func fill(_ template: String, _ value: String) -> String {
        guard let range = template.firstRange(of: "%@") else { return template }
        return String(template[..<range.lowerBound]) + value + String(template[range.upperBound...])
    }
}
