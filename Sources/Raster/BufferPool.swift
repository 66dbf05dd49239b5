import Glibc
import Posix

/// Pixel and coverage buffers kept from one frame to the next, so that the offscreen work of
/// layers (content, masks, mattes, shadows) does not allocate in the steady state: a buffer
/// handed back is given out again to the next request it is large enough for.
///
/// Capacity is rounded up when a buffer is first made, so that a layer whose bounds grow by a
/// few pixels from frame to frame keeps its buffer. A lock makes it safe to share between the
/// threads that render bands of one frame.
public final class BufferPool: @unchecked Sendable {
    private let lock = AdaptiveLock()
    private var pixelBuffers: [[UInt32]] = []
    /// For each of `pixelBuffers`, whether it is known to hold only zeros (a surface handed
    /// back after clearing what it painted): given out for a clear surface, it needs no fill.
    private var pixelsZeroed: [Bool] = []
    private var byteBuffers: [[UInt8]] = []
    private var rasterStorages: [Rasterizer.Storage] = []
    private var made = 0
    /// Buffers kept of each kind at most; past that a returned buffer is freed.
    public let keep: Int

    public init(keep: Int = 24) {
        self.keep = max(0, keep)
    }

    /// How many buffers the pool had to allocate or grow since it was made: constant once
    /// every frame's needs have been met once.
    public var allocations: Int {
        lock.lock(); defer { lock.unlock() }
        return made
    }

    func pixels(count: Int, value: UInt32) -> [UInt32] {
        lock.lock()
        var zeroed = (flags: [Bool](), taken: false)
        swap(&zeroed.flags, &pixelsZeroed)
        var buffer = Self.take(from: &pixelBuffers, flags: &zeroed, count: count, made: &made)
        swap(&zeroed.flags, &pixelsZeroed)
        lock.unlock()
        if value == 0 && zeroed.taken {
            Self.zeroes(&buffer, count: count)
        } else {
            Self.fill(&buffer, count: count, value: value)
        }
        return buffer
    }

    /// Makes `buffer`, whose elements are all zero already, `count` zeros: only a missing
    /// tail is written.
    static func zeroes(_ buffer: inout [UInt32], count: Int) {
        #if DEBUG
        precondition(!buffer.contains { $0 != 0 }, "a buffer handed back as zeroed holds something")
        #endif
        if buffer.count > count { buffer.removeLast(buffer.count - count) }
        if buffer.count < count { buffer.append(contentsOf: repeatElement(0, count: count - buffer.count)) }
    }

    func bytes(count: Int, value: UInt8) -> [UInt8] {
        lock.lock()
        var none = (flags: [Bool](), taken: false)
        var buffer = Self.take(from: &byteBuffers, flags: &none, count: count, made: &made)
        lock.unlock()
        Self.fill(&buffer, count: count, value: value)
        return buffer
    }

    /// Takes `buffer` back; `zeroed`: every element of it is zero.
    func recycle(_ buffer: inout [UInt32], zeroed: Bool = false) {
        var taken: [UInt32] = []
        swap(&taken, &buffer)
        lock.lock(); defer { lock.unlock() }
        if pixelBuffers.count < keep {
            pixelBuffers.append(taken)
            pixelsZeroed.append(zeroed)
        }
    }

    func recycle(_ buffer: inout [UInt8]) {
        var taken: [UInt8] = []
        swap(&taken, &buffer)
        lock.lock(); defer { lock.unlock() }
        if byteBuffers.count < keep { byteBuffers.append(taken) }
    }

    func rasterStorage() -> Rasterizer.Storage {
        lock.lock(); defer { lock.unlock() }
        return rasterStorages.popLast() ?? Rasterizer.Storage()
    }

    func recycle(_ storage: inout Rasterizer.Storage) {
        var taken = Rasterizer.Storage()
        swap(&taken, &storage)
        lock.lock(); defer { lock.unlock() }
        if rasterStorages.count < keep { rasterStorages.append(taken) }
    }

    /// Makes `buffer` `count` copies of `value`. What it already holds is overwritten in place
    /// (a plain fill of memory) and only the missing tail is appended: emptying it and
    /// appending every element anew goes element by element, several times slower.
    static func fill<T>(_ buffer: inout [T], count: Int, value: T) {
        if buffer.count > count { buffer.removeLast(buffer.count - count) }
        buffer.withUnsafeMutableBufferPointer { $0.update(repeating: value) }
        if buffer.count < count { buffer.append(contentsOf: repeatElement(value, count: count - buffer.count)) }
    }

    /// `fill` for pixels: the stored part through `PixelStores` (one call into the C library for a long stretch).
    static func fill(_ buffer: inout [UInt32], count: Int, value: UInt32) {
        if buffer.count > count { buffer.removeLast(buffer.count - count) }
        buffer.withUnsafeMutableBufferPointer { if let base = $0.baseAddress { PixelStores.fill(base, with: value, count: $0.count) } }
        if buffer.count < count { buffer.append(contentsOf: repeatElement(value, count: count - buffer.count)) }
    }

    /// An array (holding whatever it held) with room for `count` elements: the smallest kept one that is large
    /// enough, else a new one (counted) with some room to spare.
    /// `flags` (one per kept buffer, or none) lose the entry of the buffer taken or dropped;
    /// `taken` tells the taken one's (false for a new buffer).
    private static func take<T>(from buffers: inout [[T]], flags: inout (flags: [Bool], taken: Bool), count: Int,
                                made: inout Int) -> [T] {
        var best: Int?
        for (i, b) in buffers.enumerated() where b.capacity >= count {
            if best == nil || b.capacity < buffers[best!].capacity { best = i }
        }
        let flagged = flags.flags.count == buffers.count
        flags.taken = false
        if let best {
            if flagged { flags.taken = flags.flags.remove(at: best) }
            return buffers.remove(at: best)
        }
        made += 1
        // The largest kept buffer is too small: it is dropped for the new one.
        if let largest = buffers.indices.max(by: { buffers[$0].capacity < buffers[$1].capacity }) {
            buffers.remove(at: largest)
            if flagged { flags.flags.remove(at: largest) }
        }
        var buffer: [T] = []
        buffer.reserveCapacity(count + count / 4 + 1024)
        return buffer
    }
}
