/// `--display`: where frames go.
public enum DisplaySpec: Equatable, Sendable {
    /// DRM, then fbdev; an error when neither works.
    case auto
    case drm(device: String?)
    case fbdev(device: String)
    case headless(directory: String)
    case y4m(path: String)

    public init?(_ text: String) {
        let (kind, rest) = text.firstIndex(of: ":").map { (String(text[..<$0]), String(text[text.index(after: $0)...])) } ?? (text, "")
        switch kind {
        case "auto": self = .auto
        case "drm": self = .drm(device: rest.isEmpty ? nil : rest)
        case "fbdev": self = .fbdev(device: rest.isEmpty ? "/dev/fb0" : rest)
        case "headless": guard !rest.isEmpty else { return nil }; self = .headless(directory: rest)
        case "y4m": guard !rest.isEmpty else { return nil }; self = .y4m(path: rest)
        default: return nil
        }
    }
}
