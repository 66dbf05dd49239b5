import Display
import Kiosk
import LottieRender
import Player
import Raster

/// `buoy play`'s picture: one animation and its player, over a segment, once or looping, up
/// to an optional end. It reports `idle` while it plays and `done` once the player finished
/// or the end came, which ends the run. A segment in which nothing varies with time (a single
/// instant, or an animation whose picture does not move there) is a still picture: on a
/// display it is drawn once and held, with no frame until the end. A still file whose layers
/// enter or leave within the segment is held likewise between those instants: the scene
/// asks to be woken when the set of shown layers next changes (or the segment ends).
final class PlayScene: FrameScene {
    let player: AnimationPlayer
    private(set) var renderer: AnimationRenderer
    private(set) var state: DownloadScreen.State = .idle
    private let clock: VirtualClock
    /// Clock time at which playback ends (--duration), nil: when the player finishes.
    private let end: Double?
    /// Files and streams count frames as time: every frame is wanted until the end.
    private let writesFiles: Bool
    /// Whether the picture can change over the segment the player plays.
    private let segmentMoves: Bool
    /// The segment changes only where layers enter or leave (nothing keyframed): between those
    /// instants the picture is still.
    private let changesOnlyByLayers: Bool
    /// The segment's ends, and the direction frames travel in (+1 or -1).
    private let segmentRange: ClosedRange<Double>
    private let direction: Double
    private var lastFrame: Double
    private var finished = false

    struct Options {
        var fromProgress = 0.0, toProgress = 1.0, speed = 1.0
        var loop = false
        var duration: Double?
    }

    init(renderer: AnimationRenderer, clock: VirtualClock, options: Options, writesFiles: Bool) {
        self.renderer = renderer
        self.clock = clock
        self.writesFiles = writesFiles
        end = options.duration.map { clock.now + $0 }
        player = AnimationPlayer(animation: renderer.animation, clock: clock)
        player.speed = options.speed
        let a = player.frame(forProgress: options.fromProgress), b = player.frame(forProgress: options.toProgress)
        segmentRange = min(a, b)...max(a, b)
        segmentMoves = renderer.pictureChanges(over: segmentRange)
        changesOnlyByLayers = segmentMoves && !renderer.hasTimeVaryingProperties && !writesFiles
        direction = (b >= a ? 1 : -1) * (options.speed < 0 ? -1 : 1)
        lastFrame = a
        player.play(fromProgress: options.fromProgress, toProgress: options.toProgress, loopMode: options.loop ? .loop : .playOnce) {
            [weak self] _ in self?.finished = true
        }
    }

    var isAnimating: Bool {
        state != .done && (writesFiles || (player.isPlaying && segmentMoves && !changesOnlyByLayers))
    }

    var wakeTime: Double? {
        guard state != .done else { return nil }
        guard changesOnlyByLayers, player.isPlaying, let next = nextChangeTime else { return end }
        return min(next, end ?? next)
    }

    /// The clock time at which the picture may next change: the next frame where a layer enters
    /// or leaves, or the segment's end (where a loop starts over and a single pass ends).
    private var nextChangeTime: Double? {
        let rate = abs(player.speed) * player.frameRate
        guard rate > 0, rate.isFinite else { return nil }
        let forward = direction > 0
        let bound = forward ? segmentRange.upperBound : segmentRange.lowerBound
        let next = renderer.nextVisibilityChange(after: lastFrame, forward: forward).map { forward ? min($0, bound) : max($0, bound) } ?? bound
        return clock.now + max(0, abs(next - lastFrame)) / rate
    }

    func apply(_ command: ScreenCommand) {}

    func tick() -> Double {
        let frame = player.tick()
        lastFrame = frame
        if (finished && !player.isPlaying) || end.map({ clock.now >= $0 }) == true { state = .done }
        return frame
    }

    func render(frame: Double, viewport: Viewport, background: Color, into surface: inout Surface, overdrawn: PixelRect) -> Bool {
        renderer.renderIfChanged(frame: frame, viewport: viewport, background: background, into: &surface, overdrawn: overdrawn)
    }

    func traceEntry(frame: Double) -> FrameTrace.Entry {
        FrameTrace.Entry(sequence: 0, time: 0, frame: frame, progress: player.progress(forFrame: frame), download: nil,
                         state: finished ? "done" : "playing", speed: player.speed, missed: 0)
    }
}
