import LottieModel
import LottieRender
import Raster
import XCTest

/// Which frame numbers are the same picture: with no keyframed property and no provider that
/// reads the frame, only layers entering and leaving (through precomps' time) change it.
final class TimeDependenceTests: XCTestCase {
    let viewport = Viewport(width: 40, height: 40)

    func solid(_ colour: String, ip: Double, op: Double, extra: String = "") -> String {
        #"{"ty":1,"sc":"\#(colour)","sw":20,"sh":20,"ip":\#(ip),"op":\#(op),"st":0,"ks":{\#(extra)}}"#
    }

    func renderer(_ layers: [String], assets: String = "[]") throws -> AnimationRenderer {
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":40,"w":40,"h":40,"assets":\#(assets),"layers":["# + layers.joined(separator: ",") + "]}"
        return AnimationRenderer(animation: try Animation.parse(Array(json.utf8), name: "t.json", baseDirectory: nil))
    }

    func testFramesWithTheSameLayersShownAreOnePicture() throws {
        // Red all along; green only until frame 10.
        var r = try renderer([solid("#00ff00", ip: 0, op: 10), solid("#ff0000", ip: 0, op: 40)])
        XCTAssertFalse(r.hasTimeVaryingProperties)
        var surface = Surface(width: 40, height: 40)
        XCTAssertTrue(r.renderIfChanged(frame: 0, viewport: viewport, into: &surface))
        let first = surface.pixels
        for frame in [0.5, 3, 9.75, 10] {
            XCTAssertFalse(r.renderIfChanged(frame: frame, viewport: viewport, into: &surface), "frame \(frame)")
        }
        // What was skipped is what drawing would have drawn.
        XCTAssertEqual(r.render(frame: 7.25, viewport: viewport).pixels, first)
        XCTAssertTrue(r.renderIfChanged(frame: 10.5, viewport: viewport, into: &surface), "green leaves")
        XCTAssertNotEqual(surface.pixels, first)
        XCTAssertFalse(r.renderIfChanged(frame: 30, viewport: viewport, into: &surface))
        XCTAssertFalse(r.pictureChanges(over: 0...10))
        XCTAssertFalse(r.pictureChanges(over: 11...40))
        XCTAssertTrue(r.pictureChanges(over: 0...20))
        XCTAssertFalse(r.pictureChanges(over: 5...5))
    }

    func testAKeyframedPropertyOrAFramedProviderMakesEveryFrameItsOwn() throws {
        let moving = #""p":{"a":1,"k":[{"t":0,"s":[0,0]},{"t":40,"s":[20,20]}]}"#
        var r = try renderer([solid("#ff0000", ip: 0, op: 40, extra: moving)])
        XCTAssertTrue(r.hasTimeVaryingProperties)
        XCTAssertTrue(r.pictureChanges(over: 0...1))
        var surface = Surface(width: 40, height: 40)
        XCTAssertTrue(r.renderIfChanged(frame: 0, viewport: viewport, into: &surface))
        XCTAssertTrue(r.renderIfChanged(frame: 1, viewport: viewport, into: &surface))

        // A still file with a provider of the frame bound: every frame again; a constant
        // provider leaves it still.
        var still = try renderer([solid("#ff0000", ip: 0, op: 40)])
        still.setValueProvider(ConstantValueProvider(Vec2(x: 5, y: 5)), keypath: Keypath("**.Transform.Position"))
        XCTAssertFalse(still.hasTimeVaryingProperties)
        still.setValueProvider(ClosureValueProvider { Vec2(x: $0, y: 0) }, keypath: Keypath("**.Transform.Position"))
        XCTAssertTrue(still.hasTimeVaryingProperties)
        XCTAssertTrue(still.renderIfChanged(frame: 0, viewport: viewport, into: &surface))
        XCTAssertTrue(still.renderIfChanged(frame: 1, viewport: viewport, into: &surface))
    }

    func testAPrecompsLayersLeaveAtTheirTimeInTheOuterComposition() throws {
        // Inside the precomp green leaves at its frame 10; the precomp is stretched twice, so
        // at frame 20 outside (plus its start time of 4: 24).
        let assets = #"[{"id":"p","layers":["# + solid("#00ff00", ip: 0, op: 10) + "," + solid("#ff0000", ip: 0, op: 100) + "]}]"
        let precomp = #"{"ty":0,"refId":"p","w":40,"h":40,"ip":0,"op":40,"st":4,"sr":2,"ks":{}}"#
        var r = try renderer([precomp], assets: assets)
        XCTAssertFalse(r.pictureChanges(over: 4...24))
        XCTAssertTrue(r.pictureChanges(over: 4...25))
        var surface = Surface(width: 40, height: 40)
        XCTAssertTrue(r.renderIfChanged(frame: 4, viewport: viewport, into: &surface))
        XCTAssertFalse(r.renderIfChanged(frame: 24, viewport: viewport, into: &surface))
        XCTAssertTrue(r.renderIfChanged(frame: 24.5, viewport: viewport, into: &surface))
        XCTAssertEqual(surface.pixels, r.render(frame: 30, viewport: viewport).pixels)
    }

    func testTheNextVisibilityChangeIsFollowedThroughAPrecompsTime() throws {
        // Outside: blue enters at 30. Inside the precomp (start 4, stretched twice): green
        // leaves after its frame 10 (outer 24), yellow enters at its frame 5 (outer 14).
        let assets = #"[{"id":"p","layers":["# + solid("#00ff00", ip: 0, op: 10) + "," + solid("#ffff00", ip: 5, op: 100) + "]}]"
        let precomp = #"{"ty":0,"refId":"p","w":40,"h":40,"ip":0,"op":40,"st":4,"sr":2,"ks":{}}"#
        let r = try renderer([solid("#0000ff", ip: 30, op: 40), precomp], assets: assets)
        XCTAssertFalse(r.hasTimeVaryingProperties)
        XCTAssertEqual(r.nextVisibilityChange(after: 4), 14)
        let leave = try XCTUnwrap(r.nextVisibilityChange(after: 14))
        XCTAssertGreaterThan(leave, 24)
        XCTAssertLessThan(leave, 24.001)
        XCTAssertEqual(r.nextVisibilityChange(after: leave), 30)
        XCTAssertEqual(r.nextVisibilityChange(after: 40.5), nil)
        // Backwards from 29: green comes back at 24.
        XCTAssertEqual(r.nextVisibilityChange(after: 29, forward: false), 24)
        // The answer agrees with what is drawn: the same picture just before, another at it.
        var surface = Surface(width: 40, height: 40)
        for (before, at) in [(13.9, 14.0), (24.0, leave), (29.5, 30.0)] {
            XCTAssertTrue(r.pictureChanges(over: before...at), "\(before)…\(at)")
            XCTAssertFalse(r.pictureChanges(over: before...at.nextDown), "still before \(at)")
            var copy = r
            _ = copy.renderIfChanged(frame: before, viewport: viewport, into: &surface)
            XCTAssertTrue(copy.renderIfChanged(frame: at, viewport: viewport, into: &surface), "changes at \(at)")
        }
    }

    func testAPrecompPlayedBackwardsMapsItsLayersSpanBothWays() throws {
        // sr -1, st 20: inner frame = 20 - outer, so green (inner 0…10) shows over outer 10…20.
        let assets = #"[{"id":"p","layers":["# + solid("#00ff00", ip: 0, op: 10) + "]}]"
        let precomp = #"{"ty":0,"refId":"p","w":40,"h":40,"ip":0,"op":40,"st":20,"sr":-1,"ks":{}}"#
        let r = try renderer([precomp], assets: assets)
        XCTAssertEqual(r.nextVisibilityChange(after: 0), 10)
        XCTAssertEqual(r.nextVisibilityChange(after: 10), 20.nextUp)
        XCTAssertEqual(r.nextVisibilityChange(after: 20.nextUp), 40.nextUp)
        XCTAssertEqual(r.nextVisibilityChange(after: 30, forward: false), 20)
        XCTAssertTrue(r.pictureChanges(over: 9...10))
        XCTAssertFalse(r.pictureChanges(over: 10...20))
        XCTAssertNil(r.nextVisibilityChange(after: .nan))
    }
}
