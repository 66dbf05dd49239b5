import Glibc
import LottieModel
import Posix
import Raster

/// Decodes image assets (PNG, JPEG or WebP, told by their first bytes) when they are first drawn (an asset no layer draws costs nothing),
/// within a byte budget for all decoded pixels: an image that does not fit is not drawn, with
/// one warning. Files are opened beneath the animation's folder without following symbolic
/// links, so an asset cannot reach outside it. A lock keeps the store safe when one renderer
/// draws on several threads.
final class ImageStore: @unchecked Sendable {
    private let assets: [String: ImageAsset]
    private let byteBudget: Int
    private let lock = AdaptiveLock()
    private var decoded: [String: Image?] = [:]
    private var bytesUsed = 0
    private var problems: [String] = []

    init(animation: Animation, byteBudget: Int) {
        var assets: [String: ImageAsset] = [:]
        for (id, asset) in animation.assets { if case .image(let image) = asset { assets[id] = image } }
        self.assets = assets
        self.byteBudget = byteBudget
    }

    /// Bytes of the decoded pixels kept.
    var bytesHeld: Int {
        lock.lock(); defer { lock.unlock() }
        return bytesUsed
    }

    /// Problems met so far (an image that would not decode, or past the budget).
    var warnings: [String] {
        lock.lock(); defer { lock.unlock() }
        return problems
    }

    /// Halvings of the copy kept of each image (index 0: the copy halved once), made when it
    /// is drawn smaller than the copy; they count against the same budget.
    private var halvings: [String: [Image]] = [:]

    /// The decoded size of each image, and how many times the copy kept was halved from it
    /// (0: the decoded image itself).
    private var fullSizes: [String: (width: Int, height: Int)] = [:]
    private var keptLevels: [String: Int] = [:]
    /// Images whose decode for a larger copy failed (the budget): their copy is drawn as it is.
    private var pinned: Set<String> = []
    /// The full decode of a small image (`maxHeldSourceBytes`) kept as a halved copy: a draw
    /// that needs a larger copy (an image growing on screen, a particle scaling up from nothing)
    /// halves it again instead of decoding the file again. Counted against the same budget and
    /// the first thing given up when another image needs the room.
    private var sources: [String: Image] = [:]
    /// The largest full decode held beside its halved copy: 1 MiB, a 512×512 image.
    static let maxHeldSourceBytes = 1 << 20

    /// The image of asset `id` to draw under `world` (image layer space to the device), and
    /// its transform: the asset's `w`×`h` box when it has one. Drawn at more than half its
    /// size it is the decoded image itself (the exact reference path); smaller, the decoded
    /// image halved (box-filtered) as many times as `Image.mipLevel` says for that scale, so
    /// fine detail averages instead of aliasing.
    ///
    /// What is drawn is a function of the image and the scale alone, never of which draw came
    /// first: the copy kept is the decoded image halved the fewest times a draw needed so far
    /// (the memory follows the drawn size), every smaller level is halved from it (halving
    /// twice is halving the half), and a draw that needs a larger copy decodes the image again
    /// (at most once per level). Had the copy been sized for the first draw, layers drawing
    /// one image at two sizes in a frame (or the bands of a threaded frame, or two frames)
    /// would have drawn other pixels depending on their order.
    func drawable(_ id: String, world: Matrix) -> (image: Image, transform: Matrix)? {
        lock.lock(); defer { lock.unlock() }
        guard let asset = assets[id] else { return nil }
        func level(full: (width: Int, height: Int)) -> (level: Int, matrix: Matrix) {
            var fit = Matrix.identity
            if asset.width > 0, asset.height > 0, full.width > 0, full.height > 0 {
                fit = .scale(asset.width / Double(full.width), asset.height / Double(full.height))
            }
            let matrix = fit.concatenating(world)
            let scale = abs(matrix.a * matrix.d - matrix.b * matrix.c).squareRoot()
            return (Image.mipLevel(forScale: scale, width: full.width, height: full.height), matrix)
        }
        if let known = decoded[id] {
            guard let kept = known, let full = fullSizes[id], let keptLevel = keptLevels[id] else { return nil }
            let wanted = level(full: full)
            // A copy the budget no longer let decode again is drawn for every size from then on.
            if wanted.level >= keptLevel || pinned.contains(id) || !decode(id, asset: asset, level: { level(full: $0).level }) {
                let halved = halving(id, of: kept, by: wanted.level - keptLevel) ?? kept
                return Self.placed(halved, full: full, wanted.matrix)
            }
        } else if !decode(id, asset: asset, level: { level(full: $0).level }) {
            return nil
        }
        guard let kept = decoded[id] ?? nil, let full = fullSizes[id] else { return nil }
        return Self.placed(kept, full: full, level(full: full).matrix)
    }

    /// `image` (the decoded image of `full` pixels, halved some times) drawn where the
    /// decoded image would be drawn by `matrix`.
    private static func placed(_ image: Image, full: (width: Int, height: Int), _ matrix: Matrix) -> (image: Image, transform: Matrix) {
        guard image.width != full.width || image.height != full.height else { return (image, matrix) }
        let up = Matrix.scale(Double(full.width) / Double(image.width), Double(full.height) / Double(image.height))
        return (image, up.concatenating(matrix))
    }

    /// Decodes `id` and keeps it halved `level(decoded size)` times (under the lock), in
    /// place of any copy kept before; false when it failed (a copy kept before stays).
    private func decode(_ id: String, asset: ImageAsset, level: ((width: Int, height: Int)) -> Int) -> Bool {
        let before = decoded[id] ?? nil
        let freed = (before.map { $0.width * $0.height * 4 } ?? 0)
            + (halvings[id] ?? []).reduce(0) { $0 + $1.width * $1.height * 4 }
        var result = sources[id].map { Result<Image, ImageDecoding.Failure>.success($0) }
            ?? ImageDecoding.decode(asset, maxPixels: max(0, (byteBudget - bytesUsed + freed) / 4))
        if case .failure = result, sources.contains(where: { $0.key != id }) {
            // Held full decodes give way to any image that must be drawn.
            releaseSources(except: id)
            result = ImageDecoding.decode(asset, maxPixels: max(0, (byteBudget - bytesUsed + freed) / 4))
        }
        switch result {
        case .success(let full):
            bytesUsed -= freed
            halvings[id] = nil
            let size = (width: full.width, height: full.height)
            let wanted = level(size)
            var kept = full
            for _ in 0..<wanted where kept.width > 1 || kept.height > 1 { kept = kept.halved() }
            bytesUsed += kept.width * kept.height * 4
            decoded[id] = kept
            fullSizes[id] = size
            keptLevels[id] = Self.levels(from: size, to: kept)
            holdSource(id, full, halved: wanted > 0)
            return true
        case .failure(let error):
            guard before == nil else {
                pinned.insert(id)
                return false
            }
            problems.append("image asset \(id): \(error)")
            decoded[id] = .some(nil)
            return false
        }
    }

    /// Keeps `full`, the decode of `id`, beside its halved copy when it is small and the budget
    /// allows (under the lock); gives it back once the decode itself is the copy drawn.
    private func holdSource(_ id: String, _ full: Image, halved: Bool) {
        let bytes = full.width * full.height * 4
        if !halved {
            if sources.removeValue(forKey: id) != nil { bytesUsed -= bytes }
        } else if sources[id] == nil, bytes <= Self.maxHeldSourceBytes, bytesUsed + bytes <= byteBudget {
            sources[id] = full
            bytesUsed += bytes
        }
    }

    /// Drops the held full decodes of images other than `id` (under the lock).
    private func releaseSources(except id: String) {
        for key in sources.keys.sorted() where key != id {
            if let held = sources.removeValue(forKey: key) { bytesUsed -= held.width * held.height * 4 }
        }
    }

    /// How many halvings make `kept` from an image of `full` pixels.
    private static func levels(from full: (width: Int, height: Int), to kept: Image) -> Int {
        var w = full.width, h = full.height, n = 0
        while (w != kept.width || h != kept.height) && (w > 1 || h > 1) && n < 64 { w = (w + 1) / 2; h = (h + 1) / 2; n += 1 }
        return n
    }

    /// `kept` halved `count` times (under the lock), the halvings kept for later draws; past
    /// the budget the nearest halving already made (or `kept` itself, as nil). The halvings
    /// kept may go deeper than `count` (a smaller draw came first): the one asked for is
    /// picked by its depth, never the deepest made, or a draw's pixels would depend on the
    /// draws before it.
    private func halving(_ id: String, of kept: Image, by count: Int) -> Image? {
        guard count > 0 else { return nil }
        var made = halvings[id] ?? []
        while made.count < count {
            let last = made.last ?? kept
            guard last.width > 1 || last.height > 1 else { break }
            let next = last.halved()
            let bytes = next.width * next.height * 4
            guard bytesUsed + bytes <= byteBudget else { break }
            bytesUsed += bytes
            made.append(next)
        }
        halvings[id] = made
        return made.isEmpty ? nil : made[min(count, made.count) - 1]
    }
}

enum ImageDecoding {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The largest image file read from disk (a PNG of the largest image allowed is far smaller).
    static let maxFileBytes = 64 * 1024 * 1024

    static func decode(_ asset: ImageAsset, maxPixels: Int = PNG.maxPixels) -> Result<Image, Failure> {
        do {
            switch asset.source {
            case .embedded(let bytes):
                return .success(try ImageFile.decode(bytes, maxPixels: maxPixels))
            case .file(let directory, let relativePath):
                let bytes = try BeneathFolder.contents(of: relativePath, in: directory, maxBytes: maxFileBytes)
                return .success(try ImageFile.decode(bytes, maxPixels: maxPixels))
            case .missing:
                return .failure(Failure(description: "no image data"))
            }
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }
}
