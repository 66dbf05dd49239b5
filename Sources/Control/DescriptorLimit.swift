import Glibc

/// The daemon's open-file limit. The connection cap is what protects the daemon; a higher soft
/// limit leaves room for downloads, the display and input devices beside it.
public enum DescriptorLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard limit (at most `ceiling`, so code that walks
    /// every descriptor number stays quick); returns the soft limit now in force.
    @discardableResult
    public static func raiseSoftLimit(ceiling: UInt64 = 65536) -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let wanted = min(limit.rlim_max, rlim_t(ceiling))
        if wanted > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(wanted) }
        }
        return UInt64(limit.rlim_cur)
    }
}
