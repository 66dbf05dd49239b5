import Foundation
import Raster
import Synchronization
import XCTest

/// A paint's device path made once and shared by the bands that draw it (`DevicePaths`), and
/// coverage kept for the paint's reach, leave the pixels of plain paints.
final class DevicePathsTests: XCTestCase {
    func testAPathIsMadeOncePerTransformAndTakenAfter() {
        let paths = DevicePaths(count: 2)
        let source = Path.ellipse(3, 4, 20, 10)
        var makes = 0
        func ask(_ index: Int, _ t: Transform) -> Path {
            paths.path(at: index, transform: t) { makes += 1; return source.transformed(by: t) }
        }
        let t = Transform.scale(2, 3)
        XCTAssertEqual(ask(0, t), source.transformed(by: t))
        XCTAssertEqual(ask(0, t), source.transformed(by: t))
        XCTAssertEqual(makes, 1)
        // Another paint, another transform, or a paint out of range are made anew.
        XCTAssertEqual(ask(1, t), source.transformed(by: t))
        let u = Transform.scale(2, 3.5)
        XCTAssertEqual(ask(0, u), source.transformed(by: u))
        XCTAssertEqual(ask(7, u), source.transformed(by: u))
        XCTAssertEqual(makes, 4)
        XCTAssertEqual(paths.statistics.made, 4)
        XCTAssertEqual(paths.statistics.taken, 1)
    }

    /// Threads asking at once each get the path for their transform, whoever made it.
    func testThreadsAskingAtOnceGetTheirTransformsPath() {
        let paths = DevicePaths(count: 4)
        let source = Path.ellipse(0, 0, 40, 30)
        let transforms = (0..<3).map { Transform.scale(1 + Double($0), 1) }
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let index = i % 4, t = transforms[i % 3]
            let got = paths.path(at: index, transform: t) { source.transformed(by: t) }
            if got != source.transformed(by: t) { wrong.withLock { $0 += 1 } }
        }
        XCTAssertEqual(wrong.withLock { $0 }, 0)
        XCTAssertEqual(paths.statistics.made + paths.statistics.taken, 64)
    }

    /// A band that asks while another is making the path (or after) takes it (one make); a
    /// maker that takes far longer than `waitNanoseconds` (50 ms) leaves the asker to make its own.
    func testABandAskingWhileAnotherMakesWaitsForItsPath() {
        let source = Path.ellipse(0, 0, 40, 30)
        let t = Transform.scale(2, 1)
        for (delay, makes) in [(UInt32(0), 1), (UInt32(50_000), 2)] {
            let paths = DevicePaths(count: 1)
            let making = DispatchSemaphore(value: 0)
            let count = Mutex(0)
            let got = Mutex<[Path]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                if i == 1 { making.wait() }
                let path = paths.path(at: 0, transform: t) {
                    count.withLock { $0 += 1 }
                    if i == 0 {
                        making.signal()
                        // Busy for 20 µs (the asker arrives meanwhile or after), or asleep 50 ms.
                        let end = DispatchTime.now().uptimeNanoseconds + 20_000
                        if delay > 0 { usleep(delay) } else { while DispatchTime.now().uptimeNanoseconds < end {} }
                    }
                    return source.transformed(by: t)
                }
                got.withLock { $0.append(path) }
            }
            XCTAssertEqual(count.withLock { $0 }, makes, "maker sleeping \(delay) µs")
            XCTAssertEqual(got.withLock { $0 }, [source.transformed(by: t), source.transformed(by: t)])
            XCTAssertEqual(paths.statistics.made + paths.statistics.taken, 2)
        }
    }

    /// Shared paths and coverage kept for the reach draw the pixels of plain paints; a target
    /// that changes away from the shape (as a band's rows do when its cut moves) reuses the
    /// coverage kept, where coverage kept for the whole target is made anew.
    func testSharedPathsAndReachDrawThePlainPixelsAndSurviveAMovedTarget() {
        let (w, h) = (120, 100)
        let path = Path.ellipse(20, 15, 40, 25)
        let transform = Transform.scale(1.2, 1.1)
        var style = StrokeStyle()
        style.width = 4
        // The reach: what `PaintReach` gives, the path's bounds through the matrix, grown.
        let reach = PixelRect(x0: 10, y0: 5, x1: 90, y1: 60)
        let targets = [PixelRect(x0: 0, y0: 0, x1: w, y1: 70), PixelRect(x0: 0, y0: 0, x1: w, y1: 80)]
        for useReach in [false, true] {
            let slots = CoverageSlots()
            let shared = DevicePaths(count: 2)
            for target in targets {
                var slotted = Surface(width: w, height: h)
                var plain = Surface(width: w, height: h)
                let clip = Clip(rect: target)
                slotted.fill(path, transform: transform, paint: .solid(.white), opacity: 0.7, clip: clip, slots: slots, slot: 0,
                             cache: nil, shared: (shared, 0), reach: useReach ? reach : nil)
                slotted.stroke(path, transform: transform, style: style, paint: .solid(Color(r: 1, g: 0, b: 0, a: 1)), clip: clip,
                               slots: slots, slot: 1, cache: nil, shared: (shared, 1), reach: useReach ? reach : nil)
                plain.fill(path, transform: transform, paint: .solid(.white), opacity: 0.7, clip: clip)
                plain.stroke(path, transform: transform, style: style, paint: .solid(Color(r: 1, g: 0, b: 0, a: 1)), clip: clip)
                XCTAssertEqual(slotted.pixels, plain.pixels, "reach \(useReach), target \(target)")
                XCTAssertTrue(plain.pixels.contains { $0 != 0 })
            }
            XCTAssertEqual(slots.statistics.hits, useReach ? 2 : 0, "reach \(useReach)")
            // The second target found the paths the first made.
            XCTAssertEqual(shared.statistics.made, 2)
        }
    }
}
