import CKernel
import Glibc

/// Who may use the control socket, from the credentials of the process on the other end.
extension ControlServer {
    /// Who is on the other end of a connection.
    public struct PeerCredentials: Equatable, Sendable {
        public var uid: uid_t
        public var gid: gid_t
        /// Every group the peer is in, supplementary ones included.
        public var groups: [gid_t]

        public init(uid: uid_t, gid: gid_t, groups: [gid_t]) {
            self.uid = uid
            self.gid = gid
            self.groups = groups
        }
    }

    /// The access rule: root, the daemon's own user, or anyone in the socket's group, as
    /// primary or supplementary group (an operator added to the group keeps their own primary).
    public static func permits(_ peer: PeerCredentials, ownUID: uid_t, allowedGroup: gid_t?) -> Bool {
        if peer.uid == 0 || peer.uid == ownUID { return true }
        guard let allowedGroup else { return false }
        return peer.gid == allowedGroup || peer.groups.contains(allowedGroup)
    }

    /// The credentials of the process on the other end of `fd`: SO_PEERCRED, and the groups
    /// from SO_PEERGROUPS (the peer's own at connect time; Linux 4.13+) or, on older kernels,
    /// the group database's list for the peer's user.
    public static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
        var uid: uid_t = 0, gid: gid_t = 0
        guard buoy_peer_credentials(fd, &uid, &gid) == 0 else { return nil }
        let groups = peerGroups(fd) ?? groupList(uid: uid, gid: gid)
        return PeerCredentials(uid: uid, gid: gid, groups: groups)
    }

    /// SO_PEERGROUPS; nil where the kernel does not have it.
    static func peerGroups(_ fd: Int32) -> [gid_t]? {
        let soPeerGroups: Int32 = 59  // <asm-generic/socket.h>
        var groups = [gid_t](repeating: 0, count: 64)
        while true {
            var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            let result = groups.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, soPeerGroups, $0.baseAddress, &length) }
            if result == 0 { return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.size)) }
            // ERANGE: the kernel said how much room the list needs.
            guard errno == ERANGE, Int(length) > groups.count * MemoryLayout<gid_t>.size else { return nil }
            groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.size)
        }
    }

    /// getgrouplist for the user with `uid`; just `gid` when the user is unknown.
    static func groupList(uid: uid_t, gid: gid_t) -> [gid_t] {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil else { return [gid] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(entry.pw_name, gid, &groups, &count) < 0 {
            // Too small: count now holds the number needed.
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(entry.pw_name, gid, &groups, &count) >= 0 else { return [gid] }
        }
        return Array(groups.prefix(Int(count)))
    }
}
