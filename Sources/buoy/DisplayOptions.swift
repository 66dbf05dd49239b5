import ArgumentParser
import FoundationEssentials
import Display
import Raster

/// Where and how frames are shown: the options `buoy play` and `buoy run` share.
struct DisplayOptions: ParsableArguments {
    @Option(help: "auto (DRM, else fbdev), auto:headless:DIR (… else PNG frames), drm[:/dev/dri/cardN], fbdev[:/dev/fbN], headless:DIR or y4m:PATH|-")
    var display: String = "auto"

    @Option(help: "Output size WxH for headless and y4m, the panel's (default: the animation's size, turned by --rotate).")
    var size: Size?

    @Option(help: "DRM mode WxH[@HZ] (default: the connector's preferred mode).")
    var mode: String?

    @Option(help: "Virtual refresh rate for headless and y4m.")
    var fps: Double = 60

    @Option(help: "Keep every Nth frame (headless; 0 writes none: a dry run, e.g. to measure peak RSS).")
    var every: Int = 1

    @Option(help: "Turn the picture 0, 90, 180 or 270 degrees clockwise (on top of the panel's own orientation).")
    var rotate: Int = 0

    @Option(name: .customLong("pixel-format"), help: "DRM scan-out format: auto (XRGB8888, else RGB565), xrgb8888 or rgb565.")
    var pixelFormat: String = "auto"

    /// The options as `DisplaySettings` uses them.
    var settings: DisplaySettings {
        DisplaySettings(display: display, size: size, mode: mode, fps: fps, every: every, rotate: rotate, pixelFormat: pixelFormat)
    }

    func validate() throws { try settings.validate() }

    func openPresenter(animationSize: (Int, Int)) throws -> Presenter {
        try settings.openPresenter(animationSize: animationSize)
    }
}

/// The display options read, and what they open. `DisplayOptions` (ArgumentParser's reading)
/// fills them, and so does the start-up fast path (`QuickParse.swift`), which makes no
/// property wrapper (see `BenchJob`).
struct DisplaySettings {
    var display = "auto"
    var size: Size?
    var mode: String?
    var fps: Double = 60
    var every = 1
    var rotate = 0
    var pixelFormat = "auto"

    var spec: DisplaySpec? { DisplaySpec(display) }

    /// Files and streams, whose time is virtual. (`auto:headless:DIR` is known only once
    /// opened: see `Presenter.writesFiles`.)
    var writesFiles: Bool {
        switch spec {
        case .headless?, .y4m?: return true
        default: return false
        }
    }

    func validate() throws {
        guard spec != nil else { throw ValidationError("--display: expected auto, auto:headless:DIR, drm[:DEV], fbdev[:DEV], headless:DIR or y4m:PATH") }
        guard Rotation(rawValue: rotate) != nil else { throw ValidationError("--rotate must be 0, 90, 180 or 270") }
        guard ["auto", "xrgb8888", "rgb565"].contains(pixelFormat) else { throw ValidationError("--pixel-format must be auto, xrgb8888 or rgb565") }
        if let mode, ModeRequest(mode) == nil { throw ValidationError("--mode: expected WxH or WxH@HZ, e.g. 1280x720@60") }
        guard fps > 0, fps <= 1000 else { throw ValidationError("--fps must be in (0, 1000]") }
        guard every >= 0 else { throw ValidationError("--every must be at least 0") }
    }

    /// Opens the display; a missing or busy one is exit status 4 with the device named.
    func openPresenter(animationSize: (Int, Int)) throws -> Presenter {
        let turn = Rotation(rawValue: rotate)!
        // Without --size, files are the animation's size as it is seen: the panel a turned
        // picture needs is the other way round.
        let w = size?.width ?? (turn.swapsAxes ? animationSize.1 : animationSize.0)
        let h = size?.height ?? (turn.swapsAxes ? animationSize.0 : animationSize.1)
        let modeRequest = mode.flatMap(ModeRequest.init)
        // BUOY_DRM_LEGACY=1: legacy modeset and page flips even where the driver offers atomic
        // (the board test runs both). Read here, by the CLI: the library takes it as a value.
        let environment = Environment()
        let atomic = environment["BUOY_DRM_LEGACY"] == nil
        func headless(_ dir: String) throws -> Presenter {
            try HeadlessPresenter(directory: dir, width: w, height: h, fps: fps, every: every, rotate: turn)
        }
        do {
            switch spec! {
            case .headless(let dir): return try headless(dir)
            case .y4m(let path): return try Y4MPresenter(path: path, width: w, height: h, fps: fps, rotate: turn)
            case .drm(let device):
                return try DRMPresenter(device: device, modeRequest: modeRequest, rotate: turn, format: PixelFormat(rawValue: pixelFormat),
                                        allowAtomic: atomic)
            case .fbdev(let device): return try FBDevPresenter(device: device, rotate: turn)
            case .auto(let headlessDirectory):
                // Each step only when the one before has nothing to show on: a display that is
                // there but refused (busy, no permission) stops here with its own error.
                let drmError: DisplayError
                do {
                    return try DRMPresenter(device: nil, modeRequest: modeRequest, rotate: turn, format: PixelFormat(rawValue: pixelFormat),
                                            allowAtomic: atomic)
                } catch let error as DisplayError {
                    guard DisplayFallback.mayFallBack(after: error) else { throw error }
                    drmError = error
                }
                let fbError: DisplayError
                do {
                    return try FBDevPresenter(device: "/dev/fb0", rotate: turn)
                } catch let error as DisplayError {
                    guard DisplayFallback.mayFallBack(after: error) else { throw error }
                    fbError = error
                }
                if let headlessDirectory {
                    printStatus("no display (DRM: \(drmError); fbdev: \(fbError)); writing frames to \(headlessDirectory)")
                    return try headless(headlessDirectory)
                }
                throw DisplayError(device: "auto", reason: "no display: DRM (\(drmError)); fbdev (\(fbError))")
            }
        } catch let error as DisplayError {
            throw CommandFailure.display("\(error)")
        }
    }
}
