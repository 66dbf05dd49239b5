import Display
import Kiosk
import LottieRender
import Raster

/// What the frame thread draws, frame after frame: the download screen (`run`, `demo`), or an
/// animation played on its own (`play`). The thread applies the controller's screen
/// commands, ticks it, draws it when it changed and presents; the event loop around it is the
/// same for both.
protocol FrameScene: AnyObject {
    /// The state the controller is told after each frame (`done` ends a run that exits).
    var state: DownloadScreen.State { get }
    /// Whether the picture may still change by itself: frames are wanted without events.
    var isAnimating: Bool { get }
    /// When a still picture wants one more frame all the same (the end of `--duration`); nil: none.
    var wakeTime: Double? { get }
    var renderer: AnimationRenderer { get }
    func apply(_ command: ScreenCommand)
    /// Advances to the clock's time; returns the animation frame to draw.
    func tick() -> Double
    /// Draws `frame` when it differs from the last one drawn; returns whether it drew.
    /// `overdrawn`: pixels painted over the last frame drawn since (the status line).
    func render(frame: Double, viewport: Viewport, background: Color, into surface: inout Surface, overdrawn: PixelRect) -> Bool
    /// The trace line of `frame` (its time, sequence and missed refreshes are filled in when shown).
    func traceEntry(frame: Double) -> FrameTrace.Entry
}

extension DownloadScreen: FrameScene {
    var wakeTime: Double? { nil }

    func apply(_ command: ScreenCommand) {
        switch command {
        case .idle: showIdle()
        case .waiting: showWaiting()
        case .downloading: startDownloading()
        case .progress(let fraction): update(downloadFraction: fraction)
        case .succeeded: downloadSucceeded()
        case .failed(let message): downloadFailed(message)
        }
    }

    func traceEntry(frame: Double) -> FrameTrace.Entry {
        FrameTrace.Entry(sequence: 0, time: 0, frame: frame, progress: player.progress(forFrame: frame), download: downloadFraction,
                         state: state.rawValue, speed: player.speed, missed: 0, level: drivesProperty ? level : nil)
    }
}
