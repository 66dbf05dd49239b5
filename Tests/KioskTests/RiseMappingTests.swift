import Foundation
import Kiosk
import LottieModel
import LottieRender
import Player
import Raster
import XCTest

/// The rise is measured on the screen: whatever transforms the driven layer's parent space
/// (a scaled null it is parented to, a scaled and rotated precomp it sits in), at 100 % the
/// layer has moved up by `lift` display heights, straight up.
final class RiseMappingTests: XCTestCase {
    /// A red square layer named Boat (its own transform at the parent's origin, or `position`).
    static func boatLayer(index: Int, parent: Int?, position: (Double, Double), side: Double) -> String {
        """
        {"ddd":0,"ind":\(index),"ty":4,"nm":"Boat",\(parent.map { "\"parent\":\($0)," } ?? "")"sr":1,
         "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[\(position.0),\(position.1),0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},
         "ao":0,"ip":0,"op":60,"st":0,"bm":0,
         "shapes":[{"ty":"gr","nm":"G","it":[
           {"ty":"rc","nm":"R","d":1,"s":{"a":0,"k":[\(side),\(side)]},"p":{"a":0,"k":[0,0]},"r":{"a":0,"k":0}},
           {"ty":"fl","nm":"F","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"r":1},
           {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}
        """
    }

    /// Boat parented to a null scaled to 50 % at the animation's centre.
    static let parentedToScaledNull = """
    {"v":"5.7.0","fr":30,"ip":0,"op":60,"w":200,"h":100,"nm":"parented","ddd":0,"assets":[],"layers":[
     {"ddd":0,"ind":1,"ty":3,"nm":"Rig","sr":1,"ao":0,"ip":0,"op":60,"st":0,"bm":0,
      "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[100,50,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[50,50,100]}}},
     \(boatLayer(index: 2, parent: 1, position: (0, 0), side: 20))]}
    """

    /// Boat inside a precomp layer (Ship) that scales it by 150 % and turns it 90°.
    static let insideTurnedPrecomp = """
    {"v":"5.7.0","fr":30,"ip":0,"op":60,"w":200,"h":100,"nm":"precomp","ddd":0,
     "assets":[{"id":"ship","w":200,"h":100,"layers":[\(boatLayer(index: 1, parent: nil, position: (100, 50), side: 10))]}],
     "layers":[{"ddd":0,"ind":1,"ty":0,"nm":"Ship","refId":"ship","w":200,"h":100,"sr":1,"ao":0,"ip":0,"op":60,"st":0,"bm":0,
      "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":90},"p":{"a":0,"k":[100,50,0]},"a":{"a":0,"k":[100,50,0]},"s":{"a":0,"k":[150,150,100]}}}]}
    """

    /// The centre of the red pixels on the surface.
    func redCentre(_ surface: Surface) -> (x: Double, y: Double)? {
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in 0..<surface.height {
            for x in 0..<surface.width {
                let c = Color(premultiplied: surface.pixels[y * surface.width + x])
                if c.r > 0.5 && c.g < 0.3 && c.b < 0.3 { sx += Double(x); sy += Double(y); n += 1 }
            }
        }
        return n > 0 ? (sx / n, sy / n) : nil
    }

    /// The layer's screen position and the red square's centre at water level `fraction`.
    func measure(_ json: String, keypath: String, width: Int, height: Int, lift: Double, fraction: Double)
        throws -> (layer: Point, square: (x: Double, y: Double)) {
        let animation = try Animation.parse(Array(json.utf8), name: "inline", baseDirectory: nil)
        let viewport = Viewport(width: width, height: height, contentMode: .fit)
        var configuration = DownloadScreen.Configuration()
        configuration.progressKeypath = Keypath(keypath)
        configuration.lift = lift
        let clock = VirtualClock()
        let screen = DownloadScreen(renderer: AnimationRenderer(animation: animation), viewport: viewport, clock: clock, configuration: configuration)
        XCTAssertTrue(screen.drivesProperty)
        screen.startDownloading()
        screen.update(downloadFraction: fraction)
        clock.now = 2  // eased all the way
        let frame = screen.tick()
        let layerPath = Keypath(String(keypath.dropLast(".Transform.Position".count)))
        let layer = try XCTUnwrap(screen.renderer.convert(Point(x: 0, y: 0), fromLayerAt: layerPath, frame: frame, viewport: viewport))
        let square = try XCTUnwrap(redCentre(screen.renderer.render(frame: frame, viewport: viewport, background: .black)))
        return (layer, square)
    }

    func check(_ json: String, keypath: String, width: Int, height: Int, lift: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let low = try measure(json, keypath: keypath, width: width, height: height, lift: lift, fraction: 0)
        let high = try measure(json, keypath: keypath, width: width, height: height, lift: lift, fraction: 1)
        let expected = lift * Double(height)
        XCTAssertEqual(low.layer.y - high.layer.y, expected, accuracy: 1e-6, "layer rise on screen", file: file, line: line)
        XCTAssertEqual(high.layer.x, low.layer.x, accuracy: 1e-6, "straight up", file: file, line: line)
        XCTAssertEqual(low.square.y - high.square.y, expected, accuracy: 1, "drawn square rise", file: file, line: line)
        XCTAssertEqual(high.square.x, low.square.x, accuracy: 1, file: file, line: line)
    }

    /// The viewport scale alone would lift this layer only half as far: its parent halves it.
    func testALayerParentedToAScaledNullRisesOneDisplayHeight() throws {
        // 400x200 fit: two pixels per animation unit. Lift 0.25 keeps the square on screen.
        try check(Self.parentedToScaledNull, keypath: "Boat.Transform.Position", width: 400, height: 200, lift: 0.25)
        try check(Self.parentedToScaledNull, keypath: "Boat.Transform.Position", width: 300, height: 480, lift: 0.1)
    }

    /// In a precomp turned 90°, "up" on screen is along the precomp's x axis.
    func testALayerInAScaledTurnedPrecompRisesStraightUp() throws {
        try check(Self.insideTurnedPrecomp, keypath: "Ship.Boat.Transform.Position", width: 400, height: 200, lift: 0.25)
    }
}
