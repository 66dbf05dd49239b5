import Foundation
import Kiosk
import LottieModel
import LottieRender
import Player
import Raster
import XCTest

/// The download sequence on the corpus's Boat_Loader, with a virtual clock.
final class DownloadScreenTests: XCTestCase {
    func boat() throws -> AnimationRenderer {
        let shared = ProcessInfo.processInfo.environment["BUOY_SHARED"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("shared").path
        let path = shared + "/corpus/lottie-ios/samples/Boat_Loader.json"
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("corpus not found at \(path)") }
        return AnimationRenderer(animation: try Animation.load(path: path))
    }

    /// The water's share of the screen at a download fraction.
    func waterShare(_ renderer: AnimationRenderer, _ w: Int, _ h: Int, fraction: Double, lift: Double = 1) -> Double {
        let clock = VirtualClock()
        let viewport = Viewport(width: w, height: h, contentMode: .fill)
        var configuration = DownloadScreen.Configuration()
        configuration.lift = lift
        let screen = DownloadScreen(renderer: renderer, viewport: viewport, clock: clock, configuration: configuration)
        screen.startDownloading()
        screen.update(downloadFraction: fraction)
        clock.now = 2
        let frame = screen.tick()
        let surface = screen.renderer.render(frame: frame, viewport: viewport, background: .black)
        let water: UInt32 = 0xff00_d1c1  // Boat_Loader's sea
        func channel(_ p: UInt32, _ shift: UInt32) -> Int { Int((p >> shift) & 0xff) }
        func near(_ p: UInt32) -> Bool {
            abs(channel(p, 16) - channel(water, 16)) <= 24 && abs(channel(p, 8) - channel(water, 8)) <= 24
                && abs(channel(p, 0) - channel(water, 0)) <= 24
        }
        return Double(surface.pixels.filter(near).count) / Double(w * h)
    }

    /// At 100 % the water covers at least 98 % of the screen on landscape, small and portrait
    /// (rotated) displays, and it rises with the download.
    func testWaterRisesWithTheDownloadAndFillsTheScreen() throws {
        let renderer = try boat()
        for (w, h) in [(1920, 1080), (800, 480), (1080, 1920)] {
            XCTAssertGreaterThanOrEqual(waterShare(renderer, w, h, fraction: 1), 0.98, "\(w)x\(h)")
        }
        for (w, h) in [(1920, 1080), (800, 480), (1080, 1920)] {
            let shares = [0.0, 0.5, 1.0].map { waterShare(renderer, w, h, fraction: $0) }
            XCTAssertEqual(shares, shares.sorted(), "\(w)x\(h): \(shares)")
            XCTAssertGreaterThan(shares[2], shares[0] + 0.3, "\(w)x\(h): \(shares)")
        }
    }

    /// `--lift` scales the rise: half of it leaves part of the sky.
    func testLiftScalesTheRise() throws {
        let renderer = try boat()
        XCTAssertLessThan(waterShare(renderer, 1920, 1080, fraction: 1, lift: 0.3), 0.9)
    }

    func testFullProgressEasesToExactlyOne() throws {
        let renderer = try boat()
        for (w, h) in [(1920, 1080), (800, 480), (1080, 1920)] {
            let clock = VirtualClock()
            let viewport = Viewport(width: w, height: h, contentMode: .fill)
            let screen = DownloadScreen(renderer: renderer, viewport: viewport, clock: clock)
            XCTAssertTrue(screen.drivesProperty)
            screen.startDownloading()
            screen.update(downloadFraction: 1)
            clock.now = 2  // the water has eased all the way
            let frame = screen.tick()
            XCTAssertEqual(screen.level, 1)
            XCTAssertEqual(screen.state, .downloading)
            _ = frame
        }
    }

    func testTheSequenceFromDownloadToDone() throws {
        let clock = VirtualClock()
        let viewport = Viewport(width: 200, height: 240, contentMode: .fill)
        let screen = DownloadScreen(renderer: try boat(), viewport: viewport, clock: clock)
        screen.startDownloading()
        var levels: [Double] = []
        var frames: [(t: Double, state: DownloadScreen.State, progress: Double, frame: Double, level: Double)] = []
        let step = 1.0 / 60
        var t = 0.0
        // Progress arrives in bursts: 0.2 at 0.5 s, 0.6 at 1 s, 1.0 at 1.5 s, then success.
        while t < 12 {
            clock.now = t
            if abs(t - 0.5) < step / 2 { screen.update(downloadFraction: 0.2) }
            if abs(t - 1.0) < step / 2 { screen.update(downloadFraction: 0.6) }
            if abs(t - 1.5) < step / 2 { screen.update(downloadFraction: 1.0); screen.downloadSucceeded() }
            let frame = screen.tick()
            levels.append(screen.level)
            frames.append((t, screen.state, screen.player.progress(forFrame: frame), frame, screen.level))
            t += step
        }
        XCTAssertEqual(levels, levels.sorted(), "the water only rises")
        XCTAssertEqual(levels.last, 1)
        // While downloading the frames stay in the loop segment.
        for f in frames where f.state == .downloading { XCTAssertLessThanOrEqual(f.progress, 0.5 + 1e-9) }
        let states = frames.map(\.state).reduce(into: [DownloadScreen.State]()) { if $0.last != $1 { $0.append($1) } }
        XCTAssertEqual(states, [.downloading, .finishing, .success, .done])
        // The water eases up to full (0.6 s) before the finish: the last downloading frame shows it full.
        let lastDownloading = frames.last { $0.state == .downloading }!
        XCTAssertEqual(lastDownloading.level, 1)
        XCTAssertEqual(lastDownloading.t, 1.5 + 0.6, accuracy: 2 * step)
        // Finishing runs at 4x: from where the loop was to its end (444 frames) takes
        // (444 − frame) / 240 s.
        let finishStart = frames.first { $0.state == .finishing }!
        let successStart = frames.first { $0.state == .success }!.t
        XCTAssertEqual(successStart, finishStart.t + (444 - finishStart.frame) / 240.0, accuracy: 2 * step)
        // Then the success segment at 1x: 444 frames at 60 fps.
        let doneAt = frames.first { $0.state == .done }!.t
        XCTAssertEqual(doneAt - successStart, 444 / 60.0, accuracy: 2 * step)
    }

    func testFailureStopsTheLoopWithAMessage() throws {
        let clock = VirtualClock()
        let screen = DownloadScreen(renderer: try boat(), viewport: Viewport(width: 100, height: 100), clock: clock)
        screen.startDownloading()
        clock.now = 1
        _ = screen.tick()
        screen.downloadFailed("http://x: HTTP status 404")
        XCTAssertEqual(screen.state, .failed)
        XCTAssertEqual(screen.message, "http://x: HTTP status 404")
        let held = screen.tick()
        clock.now = 2
        XCTAssertEqual(screen.tick(), held)
    }
}

/// Buoy's own animation meets the screen contract on any display.
final class DefaultAnimationTests: XCTestCase {
    func testDefaultAnimationParsesWithItsSegments() throws {
        let animation = try Animation.parse(Array(DefaultAnimation.json.utf8), name: "default", baseDirectory: nil)
        XCTAssertTrue(animation.warnings.isEmpty, "\(animation.warnings)")
        XCTAssertEqual(animation.marker(named: "loop")?.duration, 120)
        XCTAssertEqual(animation.marker(named: "success")?.time, 120)
        XCTAssertTrue(AnimationRenderer.keypaths(of: animation).contains { $0.keypath == "Boat.Transform.Position" })
    }

    func testAFailedDownloadTurnsTheSeaRed() throws {
        let renderer = AnimationRenderer(animation: try Animation.parse(Array(DefaultAnimation.json.utf8), name: "default", baseDirectory: nil))
        let clock = VirtualClock()
        let viewport = Viewport(width: 160, height: 90, contentMode: .fill)
        let screen = DownloadScreen(renderer: renderer, viewport: viewport, clock: clock)
        screen.startDownloading()
        var surface = Surface(width: 160, height: 90)
        screen.render(frame: screen.tick(), viewport: viewport, into: &surface)
        let blue = Color(premultiplied: surface.pixels[85 * 160 + 80])
        XCTAssertGreaterThan(blue.b, blue.r)
        screen.downloadFailed("HTTP status 404")
        clock.now = 1
        XCTAssertTrue(screen.render(frame: screen.tick(), viewport: viewport, into: &surface))
        let red = Color(premultiplied: surface.pixels[85 * 160 + 80])
        XCTAssertGreaterThan(red.r, red.b)
        XCTAssertEqual(screen.state, .failed)
    }

    func testTheLoopIsSeamless() throws {
        let renderer = AnimationRenderer(animation: try Animation.parse(Array(DefaultAnimation.json.utf8), name: "default", baseDirectory: nil))
        let viewport = Viewport(width: 320, height: 180, contentMode: .fill)
        let start = renderer.render(frame: 0, viewport: viewport)
        let end = renderer.render(frame: 120, viewport: viewport)
        let differing = zip(start.pixels, end.pixels).filter { $0 != $1 }.count
        XCTAssertLessThan(Double(differing) / Double(start.pixels.count), 0.002, "frame 120 must look like frame 0")
    }

    /// The built-in boat's hull and mast colour: the figure a frame must show.
    static let hull = (r: 56, g: 64, b: 82)

    /// The screen at a download level (the water eased all the way), rendered.
    func frame(_ renderer: AnimationRenderer, _ w: Int, _ h: Int, level: Double, succeeded: Bool = false,
               contentMode: ContentMode = .fill) -> Surface {
        let clock = VirtualClock()
        let viewport = Viewport(width: w, height: h, contentMode: contentMode)
        let screen = DownloadScreen(renderer: renderer, viewport: viewport, clock: clock, configuration: .defaultAnimation)
        screen.startDownloading()
        screen.update(downloadFraction: level)
        clock.now = 1.9  // eased all the way, still in the loop
        var frame = screen.tick()
        if succeeded {
            screen.downloadSucceeded()
            for step in 1...400 where screen.state != .done {
                clock.now = 1.9 + Double(step) / 60
                frame = screen.tick()
            }
            XCTAssertEqual(screen.state, .done)
        }
        return screen.renderer.render(frame: frame, viewport: viewport, background: .black)
    }

    func figurePixels(_ surface: Surface) -> Int {
        surface.pixels.filter { p in
            abs(Int((p >> 16) & 0xff) - Self.hull.r) <= 4 && abs(Int((p >> 8) & 0xff) - Self.hull.g) <= 4 && abs(Int(p & 0xff) - Self.hull.b) <= 4
        }.count
    }

    /// The most common colour's share of the frame.
    func flatness(_ surface: Surface) -> Double {
        var counts: [UInt32: Int] = [:]
        for p in surface.pixels { counts[p, default: 0] += 1 }
        return Double(counts.values.max() ?? 0) / Double(surface.pixels.count)
    }

    /// At every level, on landscape, square and portrait panels, the boat is on screen (its
    /// hull's colour), the frame is not one flat colour, and the water rises with the level.
    func testTheBoatStaysOnScreenWhileTheWaterRises() throws {
        let renderer = AnimationRenderer(animation: try Animation.parse(Array(DefaultAnimation.json.utf8), name: "default", baseDirectory: nil))
        for (w, h) in [(480, 270), (270, 480), (240, 240), (800, 480)] {
            var waterRows: [Int] = []
            for level in [0.0, 0.25, 0.5, 0.75, 1.0] {
                let surface = frame(renderer, w, h, level: level)
                XCTAssertGreaterThan(figurePixels(surface), w * h / 400, "\(w)x\(h) at \(level): no boat")
                XCTAssertLessThan(flatness(surface), 0.9, "\(w)x\(h) at \(level): one flat colour")
                // The front water's colour down the left edge: where the sea starts.
                let sea: UInt32 = surface.pixels[(h - 1) * w]
                waterRows.append((0..<h).first { surface.pixels[$0 * w] == sea } ?? h)
            }
            XCTAssertEqual(waterRows, waterRows.sorted(by: >), "\(w)x\(h): the water line rises: \(waterRows)")
            XCTAssertGreaterThan(waterRows[0] - waterRows[4], h / 3, "\(w)x\(h): it rises by a good part of the screen")
            XCTAssertGreaterThan(waterRows[4], h / 6, "\(w)x\(h): sky stays above the boat at 100 %")
        }
        // Letterboxed (fit, a landscape picture on a portrait panel): it rises within its box.
        let boxed = frame(renderer, 270, 480, level: 1, contentMode: .fit)
        XCTAssertGreaterThan(figurePixels(boxed), 270 * 480 / 2000, "fit 270x480 at 100 %: no boat")
    }

    /// The success picture: the check's white disc, fully drawn, centred on the panel.
    func testTheSuccessCheckIsCentred() throws {
        let renderer = AnimationRenderer(animation: try Animation.parse(Array(DefaultAnimation.json.utf8), name: "default", baseDirectory: nil))
        for (w, h) in [(480, 270), (270, 480)] {
            let surface = frame(renderer, w, h, level: 1, succeeded: true)
            // Below the water line (the sail above it is white too).
            let sea: UInt32 = surface.pixels[(h - 1) * w]
            let waterLine = (0..<h).first { surface.pixels[$0 * w] == sea } ?? 0
            var xs: [Int] = [], ys: [Int] = []
            for y in (waterLine + h / 20)..<h {
                for x in 0..<w where surface.pixels[y * w + x] == 0xffff_ffff {
                    xs.append(x)
                    ys.append(y)
                }
            }
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return XCTFail("\(w)x\(h): no check") }
            XCTAssertEqual(Double(x0 + x1) / 2, Double(w) / 2, accuracy: Double(w) * 0.03, "\(w)x\(h)")
            XCTAssertEqual(Double(y0 + y1) / 2, Double(h) / 2, accuracy: Double(h) * 0.03, "\(w)x\(h)")
            XCTAssertGreaterThan(y1 - y0, min(w, h) / 4, "\(w)x\(h): the check is large enough to read")
        }
    }
}
