import LottieModel

public enum LoopMode: Equatable, Sendable {
    case playOnce
    case loop
    /// Forwards then backwards, forever.
    case autoReverse
    /// The segment `count` times (fractions allowed), then stop at its end.
    case `repeat`(Double)
}

public enum PlayerError: Error, CustomStringConvertible, Equatable {
    case unknownMarker(String)

    public var description: String {
        switch self {
        case .unknownMarker(let name): return "the animation has no marker named \"\(name)\""
        }
    }
}

/// Plays an animation's frames over a clock: segments by progress, frame or marker, loop
/// modes, speed, pause, scrubbing and completions (the API of lottie-ios's animation view).
///
/// The player does not draw: each display refresh calls `tick()` (with the clock at the
/// frame's presentation time) and renders the frame it returns. Time is continuous: the frame
/// is computed from the clock, so a late refresh skips frames instead of slowing down.
public final class AnimationPlayer {
    /// Completion: true when the segment played to its end, false when something interrupted it.
    public typealias Completion = (Bool) -> Void

    public let inPoint: Double
    public let outPoint: Double
    public let frameRate: Double
    public let markers: [Marker]
    private let clock: PlaybackClock

    /// When true, frames are whole (the file's own frame rate); by default they are fractional.
    public var respectsFrameRate = false

    struct Segment {
        var from: Double
        var to: Double
        var loopMode: LoopMode
        /// Distance (frames travelled) at which the segment ends; nil plays forever.
        var endDistance: Double?
        /// Speed to switch to when this segment starts; nil keeps the current one.
        var speed: Double?
        var completion: Completion?

        var length: Double { abs(to - from) }
    }

    private var segment: Segment
    private var queue: [Segment] = []
    /// Frames travelled along the segment at `anchorTime` (loops unrolled).
    private var anchorDistance = 0.0
    private var anchorTime: Double
    private var frozenFrame: Double?
    public private(set) var isPlaying = false
    /// A segment was paused before its end: `resume()` goes on with it, and anything else
    /// that replaces it reports it as interrupted.
    private var isPaused = false

    public init(inPoint: Double, outPoint: Double, frameRate: Double, markers: [Marker] = [], clock: PlaybackClock) {
        self.inPoint = inPoint
        self.outPoint = max(outPoint, inPoint)
        self.frameRate = frameRate > 0 ? frameRate : 30
        self.markers = markers
        self.clock = clock
        segment = Segment(from: inPoint, to: outPoint, loopMode: .playOnce, endDistance: abs(outPoint - inPoint))
        anchorTime = clock.now
        frozenFrame = inPoint
    }

    public convenience init(animation: Animation, clock: PlaybackClock) {
        self.init(inPoint: animation.inPoint, outPoint: animation.outPoint, frameRate: animation.frameRate,
                  markers: animation.markers, clock: clock)
    }

    /// Playback speed: 1 is the file's own pace, 2 twice as fast, negative plays backwards.
    public var speed: Double = 1 {
        didSet {
            if !speed.isFinite { speed = oldValue; return }
            // Re-anchor so the frame does not jump when the speed changes.
            reanchor(at: clock.now, oldSpeed: oldValue)
        }
    }

    // MARK: Playing

    public func play(fromProgress: Double? = nil, toProgress: Double, loopMode: LoopMode = .playOnce, completion: Completion? = nil) {
        play(fromFrame: fromProgress.map(frame(forProgress:)), toFrame: frame(forProgress: toProgress), loopMode: loopMode,
             completion: completion)
    }

    /// Plays from `fromFrame` (default: where it is now) to `toFrame`.
    public func play(fromFrame: Double? = nil, toFrame: Double, loopMode: LoopMode = .playOnce, completion: Completion? = nil) {
        let now = clock.now
        let startFrame = fromFrame ?? currentFrame(at: now)
        let interrupted = takePendingCompletions()
        start(Segment(from: startFrame, to: toFrame, loopMode: loopMode,
                      endDistance: Self.endDistance(abs(toFrame - startFrame), loopMode), speed: nil, completion: completion), at: now)
        report(interrupted)
    }

    /// Plays from the start of one marker to the start of another (default: from where it is).
    public func play(fromMarker: String? = nil, toMarker: String, loopMode: LoopMode = .playOnce, completion: Completion? = nil) throws {
        let from = try fromMarker.map { try markerFrame($0) }
        play(fromFrame: from, toFrame: try markerFrame(toMarker), loopMode: loopMode, completion: completion)
    }

    /// Plays the span a marker covers (its start to start + duration).
    public func play(marker name: String, loopMode: LoopMode = .playOnce, completion: Completion? = nil) throws {
        guard let m = markers.first(where: { $0.name == name }) else { throw PlayerError.unknownMarker(name) }
        play(fromFrame: m.time, toFrame: m.time + m.duration, loopMode: loopMode, completion: completion)
    }

    /// The whole animation.
    public func play(loopMode: LoopMode = .playOnce, completion: Completion? = nil) {
        play(fromFrame: inPoint, toFrame: outPoint, loopMode: loopMode, completion: completion)
    }

    /// The download-finished move, as one atomic change: the loop that is playing stops
    /// looping and plays on, at `finishSpeed`, from the frame it shows now to its end (the
    /// segment's `to`, forwards, even from an auto-reverse loop's backward pass, so nothing
    /// jumps); the next segment then starts at the exact instant the first one ends (no gap,
    /// no repeated frame), at speed `thenSpeed`, from there to `toProgress`, once; then
    /// `completion(true)`. The loop's own completion reports true when it reaches its end.
    /// A paused segment does not resume: it is reported interrupted and the second part
    /// starts at once; an earlier finishing move's second part is replaced (reported
    /// interrupted).
    public func finishLoop(finishSpeed: Double = 4, thenPlayFromProgress fromProgress: Double? = nil,
                           thenPlayToProgress toProgress: Double = 1, thenSpeed: Double = 1, completion: Completion? = nil) {
        let now = clock.now
        settle(at: now)
        var interrupted = queue.compactMap(\.completion)
        queue = []
        if isPaused { interrupted += takePendingCompletions() }
        reanchor(at: now, oldSpeed: speed)
        // The frame showing now, read before the speed (and so the direction) changes.
        let here = frame(atDistance: distance(at: now))
        speedWithoutReanchor(abs(finishSpeed))
        if isPlaying, segment.endDistance == nil {
            // Once from the frame showing now to the loop's end: for a loop the rest of the
            // current pass (a whole pass when exactly on a boundary, which shows the start);
            // for an auto-reverse loop going backwards it turns forwards where it is.
            segment = Segment(from: here, to: segment.to, loopMode: .playOnce, endDistance: abs(segment.to - here),
                              speed: nil, completion: segment.completion)
            anchorDistance = 0
            anchorTime = now
        }
        let to = frame(forProgress: toProgress)
        // The second part starts where the loop ends unless another start is named.
        let from = fromProgress.map(frame(forProgress:)) ?? segment.to
        queue = [Segment(from: from, to: to, loopMode: .playOnce, endDistance: abs(to - from), speed: thenSpeed,
                         completion: completion)]
        if !isPlaying {
            // Nothing looping: go straight to the second part.
            advanceQueue(at: now)
        }
        report(interrupted)
    }

    public func pause() {
        let now = clock.now
        settle(at: now)
        guard isPlaying else { return }  // nothing playing, or it ended before now
        frozenFrame = frame(atDistance: distance(at: now))
        reanchor(at: now, oldSpeed: speed)
        isPlaying = false
        isPaused = true
    }

    /// Continues a paused segment (nothing to do when none is paused).
    public func resume() {
        guard isPaused else { return }
        anchorTime = clock.now
        frozenFrame = nil
        isPaused = false
        isPlaying = true
    }

    /// Stops, returns to the start of the animation and reports the segment (playing or
    /// paused) as interrupted.
    public func stop() {
        settle(at: clock.now)
        let interrupted = takePendingCompletions()
        frozenFrame = inPoint
        report(interrupted)
    }

    // MARK: Position

    public var currentFrame: Double {
        get { currentFrame(at: clock.now) }
        set {
            // Scrubbing stops playback (playing or paused) at that frame.
            settle(at: clock.now)
            let interrupted = takePendingCompletions()
            frozenFrame = min(max(newValue.isFinite ? newValue : inPoint, min(inPoint, outPoint)), max(inPoint, outPoint))
            report(interrupted)
        }
    }

    public var currentProgress: Double {
        get { progress(forFrame: currentFrame) }
        set { currentFrame = frame(forProgress: newValue) }
    }

    /// Brings playback up to the clock: finishes segments whose end has passed (calling
    /// their completions in order) and returns the frame to show now.
    @discardableResult
    public func tick() -> Double {
        currentFrame(at: clock.now)
    }

    public func frame(forProgress p: Double) -> Double { inPoint + (p.isFinite ? p : 0) * (outPoint - inPoint) }

    public func progress(forFrame f: Double) -> Double {
        outPoint > inPoint ? (f - inPoint) / (outPoint - inPoint) : 0
    }

    // MARK: Internals

    private func markerFrame(_ name: String) throws -> Double {
        guard let m = markers.first(where: { $0.name == name }) else { throw PlayerError.unknownMarker(name) }
        return m.time
    }

    static func endDistance(_ length: Double, _ mode: LoopMode) -> Double? {
        switch mode {
        case .playOnce: return length
        case .loop, .autoReverse: return nil
        case .repeat(let count): return length * max(0, count.isFinite ? count : 1)
        }
    }

    /// The frame at which a segment ends when played forwards: its `to` after whole runs,
    /// part-way through after a fractional repeat count (repeat(2.5) of 0→60 ends at 30).
    static func endFrame(of s: Segment) -> Double {
        guard let end = s.endDistance, s.length > 0 else { return s.to }
        let rest = end - (end / s.length).rounded(.down) * s.length
        if rest <= 0 { return end > 0 ? s.to : s.from }
        return s.from + (s.to >= s.from ? 1 : -1) * rest
    }

    private func start(_ s: Segment, at time: Double) {
        segment = s
        if let v = s.speed { speedWithoutReanchor(v) }
        anchorTime = time
        anchorDistance = speed < 0 ? (s.endDistance ?? s.length) : 0
        frozenFrame = nil
        isPaused = false
        isPlaying = true
    }

    /// Changing `speed` re-anchors; a new segment sets its own anchor instead.
    private var settingSpeedQuietly = false
    private func speedWithoutReanchor(_ v: Double) {
        settingSpeedQuietly = true
        speed = v
        settingSpeedQuietly = false
    }

    private func reanchor(at time: Double, oldSpeed: Double) {
        guard !settingSpeedQuietly, isPlaying else { return }
        anchorDistance += (time - anchorTime) * oldSpeed * frameRate
        anchorTime = time
    }

    /// Ends the current segment early, playing or paused, and drops the queued ones; returns
    /// their completions for `report` to call once the new state is in place (so a
    /// completion that starts something else is not overwritten). A segment that ended on
    /// its own has no completion left, so nothing is reported twice.
    private func takePendingCompletions() -> [Completion] {
        let pending = ([segment] + queue).compactMap(\.completion)
        segment.completion = nil
        queue = []
        isPlaying = false
        isPaused = false
        return pending
    }

    private func report(_ interrupted: [Completion]) {
        for completion in interrupted { completion(false) }
    }

    private func advanceQueue(at time: Double) {
        guard !queue.isEmpty else { return }
        let next = queue.removeFirst()
        start(next, at: time)
    }

    private func distance(at time: Double) -> Double {
        anchorDistance + (time - anchorTime) * speed * frameRate
    }

    private func currentFrame(at time: Double) -> Double {
        settle(at: time)
        if let frozenFrame, !isPlaying { return snap(frozenFrame) }
        return snap(frame(atDistance: distance(at: time)))
    }

    /// Finishes every segment whose end lies before `time`, starting the next one exactly
    /// at that end, so the sequence is continuous; completions are called in order.
    private func settle(at time: Double) {
        var guardCount = 0
        while isPlaying, let end = segment.endDistance, guardCount < 1000 {
            guardCount += 1
            let d = distance(at: time)
            let done = speed >= 0 ? d >= end : d <= 0
            guard done else { break }
            let target = speed >= 0 ? end : 0
            let endTime = speed != 0 ? anchorTime + (target - anchorDistance) / (speed * frameRate) : time
            let finished = segment
            let lastFrame = speed >= 0 ? Self.endFrame(of: finished) : finished.from
            segment.completion = nil
            if queue.isEmpty {
                isPlaying = false
                frozenFrame = lastFrame
            } else {
                advanceQueue(at: endTime)
            }
            finished.completion?(true)
        }
    }

    private func frame(atDistance d: Double) -> Double {
        let s = segment
        let length = s.length
        let direction: Double = s.to >= s.from ? 1 : -1
        guard length > 0 else { return s.from }
        if let end = s.endDistance, d >= end { return Self.endFrame(of: s) }
        switch s.loopMode {
        case .playOnce:
            return s.from + direction * min(max(d, 0), length)
        case .loop, .repeat:
            var u = d.truncatingRemainder(dividingBy: length)
            if u < 0 { u += length }
            // On a boundary a pass begins: forwards that shows `from`, backwards `to`.
            if u == 0 && speed < 0 { u = length }
            return s.from + direction * u
        case .autoReverse:
            var u = d.truncatingRemainder(dividingBy: 2 * length)
            if u < 0 { u += 2 * length }
            return s.from + direction * (u <= length ? u : 2 * length - u)
        }
    }

    private func snap(_ f: Double) -> Double { respectsFrameRate ? f.rounded(.down) : f }
}
