@testable import Raster
import XCTest

/// `Mask.combine(_:transform:_:scale:pool:)` (a path's runs combined straight into a mask)
/// against the way it replaces: the path filled into a mask of its own, scaled, then combined.
final class MaskPathCombineTests: XCTestCase {
    typealias Random = FastPathTests.Random

    /// Bytes in stretches of 0, 255 and anything, as masks hold.
    static func stretchyBytes(_ r: inout Random, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let value: UInt8 = [0, 255, r.byte()][Int(r.next() % 3)]
            for _ in 0..<(1 + Int(r.next() % 20)) { bytes.append(r.next() % 4 == 0 ? r.byte() : value) }
        }
        return Array(bytes.prefix(count))
    }

    func testCombiningAPathGivesTheValuesOfCombiningItsFilledMask() {
        var r = Random(state: 29)
        let operations: [MaskOperation] = [.add, .subtract, .lighten, .difference]
        for round in 0..<160 {
            let (w, h) = (30 + Int(r.next() % 90), 20 + Int(r.next() % 70))
            let rect = PixelRect(x0: Int(r.next() % 20) - 10, y0: Int(r.next() % 20) - 10, x1: 0, y1: 0)
            let area = PixelRect(x0: rect.x0, y0: rect.y0, x1: rect.x0 + w, y1: rect.y0 + h)
            var fast = Mask(rect: area)
            let bytes = Self.stretchyBytes(&r, count: w * h)
            fast.values = bytes
            var reference = fast
            let operation = operations[round % operations.count]
            let scale: UInt32 = round % 3 == 0 ? 256 : UInt32(r.next() % 257)
            let path = FastPathTests.randomPath(&r, width: Double(w) * 1.3, height: Double(h) * 1.3)
            let transform = Transform(a: 1, b: 0, c: 0, d: 1, tx: Double(area.x0) - 8, ty: Double(area.y0) - 6)
            fast.combine(path, transform: transform, operation, scale: scale)
            var own = Mask(rect: area)
            own.fill(path, transform: transform)
            for i in own.values.indices { own.values[i] = UInt8((UInt32(own.values[i]) * scale) >> 8) }
            reference.combine(own, operation)
            XCTAssertEqual(fast.values, reference.values, "round \(round), \(operation), scale \(scale)")
        }
    }
}
