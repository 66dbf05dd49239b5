/// `--display`: where frames go.
public enum DisplaySpec: Equatable, Sendable {
    /// DRM, then fbdev; then PNG frames in `headless` when given (`auto:headless:DIR`), else
    /// an error. See `DisplayFallback` for when the next one is tried.
    case auto(headless: String?)
    case drm(device: String?)
    case fbdev(device: String)
    case headless(directory: String)
    case y4m(path: String)

    public init?(_ text: String) {
        let (kind, rest) = text.firstIndex(of: ":").map { (String(text[..<$0]), String(text[text.index(after: $0)...])) } ?? (text, "")
        switch kind {
        case "auto":
            if text == "auto" { self = .auto(headless: nil); return }
            guard case .headless(let directory)? = DisplaySpec(rest) else { return nil }
            self = .auto(headless: directory)
        case "drm": self = .drm(device: rest.isEmpty ? nil : rest)
        case "fbdev": self = .fbdev(device: rest.isEmpty ? "/dev/fb0" : rest)
        case "headless": guard !rest.isEmpty else { return nil }; self = .headless(directory: rest)
        case "y4m": guard !rest.isEmpty else { return nil }; self = .y4m(path: rest)
        default: return nil
        }
    }
}

/// How `--display auto` goes from one kind of display to the next (DRM → fbdev → headless
/// when asked, else an error).
public enum DisplayFallback {
    /// Whether the next kind of display may be tried after `error`: only when there is
    /// nothing to show on (no device, no connected display). A device that is there but
    /// refused — DRM master held by a compositor, permission denied, a failed modeset — is
    /// an error the user must see: falling back would hide it, and /dev/fb0 beside a DRM card
    /// is usually DRM's own fbdev emulation, which shows nothing while the master holds it.
    public static func mayFallBack(after error: DisplayError) -> Bool {
        switch error.kind {
        case .noDevice, .noDisplay: return true
        case .busy, .permissionDenied, .failed: return false
        }
    }
}
