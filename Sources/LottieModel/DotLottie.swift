import FoundationEssentials

/// dotLottie containers: a zip with `manifest.json`, animations in `animations/` (version 1)
/// or `a/` (version 2), images in `images/` or `i/`. The manifest's active or initial
/// animation is chosen, else the first one; its image assets are read from the container.
public enum DotLottie {
    /// All entries read from one container together (the animation and its images).
    public static let maxExtractedBytes = 256 * 1024 * 1024

    static let animationFolders = ["animations/", "a/"]
    static let imageFolders = ["images/", "i/"]

    public static func parse(_ bytes: [UInt8], name: String, file: String, limits: ParseLimits = ParseLimits()) throws -> Animation {
        do {
            var zipLimits = ZipArchive.Limits()
            zipLimits.maxEntryBytes = max(limits.maxFileBytes, zipLimits.maxEntryBytes)
            let archive = try ZipArchive(bytes, limits: zipLimits)
            let entry = try chooseAnimation(archive)
            guard let json = try archive.contents(of: entry, maxBytes: limits.maxFileBytes) else {
                throw ZipError(entry: entry, "missing")
            }
            let images = ContainerImages(archive: archive, budget: maxExtractedBytes - json.count)
            return try Animation.parse(Data(json), name: name, file: "\(file)!\(entry)", baseDirectory: nil,
                                       limits: limits, containerFile: images.contents)
        } catch let error as ZipError {
            throw ParseError(file: file, jsonPath: "", reason: "dotLottie container: \(error)")
        }
    }

    /// The manifest's `activeAnimationId` (v1) or `initial.animation` (v2) when it names an
    /// animation in the container, else the first animation entry.
    static func chooseAnimation(_ archive: ZipArchive) throws -> String {
        let candidates = archive.names.filter { name in
            name.hasSuffix(".json") && animationFolders.contains { name.hasPrefix($0) && !name.dropFirst($0.count).contains("/") }
        }
        if let manifest = try? archive.contents(of: "manifest.json", maxBytes: 1 << 20),
           let json = try? JSONReader.parse(Data(manifest)) {
            var wanted: [String] = []
            if case .string(let id)? = json["initial"]?["animation"] { wanted.append(id) }
            if case .string(let id)? = json["activeAnimationId"] { wanted.append(id) }
            if case .array(let list)? = json["animations"], case .string(let id)? = list.first?["id"] { wanted.append(id) }
            for id in wanted {
                if let found = animationFolders.map({ $0 + id + ".json" }).first(where: candidates.contains) { return found }
            }
        }
        guard let first = candidates.first else { throw ZipError("no animation (animations/*.json or a/*.json)") }
        return first
    }
}

/// Image files read from the container on demand, within one byte budget for them all; each
/// is read once.
final class ContainerImages {
    private let archive: ZipArchive
    private var budget: Int
    private var read: [String: [UInt8]] = [:]

    init(archive: ZipArchive, budget: Int) {
        self.archive = archive
        self.budget = budget
    }

    /// The bytes of the image the asset names by `u` and `p` (`/images/`, `i/`, or just its
    /// name in one of the image folders); nil when there is none.
    func contents(directory: String, name: String) throws -> [UInt8]? {
        // Inside a container a leading `/` means its root (`"u": "/images/"`).
        let folder = String(directory.drop(while: { $0 == "/" }))
        guard let joined = ZipArchive.safeName(folder.isEmpty ? name : folder + "/" + name) else { return nil }
        let base = String(joined.split(separator: "/").last ?? "")
        let tried = [joined] + DotLottie.imageFolders.map { $0 + base }
        guard let entry = tried.first(where: archive.names.contains) else { return nil }
        if let known = read[entry] { return known }
        guard let bytes = try archive.contents(of: entry, maxBytes: budget) else { return nil }
        budget -= bytes.count
        read[entry] = bytes
        return bytes
    }
}
