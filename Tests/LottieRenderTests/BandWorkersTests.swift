import Foundation
@testable import LottieRender
import Synchronization
import XCTest

/// The threads that draw bands run every task of a job exactly once, job after job, whether
/// they are found spinning or asleep, and a second caller sharing them is not lost.
final class BandWorkersTests: XCTestCase {
    /// Counts how many times each task ran (each slot written by the one thread that ran it).
    private final class Tally: @unchecked Sendable {
        var runs: [Int]
        let threadsSeen = Mutex<Set<UInt>>([])
        let total = Atomic<Int>(0)
        init(_ n: Int) { runs = [Int](repeating: 0, count: n) }
    }

    func testEveryTaskRunsOnceInEveryJob() {
        let workers = BandWorkers(spinNanoseconds: 20_000)
        for job in 0..<2000 {
            let count = 1 + job % 7
            let tally = Tally(count)
            tally.runs.withUnsafeMutableBufferPointer { runs in
                let slots = runs
                workers.run(count: count, threads: 4) { i in slots[i] += 1 }
            }
            XCTAssertEqual(tally.runs, [Int](repeating: 1, count: count), "job \(job)")
            // Now and then let the workers fall asleep, so that waking them is tested too.
            if job % 250 == 0 { usleep(2_000) }
        }
    }

    func testTasksRunOnMoreThanOneThread() {
        let workers = BandWorkers()
        let tally = Tally(0)
        for _ in 0..<200 {
            workers.run(count: 4, threads: 4) { _ in
                tally.threadsSeen.withLock { _ = $0.insert(UInt(pthread_self())) }
                usleep(200)
            }
        }
        XCTAssertGreaterThan(tally.threadsSeen.withLock { $0.count }, 1)
    }

    func testTheCPUsAllowedAreCounted() {
        XCTAssertGreaterThanOrEqual(BandWorkers.cpusAllowed(), 1)
        XCTAssertLessThanOrEqual(BandWorkers.cpusAllowed(), 1 << 10)
    }

    func testTwoCallersSharingWorkersEachGetTheirTasksDone() {
        let workers = BandWorkers()
        let tally = Tally(0)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<500 {
                workers.run(count: 3, threads: 3) { _ in tally.total.add(1, ordering: .relaxed) }
            }
        }
        XCTAssertEqual(tally.total.load(ordering: .relaxed), 2 * 500 * 3)
    }
}

extension BandWorkersTests {
    /// A job whose first task takes far longer than the others: the workers that finished
    /// spin while it runs (or sleep, past their longest spin) and still take every task of
    /// the next job exactly once.
    func testUnevenTasksRunOnceWhetherTheIdleWorkersSpinOrSleep() {
        for spin: UInt64 in [20_000, 1_000] {
            let workers = BandWorkers(spinNanoseconds: spin)
            for job in 0..<200 {
                let count = 2 + job % 3
                var runs = [Int](repeating: 0, count: count)
                runs.withUnsafeMutableBufferPointer { runs in
                    let slots = runs
                    workers.run(count: count, threads: 3) { i in
                        if i == 0 { usleep(job % 2 == 0 ? 100 : 2_000) }
                        slots[i] += 1
                    }
                }
                XCTAssertEqual(runs, [Int](repeating: 1, count: count), "spin \(spin), job \(job)")
            }
        }
    }
}
