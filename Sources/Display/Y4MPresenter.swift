import Foundation
import Raster

/// Streams frames as YUV4MPEG2 (4:4:4, BT.601 limited range) for ffmpeg and other video
/// tools: `buoy play … --display y4m:- | ffmpeg -i - out.mp4`. Like headless frames, the video
/// is the panel's buffer: `width` × `height` are the panel's, the picture turned into it.
public final class Y4MPresenter: Presenter {
    public let width: Int
    public let height: Int
    public let refreshInterval: Double
    public let rotation: Rotation
    private let panelWidth: Int
    private let panelHeight: Int
    private let handle: FileHandle
    private let path: String
    private var sequence = 0
    private var headerWritten = false
    /// The Y, U and V planes of a frame, kept from one frame to the next (6 MB at 1080p).
    private var planes: [UInt8] = []

    /// `width` × `height`: the video's (the panel); rendering is at that size turned by `rotate`.
    public init(path: String, width: Int, height: Int, fps: Double = 60, rotate: Rotation = .none) throws {
        guard width > 0, height > 0, fps > 0, fps.isFinite else { throw DisplayError(device: "y4m:\(path)", reason: "invalid size or rate") }
        if path == "-" {
            handle = .standardOutput
        } else {
            // Opened in place, not made by FileManager.createFile: that writes a new file and
            // renames it over the path, which replaced /dev/null (a device) with a regular file.
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw DisplayError(device: "y4m:\(path)", reason: "cannot open it for writing: \(String(cString: strerror(errno)))")
            }
            handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        }
        self.path = path
        panelWidth = width
        panelHeight = height
        rotation = rotate
        self.width = rotate.swapsAxes ? height : width
        self.height = rotate.swapsAxes ? width : height
        refreshInterval = 1 / fps
    }

    public var description: String { "y4m:\(path) \(panelWidth)x\(panelHeight)" + (rotation == .none ? "" : " rotated \(rotation.rawValue)") }

    public var writesFiles: Bool { true }

    public func nextPresentationTime() -> Double { Double(sequence) * refreshInterval }

    public func present(_ surface: Surface, version: UInt64) throws -> Presentation {
        var out = Data()
        if !headerWritten {
            let fps = Int((1 / refreshInterval).rounded())
            out.append(contentsOf: Array("YUV4MPEG2 W\(panelWidth) H\(panelHeight) F\(fps):1 Ip A1:1 C444\n".utf8))
            headerWritten = true
        }
        out.append(contentsOf: Array("FRAME\n".utf8))
        let panel = PanelConversion.panelSurface(surface, rotation: rotation)
        let n = panelWidth * panelHeight
        // Taken out of the property while written, so that it stays uniquely referenced.
        var planes = self.planes
        self.planes = []
        defer { self.planes = planes }
        if planes.count != n * 3 { planes = [UInt8](repeating: 0, count: n * 3) }
        for i in 0..<n {
            // Premultiplied colour is the picture over black.
            let p = panel.pixels[i]
            let r = Double((p >> 16) & 0xff), g = Double((p >> 8) & 0xff), b = Double(p & 0xff)
            planes[i] = UInt8(max(16, min(235, 16 + 0.257 * r + 0.504 * g + 0.098 * b + 0.5)))
            planes[n + i] = UInt8(max(16, min(240, 128 - 0.148 * r - 0.291 * g + 0.439 * b + 0.5)))
            planes[2 * n + i] = UInt8(max(16, min(240, 128 + 0.439 * r - 0.368 * g - 0.071 * b + 0.5)))
        }
        // The planes are written from where they are (not appended to `out`: another copy).
        do { try handle.write(contentsOf: out); try handle.write(contentsOf: planes) } catch {
            throw DisplayError(device: "y4m:\(path)", reason: "write failed: \(error.localizedDescription)")
        }
        let time = nextPresentationTime()
        sequence += 1
        return Presentation(time: time, missed: 0)
    }

    public func close() { if path != "-" { try? handle.close() } }
}
