import CEvdev
import FoundationEssentials
import Glibc

/// Watches every input device that can start a download (a key, a button, a touch screen),
/// including devices plugged in later; an unplugged device is dropped without fuss.
/// `poll()` never blocks: the frame loop calls it once per frame.
public final class InputWatcher {
    /// A trigger press: which device and which key or button code, and for a touch screen or
    /// an absolute pointer where it was pressed.
    public struct Press: Equatable, Sendable {
        public var device: String
        public var code: UInt32
        /// Where on the device's surface, each axis 0...1 over the range the device reports
        /// (its own orientation, not yet the display's); nil for keys and relative mice.
        public var position: Position?
        /// When the key went down (CLOCK_MONOTONIC seconds, the kernel's timestamp); nil when
        /// the device's clock could not be set to the monotonic one.
        public var time: Double?

        public init(device: String, code: UInt32, position: Position? = nil, time: Double? = nil) {
            self.device = device
            self.code = code
            self.position = position
            self.time = time
        }
    }

    /// The presses made at or after `since` (CLOCK_MONOTONIC seconds), e.g. the moment a
    /// download failed: a key pressed while it was still running (waiting in the device's
    /// buffer) is no answer to a failure nobody had seen yet. A press without a timestamp
    /// counts; so does everything when `since` is nil.
    public static func presses(_ presses: [Press], madeSince since: Double?) -> [Press] {
        guard let since else { return presses }
        return presses.filter { press in press.time.map { $0 >= since } ?? true }
    }

    public struct Position: Equatable, Sendable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// Default triggers: Enter, keypad Enter, Space, touch, left button, and the Pi's gpio-keys
    /// button when configured with KEY_ENTER.
    public static let defaultCodes: Set<UInt32> = [28, 96, 57, 0x14a /* BTN_TOUCH */, 0x110 /* BTN_LEFT */]

    public let directory: String
    public let codes: Set<UInt32>
    private var devices: [String: Device] = [:]
    private var inotify: Int32 = -1
    public private(set) var messages: [String] = []

    final class Device {
        let path: String
        let fd: Int32
        let evdev: OpaquePointer
        let name: String
        /// The absolute axes the device reports positions on (single touch or multi-touch),
        /// with their ranges; nil when it has none.
        let axes: (x: Axis, y: Axis)?
        /// The last position reported, 0...1 on each axis.
        var position: Position?
        /// Presses read since the last SYN_REPORT: their position may come after them in the
        /// same report.
        /// Whether event times are CLOCK_MONOTONIC (else they are not given to presses).
        let monotonic: Bool
        var pending: [(code: UInt32, time: Double?)] = []

        struct Axis {
            let codes: [UInt32]
            let minimum: Int32
            let maximum: Int32

            func normalized(_ value: Int32) -> Double {
                maximum > minimum ? min(max(Double(value - minimum) / Double(maximum - minimum), 0), 1) : 0
            }
        }

        init?(path: String, codes: Set<UInt32>) {
            let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            var dev: OpaquePointer?
            guard libevdev_new_from_fd(fd, &dev) == 0, let dev else { close(fd); return nil }
            // Only devices that can send one of the trigger codes.
            guard libevdev_has_event_type(dev, UInt32(EV_KEY)) == 1,
                  codes.contains(where: { libevdev_has_event_code(dev, UInt32(EV_KEY), $0) == 1 }) else {
                libevdev_free(dev); close(fd); return nil
            }
            self.path = path
            self.fd = fd
            evdev = dev
            // Event times on the clock the frame loop uses, so a press can be placed before or
            // after a failure.
            monotonic = libevdev_set_clock_id(dev, CLOCK_MONOTONIC) == 0
            name = libevdev_get_name(dev).map { String(cString: $0) } ?? path
            func axis(_ single: Int32, _ multi: Int32) -> Axis? {
                let present = [single, multi].map(UInt32.init).filter { libevdev_has_event_code(dev, UInt32(EV_ABS), $0) == 1 }
                guard let first = present.first else { return nil }
                return Axis(codes: present, minimum: libevdev_get_abs_minimum(dev, first), maximum: libevdev_get_abs_maximum(dev, first))
            }
            if let x = axis(ABS_X, ABS_MT_POSITION_X), let y = axis(ABS_Y, ABS_MT_POSITION_Y) { axes = (x, y) } else { axes = nil }
        }

        /// Takes one event; returns the presses a completed report carries.
        func take(_ event: input_event, codes: Set<UInt32>) -> [Press] {
            switch Int32(event.type) {
            case EV_KEY where event.value == 1 && codes.contains(UInt32(event.code)):
                let time = Double(event.time.tv_sec) + Double(event.time.tv_usec) / 1e6
                pending.append((UInt32(event.code), monotonic ? time : nil))
            case EV_ABS:
                guard let axes else { break }
                let code = UInt32(event.code)
                var p = position ?? Position(x: 0.5, y: 0.5)
                if axes.x.codes.contains(code) { p.x = axes.x.normalized(event.value) }
                if axes.y.codes.contains(code) { p.y = axes.y.normalized(event.value) }
                if axes.x.codes.contains(code) || axes.y.codes.contains(code) { position = p }
            case EV_SYN where Int32(event.code) == SYN_REPORT:
                return flush()
            default:
                break
            }
            return []
        }

        func flush() -> [Press] {
            defer { pending = [] }
            return pending.map { Press(device: path, code: $0.code, position: axes == nil ? nil : position, time: $0.time) }
        }

        deinit {
            libevdev_free(evdev)
            close(fd)
        }
    }

    public init(directory: String = "/dev/input", codes: Set<UInt32> = InputWatcher.defaultCodes) {
        self.directory = directory
        self.codes = codes
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if inotify >= 0 { _ = inotify_add_watch(inotify, directory, UInt32(IN_CREATE | IN_ATTRIB)) }
        scan()
    }

    deinit { if inotify >= 0 { close(inotify) } }

    /// The inotify watch and every device: an event loop watches them for reading and calls
    /// `poll()` when one is ready (the set changes as devices come and go).
    public var descriptors: [Int32] { (inotify >= 0 ? [inotify] : []) + devices.values.map(\.fd) }

    /// Paths and names of the devices being watched.
    public var watched: [(path: String, name: String)] { devices.values.map { ($0.path, $0.name) }.sorted { $0.path < $1.path } }

    private func scan() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix("event") {
            let path = directory + "/" + name
            if devices[path] == nil, let device = Device(path: path, codes: codes) {
                devices[path] = device
                messages.append("input: watching \(path) (\(device.name))")
            }
        }
    }

    /// Key and button presses since the last call.
    public func poll() -> [Press] {
        if inotify >= 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var changed = false
            while buffer.withUnsafeMutableBytes({ read(inotify, $0.baseAddress, $0.count) }) > 0 { changed = true }
            // A new node may need a moment for its permissions; rescan on any change.
            if changed { scan() }
        }
        var presses: [Press] = []
        for (path, device) in devices {
            var event = input_event()
            var flags = buoy_libevdev_read_normal
            while true {
                let rc = libevdev_next_event(device.evdev, flags, &event)
                if rc == -EAGAIN { break }
                if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) { flags = buoy_libevdev_read_sync; continue }
                if rc < 0 {
                    // -ENODEV: unplugged. Anything else: stop reading it too.
                    devices[path] = nil
                    messages.append("input: \(path) (\(device.name)) went away")
                    break
                }
                presses += device.take(event, codes: codes)
            }
            // A report cut short (the device went away mid-report) still counts.
            presses += device.flush()
        }
        return presses
    }

    /// Messages about devices coming and going, since the last call.
    public func takeMessages() -> [String] {
        defer { messages = [] }
        return messages
    }
}
