import Synchronization

/// A frame's plan (`FramePlan`), made by the first band thread that asks for it, after the
/// bands have started, and taken by the others as it is.
///
/// The walk that makes the plan takes a few µs (on a masked logo at 1080p, 4–7 µs of a
/// 200 µs frame). Made on the caller before the bands start, every band waited for it,
/// the band expected to draw longest too, which evaluates nothing from it
/// (`BandLayout.evaluationShares`): that band now starts drawing at once, and the plan is
/// made by a thread that evaluates from it.
final class SharedFramePlan: @unchecked Sendable {
    /// 0: not asked for yet; 1: being made; 2: made (`plan` holds it).
    private let state = Atomic<Int>(0)
    /// Written once by the thread that makes it, before `state` is released as 2, and read
    /// only after `state` is acquired as 2.
    private var plan: FramePlan?

    /// How long a thread waits for the plan another is making before drawing without it (the
    /// maker may have been preempted): a band that draws without the plan evaluates each
    /// node as it reaches it, which changes no pixel.
    static let waitNanoseconds: UInt64 = 50_000

    init() {}

    /// The plan, made by `make` if no thread made it or is making it; nil when another
    /// thread is making it and it is not ready within `waitNanoseconds`.
    func plan(make: () -> FramePlan) -> FramePlan? {
        if state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            let made = make()
            plan = made
            state.store(2, ordering: .releasing)
            return made
        }
        let deadline = BandWorkers.now() &+ Self.waitNanoseconds
        var spins = 0
        while state.load(ordering: .acquiring) != 2 {
            spins += 1
            if spins & 31 == 0, BandWorkers.now() > deadline { return nil }
        }
        return plan
    }
}
