import CDRM
import Glibc

/// Atomic modesetting: the connector, CRTC and primary plane configured in one commit, and
/// each flip a non-blocking commit of the plane's framebuffer with a page-flip event.
/// Used where the driver offers it; the presenter falls back to legacy calls otherwise.
struct AtomicModeset {
    let fd: Int32
    let connector: UInt32
    let crtc: UInt32
    let plane: UInt32
    private let connectorCrtcID: UInt32
    private let crtcActive: UInt32
    private let crtcModeID: UInt32
    private let planeProps: [String: UInt32]
    private var modeBlob: UInt32 = 0

    /// Nil when the driver has no atomic support or a property is missing.
    init?(fd: Int32, connector: UInt32, crtc: UInt32) {
        guard drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0,
              drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0 else { return nil }
        guard let res = drmModeGetResources(fd) else { return nil }
        let crtcIndex = (0..<Int(res.pointee.count_crtcs)).first { res.pointee.crtcs[$0] == crtc }
        drmModeFreeResources(res)
        guard let crtcIndex, let planes = drmModeGetPlaneResources(fd) else { return nil }
        defer { drmModeFreePlaneResources(planes) }
        var primary: UInt32?
        for i in 0..<Int(planes.pointee.count_planes) {
            let id = planes.pointee.planes[i]
            guard let p = drmModeGetPlane(fd, id) else { continue }
            let fits = p.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0
            drmModeFreePlane(p)
            if fits, Self.properties(fd, id, UInt32(DRM_MODE_OBJECT_PLANE))["type"]?.value == UInt64(DRM_PLANE_TYPE_PRIMARY) {
                primary = id
                break
            }
        }
        guard let primary else { return nil }
        let c = Self.properties(fd, connector, UInt32(DRM_MODE_OBJECT_CONNECTOR))
        let k = Self.properties(fd, crtc, UInt32(DRM_MODE_OBJECT_CRTC))
        let p = Self.properties(fd, primary, UInt32(DRM_MODE_OBJECT_PLANE))
        let needed = ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"]
        guard let cc = c["CRTC_ID"]?.id, let active = k["ACTIVE"]?.id, let mode = k["MODE_ID"]?.id,
              needed.allSatisfy({ p[$0] != nil }) else { return nil }
        self.fd = fd
        self.connector = connector
        self.crtc = crtc
        plane = primary
        connectorCrtcID = cc
        crtcActive = active
        crtcModeID = mode
        planeProps = p.mapValues(\.id)
    }

    static func properties(_ fd: Int32, _ object: UInt32, _ type: UInt32) -> [String: (id: UInt32, value: UInt64)] {
        guard let props = drmModeObjectGetProperties(fd, object, type) else { return [:] }
        defer { drmModeFreeObjectProperties(props) }
        var result: [String: (id: UInt32, value: UInt64)] = [:]
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(fd, props.pointee.props[i]) else { continue }
            let name = withUnsafeBytes(of: prop.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            result[name] = (prop.pointee.prop_id, props.pointee.prop_values[i])
            drmModeFreeProperty(prop)
        }
        return result
    }

    private func addPlane(_ req: drmModeAtomicReqPtr, fb: UInt32, width: Int, height: Int) {
        func add(_ name: String, _ value: UInt64) { drmModeAtomicAddProperty(req, plane, planeProps[name]!, value) }
        add("FB_ID", UInt64(fb)); add("CRTC_ID", UInt64(crtc))
        add("SRC_X", 0); add("SRC_Y", 0)
        add("SRC_W", UInt64(width) << 16); add("SRC_H", UInt64(height) << 16)  // 16.16 fixed point
        add("CRTC_X", 0); add("CRTC_Y", 0); add("CRTC_W", UInt64(width)); add("CRTC_H", UInt64(height))
    }

    /// The first commit: mode, CRTC on, connector routed, plane showing `fb`.
    mutating func modeset(_ mode: inout drmModeModeInfo, fb: UInt32) -> Bool {
        var blob: UInt32 = 0
        guard drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob) == 0 else { return false }
        modeBlob = blob
        guard let req = drmModeAtomicAlloc() else { return false }
        defer { drmModeAtomicFree(req) }
        drmModeAtomicAddProperty(req, connector, connectorCrtcID, UInt64(crtc))
        drmModeAtomicAddProperty(req, crtc, crtcModeID, UInt64(blob))
        drmModeAtomicAddProperty(req, crtc, crtcActive, 1)
        addPlane(req, fb: fb, width: Int(mode.hdisplay), height: Int(mode.vdisplay))
        return drmModeAtomicCommit(fd, req, UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), nil) == 0
    }

    /// A flip: the plane shows `fb` from the next vblank; the event carries `userData`.
    func flip(fb: UInt32, width: Int, height: Int, userData: UnsafeMutableRawPointer) -> Int32 {
        guard let req = drmModeAtomicAlloc() else { return -1 }
        defer { drmModeAtomicFree(req) }
        addPlane(req, fb: fb, width: width, height: height)
        return drmModeAtomicCommit(fd, req, UInt32(DRM_MODE_ATOMIC_NONBLOCK) | buoy_drm_mode_page_flip_event, userData)
    }

    func destroy() {
        if modeBlob != 0 { drmModeDestroyPropertyBlob(fd, modeBlob) }
    }
}
