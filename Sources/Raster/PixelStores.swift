import CPixelStores
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One 32-bit value stored over a stretch of pixels: clearing a frame, the inside of an
/// opaque shape, a full-coverage stretch under an opaque colour. These are the largest stores
/// a frame makes (a 1080p frame is 8 MB, and a full-screen background writes all of it).
///
/// `UnsafeMutablePointer.update(repeating:count:)` is the reference; the compiler makes it a
/// loop of 16-byte stores (the baseline x86-64 target has nothing wider). Long stretches go to
/// the C library instead, which picks the widest stores the running CPU has (AVX2 or AVX-512,
/// and `rep stosb` for large zero fills): on this host a 1080p frame takes 0.086 ms against
/// 0.145 ms, and a tenth of the instructions. A value whose four bytes are equal (clearing
/// to transparent, opaque white or black) is a `memset` on every target; another value is a
/// `wmemset` (wchar_t is 32 bits on Linux, `CPixelStores`) on x86-64 only, since aarch64's C library has no
/// vector `wmemset` and the compiler's own loop is as good there. The pixels are the same
/// (`PixelStoreTests`).
enum PixelStores {
    /// Below this many pixels the call costs more than the loop it saves.
    static let callThreshold = 64

    @inline(__always)
    static func fill(_ dst: UnsafeMutablePointer<UInt32>, with value: UInt32, count: Int) {
        if count < callThreshold {
            if count > 0 { dst.update(repeating: value, count: count) }
            return
        }
        fillLong(dst, with: value, count: count)
    }

    /// `fill` for a stretch of at least `callThreshold` pixels.
    static func fillLong(_ dst: UnsafeMutablePointer<UInt32>, with value: UInt32, count: Int) {
        let byte = value & 0xff
        if value == byte &* 0x0101_0101 {
            _ = memset(dst, Int32(byte), count &* 4)
            return
        }
        #if arch(x86_64)
        buoy_store_pixels(dst, value, count)
        #else
        dst.update(repeating: value, count: count)
        #endif
    }
}

extension PixelStores {
    /// How many runs ahead `Surface.paintRuns` asks for a run's pixels: each run of a kept
    /// coverage is mostly on a row of its own (a frame's rows are thousands of bytes apart,
    /// beyond what the hardware's stride prefetchers follow), so without the hint each run
    /// begins by waiting for its row's cache line.
    static let prefetchDistance = 6

    /// A hint that the pixels at `address` will be read and written soon: no effect on them.
    @inline(__always)
    static func prefetch(_ address: UnsafeMutablePointer<UInt32>) {
        buoy_prefetch_for_write(address)
    }
}
