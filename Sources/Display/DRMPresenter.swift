import CDRM
import CKernel
import FoundationEssentials
import Glibc
import Posix
import Raster

/// Shows frames on a DRM/KMS CRTC: a connected connector and its mode, two dumb buffers,
/// one legacy modeset, then page flips with events, waiting on the device with poll().
/// The previous CRTC configuration and the console mode are restored by `close()`.
public final class DRMPresenter: Presenter {
    public let width: Int
    public let height: Int
    public private(set) var refreshInterval: Double
    public let device: String
    public let rotation: Rotation
    /// The scan-out format: XRGB8888 when the driver takes it, else RGB565 (small panels).
    public private(set) var format: PixelFormat
    public private(set) var description: String

    private let fd: Int32
    private let connectorID: UInt32
    private let crtcID: UInt32
    private var mode: drmModeModeInfo
    private var savedCrtc: drmModeCrtcPtr?
    private var buffers: [DumbBuffer] = []
    private var front = 0
    private var modeSet = false
    private var flipPending = false
    private var lastFlipTime: Double?
    /// The refresh `presentationTime(notBefore:)` promised the frame being rendered: the flip
    /// is held back until it, so a frame ready early is not seen before its animation time.
    private var target: Double?
    /// Recent time to write a frame into a buffer (conversion, rotation): part of the delay
    /// before a rendered frame can be flipped, so predictions include it.
    private var writeSeconds = 0.0
    /// Whether flips wait for a vblank (false for bochs and virtio-gpu, which complete a flip
    /// at once: there the flip is held until the promised time itself).
    public private(set) var hasVblank = true
    private let console: ConsoleMode?
    private var closed = false
    private var atomic: AtomicModeset?
    /// "atomic" or "legacy": how modes are set and pages flipped.
    public private(set) var api = "legacy"
    /// Receives the flip event's timestamp; its address is the flip's user data.
    private final class FlipState { var time: Double? }
    private let flipState = FlipState()

    struct DumbBuffer {
        var handle: UInt32
        var fb: UInt32
        var pitch: Int
        var size: Int
        var map: UnsafeMutableRawPointer
        /// The mapping as pixels, and what picture it holds.
        var panel: PanelBuffer
    }

    /// Opens `device`, or the first card with a connected display when nil.
    public init(device: String?, modeRequest: ModeRequest? = nil, rotate: Rotation? = nil, format: PixelFormat? = nil,
                allowAtomic: Bool = true) throws {
        let candidates = device.map { [$0] } ?? Self.cards()
        guard !candidates.isEmpty else {
            throw DisplayError(device: "/dev/dri", reason: "no DRM device (is a KMS driver loaded?)", kind: .noDevice)
        }
        var reported: DisplayError?
        var opened: (Int32, String, UInt32, UInt32, drmModeModeInfo, Rotation)?
        for path in candidates {
            do {
                opened = try Self.open(path, modeRequest: modeRequest)
                break
            } catch let error as DisplayError {
                // A card that is there but refused (master held, permission) is what the user
                // must hear about, not another card with nothing connected.
                if reported == nil || DisplayFallback.mayFallBack(after: reported!) { reported = error }
            }
        }
        guard let (fd, path, connector, crtc, mode, panelRotation) = opened else {
            throw reported ?? DisplayError(device: "/dev/dri", reason: "no usable display", kind: .noDisplay)
        }
        self.fd = fd
        self.device = path
        connectorID = connector
        crtcID = crtc
        self.mode = mode
        self.format = format ?? .xrgb8888
        rotation = panelRotation.adding(rotate ?? .none)
        let panelWidth = Int(mode.hdisplay), panelHeight = Int(mode.vdisplay)
        width = rotation.swapsAxes ? panelHeight : panelWidth
        height = rotation.swapsAxes ? panelWidth : panelHeight
        refreshInterval = Self.refreshInterval(of: mode)
        description = "drm:\(path) \(panelWidth)x\(panelHeight)@\(Int((1 / refreshInterval).rounded()))"
        savedCrtc = drmModeGetCrtc(fd, crtc)
        if allowAtomic {
            atomic = AtomicModeset(fd: fd, connector: connector, crtc: crtc)
        }
        console = ConsoleMode.enterGraphics()
        do {
            do {
                buffers.append(try createBuffer(width: panelWidth, height: panelHeight))
            } catch where format == nil {
                // The driver refused XRGB8888: try the 16-bit format.
                self.format = .rgb565
                buffers.append(try createBuffer(width: panelWidth, height: panelHeight))
            }
            buffers.append(try createBuffer(width: panelWidth, height: panelHeight))
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    static func cards() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return names.filter { $0.hasPrefix("card") }.sorted().map { "/dev/dri/" + $0 }
    }

    static func refreshInterval(of mode: drmModeModeInfo) -> Double {
        if mode.clock > 0, mode.htotal > 0, mode.vtotal > 0 {
            return Double(mode.htotal) * Double(mode.vtotal) / (Double(mode.clock) * 1000)
        }
        return 1 / Double(mode.vrefresh > 0 ? mode.vrefresh : 60)
    }

    /// Finds a connected connector, its mode and a CRTC on `path`.
    static func open(_ path: String, modeRequest: ModeRequest?) throws -> (Int32, String, UInt32, UInt32, drmModeModeInfo, Rotation) {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            switch e {
            case EACCES, EPERM:
                throw DisplayError(device: path, reason: "permission denied (add the user to the video group)", kind: .permissionDenied, errno: e)
            case ENOENT, ENODEV, ENXIO:
                throw DisplayError(device: path, reason: "cannot open", kind: .noDevice, errno: e)
            default:
                throw DisplayError(device: path, reason: "cannot open", errno: e)
            }
        }
        func fail(_ reason: String, _ kind: DisplayError.Kind, errno: Int32? = nil) -> DisplayError {
            Glibc.close(fd)
            return DisplayError(device: path, reason: reason, kind: kind, errno: errno)
        }
        if drmSetMaster(fd) != 0 {
            // Opening the card first makes us master; a running compositor holds it instead
            // (EBUSY), or the kernel refuses a process that is not allowed to take it (EACCES).
            // Other errors (ENOTTY: not a DRM node) are left to the KMS query below.
            let e = errno
            if (e == EBUSY || e == EACCES || e == EPERM) && drmIsMaster(fd) == 0 { throw fail(masterFailure(e), .busy, errno: e) }
        }
        guard let res = drmModeGetResources(fd) else { throw fail("not a KMS device", .noDisplay) }
        defer { drmModeFreeResources(res) }
        for i in 0..<Int(res.pointee.count_connectors) {
            guard let conn = drmModeGetConnector(fd, res.pointee.connectors[i]) else { continue }
            defer { drmModeFreeConnector(conn) }
            guard conn.pointee.connection == DRM_MODE_CONNECTED, conn.pointee.count_modes > 0 else { continue }
            guard let mode = pickMode(conn, modeRequest) else {
                throw fail("no mode \(modeRequest.map { "\($0)" } ?? "") on connector \(conn.pointee.connector_id)", .failed)
            }
            guard let crtc = findCrtc(fd, res, conn) else { continue }
            return (fd, path, conn.pointee.connector_id, crtc, mode, panelOrientation(fd, conn.pointee.connector_id))
        }
        throw fail("no connected display", .noDisplay)
    }

    /// Why DRM master could not be had, from the errno of SET_MASTER, a modeset or a flip
    /// (the error carries the errno; its text follows this).
    static func masterFailure(_ e: Int32) -> String {
        e == EBUSY ? "another process holds DRM master (a compositor or another buoy?)"
            : "cannot become DRM master (a compositor or another buoy holds the display, or buoy is not on the active console)"
    }

    static func pickMode(_ conn: drmModeConnectorPtr, _ request: ModeRequest?) -> drmModeModeInfo? {
        let modes = (0..<Int(conn.pointee.count_modes)).map { conn.pointee.modes[$0] }
        if let request {
            return modes.first { Int($0.hdisplay) == request.width && Int($0.vdisplay) == request.height
                && (request.refresh == nil || Int($0.vrefresh) == request.refresh!) }
        }
        return modes.first { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 } ?? modes.first
    }

    static func findCrtc(_ fd: Int32, _ res: drmModeResPtr, _ conn: drmModeConnectorPtr) -> UInt32? {
        if conn.pointee.encoder_id != 0, let enc = drmModeGetEncoder(fd, conn.pointee.encoder_id) {
            defer { drmModeFreeEncoder(enc) }
            if enc.pointee.crtc_id != 0 { return enc.pointee.crtc_id }
        }
        for e in 0..<Int(conn.pointee.count_encoders) {
            guard let enc = drmModeGetEncoder(fd, conn.pointee.encoders[e]) else { continue }
            defer { drmModeFreeEncoder(enc) }
            for c in 0..<Int(res.pointee.count_crtcs) where enc.pointee.possible_crtcs & (1 << UInt32(c)) != 0 {
                return res.pointee.crtcs[c]
            }
        }
        return nil
    }

    /// The connector's "panel orientation" property: how the panel is mounted.
    static func panelOrientation(_ fd: Int32, _ connector: UInt32) -> Rotation {
        guard let props = drmModeObjectGetProperties(fd, connector, UInt32(DRM_MODE_OBJECT_CONNECTOR)) else { return .none }
        defer { drmModeFreeObjectProperties(props) }
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(fd, props.pointee.props[i]) else { continue }
            defer { drmModeFreeProperty(prop) }
            let name = withUnsafeBytes(of: prop.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name == "panel orientation" else { continue }
            let value = props.pointee.prop_values[i]
            for e in 0..<Int(prop.pointee.count_enums) where prop.pointee.enums[e].value == value {
                let label = withUnsafeBytes(of: prop.pointee.enums[e].name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                return rotation(forPanelOrientation: label)
            }
        }
        return .none
    }

    /// The turn (clockwise, as `Rotation` and `PanelConversion` count) that puts the picture
    /// upright on a panel mounted as the "panel orientation" enum says. "Left Side Up": the
    /// panel's left edge is at the top of the device, i.e. the panel is turned 90° clockwise,
    /// so the picture must be turned 90° counter-clockwise (270° clockwise) in its buffer —
    /// the kernel's own fbdev helper turns the console the same way (DRM_MODE_ROTATE_90, which
    /// DRM counts counter-clockwise). "Right Side Up" is the opposite, 90° clockwise.
    public static func rotation(forPanelOrientation label: String) -> Rotation {
        switch label {
        case "Upside Down": return .half
        case "Left Side Up": return .threeQuarters
        case "Right Side Up": return .quarter
        default: return .none  // "Normal", or a value this build does not know
        }
    }

    private func createBuffer(width: Int, height: Int) throws -> DumbBuffer {
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        let bpp: UInt32 = format == .rgb565 ? 16 : 32
        guard drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), bpp, 0, &handle, &pitch, &size) == 0 else {
            throw DisplayError(device: device, reason: "cannot create a \(width)x\(height) dumb buffer", errno: errno)
        }
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var fb: UInt32 = 0
        let fourcc = format == .rgb565 ? buoy_drm_format_rgb565 : buoy_drm_format_xrgb8888
        let added = withUnsafeMutablePointer(to: &handles) { h in
            withUnsafeMutablePointer(to: &pitches) { p in
                withUnsafeMutablePointer(to: &offsets) { o in
                    h.withMemoryRebound(to: UInt32.self, capacity: 4) { hp in
                        p.withMemoryRebound(to: UInt32.self, capacity: 4) { pp in
                            o.withMemoryRebound(to: UInt32.self, capacity: 4) { op in
                                drmModeAddFB2(fd, UInt32(width), UInt32(height), fourcc, hp, pp, op, &fb, 0)
                            }
                        }
                    }
                }
            }
        }
        guard added == 0 else {
            drmModeDestroyDumbBuffer(fd, handle)
            throw DisplayError(device: device, reason: "cannot add a \(format.rawValue) framebuffer (format not supported by the driver?)", errno: errno)
        }
        var offset: UInt64 = 0
        guard drmModeMapDumbBuffer(fd, handle, &offset) == 0,
              let map = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)), map != MAP_FAILED else {
            drmModeRmFB(fd, fb)
            drmModeDestroyDumbBuffer(fd, handle)
            throw DisplayError(device: device, reason: "cannot map a dumb buffer", errno: errno)
        }
        memset(map, 0, Int(size))
        guard let view = PixelBufferView(base: map, bytesPerRow: Int(pitch), width: width, height: height, format: format, byteCount: Int(size)) else {
            munmap(map, Int(size))
            drmModeRmFB(fd, fb)
            drmModeDestroyDumbBuffer(fd, handle)
            throw DisplayError(device: device, reason: "the driver gave a \(width)x\(height) dumb buffer of pitch \(pitch) and \(size) bytes, too small")
        }
        return DumbBuffer(handle: handle, fb: fb, pitch: Int(pitch), size: Int(size), map: map, panel: PanelBuffer(view: view))
    }

    public func nextPresentationTime() -> Double {
        if let last = lastFlipTime { return last + refreshInterval }
        return Monotonic.now() + refreshInterval
    }

    public func presentationTime(notBefore earliest: Double) -> Double {
        let ready = earliest + writeSeconds
        guard let last = lastFlipTime else { return max(ready, Monotonic.now()) }
        let time = FramePacing.presentationTime(notBefore: ready, last: last, interval: refreshInterval)
        target = time
        return time
    }

    /// Shows `surface` and waits (poll) for its page flip.
    public func present(_ surface: Surface, version: UInt64) throws -> Presentation {
        if let shown = try queue(surface, version: version) { return shown }
        while true {
            guard try waitForEvents(timeout: 1) else { throw DisplayError(device: device, reason: "no page-flip event within 1 s") }
            if let shown = try flipCompleted() { return shown }
        }
    }

    public var flipDescriptor: Int32? { fd }

    /// Writes the frame into the back buffer and queues its flip (the first frame sets the
    /// mode and is on screen at once). A frame ready early is held back until just before its
    /// refresh.
    public func queue(_ surface: Surface, version: UInt64) throws -> Presentation? {
        guard !closed else { throw DisplayError(device: device, reason: "display is closed") }
        guard !flipPending else { throw DisplayError(device: device, reason: "a page flip is still pending") }
        // Draw into the back buffer while the front one is on screen: only what differs from
        // the picture it holds (two frames ago); a buffer that already holds this picture is
        // flipped as it is.
        let back = modeSet ? 1 - front : front
        let writeStart = Monotonic.now()
        let firstWrite = !buffers[back].panel.holdsPicture  // faults the mapping in: no guide
        buffers[back].panel.show(surface, version: version, rotation: rotation)
        let buffer = buffers[back]
        // Up at once, down slowly (a prediction that falls short shows the frame late); a
        // buffer that already holds the picture takes nothing.
        let took = Monotonic.now() - writeStart
        if !firstWrite { writeSeconds = took > writeSeconds ? took : 0.7 * writeSeconds + 0.3 * took }
        if !modeSet { return try setMode(buffer) }
        try queueFlip(buffer, back: back)
        return nil
    }

    /// The first frame: the mode is set with it.
    private func setMode(_ buffer: DumbBuffer) throws -> Presentation {
        if atomic != nil, atomic!.modeset(&mode, fb: buffer.fb) {
            api = "atomic"
        } else {
            atomic = nil
            var connector = connectorID
            guard drmModeSetCrtc(fd, crtcID, buffer.fb, 0, 0, &connector, 1, &mode) == 0 else {
                let e = errno
                // Without master the kernel refuses the modeset (EACCES): someone else
                // took the display between opening and now.
                if e == EACCES || e == EBUSY { throw DisplayError(device: device, reason: "mode set failed: " + Self.masterFailure(e), kind: .busy, errno: e) }
                throw DisplayError(device: device, reason: "mode set failed", errno: e)
            }
        }
        description = "drm:\(device) \(Int(mode.hdisplay))x\(Int(mode.vdisplay))@\(Int((1 / refreshInterval).rounded())) \(api)"
        _ = drmModeDirtyFB(fd, buffer.fb, nil, 0)  // ENOSYS on drivers that scan out directly
        modeSet = true
        // No vblank support (EOPNOTSUPP): flips complete as soon as they are queued.
        var sequence: UInt64 = 0, ns: UInt64 = 0
        if drmCrtcGetSequence(fd, crtcID, &sequence, &ns) != 0 && errno == EOPNOTSUPP { hasVblank = false }
        let now = Monotonic.now()
        lastFlipTime = now
        return Presentation(time: now, missed: 0)
    }

    private func queueFlip(_ buffer: DumbBuffer, back: Int) throws {
        let expected = nextPresentationTime()
        if let target {
            // Hold a frame that is ready early: with vblank, queue it early in the refresh before
            // its own (just after that vblank: the whole refresh is margin, as when it is queued
            // right after the last flip); without, flip at the time itself.
            self.target = nil
            let submit = target - (hasVblank ? refreshInterval * 7 / 8 : 0)
            if submit > Monotonic.now() { Monotonic.sleep(until: submit) }
            if hasVblank { waitForVblank(before: target) }
        }
        flipState.time = nil
        let userData = Unmanaged.passUnretained(flipState).toOpaque()
        let flipped = atomic.map { $0.flip(fb: buffer.fb, width: Int(mode.hdisplay), height: Int(mode.vdisplay), userData: userData) }
            ?? drmModePageFlip(fd, crtcID, buffer.fb, buoy_drm_mode_page_flip_event, userData)
        guard flipped == 0 else {
            let e = errno
            if e == EACCES { throw DisplayError(device: device, reason: "page flip failed: " + Self.masterFailure(e), kind: .busy, errno: e) }
            throw DisplayError(device: device, reason: "page flip failed", errno: e)
        }
        _ = drmModeDirtyFB(fd, buffer.fb, nil, 0)
        flipPending = true
        pendingFlip = (back, expected)
    }

    /// Waits until the vblank before `target` has happened, so that the flip queued next lands
    /// on `target` and not on that vblank: a vblank that comes late (a virtual machine's timer
    /// under load, by more than the eighth of a refresh `queueFlip` allows) would otherwise
    /// show the frame a refresh before its animation time. Gives up a quarter of a refresh
    /// before `target`, so that a missing or stalled vblank count costs no more than that.
    private func waitForVblank(before target: Double) {
        let giveUp = target - refreshInterval / 4
        while Monotonic.now() < giveUp {
            var sequence: UInt64 = 0, ns: UInt64 = 0
            guard drmCrtcGetSequence(fd, crtcID, &sequence, &ns) == 0 else { return }
            // The last vblank's time (CLOCK_MONOTONIC, as the flip events' times are).
            if Double(ns) / 1e9 > target - refreshInterval * 3 / 2 { return }
            Monotonic.sleep(until: min(giveUp, Monotonic.now() + refreshInterval / 32))
        }
    }

    /// The flip queued last and when it was expected on screen.
    private var pendingFlip: (back: Int, expected: Double)?

    /// Reads the DRM events waiting (call when the descriptor is readable); the queued
    /// frame's presentation once its flip event came.
    public func flipCompleted() throws -> Presentation? {
        guard flipPending, let pending = pendingFlip else { return nil }
        var context = drmEventContext()
        context.version = Int32(buoy_drm_event_context_version)
        context.page_flip_handler = { _, _, sec, usec, data in
            guard let data else { return }
            Unmanaged<FlipState>.fromOpaque(data).takeUnretainedValue().time = Double(sec) + Double(usec) / 1e6
        }
        guard drmHandleEvent(fd, &context) == 0 else { throw DisplayError(device: device, reason: "reading DRM events failed") }
        guard let time = flipState.time else { return nil }
        flipPending = false
        pendingFlip = nil
        front = pending.back
        lastFlipTime = time
        return Presentation(time: time, missed: FramePacing.missed(presentedAt: time, expected: pending.expected, interval: refreshInterval))
    }

    /// Waits (poll, never spinning) until the device has events; false after `timeout` seconds.
    private func waitForEvents(timeout: Double) throws -> Bool {
        do {
            return try Descriptor.waitReadable(fd, timeout: timeout)
        } catch {
            throw DisplayError(device: device, reason: "\(error)")
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        waitForQueuedFlip()
        atomic?.destroy()
        if let saved = savedCrtc {
            var connector = connectorID
            var savedMode = saved.pointee.mode
            if saved.pointee.buffer_id != 0 {
                drmModeSetCrtc(fd, saved.pointee.crtc_id, saved.pointee.buffer_id, saved.pointee.x, saved.pointee.y, &connector, 1, &savedMode)
            }
            drmModeFreeCrtc(saved)
            savedCrtc = nil
        }
        for b in buffers {
            munmap(b.map, b.size)
            drmModeRmFB(fd, b.fb)
            drmModeDestroyDumbBuffer(fd, b.handle)
        }
        buffers = []
        console?.restore()
        drmDropMaster(fd)
        Glibc.close(fd)
    }

    /// A flip still queued must land before its buffers go.
    private func waitForQueuedFlip() {
        for _ in 0..<3 where flipPending {
            guard (try? waitForEvents(timeout: 1)) == true else { break }
            _ = try? flipCompleted()
        }
    }

    /// Leaves the frame on screen on the CRTC for the next program: the shown buffer's
    /// framebuffer is closed with DRM_IOCTL_MODE_CLOSEFB (Linux 6.8+), which, unlike RMFB, does
    /// not turn the CRTC off; the previous CRTC and the console mode are not restored (the
    /// console stays in graphics mode, so its text is not drawn over the picture). An older
    /// kernel has no CLOSEFB: there the framebuffer would go with the device and leave a black
    /// panel with the console stuck in graphics mode (seen on the QEMU board's Linux 6.1), so
    /// the display is given back as by `close()` and the answer is false.
    @discardableResult public func closeRetainingPicture() -> Bool {
        guard !closed else { return true }
        waitForQueuedFlip()
        guard front < buffers.count else { close(); return false }
        var request = DRMCloseFB(fb: buffers[front].fb, pad: 0)
        guard buoy_ioctl_ptr(fd, DRMCloseFB.request, &request) == 0 else { close(); return false }
        closed = true
        if let saved = savedCrtc {
            drmModeFreeCrtc(saved)
            savedCrtc = nil
        }
        for (i, b) in buffers.enumerated() {
            munmap(b.map, b.size)
            if i != front { drmModeRmFB(fd, b.fb) }
            drmModeDestroyDumbBuffer(fd, b.handle)
        }
        buffers = []
        drmDropMaster(fd)
        Glibc.close(fd)
        return true
    }
}

/// struct drm_mode_closefb; its ioctl is DRM_IOWR(0xD0, struct drm_mode_closefb).
private struct DRMCloseFB {
    var fb: UInt32
    var pad: UInt32
    /// _IOC(read|write, 'd', 0xD0, 8).
    static let request: UInt = (3 << 30) | (8 << 16) | (0x64 << 8) | 0xD0
}

/// `--mode 1280x720[@60]`.
public struct ModeRequest: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refresh: Int?

    public init?(_ text: String) {
        let parts = text.split(separator: "@")
        guard parts.count <= 2 else { return nil }
        let dims = parts[0].split(separator: "x")
        guard dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]), w > 0, h > 0 else { return nil }
        width = w
        height = h
        if parts.count == 2 { guard let r = Int(parts[1]), r > 0 else { return nil }; refresh = r } else { refresh = nil }
    }

    public var description: String { "\(width)x\(height)" + (refresh.map { "@\($0)" } ?? "") }
}

/// The text console switched to graphics mode (no cursor, no console output drawn over the
/// picture) and back.
final class ConsoleMode {
    private let fd: Int32
    private let previous: Int32

    private init(fd: Int32, previous: Int32) {
        self.fd = fd
        self.previous = previous
    }

    static func enterGraphics() -> ConsoleMode? {
        for path in ["/dev/tty0", "/dev/tty"] {
            let fd = open(path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { continue }
            var mode: Int32 = 0
            if buoy_ioctl_ptr(fd, buoy_kdgetmode, &mode) == 0, buoy_ioctl_int(fd, buoy_kdsetmode, buoy_kd_graphics) == 0 {
                return ConsoleMode(fd: fd, previous: mode)
            }
            close(fd)
        }
        return nil
    }

    func restore() {
        _ = buoy_ioctl_int(fd, buoy_kdsetmode, previous == Int32(buoy_kd_graphics) ? buoy_kd_graphics : buoy_kd_text)
        close(fd)
    }
}
