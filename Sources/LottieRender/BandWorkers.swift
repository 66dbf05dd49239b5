#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix
import Synchronization

/// Threads kept from frame to frame that draw the bands of a frame alongside the caller.
///
/// Handing bands to threads that sleep costs a wake-up (a futex and a context switch, tens of
/// microseconds on a busy host) per thread per frame, which is as long as drawing a whole
/// small frame. So a worker that finishes its band spins a short while (`spinNanoseconds`)
/// looking for the next frame's bands before it sleeps on a condition: frames drawn back to
/// back find it awake, and an idle player costs one short spin per frame. The caller draws
/// bands too, and each band is claimed by whoever comes first, so a late worker only takes
/// fewer bands and never holds up a frame it has not started.
///
/// One renderer's copies share one `BandWorkers`: a frame drawn while another is being drawn
/// with the same workers (two copies on two threads) draws its bands on its own thread.
final class BandWorkers: @unchecked Sendable {
    private let core: Core
    /// The threads started so far (only the thread inside `run` touches this).
    private var threads: [pthread_t] = []

    /// `spinNanoseconds` nil: 50 µs, or none when the process may run on one CPU only (the
    /// thread waited for would then be kept off the CPU by the one spinning).
    init(spinNanoseconds: UInt64? = nil) {
        core = Core(spinNanoseconds: spinNanoseconds ?? (Self.cpusAllowed() > 1 ? 50_000 : 0))
    }

    /// How many CPUs this process may run on (its affinity mask), or 1 if that is unknown.
    static func cpusAllowed() -> Int {
        Int(buoy_cpus_allowed())
    }

    /// CLOCK_MONOTONIC in nanoseconds, for the short spins of the band threads.
    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    deinit {
        core.stop()
        for thread in threads { pthread_join(thread, nil) }
    }

    /// Calls `body` once for each of `0..<count`, on the calling thread and up to
    /// `threads - 1` workers at once; returns when every call has returned.
    func run(count: Int, threads wanted: Int, _ body: (Int) -> Void) {
        guard count > 1, wanted > 1, core.enter() else {
            for i in 0..<count { body(i) }
            return
        }
        defer { core.leave() }
        let tasks = min(count, Core.maxTasks)
        startWorkers(upTo: min(wanted, tasks) - 1)
        // Past `maxTasks`, task k also does k + maxTasks, k + 2 maxTasks, …
        withoutActuallyEscaping({ k in for i in stride(from: k, to: count, by: tasks) { body(i) } }) {
            core.perform(count: tasks, $0)
        }
    }

    /// Starts threads until there are `n` (a thread that cannot be made is done without).
    private func startWorkers(upTo n: Int) {
        while threads.count < n {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(WorkerStart(core: core, index: threads.count + 1)).toOpaque()
            guard pthread_create(&thread, nil, { context in
                let start = Unmanaged<WorkerStart>.fromOpaque(context!).takeRetainedValue()
                start.core.work(index: start.index)
                return nil
            }, context) == 0 else {
                Unmanaged<WorkerStart>.fromOpaque(context).release()
                return
            }
            threads.append(thread)
        }
    }
}

/// What a new worker thread is handed: the shared core and its own index (the caller is 0).
private final class WorkerStart {
    let core: Core
    let index: Int
    init(core: Core, index: Int) { self.core = core; self.index = index }
}

/// What the caller and the workers share. The job is published in one atomic word
/// (generation, task count, which tasks are claimed): a task is claimed by setting its bit
/// while the generation is still the current one, so a worker can never claim a task of a
/// job that has ended, and the caller ends a job only when every claimed task has finished.
///
/// Each thread first claims the task of its own index, then any left: the same thread draws
/// the same band frame after frame, so the band's rows stay in that core's caches (a band
/// that moved between cores each frame made every write fetch the line from the other core).
private final class Core: @unchecked Sendable {
    static let maxTasks = 32
    /// How many times a worker's spin the caller spins waiting for the last band.
    static let callerSpins: UInt64 = 4

    /// generation << 38 | task count << 32 | claimed tasks (bit k: task k).
    private let state = Atomic<UInt64>(0)
    private let finished = Atomic<Int>(0)
    private let sleepers = Atomic<Int>(0)
    private let callerSleeping = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let busy = Atomic<Bool>(false)
    /// The current job's body: written by the caller only while no task can be claimed,
    /// read by whoever claimed a task (after the acquiring load that published it).
    private var body: ((Int) -> Void)?
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let done = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    let spinNanoseconds: UInt64
    /// How long a worker spins at most while a job it has no task left in still runs (500 µs
    /// with the default spin): as long as the bands of a small frame come out uneven (a
    /// 1080p frame of a few hundred µs, uneven by up to 300 µs on the logo). Past it the
    /// wake-up (~30 µs) is a small part of the wait, and the worker sleeps: at 60 frames a
    /// second an idle core spins at most 3 % of its time.
    let busySpinNanoseconds: UInt64

    init(spinNanoseconds: UInt64) {
        self.spinNanoseconds = spinNanoseconds
        busySpinNanoseconds = spinNanoseconds &* 10
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(wake, nil)
        pthread_cond_init(done, nil)
    }

    deinit {
        pthread_cond_destroy(done)
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(mutex)
        done.deallocate()
        wake.deallocate()
        mutex.deallocate()
    }

    func enter() -> Bool {
        busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    }

    func leave() {
        busy.store(false, ordering: .releasing)
    }

    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(wake)
        pthread_mutex_unlock(mutex)
    }

    /// Publishes a job, takes part in it and waits for its last task.
    func perform(count: Int, _ job: @escaping (Int) -> Void) {
        body = job
        finished.store(0, ordering: .relaxed)
        let generation = (Self.generation(state.load(ordering: .relaxed)) &+ 1) & Self.generationMask
        state.store(generation << 38 | UInt64(count) << 32, ordering: .sequentiallyConsistent)
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
            pthread_mutex_lock(mutex)
            pthread_cond_broadcast(wake)
            pthread_mutex_unlock(mutex)
        }
        drain(generation: generation, index: 0)
        waitForTasks(count)
        body = nil
    }

    /// A worker's life: wait for a job, take its tasks, again, until stopped.
    func work(index: Int) {
        var seen: UInt64 = 0
        while let generation = nextGeneration(after: seen) {
            seen = generation
            drain(generation: generation, index: index)
        }
    }

    private static let generationMask: UInt64 = (1 << 26) - 1

    private static func generation(_ s: UInt64) -> UInt64 { s >> 38 }

    /// Claims and runs tasks of `generation` until none is left, task `index` first.
    private func drain(generation: UInt64, index: Int) {
        while true {
            let s = state.load(ordering: .acquiring)
            let count = Int((s >> 32) & 63)
            let free = ~s & ((1 << UInt64(count)) - 1)
            guard Self.generation(s) == generation, free != 0 else { return }
            let next = index < count && free & (1 << UInt64(index)) != 0 ? index : free.trailingZeroBitCount
            let claimed = s | 1 << UInt64(next)
            guard state.compareExchange(expected: s, desired: claimed, ordering: .acquiringAndReleasing).exchanged else { continue }
            body?(next)
            let total = finished.add(1, ordering: .sequentiallyConsistent).newValue
            if total == count, callerSleeping.load(ordering: .sequentiallyConsistent) {
                pthread_mutex_lock(mutex)
                pthread_cond_signal(done)
                pthread_mutex_unlock(mutex)
            }
        }
    }

    /// The generation of the next job after `seen`, spinning first then sleeping; nil once stopped.
    ///
    /// The spin counts from the end of the job, not from the end of this worker's tasks: the
    /// next job follows the last task of this one. A worker whose band came out lighter
    /// finished that much sooner, and its spin, counted from there, ran out before the next
    /// frame whenever the bands were uneven by more than it (measured on a masked logo at
    /// 1080p: a third of the frames, uneven by 100–200 µs; waking the sleeper cost the caller
    /// about 12 µs and the frame 12–35 µs more before both bands drew). While the job runs,
    /// it spins for at most `busySpinNanoseconds`, so that a long frame's idle worker sleeps.
    private func nextGeneration(after seen: UInt64) -> UInt64? {
        let start = Self.now()
        var deadline = start &+ spinNanoseconds
        let latest = start &+ busySpinNanoseconds
        var spins = 0
        while true {
            if stopping.load(ordering: .relaxed) { return nil }
            let s = state.load(ordering: .acquiring)
            let generation = Self.generation(s)
            if generation != seen { return generation }
            spins += 1
            guard spins & 31 == 0 else { continue }
            let now = Self.now()
            // Still running (or a caller about to publish the next job has reset `finished`:
            // spinning on then finds that job sooner).
            if finished.load(ordering: .relaxed) < Int((s >> 32) & 63), now < latest {
                deadline = now &+ spinNanoseconds
            } else if now > deadline {
                break
            }
        }
        pthread_mutex_lock(mutex)
        sleepers.add(1, ordering: .sequentiallyConsistent)
        while !stopping.load(ordering: .sequentiallyConsistent), Self.generation(state.load(ordering: .sequentiallyConsistent)) == seen {
            pthread_cond_wait(wake, mutex)
        }
        sleepers.subtract(1, ordering: .sequentiallyConsistent)
        pthread_mutex_unlock(mutex)
        if stopping.load(ordering: .relaxed) { return nil }
        return Self.generation(state.load(ordering: .acquiring))
    }

    /// Returns once `count` tasks have finished, spinning first then sleeping. The caller
    /// spins longer than a worker waiting for work: the frame it returns is late by the
    /// wake-up from sleep (measured: ~30 µs, a tenth of a small 1080p frame), and on a
    /// frame whose bands came out unequal the wait is often past a worker's spin.
    private func waitForTasks(_ count: Int) {
        let deadline = Self.now() &+ spinNanoseconds &* Self.callerSpins
        var spins = 0
        while finished.load(ordering: .acquiring) < count {
            spins += 1
            if spins & 31 == 0, Self.now() > deadline { break }
        }
        if finished.load(ordering: .acquiring) >= count { return }
        pthread_mutex_lock(mutex)
        callerSleeping.store(true, ordering: .sequentiallyConsistent)
        while finished.load(ordering: .sequentiallyConsistent) < count {
            pthread_cond_wait(done, mutex)
        }
        callerSleeping.store(false, ordering: .sequentiallyConsistent)
        pthread_mutex_unlock(mutex)
    }

    private static func now() -> UInt64 { BandWorkers.now() }
}
