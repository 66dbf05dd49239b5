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

#if BUOY_FUZZING
// Built by tools/fuzz with -sanitize=fuzzer: libFuzzer's own main calls this for each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
/// Built by a plain `swift build`: replays the files named on the command line through the
/// same target (a crash found by the fuzzer reproduces without libFuzzer).
@main
struct FuzzReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("lottie-fuzz: cannot read \(path)\n".utf8))
                exit(2)
            }
            let start = Date()
            data.withUnsafeBytes { FuzzTarget.run($0) }
            print("\(path): \(String(format: "%.3f", Date().timeIntervalSince(start))) s")
        }
    }
}
#endif
