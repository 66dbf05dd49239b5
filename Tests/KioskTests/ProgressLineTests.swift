import Kiosk
import XCTest

/// The progress line's words and the languages the screen speaks.
final class ProgressLineTests: XCTestCase {
    let english = Prompts(language: .english)

    func testWhileDownloadingEveryKnownFigureInOrderLongestFirst() {
        let figures = TransferFigures(received: 1_260_000, expected: 3_000_000, rate: 1_000_000)
        let lines = ProgressLine.candidates(state: .downloading, fraction: 0.4166, figures: figures, prompts: english)
        XCTAssertEqual(lines, [
            "41% · 1.3\u{A0}MB / 3.0\u{A0}MB · 1.0\u{A0}MB/s · 2\u{A0}s left",
            "41% · 1.3\u{A0}MB / 3.0\u{A0}MB · 1.0\u{A0}MB/s",
            "41% · 1.3\u{A0}MB / 3.0\u{A0}MB",
            "41%",
        ])
    }

    func testUnknownSizeShowsBytesAndNothingBeforeAJob() {
        let figures = TransferFigures(received: 950, expected: nil, rate: 0)
        XCTAssertEqual(ProgressLine.candidates(state: .downloading, fraction: nil, figures: figures, prompts: english), ["950\u{A0}B"])
        // Nothing heard yet: 0 %, so the first download frame has its figure too.
        XCTAssertEqual(ProgressLine.candidates(state: .downloading, fraction: nil, figures: nil, prompts: english), ["0%"])
        let connecting = TransferFigures(received: 0, expected: nil, rate: 0)
        XCTAssertEqual(ProgressLine.candidates(state: .downloading, fraction: nil, figures: connecting, prompts: english), ["0%"])
        XCTAssertEqual(ProgressLine.candidates(state: .waiting, fraction: 0.5, figures: figures, prompts: english), [])
        XCTAssertEqual(ProgressLine.candidates(state: .idle, fraction: nil, figures: nil, prompts: english), [])
    }

    func testSuccessAndFailureLines() {
        let figures = TransferFigures(received: 3_000_000, expected: 3_000_000, rate: 900_000)
        XCTAssertEqual(ProgressLine.candidates(state: .done, fraction: 1, figures: figures, prompts: english).first,
                       "\u{2713} Complete · 100% · 3.0\u{A0}MB")
        let half = TransferFigures(received: 1_500_000, expected: 3_000_000, rate: 900_000)
        // A failed job shows how far it got, with no rate or time left.
        XCTAssertEqual(ProgressLine.candidates(state: .failed, fraction: 0.5, figures: half, prompts: english).first,
                       "50% · 1.5\u{A0}MB / 3.0\u{A0}MB")
    }

    func testOutOfRangeFiguresAreClamped() {
        let figures = TransferFigures(received: -5, expected: -1, rate: .nan)
        XCTAssertEqual(figures.received, 0)
        XCTAssertNil(figures.expected)
        XCTAssertNil(figures.secondsLeft)
        XCTAssertEqual(ProgressLine.candidates(state: .downloading, fraction: 7, figures: nil, prompts: english), ["100%"])
        XCTAssertEqual(ProgressLine.candidates(state: .downloading, fraction: .nan, figures: nil, prompts: english), [])
    }

    /// Right to left, the figures with Latin units are left-to-right isolates, so the bidi
    /// algorithm keeps "3.0 MB" in its order; elsewhere nothing is added.
    func testArabicIsolatesTheFigures() {
        let figures = TransferFigures(received: 1_260_000, expected: 3_000_000, rate: 1_000_000)
        let line = ProgressLine.candidates(state: .downloading, fraction: 0.42, figures: figures, prompts: Prompts(language: .arabic))[0]
        XCTAssertEqual(line, "42% · \u{2066}1.3\u{A0}MB / 3.0\u{A0}MB\u{2069} · \u{2066}1.0\u{A0}MB/s\u{2069} · متبقٍ \u{2066}2\u{A0}s\u{2069}")
        XCTAssertFalse(ProgressLine.candidates(state: .downloading, fraction: 0.42, figures: figures, prompts: english)[0].contains("\u{2066}"))
    }

    func testUnitsAndDurations() {
        XCTAssertEqual(ProgressLine.bytes(0, english), "0\u{A0}B")
        XCTAssertEqual(ProgressLine.bytes(12_345_678, english), "12\u{A0}MB")
        XCTAssertEqual(ProgressLine.bytes(4_200_000_000, Prompts(language: .german)), "4,2\u{A0}GB")
        XCTAssertEqual(ProgressLine.duration(0.2), "1\u{A0}s")
        XCTAssertEqual(ProgressLine.duration(65), "1:05")
        XCTAssertEqual(ProgressLine.duration(7380), "2:03:00")
        XCTAssertEqual(ProgressLine.duration(.infinity), "0\u{A0}s")
    }

    func testLanguageFromLocaleNamesAndTheEnvironment() {
        XCTAssertEqual(Language(locale: "de_DE.UTF-8"), .german)
        XCTAssertEqual(Language(locale: "fr-CA"), .french)
        XCTAssertEqual(Language(locale: "zh_CN@pinyin"), .chinese)
        XCTAssertEqual(Language(locale: "JA"), .japanese)
        XCTAssertNil(Language(locale: "C.UTF-8"))
        XCTAssertNil(Language(locale: "sv_SE"))
        XCTAssertNil(Language(locale: ""))
        // POSIX order: LC_ALL, then LC_MESSAGES, then LANG; empty ones are skipped.
        XCTAssertEqual(Language.fromEnvironment(["LANG": "es_ES.UTF-8", "LC_MESSAGES": "ar_EG.UTF-8"]), .arabic)
        XCTAssertEqual(Language.fromEnvironment(["LANG": "es_ES.UTF-8", "LC_ALL": ""]), .spanish)
        XCTAssertEqual(Language.fromEnvironment(["LC_ALL": "POSIX", "LANG": "de_DE"]), .english)
        XCTAssertEqual(Language.fromEnvironment(["LANG": "xx_YY"]), .english)
        XCTAssertEqual(Language.fromEnvironment([:]), .english)
    }

    func testEveryLanguageHasItsOwnWords() {
        let all = Language.allCases.map { Prompts(language: $0) }
        XCTAssertEqual(Set(all.map(\.pressToStart)).count, all.count)
        XCTAssertEqual(Set(all.map { $0.failure("x", retry: .press) }).count, all.count)
        XCTAssertEqual(Set(all.map(\.complete)).count, all.count)
    }

    func testTheFailureTellsWhyAndHowToRetry() {
        XCTAssertEqual(english.failure("HTTP status 404", retry: .press), "Download failed: HTTP status 404\nPress a key or touch the screen to try again")
        XCTAssertEqual(english.failure("timeout", retry: .automatic(seconds: 8)), "Download failed: timeout\nTrying again in 8 s")
        XCTAssertEqual(english.failure("timeout", retry: .fetchAgain), "Download failed: timeout\nRun buoy fetch to try again")
        XCTAssertEqual(english.failure("timeout", retry: .none), "Download failed: timeout")
        // A reason holding the template's own placeholder is taken as it is.
        XCTAssertEqual(english.failure("%@ %@", retry: .none), "Download failed: %@ %@")
        XCTAssertEqual(Prompts(language: .german).failure("404", retry: .automatic(seconds: 2)), "Download fehlgeschlagen: 404\nNeuer Versuch in 2 s")
    }
}
