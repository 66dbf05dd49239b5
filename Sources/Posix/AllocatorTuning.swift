import CPosix

/// Keeps the C allocator from handing frame-sized buffers back to the kernel between frames.
///
/// Drawing a frame allocates and frees buffers of tens to hundreds of kilobytes (coverage,
/// stroke outlines, flattened paths). glibc serves blocks past its mmap threshold (128 KiB at
/// first, then as large as the largest mapped block freed) with a fresh mapping each time,
/// and trims free memory at the top of the heap past twice that: either way the next frame
/// takes a page fault on every 4 KiB it touches, a third of some 1920x1080 frames. Fixed
/// thresholds (blocks up to 4 MiB from the heap, 8 MiB of free top kept) leave those blocks in
/// the heap from frame to frame, while frame-sized surfaces (pooled by the renderer) stay
/// mappings of their own: peak RSS stays where it was (measured: 98 against 103 MB on the
/// corpus's largest shadow file at 1080p, the same within 1 MB on others). A fixed threshold
/// also stops glibc raising it by itself, so it must sit above the scratch a frame allocates
/// anew (a full-area clip mask's rasterizer cells are 1 MiB at 512x512, 2 MiB at 1080p: at a
/// 1 MiB threshold they faulted in every frame, 2.3 ms against 1.0 ms a frame on one file).
public enum AllocatorTuning {
    public static let mmapThreshold: Int32 = 4 << 20
    public static let trimThreshold: Int32 = 8 << 20

    /// Applies the thresholds once, before any frame is drawn. (They replace what glibc's
    /// MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ would have set.)
    @discardableResult
    public static func apply() -> Bool {
        buoy_keep_heap(mmapThreshold, trimThreshold) == 1
    }

    /// How many blocks the allocator holds as mappings of their own (for tests and figures).
    public static var mappedBlocks: Int { buoy_mapped_blocks() }
}
