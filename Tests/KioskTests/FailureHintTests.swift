import Download
import Kiosk
import XCTest

/// A failed download on screen: its reason, then how this kiosk really tries again, in the
/// configured language.
final class FailureHintTests: XCTestCase {
    static let file = DownloadRequest(url: "http://127.0.0.1/fw.bin", destination: "/tmp/fw.bin")

    /// The message the controller shows when the transfer fails, for a configuration.
    func failureMessage(_ change: (inout KioskConfiguration) -> Void) -> String? {
        var configuration = KioskConfiguration()
        configuration.job = [Self.file]
        change(&configuration)
        var controller = KioskController(configuration: configuration)
        _ = controller.handle(.start, at: 0)
        if configuration.trigger == .input { _ = controller.handle(.press(code: 28, device: "kbd", time: 0.5, offPrompt: nil), at: 0.5) }
        if configuration.daemon { _ = controller.handle(.request(client: 5, .fetch(Self.file)), at: 0.5) }
        let effects = controller.handle(.transferEnded(failure: "HTTP status 404"), at: 1)
        return effects.compactMap { effect -> String? in
            if case .showMessage(let text) = effect { return text }
            return nil
        }.last
    }

    func testTheHintFollowsWhatTheKioskSupports() {
        XCTAssertEqual(failureMessage { $0.trigger = .input }, "Download failed: HTTP status 404\nPress a key or touch the screen to try again")
        XCTAssertEqual(failureMessage { $0.retryAfter = 4 }, "Download failed: HTTP status 404\nTrying again in 4 s")
        XCTAssertEqual(failureMessage { $0.job = []; $0.daemon = true }, "Download failed: HTTP status 404\nRun buoy fetch to try again")
        XCTAssertEqual(failureMessage { _ in }, "Download failed: HTTP status 404")
    }

    func testTheHintSpeaksTheConfiguredLanguage() {
        XCTAssertEqual(failureMessage { $0.trigger = .input; $0.prompts = Prompts(language: .spanish) },
                       "La descarga ha fallado: HTTP status 404\nPulse una tecla o toque la pantalla para reintentar")
        XCTAssertEqual(failureMessage { $0.retryAfter = 2; $0.prompts = Prompts(language: .chinese) }, "下载失败：HTTP status 404\n2 秒后重试")
    }
}
