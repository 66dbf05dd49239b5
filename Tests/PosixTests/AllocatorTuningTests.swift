import Foundation
import Glibc
import Posix
import XCTest

/// Frame-sized scratch blocks stay in the heap once the allocator is tuned.
final class AllocatorTuningTests: XCTestCase {
    func testABlockUnderTheThresholdComesFromTheHeapNotAMappingOfItsOwn() throws {
        XCTAssertTrue(AllocatorTuning.apply())
        let before = AllocatorTuning.mappedBlocks
        // 2 MiB (a 1080p clip mask's rasterizer cells): past glibc's first mmap threshold
        // (128 KiB), under the tuned one (4 MiB).
        let size = 2 << 20
        let block = try XCTUnwrap(malloc(size))
        memset(block, 1, size)
        XCTAssertEqual(AllocatorTuning.mappedBlocks, before, "served from the heap")
        free(block)
        // A block past the tuned threshold still gets a mapping of its own.
        let large = try XCTUnwrap(malloc(Int(AllocatorTuning.mmapThreshold) * 4))
        XCTAssertEqual(AllocatorTuning.mappedBlocks, before + 1)
        free(large)
    }
}
