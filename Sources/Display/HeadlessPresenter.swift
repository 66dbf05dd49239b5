import FoundationEssentials
import Posix
import Raster

/// Writes presented frames as PNG files (`frame-000000.png` …) at a virtual refresh rate.
/// Deterministic: time is the frame number over the rate, so the same run gives the same
/// files. Every `every`-th frame is kept (0: none, a dry run that times and sizes the
/// renderer, with no PNG encoder's buffers in the process). A file is the panel's buffer: `width` × `height`
/// are the panel's, and with a quarter turn the picture is laid out the other way round and
/// turned into it, as DRM and fbdev do, so a preview shows what the panel would.
public final class HeadlessPresenter: Presenter {
    public let width: Int
    public let height: Int
    public let refreshInterval: Double
    public let directory: String
    public let every: Int
    public let rotation: Rotation
    private let panelWidth: Int
    private let panelHeight: Int
    private var sequence = 0
    private var written = 0

    /// `width` × `height`: the frames written (the panel); rendering is at that size turned by `rotate`.
    public init(directory: String, width: Int, height: Int, fps: Double = 60, every: Int = 1, rotate: Rotation = .none) throws {
        guard width > 0, height > 0 else { throw DisplayError(device: "headless:\(directory)", reason: "size must be positive") }
        guard fps > 0, fps.isFinite else { throw DisplayError(device: "headless:\(directory)", reason: "--fps must be positive") }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw DisplayError(device: "headless:\(directory)", reason: "cannot create the directory: \(SystemError.reason(of: error))")
        }
        self.directory = directory
        panelWidth = width
        panelHeight = height
        rotation = rotate
        self.width = rotate.swapsAxes ? height : width
        self.height = rotate.swapsAxes ? width : height
        refreshInterval = 1 / fps
        self.every = max(0, every)
    }

    public var description: String {
        "headless:\(directory) \(panelWidth)x\(panelHeight)@\(Int((1 / refreshInterval).rounded()))"
            + (rotation == .none ? "" : " rotated \(rotation.rawValue)")
    }

    public var writesFiles: Bool { true }

    /// Frames written so far.
    public var framesWritten: Int { written }

    public func nextPresentationTime() -> Double { Double(sequence) * refreshInterval }

    public func present(_ surface: Surface, version: UInt64) throws -> Presentation {
        let time = nextPresentationTime()
        if every > 0, sequence % every == 0 {
            let path = PathName.join(directory, String(cFormat: "frame-%06ld.png", written))
            do { try PNG.write(PanelConversion.panelSurface(surface, rotation: rotation), to: path) } catch {
                throw DisplayError(device: "headless:\(directory)", reason: "\(error)")
            }
            written += 1
        }
        sequence += 1
        return Presentation(time: time, missed: 0)
    }

    public func close() {}
}
