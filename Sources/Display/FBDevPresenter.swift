import CKernel
import Glibc
import Posix
import Raster

/// Shows frames on a Linux framebuffer device (`/dev/fb0`, e.g. an SPI panel through fbtft):
/// 16 or 32 bits per pixel; double buffering by panning when the virtual screen is twice as
/// tall, waiting for vsync where the driver offers it, else paced by a timer.
public final class FBDevPresenter: Presenter {
    public let width: Int
    public let height: Int
    public let refreshInterval: Double
    public let device: String
    public let rotation: Rotation
    public var description: String { "fbdev:\(device) \(panelWidth)x\(panelHeight) \(bitsPerPixel)bpp" }

    private let fd: Int32
    private let map: UnsafeMutableRawPointer
    private let mapSize: Int
    private let stride: Int
    private let panelWidth: Int
    private let panelHeight: Int
    private let bitsPerPixel: Int
    private let format: PixelFormat
    private var variable: fb_var_screeninfo
    private let canPan: Bool
    private var page = 0
    /// The pages of the mapping (two when panning flips between them) and what each holds.
    private var pages: [PanelBuffer]
    private var lastPresent: Double?
    private let console: ConsoleMode?

    public init(device: String = "/dev/fb0", rotate: Rotation = .none) throws {
        let fd = open(device, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            switch e {
            case ENOENT, ENODEV, ENXIO:
                throw DisplayError(device: device, reason: "no such framebuffer device", kind: .noDevice, errno: e)
            case EACCES, EPERM:
                throw DisplayError(device: device, reason: "permission denied (add the user to the video group)", kind: .permissionDenied, errno: e)
            default:
                throw DisplayError(device: device, reason: "cannot open", errno: e)
            }
        }
        var v = fb_var_screeninfo()
        var f = fb_fix_screeninfo()
        guard buoy_ioctl_ptr(fd, buoy_fbioget_vscreeninfo, &v) == 0, buoy_ioctl_ptr(fd, buoy_fbioget_fscreeninfo, &f) == 0 else {
            Glibc.close(fd)
            throw DisplayError(device: device, reason: "not a framebuffer device", kind: .noDevice)
        }
        let bpp = Int(v.bits_per_pixel)
        // The driver says where each colour's bits are; writing XRGB8888 or RGB565 into a
        // panel laid out otherwise (BGR order, RGB555, 24 bpp) would show wrong colours.
        let layout = FBPixelLayout(v)
        guard let pixelFormat = layout.pixelFormat else {
            Glibc.close(fd)
            throw DisplayError(device: device, reason: "pixel layout \(layout) is not supported (XRGB8888 or RGB565)")
        }
        // Ask for a virtual screen twice as tall to flip between two pages.
        var wanted = v
        wanted.yres_virtual = v.yres * 2
        wanted.yoffset = 0
        if buoy_ioctl_ptr(fd, buoy_fbioput_vscreeninfo, &wanted) == 0, buoy_ioctl_ptr(fd, buoy_fbioget_vscreeninfo, &v) == 0 {}
        _ = buoy_ioctl_ptr(fd, buoy_fbioget_fscreeninfo, &f)
        let size = Int(f.smem_len)
        guard let m = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), m != MAP_FAILED else {
            Glibc.close(fd)
            throw DisplayError(device: device, reason: "cannot map the framebuffer", errno: errno)
        }
        self.fd = fd
        self.device = device
        map = m
        mapSize = size
        stride = Int(f.line_length)
        panelWidth = Int(v.xres)
        panelHeight = Int(v.yres)
        bitsPerPixel = bpp
        format = pixelFormat
        variable = v
        canPan = Int(v.yres_virtual) >= 2 * Int(v.yres) && stride * Int(v.yres) * 2 <= size
        // A mapping too small for a page (or a pitch shorter than a row) would be written past its end.
        let (pitch, rows, pageCount) = (Int(f.line_length), Int(v.yres), canPan ? 2 : 1)
        var views: [PixelBufferView] = []
        for page in 0..<pageCount {
            guard let view = PixelBufferView(base: m + page * pitch * rows, bytesPerRow: pitch, width: Int(v.xres), height: rows,
                                             format: pixelFormat, byteCount: size - page * pitch * rows) else {
                munmap(m, size)
                Glibc.close(fd)
                throw DisplayError(device: device, reason: "the framebuffer mapping (\(size) bytes, \(pitch) bytes a row) does not hold a \(v.xres)x\(v.yres) screen")
            }
            views.append(view)
        }
        pages = views.map { PanelBuffer(view: $0) }
        // pixclock is picoseconds per pixel; the refresh follows from the whole frame timing.
        let total = Double(Int(v.xres) + Int(v.left_margin) + Int(v.right_margin) + Int(v.hsync_len))
            * Double(Int(v.yres) + Int(v.upper_margin) + Int(v.lower_margin) + Int(v.vsync_len))
        let interval = v.pixclock > 0 ? total * Double(v.pixclock) * 1e-12 : 1.0 / 60
        refreshInterval = interval > 0.002 && interval < 1 ? interval : 1.0 / 60
        rotation = rotate
        width = rotate.swapsAxes ? panelHeight : panelWidth
        height = rotate.swapsAxes ? panelWidth : panelHeight
        console = ConsoleMode.enterGraphics()
    }

    deinit { close() }

    public func nextPresentationTime() -> Double {
        (lastPresent ?? Monotonic.now()) + refreshInterval
    }

    public func presentationTime(notBefore earliest: Double) -> Double {
        guard let last = lastPresent else { return max(earliest, Monotonic.now()) }
        return FramePacing.presentationTime(notBefore: earliest, last: last, interval: refreshInterval)
    }

    /// Whether FBIO_WAITFORVSYNC is waited on (see `VsyncHealth`).
    private var vsync = VsyncHealth()
    private var hasVsync: Bool { vsync.isOn }

    public func present(_ surface: Surface, version: UInt64) throws -> Presentation {
        let expected = nextPresentationTime()
        let target = canPan ? 1 - page : 0
        // Only what differs from the picture the page holds is rewritten.
        pages[target].show(surface, version: version, rotation: rotation)
        if !hasVsync {
            // No vblank to wait for: the timer stands in for it, so the frame shows at its time.
            let now = Monotonic.now()
            if expected > now { usleep(useconds_t((expected - now) * 1e6)) }
        }
        if canPan {
            // Pan first: the driver shows the new page from the next vblank, and waiting for
            // that vblank afterwards returns once it is on screen. (Waiting first and panning
            // after would show it a refresh later than reported.)
            variable.yoffset = UInt32(target * panelHeight)
            _ = buoy_ioctl_ptr(fd, buoy_fbiopan_display, &variable)
            page = target
        }
        if hasVsync { waitForVsync() }
        let now = Monotonic.now()
        let missed = lastPresent == nil ? 0 : FramePacing.missed(presentedAt: now, expected: expected, interval: refreshInterval)
        lastPresent = now
        return Presentation(time: now, missed: missed)
    }

    private func waitForVsync() {
        var zero: UInt32 = 0
        let failed = retryingInterrupts({ buoy_ioctl_ptr(fd, buoy_fbio_waitforvsync, &zero) }) != 0
        vsync.record(failure: failed ? errno : nil)
    }

    private var closed = false

    /// Leaves the picture in the framebuffer (and the page shown) for the next program; the
    /// console stays in graphics mode so its text is not drawn over it.
    @discardableResult public func closeRetainingPicture() -> Bool {
        guard !closed else { return true }
        closed = true
        munmap(map, mapSize)
        Glibc.close(fd)
        return true
    }

    public func close() {
        guard !closed else { return }
        closed = true
        if canPan {
            variable.yoffset = 0
            _ = buoy_ioctl_ptr(fd, buoy_fbiopan_display, &variable)
        }
        console?.restore()
        munmap(map, mapSize)
        Glibc.close(fd)
    }
}

/// Where a framebuffer keeps each colour's bits (fb_var_screeninfo's red, green and blue
/// bitfields), and the pixel format that matches it.
public struct FBPixelLayout: Equatable, Sendable, CustomStringConvertible {
    public struct Field: Equatable, Sendable {
        public var offset: Int
        public var length: Int
        /// The most significant bit is on the right (fb_bitfield.msb_right): none of ours.
        public var msbRight: Bool

        public init(offset: Int, length: Int, msbRight: Bool = false) {
            self.offset = offset
            self.length = length
            self.msbRight = msbRight
        }
    }

    public var bitsPerPixel: Int
    public var red: Field
    public var green: Field
    public var blue: Field

    public init(bitsPerPixel: Int, red: Field, green: Field, blue: Field) {
        self.bitsPerPixel = bitsPerPixel
        self.red = red
        self.green = green
        self.blue = blue
    }

    init(_ v: fb_var_screeninfo) {
        func field(_ f: fb_bitfield) -> Field { Field(offset: Int(f.offset), length: Int(f.length), msbRight: f.msb_right != 0) }
        self.init(bitsPerPixel: Int(v.bits_per_pixel), red: field(v.red), green: field(v.green), blue: field(v.blue))
    }

    /// The format Buoy writes for this layout: XRGB8888 (32 bits, red at 16, green at 8, blue
    /// at 0, 8 bits each; the top byte is ignored or alpha, written opaque) or RGB565; nil for
    /// anything else.
    public var pixelFormat: PixelFormat? {
        let fields = [red, green, blue]
        guard !fields.contains(where: \.msbRight) else { return nil }
        let shape = fields.map { [$0.offset, $0.length] }
        if bitsPerPixel == 32 && shape == [[16, 8], [8, 8], [0, 8]] { return .xrgb8888 }
        if bitsPerPixel == 16 && shape == [[11, 5], [5, 6], [0, 5]] { return .rgb565 }
        return nil
    }

    public var description: String {
        func f(_ name: String, _ x: Field) -> String { "\(name) \(x.length) bits at \(x.offset)" + (x.msbRight ? " (msb right)" : "") }
        return "\(bitsPerPixel) bpp, \(f("red", red)), \(f("green", green)), \(f("blue", blue))"
    }
}

/// Whether a framebuffer's FBIO_WAITFORVSYNC is worth waiting on. A driver without it (fbtft
/// and most SPI panels have no vsync interrupt) says so with ENOTTY, EINVAL or EOPNOTSUPP at
/// once: frames are then paced by a timer. Any other failure (a timeout, a busy device; a
/// signal is retried before it gets here) counts, and only `failureLimit` in a row turn vsync
/// off: one bad wait does not end it for the rest of the run.
public struct VsyncHealth: Equatable, Sendable {
    public private(set) var isOn = true
    private var failuresInARow = 0
    public static let failureLimit = 3

    public init() {}

    /// One wait's result: nil when it worked, else its errno.
    public mutating func record(failure errno: Int32?) {
        guard let errno else {
            failuresInARow = 0
            return
        }
        failuresInARow += 1
        if errno == ENOTTY || errno == EINVAL || errno == EOPNOTSUPP || failuresInARow >= Self.failureLimit { isOn = false }
    }
}
