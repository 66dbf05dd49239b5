import Glibc
import Posix
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
    private let output: Descriptor
    private let path: String
    private var sequence = 0
    private var headerWritten = false
    /// A stretch of one plane on its way out, kept from one frame to the next.
    private var chunk: [UInt8] = []

    /// `width` × `height`: the video's (the panel); rendering is at that size turned by `rotate`.
    public init(path: String, width: Int, height: Int, fps: Double = 60, rotate: Rotation = .none) throws {
        guard width > 0, height > 0, fps > 0, fps.isFinite else { throw DisplayError(device: "y4m:\(path)", reason: "invalid size or rate") }
        // A file is opened in place, not made by FileManager.createFile: that writes a new file
        // and renames it over the path, which replaced /dev/null (a device) with a regular file.
        // Standard output is written through a copy of it, which closing leaves stdout open.
        let fd = path == "-" ? fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0) : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw DisplayError(device: "y4m:\(path)", reason: "cannot open it for writing: \(String(cString: strerror(errno)))")
        }
        output = Descriptor(taking: fd, name: path)
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
        var out: [UInt8] = []
        if !headerWritten {
            let fps = Int((1 / refreshInterval).rounded())
            out.append(contentsOf: Array("YUV4MPEG2 W\(panelWidth) H\(panelHeight) F\(fps):1 Ip A1:1 C444\n".utf8))
            headerWritten = true
        }
        out.append(contentsOf: Array("FRAME\n".utf8))
        let panel = PanelConversion.panelSurface(surface, rotation: rotation)
        do {
            try output.writeAll(out)
            // Plane by plane, in chunks: a frame's three planes are never held at once.
            for plane in 0..<3 { try writePlane(plane, of: panel) }
        } catch {
            throw DisplayError(device: "y4m:\(path)", reason: "write failed: \(SystemError.reason(of: error))")
        }
        let time = nextPresentationTime()
        sequence += 1
        return Presentation(time: time, missed: 0)
    }

    /// Writes plane 0 (Y), 1 (Cb) or 2 (Cr) of `panel`, BT.601 limited range, through a buffer
    /// of at most 64 KiB kept across frames.
    private func writePlane(_ plane: Int, of panel: Surface) throws {
        let n = panel.width * panel.height
        var chunk = self.chunk
        self.chunk = []
        defer { self.chunk = chunk }
        var start = 0
        while start < n {
            let count = min(n - start, 1 << 16)
            if chunk.count != count { chunk = [UInt8](repeating: 0, count: count) }
            panel.pixels.withUnsafeBufferPointer { pixels in
                chunk.withUnsafeMutableBufferPointer { out in
                    for i in 0..<count { out[i] = Self.component(plane, of: pixels[start + i]) }
                }
            }
            try output.writeAll(chunk)
            start += count
        }
    }

    /// Y (plane 0), Cb (1) or Cr (2) of a premultiplied pixel: the picture over black.
    @inline(__always) private static func component(_ plane: Int, of p: UInt32) -> UInt8 {
        let r = Double((p >> 16) & 0xff), g = Double((p >> 8) & 0xff), b = Double(p & 0xff)
        switch plane {
        case 0: return UInt8(max(16, min(235, 16 + 0.257 * r + 0.504 * g + 0.098 * b + 0.5)))
        case 1: return UInt8(max(16, min(240, 128 - 0.148 * r - 0.291 * g + 0.439 * b + 0.5)))
        default: return UInt8(max(16, min(240, 128 + 0.439 * r - 0.368 * g - 0.071 * b + 0.5)))
        }
    }

    public func close() { output.close() }
}
