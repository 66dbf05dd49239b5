import XCTest
@testable import Raster

/// `CoverageTable` (the cache's own hash table) against `Dictionary`, the reference: the same
/// entries found, replaced and dropped, including keys whose cheap hash collides (same ends,
/// element count and transform, different middle points).
final class CoverageTableTests: XCTestCase {
    private func key(_ i: Int) -> CoverageCache.Key {
        var path = Path()
        path.move(to: Point(0, 0))
        path.line(to: Point(Double(i % 7), Double(i)))   // differs inside: same cheap hash per end
        path.line(to: Point(5, 5))
        let kind: CoverageCache.Kind = i % 3 == 0 ? .fill(.nonZero) : .fill(.evenOdd)
        return CoverageCache.Key(path: path, transform: .identity, kind: kind,
                                 limit: PixelRect(x0: 0, y0: 0, x1: 10 + i % 2, y1: 10))
    }

    private func entry(_ size: Int, _ use: UInt64) -> CoverageCache.Entry {
        CoverageCache.Entry(coverage: .made(Coverage()), size: size, lastUse: use)
    }

    func testTheTableFindsReplacesAndDropsAsADictionaryDoes() {
        var table = CoverageTable()
        var reference: [CoverageCache.Key: CoverageCache.Entry] = [:]
        var clock: UInt64 = 0
        var generator = SystemRandomNumberGenerator()
        for step in 0..<3000 {
            let k = key(Int.random(in: 0..<400, using: &generator))
            clock += 1
            switch step % 5 {
            case 0, 1:
                let old = table.updateValue(entry(step, clock), forKey: k)
                XCTAssertEqual(old?.size, reference.updateValue(entry(step, clock), forKey: k)?.size)
            case 2:
                let found = table.touch(k, at: clock)
                if var e = reference[k] { e.lastUse = clock; reference[k] = e }
                XCTAssertEqual(found?.size, reference[k]?.size)
            default:
                XCTAssertEqual(table.touch(k, at: clock)?.lastUse, reference[k] == nil ? nil : clock)
                if var e = reference[k] { e.lastUse = clock; reference[k] = e }
            }
            if step % 700 == 699 {
                let drop = table.count / 2
                let order = reference.sorted { $0.value.lastUse < $1.value.lastUse }
                for (k, _) in order.prefix(drop) { reference.removeValue(forKey: k) }
                table.dropLeastRecent(drop)
            }
            XCTAssertEqual(table.count, reference.count)
        }
        for i in 0..<400 {
            XCTAssertEqual(table.touch(key(i), at: 0)?.size, reference[key(i)]?.size, "key \(i)")
        }
    }
}
