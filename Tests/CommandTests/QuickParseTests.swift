import ArgumentParser
import XCTest
@testable import buoy

/// The start-up fast path (`QuickArguments`) against ArgumentParser, the reference: every
/// command line the fast path takes gives the same values as ArgumentParser's parse, and the
/// ones it must not take (help, errors, what it does not read) are left to ArgumentParser.
final class QuickParseTests: XCTestCase {
    func benchFields(_ b: BenchJob) -> String {
        "\(b.animation)|\(String(describing: b.size))|\(b.contentMode)|\(String(describing: b.count))|"
            + "\(String(describing: b.threads))|\(b.perFrame)|\(String(describing: b.spawnedAt))"
    }

    func renderFields(_ r: RenderJob) -> String {
        [String(describing: r.animation), String(describing: r.output), String(describing: r.frame), String(describing: r.progress),
         String(describing: r.frames.map { [$0.start, $0.end, $0.step] }), String(describing: r.size), "\(r.contentMode)",
         "\(r.background.color)", String(describing: r.batch), "\(r.assignments.count)", String(describing: r.threads)].joined(separator: "|")
    }

    /// What ArgumentParser makes of `buoy ARGUMENTS`, as the CLI runs it.
    func reference(_ arguments: [String]) -> ParsableCommand? {
        try? Buoy.parseAsRoot(arguments)
    }

    func testBenchCommandLinesReadAsArgumentParserReadsThem() throws {
        let lines: [[String]] = [
            ["bench", "a.json"],
            ["bench", "a.json", "--size", "512x512", "--content-mode", "fill", "--count", "8", "--threads", "1"],
            ["bench", "--size=1920x1080", "a b.json", "--content-mode=stretch", "--per-frame", "--t0-ns", "1700000000000000000"],
            ["bench", "--count", "3", "x.lottie", "--threads=2", "--size", "1X1"],
        ]
        for line in lines {
            guard case .bench(let quick)? = quickCommand(line) else { return XCTFail("\(line)") }
            let full = try XCTUnwrap((reference(line) as? Bench)?.job, "\(line)")
            XCTAssertEqual(benchFields(quick), benchFields(full), "\(line)")
        }
    }

    func testRenderCommandLinesReadAsArgumentParserReadsThem() throws {
        let lines: [[String]] = [
            ["render", "a.json"],
            ["render", "a.json", "--output", "out.png", "--frame", "12.5", "--size", "64x48", "--content-mode", "fill"],
            ["render", "a.json", "--frames=0:10:2", "--background", "#102030", "--threads", "3", "--output=dir"],
            ["render", "--progress", "0.25", "a.json", "--background", "transparent"],
            ["render", "--batch", "list.tsv", "--size", "10x10"],
        ]
        for line in lines {
            guard case .render(let quick)? = quickCommand(line) else { return XCTFail("\(line)") }
            let full = try XCTUnwrap((reference(line) as? Render)?.job, "\(line)")
            XCTAssertEqual(renderFields(quick), renderFields(full), "\(line)")
        }
    }

    func playFields(_ p: PlayJob) -> String {
        [p.animation, p.output.display, String(describing: p.output.size), String(describing: p.output.mode), "\(p.output.fps)",
         "\(p.output.every)", "\(p.output.rotate)", p.output.pixelFormat, "\(p.contentMode)", "\(p.background.color)", "\(p.loop)",
         String(describing: p.duration), "\(p.fromProgress)", "\(p.toProgress)", "\(p.speed)", "\(p.assignments.count)",
         String(describing: p.trace), String(describing: p.threads)].joined(separator: "|")
    }

    func testPlayCommandLinesReadAsArgumentParserReadsThem() throws {
        let lines: [[String]] = [
            ["play", "a.json"],
            ["play", "a.json", "--display", "headless:/tmp/x", "--size", "320x240", "--fps", "30", "--every", "2", "--duration", "1.5"],
            ["play", "--display=y4m:-", "a.json", "--rotate", "90", "--content-mode", "fill", "--background", "#ff0000", "--speed", "2"],
            ["play", "a.json", "--display", "drm:/dev/dri/card0", "--mode", "1280x720@60", "--pixel-format", "rgb565", "--loop"],
            ["play", "a.json", "--from-progress", "0.25", "--to-progress", "0.75", "--trace", "t.jsonl", "--threads", "2"],
        ]
        for line in lines {
            guard case .play(let quick)? = quickCommand(line) else { return XCTFail("\(line)") }
            let full = try XCTUnwrap((reference(line) as? Play)?.job, "\(line)")
            XCTAssertEqual(playFields(quick), playFields(full), "\(line)")
        }
    }

    /// Help, errors and what the scan does not read go to ArgumentParser, whatever it makes of them.
    func testEverythingElseIsLeftToArgumentParser() {
        let lines: [[String]] = [
            [], ["--help"], ["--version"], ["bench"], ["bench", "--help"], ["bench", "-h"], ["bench", "a.json", "b.json"],
            ["bench", "a.json", "--size"], ["bench", "a.json", "--size", "0x5"], ["bench", "a.json", "--size", "big"],
            ["bench", "a.json", "--count", "0"], ["bench", "a.json", "--count", "-1"], ["bench", "a.json", "--threads", "99"],
            ["bench", "a.json", "--count", "2", "--count", "3"], ["bench", "a.json", "--per-frame=yes"], ["bench", "--", "a.json"],
            ["bench", "a.json", "--unknown"], ["bench", "a.json", "--content-mode", "sideways"], ["bench", "-x"],
            ["render"], ["render", "a.json", "-o", "out.png"], ["render", "a.json", "--set", "A.B=1"],
            ["render", "a.json", "--frame", "1", "--progress", "0.5"], ["render", "a.json", "--progress", "2"],
            ["render", "--batch", "l.tsv", "a.json"], ["render", "a.json", "--frames", "5:1"],
            ["play"], ["play", "a.json", "--speed", "-1"], ["play", "a.json", "--speed", "0"], ["play", "a.json", "--rotate", "45"],
            ["play", "a.json", "--display", "vga"], ["play", "a.json", "--fps", "0"], ["play", "a.json", "--mode", "big"],
            ["play", "a.json", "--display", "headless:/tmp/x", "--loop"], ["play", "a.json", "--set", "A.B=1"],
            ["run"], ["parse-bench", "a.json"], ["fetch", "http://127.0.0.1/x"],
        ]
        for line in lines { XCTAssertNil(quickCommand(line), "\(line)") }
    }

    /// The names the fast path answers to are the commands' own.
    func testCommandNamesAreTheCommandsOwn() {
        XCTAssertEqual(Bench.configuration.commandName, "bench")
        XCTAssertEqual(Render.configuration.commandName, "render")
        XCTAssertEqual(Play.configuration.commandName, "play")
    }
}
