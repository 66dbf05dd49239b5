import Glibc
import Raster

/// Something that shows frames: a DRM/KMS CRTC, a framebuffer device, PNG files, a video
/// stream. The frame loop asks when the next frame will be seen, renders the animation for
/// that instant, and presents it.
public protocol Presenter: AnyObject {
    /// The size frames are rendered at (after rotation: a portrait panel mounted sideways
    /// has its width and height swapped here).
    var width: Int { get }
    var height: Int { get }
    /// Seconds between refreshes.
    var refreshInterval: Double { get }
    /// A name for messages and the trace: `drm:/dev/dri/card0 HDMI-A-1 1920x1080@60`.
    var description: String { get }
    /// When the next presented frame is expected on screen (seconds, the presenter's clock).
    func nextPresentationTime() -> Double
    /// The first refresh at or after `earliest` (now plus the expected rendering time): the
    /// instant the frame being rendered will really appear, so it is rendered for that time.
    func presentationTime(notBefore earliest: Double) -> Double
    /// Shows `surface` (of width × height); returns when it actually went on screen and how
    /// many refreshes were missed before it. `version` changes whenever the picture does:
    /// buffers already holding that version are not rewritten.
    func present(_ surface: Surface, version: UInt64) throws -> Presentation
    /// Gives the display back (restores the previous mode and console).
    func close()
    /// Lets go of the display leaving the last frame on it for the next program (Plymouth's
    /// `--retain-splash`): no mode or console restored. Files and streams: the same as `close()`.
    /// False when this display cannot keep a picture after Buoy lets go (DRM before Linux 6.8):
    /// it was then given back as by `close()`, never left blank.
    @discardableResult func closeRetainingPicture() -> Bool
    /// How the picture is turned on the panel (orientation property and --rotate).
    var rotation: Rotation { get }
    /// Files and streams: time is virtual (frame number over the rate), nothing is on a screen.
    var writesFiles: Bool { get }

    /// For an event loop: readable when a queued frame reached the screen (DRM page-flip
    /// events); nil when `queue` returns only once the frame is shown.
    var flipDescriptor: Int32? { get }
    /// Starts showing `surface`: its presentation when it is already on screen, nil when it
    /// will be, announced on `flipDescriptor` (then `flipCompleted()` tells when).
    func queue(_ surface: Surface, version: UInt64) throws -> Presentation?
    /// Reads what `flipDescriptor` has: the queued frame's presentation once it is on screen.
    func flipCompleted() throws -> Presentation?
}

extension Presenter {
    public var writesFiles: Bool { false }
    @discardableResult public func closeRetainingPicture() -> Bool { close(); return true }
    public var flipDescriptor: Int32? { nil }
    public func queue(_ surface: Surface, version: UInt64) throws -> Presentation? { try present(surface, version: version) }
    public func flipCompleted() throws -> Presentation? { nil }

    public func present(_ surface: Surface) throws -> Presentation {
        try present(surface, version: .max)
    }

    /// Files and streams have virtual time: every frame is the next refresh.
    public func presentationTime(notBefore earliest: Double) -> Double { nextPresentationTime() }
}

/// Frame pacing on a display with a fixed refresh: a frame is shown at a refresh of the grid
/// that starts at the last presentation, never before the next one. The frame loop renders the
/// animation for the time this gives, so animation time is presentation time: a frame that
/// takes long to render lands on a later refresh (skipping by time) instead of slowing the
/// animation down.
public enum FramePacing {
    /// The refresh at which a frame that is ready at `earliest` will be seen, when the last
    /// one was seen at `last`: the first refresh of the grid at or after both `earliest` and
    /// the next refresh.
    public static func presentationTime(notBefore earliest: Double, last: Double, interval: Double) -> Double {
        snap(max(earliest, last + interval), base: last, interval: interval)
    }

    /// Snaps `earliest` up to the refresh grid that starts at `base`. The small tolerance
    /// keeps a time that is on a refresh (up to rounding) on that refresh.
    public static func snap(_ earliest: Double, base: Double, interval: Double) -> Double {
        guard earliest > base, interval > 0 else { return base }
        return base + (((earliest - base) / interval) - 1e-6).rounded(.up) * interval
    }

    /// Refreshes that went by without a new frame before one seen at `time` that was
    /// expected at `expected` (the refresh after the previous frame).
    public static func missed(presentedAt time: Double, expected: Double, interval: Double) -> Int {
        guard interval > 0 else { return 0 }
        return max(0, Int(((time - expected) / interval).rounded()))
    }
}

public struct Presentation: Equatable, Sendable {
    public var time: Double
    public var missed: Int

    public init(time: Double, missed: Int) {
        self.time = time
        self.missed = missed
    }
}

public struct DisplayError: Error, CustomStringConvertible, Equatable {
    /// Why a display could not be used, as far as `--display auto` must know: whether there
    /// is nothing to show on there (and the next kind of display may be tried) or a device
    /// that is there refused (and the user must see why).
    public enum Kind: Sendable, Equatable {
        /// No such device (no /dev/dri, no card, no /dev/fb0).
        case noDevice
        /// The device is there but has no connected display (or cannot show one: no KMS).
        case noDisplay
        /// Another process holds the device (DRM master: a compositor or another buoy).
        case busy
        /// The user may not open or drive the device.
        case permissionDenied
        /// Any other failure of a device that is there.
        case failed
    }

    /// The device or path concerned.
    public var device: String
    /// What failed, in words (without the errno's text: `description` adds it).
    public var reason: String
    public var kind: Kind
    /// The errno of the system call that failed, when one did: kept as a number so a caller
    /// tells EBUSY from EACCES without reading text.
    public var errno: Int32?

    public init(device: String, reason: String, kind: Kind = .failed, errno: Int32? = nil) {
        self.device = device
        self.reason = reason
        self.kind = kind
        self.errno = errno
    }

    public var description: String {
        guard let errno else { return "\(device): \(reason)" }
        return "\(device): \(reason): \(String(cString: strerror(errno)))"
    }
}

/// How the picture is turned to match the panel, clockwise.
public enum Rotation: Int, Sendable, CaseIterable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270

    public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }

    /// Composition with a second turn.
    public func adding(_ other: Rotation) -> Rotation { Rotation(rawValue: (rawValue + other.rawValue) % 360)! }

    /// Where a point of the panel lies in the logical (turned) picture, both as fractions
    /// 0...1 of width and height. A touch screen bonded to the panel reports in the panel's
    /// own scan-out orientation; this undoes the turn `PanelConversion` applies.
    public func logicalPoint(panelX x: Double, panelY y: Double) -> (x: Double, y: Double) {
        switch self {
        case .none: return (x, y)
        case .quarter: return (y, 1 - x)
        case .half: return (1 - x, 1 - y)
        case .threeQuarters: return (1 - y, x)
        }
    }
}
