import ArgumentParser
import Display
import Glibc
import LottieRender
import Posix
import Raster

/// `buoy present-bench`: what putting a frame into a display buffer costs, the way DRM and
/// fbdev do it, with ordinary memory standing in for the mapped buffers: the whole-frame
/// conversion (the reference, what every frame cost before) against two buffers flipped in
/// turn, each rewritten only where its old picture or the new one drew. Checks that both leave
/// the same bytes.
struct PresentBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "present-bench",
        abstract: "Time writing rendered frames into display buffers (whole frame vs. drawn regions); writes no files.",
        discussion: """
        Renders consecutive 60 Hz frames over a black background, as `buoy play` does. Ends with:
        present: reference_cpu_ms_per_frame=X region_cpu_ms_per_frame=Y pixels_written=P% identical=yes
        """
    )

    @Argument(help: "The Lottie file (JSON, or a dotLottie container).")
    var animation: String

    @Option(help: "Panel size WxH.")
    var size: Size = Size(width: 1920, height: 1080)

    @Option(name: .customLong("content-mode"), help: "fit, fill or stretch.")
    var contentMode: ContentMode = .fit

    @Option(help: "How many consecutive frames.")
    var count: Int = 120

    @Option(name: .customLong("pixel-format"), help: "xrgb8888 or rgb565.")
    var pixelFormat: String = "xrgb8888"

    @Option(help: "Turn the picture by 0, 90, 180 or 270 degrees.")
    var rotate: Int = 0

    func validate() throws {
        guard (1...100_000).contains(count) else { throw ValidationError("--count must be between 1 and 100000") }
        guard PixelFormat(rawValue: pixelFormat) != nil, pixelFormat != "argb8888" else {
            throw ValidationError("--pixel-format must be xrgb8888 or rgb565")
        }
        guard Rotation(rawValue: rotate) != nil else { throw ValidationError("--rotate must be 0, 90, 180 or 270") }
    }

    func run() throws {
        let renderer = try loadRenderer(path: animation)
        let format = PixelFormat(rawValue: pixelFormat)!, rotation = Rotation(rawValue: rotate)!
        let (w, h) = rotation.swapsAxes ? (size.height, size.width) : (size.width, size.height)
        let viewport = Viewport(width: w, height: h, contentMode: contentMode)
        // A pitch as drivers give it: the row rounded up to 64 bytes.
        let pitch = (size.width * format.bytesPerPixel + 63) / 64 * 64
        // Two buffers flipped in turn for each way, and one for checking.
        let memory = (0..<5).map { _ in UnsafeMutableRawPointer.allocate(byteCount: pitch * size.height, alignment: 64) }
        defer { memory.forEach { $0.deallocate() } }
        memory.forEach { $0.initializeMemory(as: UInt8.self, repeating: 0, count: pitch * size.height) }
        var figures = (render: [Double](), reference: [Double](), region: [Double](), written: 0, identical: true)
        let anim = renderer.animation
        let frames = (0..<count).map { anim.inPoint + (Double($0) * anim.frameRate / 60).truncatingRemainder(dividingBy: max(1, anim.outPoint - anim.inPoint)) }
        // Each way in a pass of its own over the same frames, so that neither finds the
        // other's memory in the caches; a third pass checks every frame, untimed.
        for pass in 0..<3 {
            var surface = Surface(width: w, height: h)
            var buffers = memory[2...3].map {
                PanelBuffer(view: PixelBufferView(base: $0, bytesPerRow: pitch, width: size.width, height: size.height, format: format)!)
            }
            for (i, frame) in frames.enumerated() {
                var c0 = processCPUMilliseconds()
                renderer.render(frame: frame, viewport: viewport, background: .black, into: &surface)
                if pass == 0 { figures.render.append(processCPUMilliseconds() - c0) }
                c0 = processCPUMilliseconds()
                if pass == 0 {
                    PanelConversion.write(surface, rotation: rotation, to: memory[i % 2], stride: pitch, format: format)
                    figures.reference.append(processCPUMilliseconds() - c0)
                    continue
                }
                buffers[i % 2].show(surface, version: UInt64(i), rotation: rotation)
                if pass == 1 {
                    figures.region.append(processCPUMilliseconds() - c0)
                    figures.written += buffers[i % 2].pixelsWritten
                    continue
                }
                PanelConversion.write(surface, rotation: rotation, to: memory[4], stride: pitch, format: format)
                let rowBytes = size.width * format.bytesPerPixel
                for y in 0..<size.height where memcmp(memory[2 + i % 2] + y * pitch, memory[4] + y * pitch, rowBytes) != 0 {
                    figures.identical = false
                    break
                }
            }
        }
        func mean(_ xs: [Double]) -> Double { xs.reduce(0, +) / Double(max(1, xs.count)) }
        print(String(cFormat: "present: size=%ldx%ld format=", size.width, size.height) + format.rawValue
              + String(cFormat: " rotate=%ld frames=%ld pitch=%ld render_cpu_ms_per_frame=%.3f", rotate, count, pitch, mean(figures.render)))
        print(String(cFormat: "present: reference_cpu_ms_per_frame=%.3f region_cpu_ms_per_frame=%.3f pixels_written=%.1f%% identical=",
                     mean(figures.reference), mean(figures.region), 100 * Double(figures.written) / Double(count * w * h))
              + (figures.identical ? "yes" : "NO"))
        if !figures.identical { throw ExitCode(3) }
    }
}
