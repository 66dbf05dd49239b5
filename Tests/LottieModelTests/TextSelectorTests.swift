import LottieModel
import XCTest

/// The range selector's shapes, units, ease and smoothness, and the parser reading them.
final class TextSelectorTests: XCTestCase {
    func selector(_ shape: TextRangeSelector.Shape, start: Double = 0, end: Double = 100, units: TextRangeSelector.Units = .percentage) -> TextRangeSelector {
        var s = TextRangeSelector()
        s.shape = shape
        s.units = units
        s.start = Animated(start)
        s.end = Animated(end)
        return s
    }

    func factors(_ s: TextRangeSelector, count: Int) -> [Double] {
        (0..<count).map { s.factor(unit: $0, count: count, at: 0) }
    }

    func assertEqual(_ a: [Double], _ b: [Double], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: 1e-9, "\(a) vs \(b)", file: file, line: line) }
    }

    func testSquareCoversWholeAndPartialUnits() {
        assertEqual(factors(selector(.square, start: 25, end: 75), count: 4), [0, 1, 1, 0])
        // Index units: 1.5...3 covers half of unit 1.
        assertEqual(factors(selector(.square, start: 1.5, end: 3, units: .index), count: 4), [0, 0.5, 1, 0])
    }

    func testSquareWithoutSmoothnessIsAllOrNothing() {
        var s = selector(.square, start: 1.25, end: 2.6, units: .index)
        s.smoothness = Animated(0)
        assertEqual(factors(s, count: 4), [0, 1, 1, 0])
    }

    func testRampsAndTriangleFollowTheUnitCentres() {
        assertEqual(factors(selector(.rampUp), count: 4), [0.125, 0.375, 0.625, 0.875])
        assertEqual(factors(selector(.rampDown), count: 4), [0.875, 0.625, 0.375, 0.125])
        assertEqual(factors(selector(.triangle), count: 4), [0.25, 0.75, 0.75, 0.25])
    }

    func testRoundAndSmoothPeakInTheMiddle() {
        let round = factors(selector(.round), count: 2)
        assertEqual(round, [(1 - 0.25).squareRoot(), (1 - 0.25).squareRoot()])
        let smooth = factors(selector(.smooth), count: 4)
        assertEqual(smooth, [0.5 - 0.5 * cos(Double.pi / 4), 0.5 + 0.5 * sin(Double.pi / 4),
                             0.5 + 0.5 * sin(Double.pi / 4), 0.5 - 0.5 * cos(Double.pi / 4)])
    }

    func testOffsetShiftsAndReversedRangeSwaps() {
        var s = selector(.square, start: 0, end: 25)
        s.offset = Animated(50)
        assertEqual(factors(s, count: 4), [0, 0, 1, 0])
        assertEqual(factors(selector(.square, start: 75, end: 25), count: 4), [0, 1, 1, 0])
    }

    func testEaseBendsTheRamp() {
        var s = selector(.rampUp)
        s.easeLow = Animated(100)
        s.easeHigh = Animated(100)
        let eased = factors(s, count: 4)
        XCTAssertLessThan(eased[0], 0.125, "eased low: slower start")
        XCTAssertGreaterThan(eased[3], 0.875, "eased high: slower end")
        XCTAssertEqual(eased[0] + eased[3], 1, accuracy: 1e-6, "symmetric ease")
    }

    func testNegativeAmountInverts() {
        var s = selector(.square)
        s.amount = Animated(-50)
        assertEqual(factors(s, count: 2), [-0.5, -0.5])
    }

    func testParserReadsAnimatorsAndWarnsOnlyForWhatIsNotDrawn() throws {
        let json = """
        {"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":[{"ty":5,"ind":1,"ip":0,"op":60,"st":0,"ks":{},
         "t":{"d":{"k":[{"t":0,"s":{"t":"Hi","f":"F","s":10,"fc":[1,0,0],"of":true}}]},"p":{},"m":{"g":1,"a":{"a":0,"k":[10,20]}},
          "a":[{"nm":"A","s":{"t":0,"r":2,"b":3,"sh":4,"s":{"a":0,"k":1},"e":{"a":0,"k":2},"xe":{"a":0,"k":30},"ne":{"a":0,"k":-20},"rn":1},
                "a":{"o":{"a":0,"k":0},"t":{"a":0,"k":100},"fh":{"a":0,"k":10}}}]}}]}
        """
        let animation = try Animation.parse(Array(json.utf8), name: "t.json", baseDirectory: nil)
        guard case .text(let data) = animation.layers[0].kind else { return XCTFail("not a text layer") }
        XCTAssertTrue(data.document(at: 0).strokeOverFill)
        XCTAssertEqual(data.groupingAlignment.value(at: 0), Vec2(x: 10, y: 20))
        XCTAssertEqual(data.animators.count, 1)
        let a = data.animators[0]
        XCTAssertEqual(a.selector.units, .index)
        XCTAssertEqual(a.selector.basis, .words)
        XCTAssertEqual(a.selector.shape, .triangle)
        XCTAssertEqual(a.selector.easeHigh.value(at: 0), 30)
        XCTAssertEqual(a.properties.opacity?.value(at: 0), 0)
        XCTAssertEqual(a.properties.tracking?.value(at: 0), 100)
        XCTAssertNil(a.properties.position)
        let messages = animation.warnings.map(\.message)
        XCTAssertTrue(messages.contains { $0.contains("randomized") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("fill hue") }, "\(messages)")
        XCTAssertEqual(messages.count, 2, "\(messages)")
    }
}
