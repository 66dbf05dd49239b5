@testable import Raster
import XCTest

/// `Mask.unite` (eight bytes at a time where they are empty or full) against the loop over
/// `Mask.union` it replaces, and a filled mask against `referenceFill`.
final class MaskUnionTests: XCTestCase {
    typealias Random = FastPathTests.Random

    /// Bytes in stretches of 0, 255 and anything, as edge blocks and masks hold.
    func stretchyBytes(_ r: inout Random, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let value: UInt8 = [0, 255, r.byte()][Int(r.next() % 3)]
            let length = 1 + Int(r.next() % 20)
            for _ in 0..<length { bytes.append(r.next() % 4 == 0 ? r.byte() : value) }
        }
        return Array(bytes.prefix(count))
    }

    func testUniteGivesTheBytesOfTheUnionLoop() {
        var r = Random(state: 15)
        for round in 0..<3000 {
            let count = 1 + Int(r.next() % 70)
            let alpha = stretchyBytes(&r, count: count)
            var fast = stretchyBytes(&r, count: count)
            var expected = fast
            for i in 0..<count { expected[i] = Mask.union(expected[i], alpha[i]) }
            alpha.withUnsafeBufferPointer { a in
                fast.withUnsafeMutableBufferPointer { Mask.unite($0.baseAddress!, with: a.baseAddress!, count: count) }
            }
            XCTAssertEqual(fast, expected, "round \(round)")
        }
    }

    func testFilledMasksMatchTheReference() {
        var r = Random(state: 16)
        for round in 0..<40 {
            let (w, h) = (60 + Int(r.next() % 100), 40 + Int(r.next() % 60))
            var fast = Mask(width: w, height: h, value: round % 3 == 0 ? 0 : 90)
            for _ in 0..<(1 + round % 3) {
                var reference = fast
                let path = FastPathTests.randomPath(&r, width: Double(w), height: Double(h))
                let opacity = round % 2 == 0 ? 1 : r.unit()
                fast.fill(path, rule: round % 2 == 0 ? .nonZero : .evenOdd, opacity: opacity)
                reference.referenceFill(path, rule: round % 2 == 0 ? .nonZero : .evenOdd, opacity: opacity)
                XCTAssertEqual(fast.values, reference.values, "round \(round)")
                fast = reference
            }
        }
    }
}
