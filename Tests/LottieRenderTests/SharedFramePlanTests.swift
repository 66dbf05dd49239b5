import Foundation
import LottieModel
@testable import LottieRender
import Synchronization
import XCTest

/// The plan of a threaded frame is made once, by the first band thread that asks for it,
/// and every other asker gets that plan (or, past its wait, none: it then draws without).
final class SharedFramePlanTests: XCTestCase {
    /// The renderer, read (never written) by the asking threads, as the band threads read it.
    private struct Shared: @unchecked Sendable { let renderer: AnimationRenderer }

    func testThePlanIsMadeOnceAndSharedByEveryAsker() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        guard let animation = try FramePlanTests.load("LottieLogo1_masked.json") else { throw XCTSkip("sample not found") }
        var renderer = AnimationRenderer(animation: animation)
        renderer.threads = 4
        let box = Shared(renderer: renderer)
        let frame = animation.inPoint + (animation.outPoint - animation.inPoint) * 0.6
        let expected = FramePlan(renderer: renderer, frame: frame).entries.map { ObjectIdentifier($0.node) }
        XCTAssertFalse(expected.isEmpty)
        for _ in 0..<50 {
            let shared = SharedFramePlan()
            let made = Atomic<Int>(0)
            let got = Mutex<[[ObjectIdentifier]]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let plan = shared.plan {
                    made.add(1, ordering: .relaxed)
                    return FramePlan(renderer: box.renderer, frame: frame)
                }
                if let plan { got.withLock { $0.append(plan.entries.map { ObjectIdentifier($0.node) }) } }
            }
            XCTAssertEqual(made.load(ordering: .relaxed), 1)
            // A walk of a few µs is ready well within the wait: every asker has the plan.
            XCTAssertEqual(got.withLock { $0 }, [[ObjectIdentifier]](repeating: expected, count: 4))
        }
    }

    func testAnAskerWaitingPastTheMakerDrawsWithout() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        guard let animation = try FramePlanTests.load("LottieLogo1_masked.json") else { throw XCTSkip("sample not found") }
        let box = Shared(renderer: AnimationRenderer(animation: animation))
        let shared = SharedFramePlan()
        let started = Atomic<Bool>(false)
        let maker = Thread {
            _ = shared.plan {
                started.store(true, ordering: .sequentiallyConsistent)
                usleep(UInt32(SharedFramePlan.waitNanoseconds / 1000 * 20))
                return FramePlan(renderer: box.renderer, frame: 0)
            }
        }
        maker.start()
        while !started.load(ordering: .sequentiallyConsistent) { usleep(100) }
        XCTAssertNil(shared.plan { XCTFail("made twice"); return FramePlan(renderer: box.renderer, frame: 0) })
    }
}
