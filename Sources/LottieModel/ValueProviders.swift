import Posix

/// Supplies a property's value in place of its keyframes (a dynamic property). Providers are
/// reference types so that application code can keep one and change it while the animation
/// plays (an interpolator's progress, a closure's captured state); they must be safe to
/// read from the rendering thread while another thread changes them.
public protocol ValueProvider<Value>: AnyObject, Sendable {
    associatedtype Value
    func value(at frame: Double) -> Value
    /// Increases whenever the provided value may have changed for a given frame, so that a
    /// renderer can tell whether a cached frame is still valid.
    var version: UInt64 { get }
    /// Whether the value may differ from one frame to another (a closure of the frame), as
    /// opposed to changing only when the application changes it (which `version` tells).
    var dependsOnFrame: Bool { get }
}

extension ValueProvider {
    /// Unknown providers are taken to depend on the frame.
    public var dependsOnFrame: Bool { true }
}

/// A lock-protected box shared by the providers below.
final class LockedState<State>: @unchecked Sendable {
    private let lock = AdaptiveLock()
    private var state: State
    private(set) var version: UInt64 = 0

    init(_ state: State) { self.state = state }

    func read<R>(_ body: (State) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(state)
    }

    func write(_ body: (inout State) -> Void) {
        lock.lock(); defer { lock.unlock() }
        body(&state)
        version &+= 1
    }

    var currentVersion: UInt64 {
        lock.lock(); defer { lock.unlock() }
        return version
    }
}

/// Always the same value (`LOTValueCallback` in lottie-ios terms).
public final class ConstantValueProvider<Value: Sendable>: ValueProvider, @unchecked Sendable {
    private let state: LockedState<Value>

    public init(_ value: Value) { state = LockedState(value) }

    public var value: Value {
        get { state.read { $0 } }
        set { state.write { $0 = newValue } }
    }

    public func value(at frame: Double) -> Value { value }
    public var version: UInt64 { state.currentVersion }
    public var dependsOnFrame: Bool { false }
}

/// A value computed for every frame by a closure (`LOTBlockCallback`). The closure should
/// depend only on the frame; when something else it reads changes, call `invalidate()`.
public final class ClosureValueProvider<Value>: ValueProvider, @unchecked Sendable {
    private let body: @Sendable (Double) -> Value
    private let state = LockedState(())

    public init(_ body: @escaping @Sendable (_ frame: Double) -> Value) { self.body = body }

    public func value(at frame: Double) -> Value { body(frame) }

    /// Call when the closure's inputs changed so cached frames are redrawn.
    public func invalidate() { state.write { _ in } }
    public var version: UInt64 { state.currentVersion }
}

/// Moves a property from `start` to `end` as `progress` goes from 0 to 1
/// (`LOTInterpolatorCallback`): a download's progress drives the water level this way.
public final class InterpolatorValueProvider<Value: Interpolatable>: ValueProvider, @unchecked Sendable {
    private struct State { var start: Value; var end: Value; var progress: Double }
    private let state: LockedState<State>

    public init(start: Value, end: Value, progress: Double = 0) {
        state = LockedState(State(start: start, end: end, progress: progress))
    }

    public var progress: Double {
        get { state.read { $0.progress } }
        set { state.write { $0.progress = newValue.isFinite ? newValue : 0 } }
    }

    public var start: Value {
        get { state.read { $0.start } }
        set { state.write { $0.start = newValue } }
    }

    public var end: Value {
        get { state.read { $0.end } }
        set { state.write { $0.end = newValue } }
    }

    /// Exactly `start` at progress 0 and exactly `end` at progress 1.
    public func value(at frame: Double) -> Value {
        state.read { s in
            if s.progress <= 0 { return s.start }
            if s.progress >= 1 { return s.end }
            return Value.interpolate(s.start, s.end, s.progress, perComponent: nil)
        }
    }

    public var version: UInt64 { state.currentVersion }
    /// The progress, not the frame, moves it.
    public var dependsOnFrame: Bool { false }
}
