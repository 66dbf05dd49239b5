import Foundation
import LottieModel
@testable import LottieRender
import Raster
import Synchronization
import XCTest

/// The shapes a threaded frame draws are evaluated once, shared out among its threads
/// (`FramePlan`), before the bands draw: the pixels stay those of one thread.
final class FramePlanTests: XCTestCase {
    /// Masks and mattes (issue_1505, TypeFace/A, TypeFace/S), precomps placed more than once
    /// at other times (timeremap, pr_2559, Boat_Loader), many animated strokes (LottieLogo1_masked).
    static let samples = ["LottieLogo1_masked.json", "Issues/issue_1505.json", "TypeFace/A.json", "TypeFace/S.json", "timeremap.json",
                          "Issues/pr_2559.json", "Boat_Loader.json"]

    static func load(_ name: String) throws -> Animation? {
        let url = CorpusPaths.corpus.appendingPathComponent("samples").appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Animation.load(path: url.path)
    }

    /// A renderer that draws every frame on threads from its first (so the plan, not an
    /// earlier one-thread render, evaluates each frame's shapes) draws what one thread draws.
    /// `frame` drawn by `renderer` into a clear `viewport`-sized surface as two bands cut at row `cut`.
    static func drawnInTwoBands(_ renderer: AnimationRenderer, frame: Double, matrix: Matrix, viewport: Viewport, cut: Int) -> Surface {
        var surface = Surface(width: viewport.width, height: viewport.height)
        let whole = surface.bounds
        surface.withBands([0..<cut, cut..<surface.height]) { parts in
            for i in 0..<2 {
                renderer.drawCleared(frame: frame, into: &parts[i], matrix: matrix, background: .clear, covered: nil, whole: whole,
                                     band: (i, 2))
            }
        }
        return surface
    }

    func testFramesEvaluatedByThePlanGiveTheSamePixelsAsOneThread() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        var compared = 0
        for name in Self.samples {
            guard let animation = try Self.load(name) else { continue }
            let viewport = Viewport(width: 160, height: 120, contentMode: .fill)
            var one = AnimationRenderer(animation: animation)
            one.threads = 1
            for threads in [2, 3] {
                var banded = AnimationRenderer(animation: animation)
                banded.threads = threads
                var surface = Surface(width: viewport.width, height: viewport.height)
                for progress in [0.05, 0.3, 0.3, 0.52, 0.77, 0.95] {
                    let frame = animation.inPoint + (animation.outPoint - animation.inPoint) * progress
                    let expected = one.render(frame: frame, viewport: viewport)
                    banded.render(frame: frame, viewport: viewport, into: &surface)
                    let differing = zip(expected.pixels, surface.pixels).filter { $0 != $1 }.count
                    XCTAssertEqual(differing, 0, "\(name), \(threads) threads, progress \(progress)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 30)
    }

    /// The plan lists each drawn node once, in drawing order; a node a frame draws at two
    /// times (a precomp placed twice, offset in time) is left to the bands.
    func testThePlanListsEachNodeOnceAtOneFrame() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        guard let animation = try Self.load("Issues/pr_2559.json") else { throw XCTSkip("pr_2559.json not found") }
        let renderer = AnimationRenderer(animation: animation)
        let tree = try XCTUnwrap(renderer.renderTree)
        var planned = 0
        for progress in [0.1, 0.4, 0.8] {
            let frame = animation.inPoint + (animation.outPoint - animation.inPoint) * progress
            let plan = FramePlan(renderer: renderer, frame: frame)
            let nodes = plan.entries.map { ObjectIdentifier($0.node) }
            XCTAssertEqual(Set(nodes).count, nodes.count, "each node once")
            XCTAssertTrue(plan.entries.allSatisfy { entry in tree.allNodes.contains { $0 === entry.node } })
            planned += plan.entries.count
        }
        XCTAssertGreaterThan(planned, 0)

        // Evaluating the plan is what the draw then reuses: a one-thread render after it
        // evaluates nothing more for the nodes planned.
        let frame = animation.inPoint + (animation.outPoint - animation.inPoint) * 0.4
        let plan = FramePlan(renderer: renderer, frame: frame)
        plan.evaluate(taking: FramePlan.Cursor(), budget: renderer.budget)
        let before = plan.entries.map { $0.node.statistics.evaluated }
        _ = renderer.render(frame: frame, viewport: Viewport(width: 64, height: 64, contentMode: .fit))
        let after = plan.entries.map { $0.node.statistics.evaluated }
        // A look-ahead is counted at its first counted use, as one evaluation.
        XCTAssertEqual(zip(before, after).filter { $1 - $0 > 1 }.count, 0, "\(before) → \(after)")
    }

    /// The bands of a frame share each paint's device path (`DevicePaths`): drawn one after
    /// the other, the second band takes the stroke outlines and transformed paths the first
    /// made for the paints that cross both, and the pixels are those of one thread.
    func testTheSecondBandTakesTheDevicePathsTheFirstMade() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        guard let animation = try Self.load("LottieLogo1_masked.json") else { throw XCTSkip("LottieLogo1_masked.json not found") }
        let viewport = Viewport(width: 160, height: 120, contentMode: .fill)
        let matrix = viewport.transform(animationWidth: animation.width, animationHeight: animation.height)
        var taken = 0, compared = 0
        for progress in [0.45, 0.6, 0.9] {
            let frame = animation.inPoint + (animation.outPoint - animation.inPoint) * progress
            var one = AnimationRenderer(animation: animation)
            one.threads = 1
            let expected = one.render(frame: frame, viewport: viewport)
            var banded = AnimationRenderer(animation: animation)
            banded.threads = 2
            let plan = FramePlan(renderer: banded, frame: frame)
            plan.evaluate(taking: FramePlan.Cursor(), budget: banded.budget)
            let surface = Self.drawnInTwoBands(banded, frame: frame, matrix: matrix, viewport: viewport, cut: 55)
            XCTAssertEqual(zip(expected.pixels, surface.pixels).filter { $0 != $1 }.count, 0, "progress \(progress)")
            for entry in plan.entries {
                let shared = try XCTUnwrap(entry.node.shapes(at: entry.frame, budget: banded.budget, counted: false).devicePaths)
                taken += shared.statistics.taken
            }
            compared += 1
        }
        XCTAssertEqual(compared, 3)
        XCTAssertGreaterThan(taken, 0, "the second band took paths the first made")
    }

    /// Threads taking entries from both ends at once take each entry exactly once: the
    /// front in order from the first, the back in order from the last.
    func testEntriesTakenFromBothEndsAreEachTakenOnce() {
        for count in [0, 1, 2, 7, 5000] {
            let cursor = FramePlan.Cursor()
            let taken = Mutex([[Int]](repeating: [], count: 4))
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                var mine: [Int] = []
                while let index = cursor.take(of: count, fromBack: thread % 2 == 1) { mine.append(index) }
                taken.withLock { $0[thread] = mine }
            }
            let lists = taken.withLock { $0 }
            XCTAssertEqual(lists.flatMap { $0 }.sorted(), Array(0..<count), "count \(count)")
            for (thread, list) in lists.enumerated() {
                XCTAssertEqual(list, thread % 2 == 1 ? list.sorted(by: >) : list.sorted(), "count \(count), thread \(thread)")
            }
            XCTAssertNil(cursor.take(of: count, fromBack: false))
        }
    }

    /// A thread that stops evaluating the plan early (its band draws longer) leaves the rest
    /// to the bands, which evaluate what they draw: the pixels are those of one thread.
    func testAPlanLeftUnevaluatedGivesTheSamePixels() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        guard let animation = try Self.load("LottieLogo1_masked.json") else { throw XCTSkip("LottieLogo1_masked.json not found") }
        let viewport = Viewport(width: 160, height: 120, contentMode: .fill)
        let matrix = viewport.transform(animationWidth: animation.width, animationHeight: animation.height)
        for progress in [0.3, 0.6, 0.9] {
            let frame = animation.inPoint + (animation.outPoint - animation.inPoint) * progress
            var one = AnimationRenderer(animation: animation)
            one.threads = 1
            let expected = one.render(frame: frame, viewport: viewport)
            var banded = AnimationRenderer(animation: animation)
            banded.threads = 2
            let plan = FramePlan(renderer: banded, frame: frame)
            let cursor = FramePlan.Cursor()
            XCTAssertGreaterThan(plan.entries.count, 2)
            // No time to evaluate: nothing taken. Then one entry from the back, and no more.
            plan.evaluate(taking: cursor, budget: banded.budget, fromBack: true, seconds: 0)
            XCTAssertEqual(cursor.take(of: plan.entries.count, fromBack: true), plan.entries.count - 1)
            let surface = Self.drawnInTwoBands(banded, frame: frame, matrix: matrix, viewport: viewport, cut: 70)
            XCTAssertEqual(zip(expected.pixels, surface.pixels).filter { $0 != $1 }.count, 0, "progress \(progress)")
        }
    }

    /// A precomp shown twice at different times in one frame: its nodes are not planned.
    func testANodeDrawnAtTwoFramesIsLeftOut() throws {
        let shape = """
        {"ty":4,"ind":1,"ip":0,"op":100,"st":0,"ks":{"p":{"a":1,"k":[{"t":0,"s":[0,0],"e":[50,50]},{"t":100,"s":[50,50]}]}},
         "shapes":[{"ty":"rc","p":{"a":1,"k":[{"t":0,"s":[10,10],"e":[40,40]},{"t":100,"s":[40,40]}]},"s":{"a":0,"k":[20,20]},"r":{"a":0,"k":0}},
                   {"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}
        """
        func placed(_ index: Int, start: Double) -> String {
            """
            {"ty":0,"ind":\(index),"refId":"inner","ip":0,"op":100,"st":\(start),"w":100,"h":100,"ks":{}}
            """
        }
        func json(_ starts: [Double]) -> String {
            let layers = starts.enumerated().map { placed($0.offset + 1, start: $0.element) }.joined(separator: ",")
            return """
            {"v":"5.7.0","fr":30,"ip":0,"op":100,"w":100,"h":100,"assets":[{"id":"inner","layers":[\(shape)]}],"layers":[\(layers)]}
            """
        }
        func renderer(_ starts: [Double]) throws -> AnimationRenderer {
            AnimationRenderer(animation: try Animation.parse(Array(json(starts).utf8), name: "t.json", baseDirectory: nil))
        }
        let twice = try renderer([0, 20])
        XCTAssertEqual(FramePlan(renderer: twice, frame: 50).entries.count, 0)
        let sameTime = try renderer([10, 10])
        XCTAssertEqual(FramePlan(renderer: sameTime, frame: 50).entries.count, 1)
        XCTAssertEqual(FramePlan(renderer: sameTime, frame: 50).entries.first?.frame, 40)
        XCTAssertEqual(FramePlan(renderer: sameTime, frame: .nan).entries.count, 0)

        // Either way, two threads draw what one draws (each renderer its own nodes).
        for starts in [[0.0, 20], [10, 10]] {
            var banded = try renderer(starts)
            banded.threads = 2
            let viewport = Viewport(width: 64, height: 64, contentMode: .fit)
            let expected = try renderer(starts).render(frame: 50, viewport: viewport)
            XCTAssertEqual(banded.render(frame: 50, viewport: viewport).pixels, expected.pixels)
            XCTAssertTrue(expected.pixels.contains { $0 != 0 })
        }
    }
}

/// Each band of a threaded frame keeps its coverage in a slot store of its own.
final class BandSlotsTests: XCTestCase {
    func testEachBandReusesItsOwnCoverageAndTheStoresShareTheLimit() throws {
        try XCTSkipUnless(CorpusPaths.available, "corpus not found")
        guard let animation = try FramePlanTests.load("TypeFace/A.json") else { throw XCTSkip("TypeFace/A.json not found") }
        var renderer = AnimationRenderer(animation: animation)
        renderer.threads = 3
        let viewport = Viewport(width: 120, height: 150, contentMode: .fit)
        let frame = animation.inPoint + (animation.outPoint - animation.inPoint) * 0.6
        let first = renderer.render(frame: frame, viewport: viewport)
        let tree = try XCTUnwrap(renderer.renderTree)
        let stores = tree.allSlots
        XCTAssertEqual(stores.count, 3)
        // The bands share the slots' part of the kept-coverage budget evenly.
        XCTAssertTrue(stores.allSatisfy { $0.byteLimit == tree.slots.byteLimit })
        XCTAssertLessThanOrEqual(stores.reduce(0) { $0 + $1.byteLimit }, renderer.keptCoverageBytes(width: 120, height: 150))
        let missesBefore = stores.map(\.statistics.misses)
        // The same frame again: every band finds what it drew in its own store.
        let again = renderer.render(frame: frame, viewport: viewport)
        XCTAssertEqual(first.pixels, again.pixels)
        for (k, store) in stores.enumerated() {
            XCTAssertGreaterThan(store.statistics.hits, 0, "band \(k)")
            XCTAssertEqual(store.statistics.misses, missesBefore[k], "band \(k) rasterized nothing anew")
        }
        // Another cut (two bands) starts the other bands' stores anew.
        renderer.threads = 2
        _ = renderer.render(frame: frame, viewport: viewport)
        XCTAssertEqual(tree.allSlots.count, 2)
        XCTAssertEqual(tree.allSlots[1].byteLimit, tree.slots.byteLimit)
    }
}
