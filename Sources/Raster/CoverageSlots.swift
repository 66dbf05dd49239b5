import Glibc
import Posix

/// The last coverage of each paint of a render tree, kept by the paint's own number (its
/// slot) rather than found by content in a shared table: a fill or stroke drawn again as
/// before (the same outline, transform, rule or stroke, and limit) is painted from it.
///
/// A paint that found nothing in its slot twice running, nor in the shared cache on its
/// last two makes, is a shape that keeps changing (it moves, or its outline is animated,
/// and does not come back): it is then painted straight from the rasterizer's sweep, with
/// no coverage built, looked up or kept, and only what it was is remembered. When it comes
/// back unchanged (an animation holding still), its coverage is built and kept again; and
/// every fourth such paint is made and offered to the shared cache anyway, so that shapes
/// an animation shows again later (a loop) are found there once more. A slot keeps a few entries, so that the bands of a threaded frame
/// (each with its own limit) and the instances of a precomp shown several times do not
/// push each other out.
///
/// The whole store is bounded by `byteLimit` (which a renderer sets from the frame's size,
/// `RenderBudget.keptCoverageBytes`). Past it, the entries no paint used in the last two
/// frames (`startFrame`) are dropped, and if that frees too little, new coverage is used but
/// not kept. Not least-recently-used: the paints of a frame come in the same order every
/// frame, and a store too small for them all would then drop each entry just before it is
/// wanted again; keeping the older entries serves as many paints as fit, every frame.
/// A lock keeps it safe when one renderer draws on several threads.
public final class CoverageSlots: @unchecked Sendable {
    /// What identifies one coverage: the same as `CoverageCache.Key`.
    typealias Key = CoverageCache.Key

    private struct Entry {
        let key: Key
        /// Nil when the paint was painted straight from the sweep. Not packed (as the
        /// shared cache keeps it): a paint found in its slot is painted again next frame.
        var coverage: Coverage?
        var size: Int
        /// The last frame (`startFrame`) in which it was kept or reused.
        var frame: UInt32
    }

    private struct Slot {
        /// Least recently used first.
        var entries: [Entry] = []
        /// Whether the slot's last use found nothing.
        var missed = false
        /// Makes running that the shared cache could not serve.
        var sharedMisses = 0
        /// Paints that could have been swept, every fourth of which is made instead.
        var sweeps = 0
    }

    /// What a paint does with its slot.
    enum Use {
        /// Paint this coverage, kept from before.
        case reuse(Coverage)
        /// Make the coverage and `keep` it.
        case make
        /// The shape keeps changing: paint it straight from the sweep.
        case sweep
    }

    /// Entries per slot: the bands of a frame drawn on a few threads, a few instances each.
    static let entriesPerSlot = 8

    /// One sweep in this many is made and offered to the shared cache (see above). Making
    /// costs little more than sweeping (about 15 % more per paint: the runs stored, then read
    /// back), so these seeds are cheap; an eighth measured 5 % more instructions than a
    /// fourth over every frame of a loader whose precomps repeat themselves.
    static let offerEvery = 4

    private let lock = AdaptiveLock()
    private var limit: Int
    // The three stores below are read and written only while `lock` is held, so no two
    // accesses can overlap: their dynamic exclusivity checks (four a `use`, four a `keep`,
    // about a third of a `use`'s instructions) are left out.
    @exclusivity(unchecked) private var slots: [Slot] = []
    @exclusivity(unchecked) private var bytes = 0
    @exclusivity(unchecked) private var counts = (hits: 0, misses: 0)
    /// Frames started (`startFrame`), and the frame in which stale entries were last dropped.
    private var frame: UInt32 = 0
    private var staleDropped: UInt32 = .max

    /// A store that keeps at most `byteLimit` bytes of coverage.
    public init(byteLimit: Int = 8 << 20) {
        limit = max(0, byteLimit)
    }

    /// The most bytes of coverage kept.
    public var byteLimit: Int {
        lock.lock(); defer { lock.unlock() }
        return limit
    }

    /// Starts a frame, keeping at most `byteLimit` bytes from now on: a store holding more
    /// drops the entries of earlier frames, and then, if still over, all of them.
    public func startFrame(byteLimit: Int) {
        lock.lock(); defer { lock.unlock() }
        frame &+= 1
        limit = max(0, byteLimit)
        guard bytes > limit else { return }
        dropStale()
        if bytes > limit { dropStale(all: true) }
    }

    /// Drops the entries no paint used in this frame or the one before (every entry, with
    /// `all`). The lock is held.
    private func dropStale(all: Bool = false) {
        staleDropped = frame
        for i in slots.indices where !slots[i].entries.isEmpty {
            slots[i].entries.removeAll { entry in
                let stale = all || entry.frame &+ 1 < frame
                if stale { bytes -= entry.size }
                return stale
            }
        }
    }

    /// Whether `size` more bytes fit, once the stale entries are dropped (at most once a
    /// frame: before the next frame starts, no entry becomes stale). The lock is held.
    private func makeRoom(_ size: Int) -> Bool {
        if bytes + size > limit, staleDropped != frame { dropStale() }
        return bytes + size <= limit
    }

    /// How many paints reused their slot's coverage, and how many did not.
    public var statistics: (hits: Int, misses: Int) {
        lock.lock(); defer { lock.unlock() }
        return counts
    }

    /// Bytes of coverage held.
    public var bytesHeld: Int {
        lock.lock(); defer { lock.unlock() }
        return bytes
    }

    /// What the store holds now.
    public var held: KeptCoverage {
        lock.lock(); defer { lock.unlock() }
        var held = KeptCoverage()
        for slot in slots { for entry in slot.entries { held.add(entry.coverage, path: entry.key.path, size: entry.size) } }
        return held
    }

    /// What the paint `key` in `slot` does: reuse the coverage kept; make it (a shape new to
    /// the slot, one that held still since it was swept, or one the shared cache served
    /// lately); or, when `mayPaintDirectly` and the shape keeps changing, paint it from the sweep.
    func use(slot: Int, for key: Key, mayPaintDirectly: Bool) -> Use {
        guard slot >= 0 else { return .make }
        lock.lock()
        defer { lock.unlock() }
        if slot >= slots.count { slots += Array(repeating: Slot(), count: slot + 1 - slots.count) }
        // The slot, the byte count and the counts are each accessed once, in place: through
        // `slots[slot]` at every step, each step paid an exclusivity check and a uniqueness
        // check of the array, and a hit copied its entry out and back.
        let use = Self.use(&slots[slot], for: key, mayPaintDirectly: mayPaintDirectly, frame: frame, bytes: &bytes, counts: &counts)
        guard case .sweep(let size) = use else { return use.use }
        // Only what the swept shape was is remembered (its path), if it fits.
        if makeRoom(size) { Self.insert(Entry(key: key, coverage: nil, size: size, frame: frame), into: &slots[slot], bytes: &bytes) }
        return .sweep
    }

    /// What `use(_:for:…)` found: `Use`, with the bytes a swept shape's record takes.
    private enum Found {
        case reuse(Coverage)
        case make
        case sweep(Int)

        var use: Use {
            switch self {
            case .reuse(let coverage): return .reuse(coverage)
            case .make: return .make
            case .sweep: return .sweep
            }
        }
    }

    /// `use(slot:for:mayPaintDirectly:)` on the slot itself.
    private static func use(_ slot: inout Slot, for key: Key, mayPaintDirectly: Bool, frame: UInt32, bytes: inout Int,
                            counts: inout (hits: Int, misses: Int)) -> Found {
        if let index = slot.entries.firstIndex(where: { $0.key == key }) {
            // Most recent last: an entry already there stays put.
            if index != slot.entries.count - 1 {
                let entry = slot.entries.remove(at: index)
                slot.entries.append(entry)
            }
            slot.missed = false
            let last = slot.entries.count - 1
            slot.entries[last].frame = frame
            if slot.entries[last].coverage != nil {
                counts.hits += 1
                // Painted again: its pieces are worked out now, once, in place (a shape made
                // and never painted again does not pay for them).
                slot.entries[last].coverage!.workOutFootprint()
                return .reuse(slot.entries[last].coverage!)
            }
            counts.misses += 1
            return .make
        }
        counts.misses += 1
        let changing = slot.missed
        slot.missed = true
        guard changing, mayPaintDirectly, slot.sharedMisses >= 2 else { return .make }
        slot.sweeps &+= 1
        if slot.sweeps % offerEvery == 0 { return .make }
        // Only the latest swept shape of a place is remembered (a limit narrowed to the
        // paint's reach moves with the shape: one it overlaps is the same place); its path
        // counts against the byte limit (the caller keeps it if it fits).
        // Walked by index, latest first (removing one leaves those before it in place): walked
        // as `enumerated().reversed()`, the entries were copied into a new array (a retain of
        // each key's path and coverage), and each removal then copied the slot's own array,
        // which that walk still held, every frame of every shape that keeps changing.
        var i = slot.entries.count
        while i > 0 {
            i -= 1
            if slot.entries[i].coverage == nil && !slot.entries[i].key.limit.intersection(key.limit).isEmpty {
                bytes -= slot.entries.remove(at: i).size
            }
        }
        return .sweep(key.path.elements.count * MemoryLayout<Path.Element>.stride)
    }

    /// Tells whether the shared cache served the coverage a paint in `slot` made.
    func noteShared(slot: Int, found: Bool) {
        guard slot >= 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        guard slot < slots.count else { return }
        slots[slot].sharedMisses = found ? 0 : min(slots[slot].sharedMisses + 1, 1 << 20)
    }

    /// Keeps `coverage` for `key` in `slot` (unless the store is full).
    func keep(slot: Int, for key: Key, _ coverage: Coverage) {
        guard slot >= 0 else { return }
        let size = coverage.memorySize + key.path.elements.count * MemoryLayout<Path.Element>.stride
        lock.lock()
        defer { lock.unlock() }
        guard slot < slots.count else { return }
        if let index = slots[slot].entries.firstIndex(where: { $0.key == key }) {
            bytes -= slots[slot].entries.remove(at: index).size
        }
        guard makeRoom(size) else { return }
        Self.insert(Entry(key: key, coverage: coverage, size: size, frame: frame), into: &slots[slot], bytes: &bytes)
    }

    /// Appends `entry` as the slot's most recent, dropping its least recent past the limit.
    private static func insert(_ entry: Entry, into slot: inout Slot, bytes: inout Int) {
        if slot.entries.count >= entriesPerSlot { bytes -= slot.entries.removeFirst().size }
        slot.entries.append(entry)
        bytes += entry.size
    }
}

extension Surface {
    /// `fill` with its coverage kept in `slot` of `slots` (see `CoverageSlots`); coverage to
    /// be made and kept is looked up in `cache` first, when there is one. A solid fill that
    /// keeps changing is painted from the sweep. The same pixels as `fill`. With `shared`, the
    /// path in device space is made once for every band that needs it (`DevicePaths`).
    /// `reach`, when given, must hold every pixel the paint can touch (`PaintReach`): the
    /// coverage is then kept for the part of the target within it, so that a target that
    /// changes away from the shape (a band whose cut moved) finds the coverage it kept.
    public mutating func fill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero, paint: Paint,
                              opacity: Double = 1, clip: Clip? = nil, slots: CoverageSlots, slot: Int, cache: CoverageCache?,
                              shared: (paths: DevicePaths, index: Int)? = nil, reach: PixelRect? = nil) {
        guard opacity > 0, !path.isEmpty, transform.isFinite else { return }
        let shader = Shader(paint: paint, pathToDevice: transform, tables: &gradientTables)
        guard !shader.isEmpty else { return }
        let limit = drawingLimit(clip, within: reach)
        let key = CoverageCache.Key(path: path, transform: transform, kind: .fill(rule), limit: limit)
        paintThroughSlot(key, slots: slots, slot: slot, cache: cache, shader: shader, opacity: opacity, clip: clip) { _ in
            Self.devicePath(shared, transform: transform) { path.transformed(by: transform) }
        }
    }

    /// `stroke` with its coverage kept in `slot` of `slots`, as `fill(…slots:slot:cache:)`.
    public mutating func stroke(_ path: Path, transform: Transform = .identity, style: StrokeStyle, paint: Paint,
                                opacity: Double = 1, clip: Clip? = nil, slots: CoverageSlots, slot: Int, cache: CoverageCache?,
                                shared: (paths: DevicePaths, index: Int)? = nil, reach: PixelRect? = nil) {
        guard opacity > 0, style.width > 0, style.width.isFinite, transform.isFinite, !path.isEmpty else { return }
        let shader = Shader(paint: paint, pathToDevice: transform, tables: &gradientTables)
        guard !shader.isEmpty else { return }
        let limit = drawingLimit(clip, within: reach)
        let key = CoverageCache.Key(path: path, transform: transform, kind: .stroke(style), limit: limit)
        paintThroughSlot(key, slots: slots, slot: slot, cache: cache, shader: shader, opacity: opacity, clip: clip) { scratch in
            Self.devicePath(shared, transform: transform) {
                Self.strokeOutline(path, style: style, transform: transform, scratch: &scratch)
            }
        }
    }

    /// `drawingLimit(clip)` within `reach`, a rectangle the paint cannot go beyond. Rows and
    /// columns outside it hold no coverage of the paint, and the coverage of the rows inside
    /// is computed from the edges alone (`Rasterizer`), so it is the same either way.
    private func drawingLimit(_ clip: Clip?, within reach: PixelRect?) -> PixelRect {
        let limit = drawingLimit(clip)
        guard let reach else { return limit }
        let within = limit.intersection(reach)
        return within.isEmpty ? limit : within
    }

    /// `make()`, or the path another band made for the same paint and transform.
    private static func devicePath(_ shared: (paths: DevicePaths, index: Int)?, transform: Transform, make: () -> Path) -> Path {
        guard let shared else { return make() }
        return shared.paths.path(at: shared.index, transform: transform, make: make)
    }

    /// Paints the shape of `key` (`device`: its outline in device space, filled by the key's
    /// rule, or non-zero for a stroke, made with the surface's stroke buffers) through its slot.
    private mutating func paintThroughSlot(_ key: CoverageCache.Key, slots: CoverageSlots, slot: Int, cache: CoverageCache?, shader: Shader,
                                           opacity: Double, clip: Clip?, device: (inout StrokeScratch) -> Path) {
        var rule = FillRule.nonZero
        if case .fill(let r) = key.kind { rule = r }
        // Only one colour paints the same pixels however a row is cut into runs (a gradient
        // steps along the row from where a run starts).
        let direct = shader.solidColor != nil
        switch slots.use(slot: slot, for: key, mayPaintDirectly: direct) {
        case .reuse(let coverage):
            paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip)
        case .make:
            var made = false
            func make() -> Coverage {
                made = true
                // Its pieces are worked out once, here: a shape made each frame (one that
                // changes and cannot be swept, as a gradient stroke) notes them too.
                let outline = device(&self.strokeScratch)
                var coverage = self.coverage(of: outline, rule: rule, limit: key.limit)
                coverage.workOutFootprint()
                return coverage
            }
            let coverage = Self.lookUp(cache, key, make: make)
            slots.noteShared(slot: slot, found: !made)
            slots.keep(slot: slot, for: key, coverage)
            paintCoverage(coverage, shader: shader, opacity: opacity, clip: clip)
        case .sweep:
            // A shape the shared cache holds (one shown before, as a loop does) is not swept.
            if let found = cache?.existing(for: key) {
                slots.noteShared(slot: slot, found: true)
                slots.keep(slot: slot, for: key, found)
                paintCoverage(found, shader: shader, opacity: opacity, clip: clip)
            } else {
                let outline = device(&strokeScratch)
                paintSwept(outline, rule: rule, limit: key.limit, shader: shader, opacity: opacity, clip: clip)
            }
        }
    }

    /// Rasterizes a device-space path within `limit` and paints it run by run as the sweep
    /// finds them, with no coverage kept: each run goes through `blendRow`, as in
    /// `referenceFill`, so the pixels are those of painting its coverage. A large path is
    /// swept in bands of rows (`Rasterizer.inBands`, as `rasterize` does), so the
    /// accumulation buffer stays one band's whatever the shape's size.
    mutating func paintSwept(_ device: Path, rule: FillRule, limit: PixelRect, shader: Shader, opacity: Double, clip: Clip?) {
        if let clip, let runs = clip.runs, clip.mask == nil, let solid = shader.solidColor {
            return paintSwept(device, rule: rule, limit: limit, color: solid, opacity: opacity, runs: runs)
        }
        let o = PixelMath.alpha(Float(opacity))
        guard o > 0, let pathBounds = device.bounds, let area = Rasterizer.area(bounds: pathBounds, limit: limit) else { return }
        // One colour with no clip mask (as `paintCoverage` takes it): plain values per run.
        if clip?.runs == nil, clip?.mask == nil, let solid = shader.solidColor ?? (o == 255 ? shader.uniform : nil) {
            return paintSweptSolid(device, rule: rule, limit: limit, area: area, color: o == 255 ? solid : PixelMath.scale(solid, o))
        }
        let (w, ox, oy) = (width, originX, originY)
        let clipMask = clip?.bufferMask()
        // Every band spans the area's columns, so one row of scratch serves them all.
        var constant = [UInt8](repeating: 0, count: area.width + 1)
        var colors = [UInt32](repeating: 0, count: area.width + 1)
        // The rasterizer's buffers are taken out of `self` for the sweep, which paints `self`.
        var storage = Rasterizer.Storage()
        swap(&storage, &rasterStorage)
        defer { swap(&storage, &rasterStorage) }
        // The rows and columns painted, as plain integers: a rectangle grown run by run in a
        // closure would be checked for exclusive access on every run. A large paint notes its
        // pieces instead (`PaintFootprint`), in masks reached through a pointer.
        var (left, top, right, bottom) = (Int.max, Int.max, Int.min, Int.min)
        let footprint = PaintFootprint(area: area)
        let noted = footprint?.allocateMasks()
        defer { noted?.deallocate() }
        withPixels { px in
            constant.withUnsafeMutableBufferPointer { constant in
                colors.withUnsafeMutableBufferPointer { colors in
                    let (pixels, shades, full) = (px.baseAddress!, colors.baseAddress!, constant.baseAddress!)
                    Rasterizer.inBands(device, limit: limit, storage: &storage) { rasterizer in
                        rasterizer.sweepRuns(rule: rule, opacity: 1, constant: { y, x0, start, count, a in
                            let x = x0 + start
                            left = min(left, x); right = max(right, x + count); top = min(top, y); bottom = max(bottom, y + 1)
                            if let footprint, let noted { footprint.note(y: y, x: x, count: count, in: noted) }
                            if clipMask == nil {
                                // No coverage bytes to write and read back (`paintConstantRun`).
                                return Self.paintConstantRun(pixels + (y - oy) * w + (x - ox), y: y, x: x, count: count, value: a,
                                                             colors: shades, shader: shader, opacity: o)
                            }
                            full.update(repeating: a, count: count)
                            Self.blendRow(pixels + (y - oy) * w + (x - ox), y: y, x: x, count: count, alpha: full, colors: shades,
                                          shader: shader, opacity: o, clip: Self.clipRow(clipMask, y: y, x: x))
                        }, varying: { y, x0, start, count, alpha in
                            let x = x0 + start
                            left = min(left, x); right = max(right, x + count); top = min(top, y); bottom = max(bottom, y + 1)
                            if let footprint, let noted { footprint.note(y: y, x: x, count: count, in: noted) }
                            if clipMask == nil {
                                // A short run of a gradient in lanes (`blendShadedRow`).
                                return Self.blendShadedRow(pixels + (y - oy) * w + (x - ox), y: y, x: x, count: count, alpha: alpha + start,
                                                           colors: shades, shader: shader, opacity: o)
                            }
                            Self.blendRow(pixels + (y - oy) * w + (x - ox), y: y, x: x, count: count, alpha: alpha + start, colors: shades,
                                          shader: shader, opacity: o, clip: Self.clipRow(clipMask, y: y, x: x))
                        })
                    }
                }
            }
        }
        guard left < right else { return }
        if let footprint, let noted { return footprint.add(noted, to: &region, limit: bounds) }
        notePainted(PixelRect(x0: left, y0: top, x1: right, y1: bottom).intersection(bounds))
    }

    /// A clip mask's values and where row `y` at column `x` starts in them, as `blendRow` takes them.
    @inline(__always)
    private static func clipRow(_ mask: Mask?, y: Int, x: Int) -> ([UInt8], Int)? {
        guard let mask else { return nil }
        return (mask.values, (y - mask.originY) * mask.width + (x - mask.originX))
    }
}
