import CKernel
import Foundation
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
    private var lastPresent: Double?
    private let console: ConsoleMode?

    public init(device: String = "/dev/fb0", rotate: Rotation = .none) throws {
        let fd = open(device, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            throw DisplayError(device: device, reason: e == ENOENT ? "no such framebuffer device" : String(cString: strerror(e)))
        }
        var v = fb_var_screeninfo()
        var f = fb_fix_screeninfo()
        guard buoy_ioctl_ptr(fd, buoy_fbioget_vscreeninfo, &v) == 0, buoy_ioctl_ptr(fd, buoy_fbioget_fscreeninfo, &f) == 0 else {
            Glibc.close(fd)
            throw DisplayError(device: device, reason: "not a framebuffer device")
        }
        let bpp = Int(v.bits_per_pixel)
        guard bpp == 16 || bpp == 32 else {
            Glibc.close(fd)
            throw DisplayError(device: device, reason: "\(bpp) bits per pixel is not supported (16 or 32)")
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
            throw DisplayError(device: device, reason: "cannot map the framebuffer: \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        self.device = device
        map = m
        mapSize = size
        stride = Int(f.line_length)
        panelWidth = Int(v.xres)
        panelHeight = Int(v.yres)
        bitsPerPixel = bpp
        format = bpp == 16 ? .rgb565 : .xrgb8888
        variable = v
        canPan = Int(v.yres_virtual) >= 2 * Int(v.yres) && stride * Int(v.yres) * 2 <= size
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
        (lastPresent ?? DRMPresenter.monotonicNow()) + refreshInterval
    }

    public func presentationTime(notBefore earliest: Double) -> Double {
        guard let last = lastPresent else { return max(earliest, DRMPresenter.monotonicNow()) }
        return Self.snap(max(earliest, last + refreshInterval), base: last, interval: refreshInterval)
    }

    public func present(_ surface: Surface, version: UInt64) throws -> Presentation {
        let expected = nextPresentationTime()
        let target = canPan ? 1 - page : 0
        PanelConversion.write(surface, rotation: rotation, to: map + target * stride * panelHeight, stride: stride, format: format)
        var waited = false
        if canPan {
            variable.yoffset = UInt32(target * panelHeight)
            var zero: UInt32 = 0
            waited = buoy_ioctl_ptr(fd, buoy_fbio_waitforvsync, &zero) == 0
            _ = buoy_ioctl_ptr(fd, buoy_fbiopan_display, &variable)
            page = target
        }
        if !waited {
            // No vsync interrupt: pace by the clock.
            let now = DRMPresenter.monotonicNow()
            if expected > now { usleep(useconds_t((expected - now) * 1e6)) }
        }
        let now = DRMPresenter.monotonicNow()
        let missed = lastPresent == nil ? 0 : max(0, Int(((now - expected) / refreshInterval).rounded()))
        lastPresent = now
        return Presentation(time: now, missed: missed)
    }

    private var closed = false
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
