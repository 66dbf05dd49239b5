import ArgumentParser
import Glibc
import LottieModel
import LottieRender
import Posix
import Raster

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time rendering N frames spread over the animation; writes no files.",
        discussion: """
        Ends with: bench: median_ms_per_frame=X p95_ms=Y frames=N cpu_median_ms_per_frame=Z
        (Z: the process's CPU time per frame, all threads, which a busy host disturbs less).
        The first frame is cold (buffers faulted in, caches filled): it is printed apart as
        first_frame_ms and, when there are others, left out of the median and p95, as the
        peer renderers' harness times theirs.
        """
    )

    @Argument(help: "The Lottie file (JSON, or a dotLottie container).")
    var animation: String

    @Option(help: "Output size WxH.")
    var size: Size?

    @Option(name: .customLong("content-mode"), help: "fit, fill or stretch.")
    var contentMode: ContentMode = .fit

    @Option(help: "How many frames (default: every frame of the animation).")
    var count: Int?

    @Option(help: "Threads to draw each frame with (default: the cores available, at most 4).")
    var threads: Int?

    @Flag(name: .customLong("per-frame"), help: "Also print each frame's time (frame=F ms=X), to see where a file is slow.")
    var perFrame = false

    @Flag(name: .customLong("damage"),
          help: "Draw each frame over the one before, redrawing only what changed (as a screen does); default: every frame whole, as the peers' harness draws them.")
    var damage = false

    @Option(name: .customLong("t0-ns"),
            help: "When a benchmark harness spawned this process (CLOCK_REALTIME, ns): also print first_frame_since_spawn_ms.")
    var spawnedAt: Int64?

    /// The command as `BenchJob` runs it.
    var job: BenchJob {
        BenchJob(animation: animation, size: size, contentMode: contentMode, count: count, threads: threads, perFrame: perFrame,
                 spawnedAt: spawnedAt, damage: damage)
    }

    func validate() throws { try job.validate() }

    func run() throws { try job.run() }
}

/// `buoy bench` with its options read, and what it does. `Bench` (ArgumentParser's reading,
/// with help and errors) fills it, and so does the start-up fast path (`QuickParse.swift`),
/// which makes no property wrapper: each builds a set of names whose first use has the
/// runtime scan every conformance record of the binary (a quarter of a million instructions).
struct BenchJob {
    var animation: String
    var size: Size?
    var contentMode: ContentMode = .fit
    var count: Int?
    var threads: Int?
    var perFrame = false
    var spawnedAt: Int64?
    /// Each frame drawn over the one before, redrawing only the damage
    /// (`AnimationRenderer.render(frame:after:…)`), as a screen does; else every frame whole,
    /// which is what the peers' harness times (so `tools/bench-corpus` compares like with like).
    var damage = false

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        try validateThreads(threads)
    }

    func run() throws {
        let loadStart = Monotonic.now()
        var renderer = try loadRenderer(path: animation)
        renderer.threads = threads ?? defaultThreadCount()
        let loadMs = (Monotonic.now() - loadStart) * 1e3
        let anim = renderer.animation
        let fitted = RenderBudget.fittedOutputSize(width: anim.width, height: anim.height)
        let width = size?.width ?? fitted.width
        let height = size?.height ?? fitted.height
        let viewport = Viewport(width: width, height: height, contentMode: contentMode)
        let total = max(1, Int((anim.outPoint - anim.inPoint).rounded(.down)))
        let n = count ?? total
        var surface = Surface(width: width, height: height)
        var times: [Double] = []
        var cpuTimes: [Double] = []
        times.reserveCapacity(n)
        cpuTimes.reserveCapacity(n)
        var previous = anim.inPoint
        for i in 0..<n {
            let frame = anim.inPoint + (anim.outPoint - anim.inPoint) * Double(i) / Double(max(n, 1))
            let t0 = Monotonic.now()
            let c0 = processCPUMilliseconds()
            if !damage || i == 0 {
                renderer.render(frame: frame, viewport: viewport, background: .clear, into: &surface)
            } else {
                renderer.render(frame: frame, after: previous, viewport: viewport, background: .clear, into: &surface)
            }
            previous = frame
            times.append((Monotonic.now() - t0) * 1e3)
            cpuTimes.append(processCPUMilliseconds() - c0)
            if perFrame { print(String(cFormat: "frame=%.2f ms=%.3f", frame, times[i])) }
            if i == 0, let spawnedAt {
                // Spawn to first frame, as the peer harness measures its renderers' start-up.
                print(String(cFormat: "first_frame_since_spawn_ms=%.3f", Double(realtimeNanoseconds() - spawnedAt) / 1e6))
            }
        }
        // The warm frames: all but the cold first one, unless it is the only one.
        let warm = times.count > 1 ? 1 : 0
        let sorted = times[warm...].sorted()
        let median = sorted[sorted.count / 2]
        let p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.down)))]
        let reuse = renderer.coverageReuse
        print(String(cFormat: "load_ms=%.2f size=%ldx%ld mode=", loadMs, width, height) + contentMode.rawValue
              + String(cFormat: " threads=%ld coverage_reused=%ld/%ld", renderer.threads, reuse.hits, reuse.hits + reuse.misses)
              + (damage ? " frames=damage" : " frames=full"))
        // What the renderer keeps of shapes' coverage between frames, and what it is made of.
        let kept = renderer.keptCoverage
        for (name, k) in [("cache", kept.cache), ("slots", kept.slots)] {
            print("coverage_kept_" + name + String(cFormat: " entries=%ld runs=%ld coverage_kb=%ld packed_kb=%ld path_kb=%ld counted_kb=%ld",
                         k.entries, k.runs, k.coverageBytes >> 10, k.packedBytes >> 10, k.pathBytes >> 10, k.bytes >> 10))
        }
        let cpuSorted = cpuTimes[warm...].sorted()
        let cpuMedian = cpuSorted[cpuSorted.count / 2]
        print(String(cFormat: "first_frame_ms=%.3f cpu_first_frame_ms=%.3f", times[0], cpuTimes[0]))
        print(String(cFormat: "bench: median_ms_per_frame=%.3f p95_ms=%.3f frames=%ld cpu_median_ms_per_frame=%.3f",
                     median, p95, n, cpuMedian))
    }
}

/// The threads a frame is drawn with when none is asked for: the cores available, at most 4
/// (a Raspberry Pi 4 has 4; more bands than that gain little on a kiosk's frame sizes).
/// Available means the process may run on them (`taskset`, a cpuset), not merely online.
func defaultThreadCount() -> Int {
    min(4, max(1, AnimationRenderer.cpusAllowed))
}

func validateThreads(_ threads: Int?) throws {
    if let threads, !(1...64).contains(threads) { throw ValidationError("--threads must be between 1 and 64") }
}

/// CLOCK_REALTIME in nanoseconds: the clock another process can give a start time on.
func realtimeNanoseconds() -> Int64 {
    var t = timespec()
    clock_gettime(CLOCK_REALTIME, &t)
    return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
}

/// CPU time of the whole process (every thread) in milliseconds.
func processCPUMilliseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
}
