import Foundation
import LottieModel
import LottieRender
import Raster

/// One fuzz input: parse it as a Lottie file and, when it loads, draw its first, middle and
/// last frames at a small size chosen from the input's own bytes (1x1 to 64x64), so every
/// output size in that range is reached. Anything but a trap or a hang is a pass.
enum FuzzTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let animation = try? Animation.parse(Array(bytes), name: "fuzz", baseDirectory: nil) else { return }
        var hash: UInt32 = 2166136261
        for byte in bytes.prefix(256) { hash = (hash ^ UInt32(byte)) &* 16777619 }
        let width = Int(hash % 64) + 1, height = Int((hash >> 8) % 64) + 1
        let renderer = AnimationRenderer(animation: animation)
        let viewport = Viewport(width: width, height: height, contentMode: hash & 0x10000 == 0 ? .fit : .fill)
        let middle = (animation.inPoint + animation.outPoint) / 2
        for frame in [animation.inPoint, middle, animation.outPoint - 1] {
            _ = renderer.render(frame: frame, viewport: viewport)
        }
    }
}

/// The fuzzer's callback: one input through the target.
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

#if BUOY_FUZZING
/// libFuzzer's driver (linked by -sanitize=fuzzer): it parses its own options and calls the
/// callback for each input it makes.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
#endif

/// Built by tools/fuzz (BUOY_FUZZING, -sanitize=fuzzer): runs libFuzzer. Built by a plain
/// `swift build`: replays the files named on the command line through the same target, so a
/// crash the fuzzer found reproduces without libFuzzer.
@main
struct FuzzMain {
    static func main() {
        #if BUOY_FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzOneInput($0, $1) })
        #else
        if CommandLine.arguments.dropFirst().first == "--count-refusals" {
            countRefusals(Array(CommandLine.arguments.dropFirst(2)))
            return
        }
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("lottie-fuzz: cannot read \(path)\n".utf8))
                exit(2)
            }
            let start = Date()
            data.withUnsafeBytes { FuzzTarget.run($0) }
            print("\(path): \(String(format: "%.3f", Date().timeIntervalSince(start))) s")
        }
        #endif
    }
}

/// Parses each file and prints how many the parser refused (for the mutation figures in the README).
func countRefusals(_ paths: [String]) {
    var refused = 0
    for path in paths {
        guard let data = FileManager.default.contents(atPath: path) else { continue }
        do { _ = try Animation.parse([UInt8](data), name: path, baseDirectory: nil) } catch {
            refused += 1
            FileHandle.standardError.write(Data("\(error)\n".utf8))
        }
    }
    print("refused \(refused) of \(paths.count) (\(String(format: "%.1f", 100 * Double(refused) / Double(max(1, paths.count))))%)")
}
