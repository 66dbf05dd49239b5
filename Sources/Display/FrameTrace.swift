import Glibc
import Posix

/// One JSON line per presented frame, for tests and for diagnosing pacing on a device.
public final class FrameTrace {
    public struct Entry: Sendable {
        public var sequence: Int
        public var time: Double
        public var frame: Double
        public var progress: Double
        public var download: Double?
        public var state: String
        public var speed: Double
        public var missed: Int
        /// The download screen's water level, 0...1 as eased (the interpolator's progress);
        /// nil where nothing is driven (`buoy play`), and then left out of the line.
        public var level: Double?

        public init(sequence: Int, time: Double, frame: Double, progress: Double, download: Double?, state: String, speed: Double, missed: Int,
                    level: Double? = nil) {
            self.sequence = sequence; self.time = time; self.frame = frame; self.progress = progress
            self.download = download; self.state = state; self.speed = speed; self.missed = missed; self.level = level
        }

        public var json: String {
            func num(_ v: Double) -> String { v.isFinite ? String(cFormat: "%.6f", v) : "null" }
            let dl = download.map(num) ?? "null"
            let levelField = level.map { #","level":\#(num($0))"# } ?? ""
            let escapedState = state.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            return #"{"seq":\#(sequence),"t":\#(num(time)),"frame":\#(num(frame)),"progress":\#(num(progress)),"download":\#(dl),"state":"\#(escapedState)","speed":\#(num(speed)),"missed":\#(missed)\#(levelField)}"#
        }
    }

    private let output: Descriptor
    private let path: String
    /// The first write error (a full disk): kept so the caller can report it once, not
    /// silently lose the trace.
    public private(set) var failure: String?

    public init(path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw DisplayError(device: path, reason: "cannot create the trace file: \(String(cString: strerror(errno)))")
        }
        output = Descriptor(taking: fd, name: path)
        self.path = path
    }

    public func record(_ entry: Entry) {
        guard failure == nil else { return }
        do { try output.writeAll(Array((entry.json + "\n").utf8)) } catch {
            failure = "\(path): trace write failed: \(SystemError.reason(of: error))"
        }
    }

    public func close() { output.close() }
}
