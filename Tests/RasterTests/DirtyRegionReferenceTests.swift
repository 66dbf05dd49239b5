@testable import Raster
import XCTest

/// `DirtyRegion` keeps its rectangles in a tuple worked on through a pointer; this is the
/// same joining written plainly over an array (the reference), and the two must keep the
/// same rectangles in the same places after any sequence of adds.
final class DirtyRegionReferenceTests: XCTestCase {
    private struct Reference {
        var rects: [PixelRect] = []
        var union = PixelRect.empty

        static func area(_ r: PixelRect) -> Int { r.width * r.height }

        mutating func add(_ rect: PixelRect, pairing: Bool) {
            guard !rect.isEmpty else { return }
            union = union.union(rect)
            var joined = rect
            var i = 0
            while i < rects.count {
                let both = rects[i].union(joined)
                if Self.area(both) <= Self.area(rects[i]) + Self.area(joined) {
                    joined = both
                    rects[i] = rects[rects.count - 1]
                    rects.removeLast()
                    i = 0
                    continue
                }
                i += 1
            }
            if rects.count < DirtyRegion.capacity { rects.append(joined); return }
            if pairing {
                let pieces = rects + [joined]
                var best = (0, 1), bestGrowth = Int.max
                for a in 0..<rects.count {
                    for b in (a + 1)..<pieces.count {
                        let growth = Self.area(pieces[a].union(pieces[b])) - Self.area(pieces[a]) - Self.area(pieces[b])
                        if growth < bestGrowth { best = (a, b); bestGrowth = growth }
                    }
                }
                rects[best.0] = rects[best.0].union(pieces[best.1])
                if best.1 != rects.count { rects[best.1] = joined }
                return
            }
            var best = 0, bestGrowth = Int.max
            for i in rects.indices {
                let growth = Self.area(rects[i].union(joined)) - Self.area(rects[i])
                if growth < bestGrowth { best = i; bestGrowth = growth }
            }
            rects[best] = rects[best].union(joined)
        }
    }

    func testAddsKeepTheReferencesRectanglesInPlace() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for round in 0..<200 {
            var region = DirtyRegion()
            var reference = Reference()
            let pairing = round % 2 == 1
            // Small scattered pieces fill every place; larger ones overlap and join.
            let size = round % 3 == 0 ? 40 : 200
            for _ in 0..<(10 + next(60)) {
                let x = next(1000), y = next(1000)
                let rect = PixelRect(x0: x, y0: y, x1: x + next(size), y1: y + next(size))
                region.add(rect, pairing: pairing)
                reference.add(rect, pairing: pairing)
                XCTAssertEqual(region.count, reference.rects.count)
                XCTAssertEqual(region.union, reference.union)
                for i in 0..<region.count { XCTAssertEqual(region[i], reference.rects[i], "round \(round), place \(i)") }
            }
        }
    }
}
