import Glibc
import Posix
import Raster

/// The results of a shape layer's costly geometry steps (merge paths, offset paths) from
/// its last evaluation, so that a step whose inputs are those of the evaluation before is
/// not worked out again. A layer is evaluated anew whenever anything in it has keyframes,
/// often only a colour or a gradient's end points while its shapes hold still; combining
/// outlines then costs far more than everything else drawn.
///
/// Each step is found by its place in the evaluation (the n-th memoized step of the layer)
/// and kept with what it was computed from; a result is reused only when the inputs are
/// equal to the last ones at that place, so reuse gives the very path computing gives. One
/// result per place: the memory is that of one evaluated tree. A lock: bands of one frame may
/// evaluate on several threads.
final class GeometryMemo: @unchecked Sendable {
    private struct Kept {
        let input: Any
        let result: RasterPath?
    }

    private let lock = AdaptiveLock()
    private var kept: [Kept?] = []
    private var counts = (computed: 0, reused: 0)

    /// Beyond this many places (a repeater's copies each merging), steps are computed and not kept.
    static let maxPlaces = 1024

    /// The result at `place` for `input`: the one kept when the last input there was equal,
    /// else `make()`, kept for next time.
    func result<Input: Equatable>(at place: Int, input: Input, make: () -> RasterPath?) -> RasterPath? {
        guard place >= 0, place < Self.maxPlaces else { return make() }
        lock.lock()
        if place < kept.count, let last = kept[place], let lastInput = last.input as? Input, lastInput == input {
            counts.reused += 1
            lock.unlock()
            return last.result
        }
        lock.unlock()
        let made = make()
        lock.lock()
        while kept.count <= place { kept.append(nil) }
        kept[place] = Kept(input: input, result: made)
        counts.computed += 1
        lock.unlock()
        return made
    }

    /// How many steps were computed and how many reused.
    var statistics: (computed: Int, reused: Int) {
        lock.lock(); defer { lock.unlock() }
        return counts
    }
}

/// What a merge step is computed from: the shapes in the merge's space, and the mode.
struct MergeInput: Equatable {
    let paths: [RasterPath]
    let mode: Int
}

/// What an offset step is computed from.
struct OffsetInput: Equatable {
    let path: RasterPath
    let amount: Double
    let join: Int
    let miterLimit: Double
}
