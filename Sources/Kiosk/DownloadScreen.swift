import Glibc
import LottieModel
import LottieRender
import Player
import Raster

/// The download screen's sequence, as a state machine over the player, the property animator
/// and one interpolator: the first segment loops while the download runs, the water (the
/// layer at `progressKeypath`) rises with the received fraction, eased; on success the loop
/// plays on at 4× to its end, then the success segment plays once at 1×.
public final class DownloadScreen {
    public enum State: String, Sendable {
        case idle, waiting, downloading, finishing, success, done, failed
    }

    public struct Configuration: Sendable {
        /// The property the download moves (a 2D position).
        public var progressKeypath = Keypath("Boat.Transform.Position")
        /// Progress range of the wave loop and of the success segment.
        public var loopSegment: ClosedRange<Double> = 0...0.5
        public var successSegment: ClosedRange<Double> = 0.5...1
        public var finishSpeed = 4.0
        /// How far the water rises at 100 %, in display heights (1: from the centre to one
        /// display height above; more for animations whose water line sits low).
        public var lift = 1.0
        /// Measure `lift` in the animation's own height on the display rather than the
        /// display's when that is larger (a letterboxed `fit`): an animation whose picture must
        /// stay in view (the built-in boat) then rises the same share of itself on any panel.
        public var liftInAnimationHeights = false
        /// How long the water takes to ease to each new download figure.
        public var easing = 0.6
        /// Colours that turn to `failureColor` when the download fails (the default
        /// animation's water); keypaths that match nothing are ignored.
        public var failureKeypaths = [Keypath("Boat.Front Water.Fill 1.Color"), Keypath("Boat.Back Water.Fill 1.Color")]
        public var failureColor = RGBA(r: 0.55, g: 0.32, b: 0.36)

        public init() {}

        /// For Buoy's own animation: its water line sits low and rises `DefaultAnimation.lift`
        /// display heights, so the boat stays on screen at every level.
        public static var defaultAnimation: Configuration {
            var configuration = Configuration()
            configuration.lift = DefaultAnimation.lift
            configuration.liftInAnimationHeights = true
            return configuration
        }
    }

    public private(set) var state: State = .idle
    public private(set) var renderer: AnimationRenderer
    public let player: AnimationPlayer
    public let configuration: Configuration
    /// The water level shown, 0...1 (eased), and the last download figure.
    public private(set) var level = 0.0
    public private(set) var downloadFraction: Double?
    public private(set) var message: String?

    private let clock: PlaybackClock
    private let water: InterpolatorValueProvider<Vec2>?
    private var animator: PropertyAnimator?
    private var target = 0.0
    /// The download succeeded; the finish starts once the water has shown full.
    private var successPending = false

    /// Binds the water provider: from where the layer is to one viewport height above it,
    /// converted into the layer's parent space, so a full download fills any display.
    public init(renderer: AnimationRenderer, viewport: Viewport, clock: PlaybackClock, configuration: Configuration = Configuration()) {
        var renderer = renderer
        self.clock = clock
        self.configuration = configuration
        player = AnimationPlayer(animation: renderer.animation, clock: clock)
        let frame = renderer.animation.inPoint
        if let start = Self.positionValue(renderer, configuration.progressKeypath, frame: frame) {
            // One display height — or the animation's own height on the display when that is
            // taller (fill mode crops it): the water then fills the screen on any shape of display.
            let toSurface = viewport.transform(animationWidth: renderer.animation.width, animationHeight: renderer.animation.height)
            let animationPixels = renderer.animation.height * abs(toSurface.d)
            let measure = configuration.liftInAnimationHeights ? animationPixels : max(Double(viewport.height), animationPixels)
            let pixels = measure * configuration.lift
            let rise = Self.parentOffset(forSurfaceOffset: Point(x: 0, y: -pixels), renderer: renderer,
                                         keypath: configuration.progressKeypath, start: start, frame: frame, viewport: viewport)
            let provider = InterpolatorValueProvider(start: start, end: Vec2(x: start.x + rise.x, y: start.y + rise.y))
            water = renderer.setValueProvider(provider, keypath: configuration.progressKeypath) > 0 ? provider : nil
        } else {
            water = nil
        }
        self.renderer = renderer
    }

    /// The change of a layer's position (in its parent's space) that moves it by `offset`
    /// pixels on the surface. The position lives in the parent's space, which a parent layer,
    /// a scaled or rotated precomp and the viewport all transform; rather than rebuild that
    /// chain here, the renderer's own coordinate conversion is asked where the layer lands for
    /// its position and for that position moved one unit along each axis: those two screen
    /// steps are the parent space's linear map, and its inverse turns `offset` into a position
    /// change. Falls back to the viewport's scale if the layer cannot be found or the map is
    /// degenerate (a layer scaled to nothing).
    static func parentOffset(forSurfaceOffset offset: Point, renderer: AnimationRenderer, keypath: Keypath, start: Vec2,
                             frame: Double, viewport: Viewport) -> Vec2 {
        let layer = Keypath(components: Array(keypath.components.dropLast(2)))
        var probe = renderer  // a copy: the caller's renderer keeps its own bindings
        let position = InterpolatorValueProvider(start: start, end: start)
        let toSurface = viewport.transform(animationWidth: renderer.animation.width, animationHeight: renderer.animation.height)
        let fallback = Vec2(x: offset.x / max(abs(toSurface.a), 1e-9), y: offset.y / max(abs(toSurface.d), 1e-9))
        guard probe.setValueProvider(position, keypath: keypath) > 0 else { return fallback }
        func landing(_ dx: Double, _ dy: Double) -> Point? {
            position.start = Vec2(x: start.x + dx, y: start.y + dy)
            position.end = position.start
            return probe.convert(Point(x: 0, y: 0), fromLayerAt: layer, frame: frame, viewport: viewport)
        }
        guard let origin = landing(0, 0), let alongX = landing(1, 0), let alongY = landing(0, 1) else { return fallback }
        // Columns of the parent space's linear map on the surface.
        let a = alongX.x - origin.x, b = alongX.y - origin.y
        let c = alongY.x - origin.x, d = alongY.y - origin.y
        let determinant = a * d - b * c
        guard abs(determinant) > 1e-12, determinant.isFinite else { return fallback }
        return Vec2(x: (d * offset.x - c * offset.y) / determinant, y: (a * offset.y - b * offset.x) / determinant)
    }

    /// Whether the picture may still change by itself: the player runs, the water eases, or a
    /// success waits to start the finish. When false, frames are the same until an event.
    public var isAnimating: Bool { player.isPlaying || animator?.isRunning == true || successPending }

    /// Whether the animation has the property the download drives.
    public var drivesProperty: Bool { water != nil }

    static func positionValue(_ renderer: AnimationRenderer, _ keypath: Keypath, frame: Double) -> Vec2? {
        guard keypath.components.count >= 3, keypath.components.suffix(2) == ["Transform", "Position"] else { return nil }
        let layerPath = Array(keypath.components.dropLast(2))
        var found: Vec2?
        func search(_ layers: [Layer], _ prefix: [String]) {
            for layer in layers where found == nil {
                let names = prefix + [layer.name]
                if Keypath(components: layerPath).matches(names) { found = layer.transform.position.value(at: frame); return }
                if case .precomp(let refId, _, _) = layer.kind, case .precomp(_, let children, _)? = renderer.animation.assets[refId],
                   Keypath(components: layerPath).couldMatch(prefix: names) {
                    search(children, names)
                }
            }
        }
        search(renderer.animation.layers, [])
        return found
    }

    // MARK: Events

    /// No job (a daemon before its first fetch): the wave loop plays, the state stays idle.
    public func showIdle() {
        state = .idle
        player.play(fromProgress: configuration.loopSegment.lowerBound, toProgress: configuration.loopSegment.upperBound, loopMode: .loop)
    }

    public func showWaiting() {
        state = .waiting
        player.play(fromProgress: configuration.loopSegment.lowerBound, toProgress: configuration.loopSegment.upperBound, loopMode: .loop)
    }

    public func startDownloading() {
        state = .downloading
        message = nil
        if !player.isPlaying {
            player.play(fromProgress: configuration.loopSegment.lowerBound, toProgress: configuration.loopSegment.upperBound, loopMode: .loop)
        }
    }

    /// A new download figure (nil: size unknown, the water keeps its level).
    public func update(downloadFraction fraction: Double?) {
        downloadFraction = fraction
        guard let fraction, state == .downloading || state == .finishing else { return }
        ease(to: min(max(fraction, 0), 1))
    }

    /// The download is complete: the water eases up to full and, once a frame has shown it
    /// full (still `downloading`, so the last downloading frame is the full screen of water),
    /// the loop finishes at 4x and the success segment plays (from `tick`).
    public func downloadSucceeded() {
        guard state == .downloading || state == .waiting || state == .idle else { return }
        if state != .downloading { startDownloading() }
        downloadFraction = 1
        ease(to: 1)
        successPending = true
    }

    private func finish() {
        successPending = false
        state = .finishing
        let from = configuration.successSegment.lowerBound
        player.finishLoop(finishSpeed: configuration.finishSpeed,
                          thenPlayFromProgress: abs(from - configuration.loopSegment.upperBound) < 1e-9 ? nil : from,
                          thenPlayToProgress: configuration.successSegment.upperBound, thenSpeed: 1) { [weak self] finished in
            if finished { self?.state = .done }
        }
    }

    public func downloadFailed(_ message: String) {
        state = .failed
        successPending = false
        self.message = message
        player.pause()
        // A visible failed state: the sea turns a muted red and the picture holds.
        for keypath in configuration.failureKeypaths {
            renderer.setValueProvider(ConstantValueProvider(configuration.failureColor), keypath: keypath)
        }
    }

    /// Draws `frame` when anything changed since the last call; returns whether it drew.
    /// `overdrawn`: pixels painted over the last frame drawn since (a status line).
    @discardableResult
    public func render(frame: Double, viewport: Viewport, background: Color = .black, into surface: inout Surface,
                       overdrawn: PixelRect = .empty) -> Bool {
        renderer.renderIfChanged(frame: frame, viewport: viewport, background: background, into: &surface, overdrawn: overdrawn)
    }

    /// Advances to the clock's time; returns the animation frame to draw.
    public func tick() -> Double {
        // The level checked is the one the previous frame showed: that frame was the last
        // downloading one, with the water full.
        if successPending && (water == nil || level >= 1) { finish() }
        animator?.tick()
        let frame = player.tick()
        if state == .finishing, player.speed == 1, player.progress(forFrame: frame) >= configuration.successSegment.lowerBound - 1e-9 {
            state = .success
        }
        return frame
    }

    /// Moves the water towards `value`, easing from where it is now (a burst of progress
    /// becomes a smooth rise).
    private func ease(to value: Double) {
        guard let water, abs(value - target) > 1e-6 else { return }
        target = value
        try? animator?.stopAnimation(withoutFinishing: true)
        let next = PropertyAnimator(duration: configuration.easing, timing: .easeOut, clock: clock)
        next.addAnimation(from: level, to: value) { [weak self] v in
            self?.level = v
            water.progress = v
        }
        try? next.start()
        animator = next
    }
}
