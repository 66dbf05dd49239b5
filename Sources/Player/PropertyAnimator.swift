/// Animates values over time with a timing curve, with the states and controls of UIKit's
/// `UIViewPropertyAnimator`: start, pause, scrub, reverse, continue, stop, finish.
///
/// Buoy uses it to ease the water level towards each new download figure: curl reports
/// progress in bursts, and the animator turns each jump into a smooth move, retargeted in
/// flight when the next figure arrives.
///
/// Invalid transitions (finishing an animator that is not stopped, scrubbing one that is
/// running, …) throw `AnimatorError`; nothing crashes.
public final class PropertyAnimator {
    public enum State: Equatable, Sendable {
        /// Not started, or finished: values are where the last run left them.
        case inactive
        /// Started: running, or paused (scrubbable).
        case active
        /// Stopped without finishing: waits for `finishAnimation(at:)`.
        case stopped
    }

    public enum Position: Equatable, Sendable { case start, end, current }

    public enum AnimatorError: Error, Equatable, CustomStringConvertible {
        case invalidTransition(action: String, state: State)
        case invalidArgument(String)

        public var description: String {
            switch self {
            case .invalidTransition(let action, let state): return "cannot \(action) an animator that is \(state)"
            case .invalidArgument(let what): return what
            }
        }
    }

    public struct AnimationID: Hashable, Sendable { let value: Int }

    private struct Track {
        var from: Double
        var to: Double
        /// Curve progress when the track was added (tracks added in flight start there).
        var startProgress: Double
        let apply: (Double) -> Void
    }

    public let clock: PlaybackClock
    public private(set) var duration: Double
    public private(set) var timing: TimingCurve
    public private(set) var state: State = .inactive
    public private(set) var isRunning = false

    private var tracks: [Int: Track] = [:]
    private var nextID = 0
    private var completions: [(Position) -> Void] = []
    /// Time fraction at `anchorTime`, and how fast it moves (per second, signed).
    private var anchorFraction = 0.0
    private var anchorTime = 0.0
    private var rate = 0.0
    private var startTime: Double?

    /// A physical spring (`TimingCurve.springPhysics`) lasts its own settling time, as in
    /// UIKit; `duration` is then ignored.
    public init(duration: Double, timing: TimingCurve = .easeInOut, clock: PlaybackClock) {
        let given = timing.settlingDuration ?? duration
        self.duration = given.isFinite && given > 0 ? given : 0.001
        self.timing = timing
        self.clock = clock
    }

    // MARK: Animations and completions

    /// Adds a value moving from `from` to `to`; `apply` receives each new value. Added while
    /// running, it moves over the remaining time.
    @discardableResult
    public func addAnimation(from: Double, to: Double, apply: @escaping (Double) -> Void) -> AnimationID {
        let id = nextID
        nextID += 1
        let p = state == .inactive ? 0 : curveProgress(fraction(at: clock.now))
        tracks[id] = Track(from: from, to: to, startProgress: min(p, 0.999_999), apply: apply)
        if state != .inactive { apply(value(of: tracks[id]!, progress: p)) }
        return AnimationID(value: id)
    }

    public func addCompletion(_ completion: @escaping (Position) -> Void) {
        completions.append(completion)
    }

    /// Changes where a running animation goes without a jump: its value now stays, and the
    /// rest of the run carries it to `to` instead.
    public func retarget(_ id: AnimationID, to newTarget: Double) {
        guard var track = tracks[id.value] else { return }
        let p = curveProgress(fraction(at: clock.now))
        let local = localProgress(track, p)
        let current = track.from + (track.to - track.from) * local
        if local < 1 {
            // Solve from' so that from' + (to' − from')·local = current.
            track.from = (current - newTarget * local) / (1 - local)
        } else {
            track.from = newTarget
        }
        track.to = newTarget
        tracks[id.value] = track
    }

    /// Moves a track's start so that its value at curve progress `newProgress` is the value
    /// it had at `oldProgress`: the timing changed under it and the value must not jump.
    private func rebase(_ id: Int, at oldProgress: Double, keepingTo newProgress: Double) {
        guard var track = tracks[id] else { return }
        let current = value(of: track, progress: oldProgress)
        let local = localProgress(track, newProgress)
        // Solve from' in from' + (to − from')·local = current; at local 1 the move is over.
        track.from = abs(1 - local) > 1e-12 ? (current - track.to * local) / (1 - local) : track.to
        tracks[id] = track
    }

    // MARK: Controls

    public func start() throws {
        switch state {
        case .stopped: throw AnimatorError.invalidTransition(action: "start", state: state)
        case .inactive:
            state = .active
            anchorFraction = 0
            run(from: clock.now)
        case .active:
            if !isRunning { run(from: clock.now) }
        }
    }

    /// Starts after `delay` seconds (the animator is active, waiting, meanwhile); a paused
    /// animator goes on from where it is after the delay. Throws `invalidTransition` when the
    /// animator is already running (the delay would otherwise move it back to where it last
    /// paused) or stopped.
    public func start(afterDelay delay: Double) throws {
        guard delay.isFinite, delay >= 0 else { throw AnimatorError.invalidArgument("delay must be a non-negative number") }
        if isRunning { throw AnimatorError.invalidTransition(action: "start after a delay", state: state) }
        try start()
        anchorTime = clock.now + delay
    }

    public func pause() throws {
        switch state {
        case .stopped: throw AnimatorError.invalidTransition(action: "pause", state: state)
        case .inactive:
            state = .active
            anchorFraction = 0
            anchorTime = clock.now
        case .active:
            anchorFraction = fraction(at: clock.now)
            anchorTime = clock.now
        }
        isRunning = false
        rate = 0
    }

    /// Running backwards, towards the start; the completion then reports `.start`.
    public var isReversed = false {
        didSet {
            guard isReversed != oldValue else { return }
            if state == .active && isRunning {
                anchorFraction = fraction(at: clock.now)
                anchorTime = max(anchorTime, clock.now)
                rate = (isReversed ? -1 : 1) / duration
            }
        }
    }

    /// How far through its duration the animator is (0...1). Setting it scrubs a paused (or
    /// inactive) animator, as UIKit's property does; where `setFractionComplete` would throw
    /// (running, stopped, not a number) setting the property is a no-op.
    public var fractionComplete: Double {
        get { fraction(at: clock.now) }
        set { try? setFractionComplete(newValue) }
    }

    /// Scrubs to `value` (clamped to 0...1); throws while running or stopped.
    public func setFractionComplete(_ value: Double) throws {
        guard state != .stopped, !isRunning else {
            throw AnimatorError.invalidTransition(action: "scrub", state: isRunning ? .active : state)
        }
        guard value.isFinite else { throw AnimatorError.invalidArgument("fraction must be a number") }
        if state == .inactive { state = .active }
        anchorFraction = min(max(value, 0), 1)
        anchorTime = clock.now
        applyValues(curveProgress(anchorFraction))
    }

    /// Resumes a paused animator, with new timing parameters when given; the rest of the
    /// run takes `durationFactor` × the remaining time (a new physical spring: × its own
    /// settling time). Values do not jump: each animation is rebased so that its value now
    /// stays and the rest of its move follows the new curve (as `retarget` does).
    public func continueAnimation(withTimingParameters newTiming: TimingCurve? = nil, durationFactor: Double = 1) throws {
        guard state == .active else { throw AnimatorError.invalidTransition(action: "continue", state: state) }
        guard durationFactor.isFinite, durationFactor > 0 else { throw AnimatorError.invalidArgument("durationFactor must be positive") }
        let f = fraction(at: clock.now)
        let before = curveProgress(f)
        if let newTiming {
            timing = newTiming
            if let own = newTiming.settlingDuration { duration = own }
        }
        duration *= durationFactor
        let after = curveProgress(f)
        if after != before {
            for id in tracks.keys { rebase(id, at: before, keepingTo: after) }
        }
        anchorFraction = f
        anchorTime = clock.now
        run(from: clock.now)
    }

    /// With `withoutFinishing` true the animator becomes inactive at once, values as they are
    /// and no completion; otherwise it is stopped and waits for `finishAnimation(at:)`.
    public func stopAnimation(withoutFinishing: Bool) throws {
        guard state == .active else { throw AnimatorError.invalidTransition(action: "stop", state: state) }
        anchorFraction = fraction(at: clock.now)
        anchorTime = clock.now
        isRunning = false
        rate = 0
        state = withoutFinishing ? .inactive : .stopped
    }

    public func finishAnimation(at position: Position) throws {
        guard state == .stopped else { throw AnimatorError.invalidTransition(action: "finish", state: state) }
        switch position {
        case .start: applyValues(0); anchorFraction = 0
        case .end: applyValues(1); anchorFraction = 1
        case .current: break
        }
        complete(position)
    }

    /// Applies the values for the clock's time; completes the animator when its run is over.
    public func tick() {
        guard state == .active, isRunning else { return }
        let now = clock.now
        guard now >= anchorTime else { return }  // still in its delay
        let f = fraction(at: now)
        // The fraction stays at the end reached, so fractionComplete reads 1 (or 0) after.
        if !isReversed && f >= 1 {
            anchorFraction = 1
            applyValues(1)
            complete(.end)
        } else if isReversed && f <= 0 {
            anchorFraction = 0
            applyValues(0)
            complete(.start)
        } else {
            applyValues(curveProgress(f))
        }
    }

    // MARK: Internals

    private func run(from time: Double) {
        anchorTime = time
        rate = (isReversed ? -1 : 1) / duration
        isRunning = true
    }

    private func fraction(at time: Double) -> Double {
        guard isRunning, time > anchorTime else { return anchorFraction }
        return min(max(anchorFraction + (time - anchorTime) * rate, 0), 1)
    }

    private func curveProgress(_ f: Double) -> Double { timing.progress(atFraction: f, duration: duration) }

    private func localProgress(_ track: Track, _ p: Double) -> Double {
        track.startProgress <= 0 ? p : (p - track.startProgress) / (1 - track.startProgress)
    }

    private func value(of track: Track, progress p: Double) -> Double {
        if p == 1 { return track.to }  // exact at the end; a spring may pass 1 on the way
        if p <= 0 && track.startProgress <= 0 { return track.from }
        return track.from + (track.to - track.from) * localProgress(track, p)
    }

    private func applyValues(_ p: Double) {
        for id in tracks.keys.sorted() { let t = tracks[id]!; t.apply(value(of: t, progress: p)) }
    }

    private func complete(_ position: Position) {
        state = .inactive
        isRunning = false
        rate = 0
        let callbacks = completions
        completions = []
        for c in callbacks { c(position) }
    }
}
