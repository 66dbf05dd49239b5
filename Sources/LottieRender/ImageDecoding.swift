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

    /// Halvings of decoded images (index 0 is the first halving), made when an image is drawn
    /// at half its size or less; they count against the same budget.
    private var halvings: [String: [Image]] = [:]

    /// The decoded size of images kept as a reduced copy.
    private var fullSizes: [String: (width: Int, height: Int)] = [:]

    /// The full decode of an image kept as a reduced copy, held too when it is small
    /// (`maxHeldSourceBytes`): a reduced copy outgrown (an image growing on screen, a particle
    /// scaling up from nothing) is then made again from it rather than by decoding the file
    /// again. Counted against the same budget. Larger images keep only the reduced copy, so
    /// their memory follows the drawn size.
    private var sources: [String: Image] = [:]

    /// The largest full decode held beside its reduced copy: 1 MiB, a 512×512 image.
    static let maxHeldSourceBytes = 1 << 20

    /// The image of asset `id` to draw under `world` (image layer space to the device), and
    /// its transform: the asset's `w`×`h` box when it has one. Drawn at more than half its
    /// size it is the decoded image itself (the exact reference path; or the reduced copy kept
    /// when it was first drawn at half its size or less); smaller, a box-filtered halving
    /// chosen for that scale, so fine detail averages instead of aliasing.
    func drawable(_ id: String, world: Matrix) -> (image: Image, transform: Matrix)? {
        // The device pixels the whole asset covers: its box through the layer's matrix.
        let drawn = assets[id].flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }.map {
            ($0.width * (world.a * world.a + world.b * world.b).squareRoot(), $0.height * (world.c * world.c + world.d * world.d).squareRoot())
        }
        guard let image = image(id, drawnSize: drawn) else { return nil }
        var fit = Matrix.identity
        if let asset = assets[id], asset.width > 0, asset.height > 0 {
            fit = .scale(asset.width / Double(image.width), asset.height / Double(image.height))
        }
        let full = fit.concatenating(world)
        let scale = abs(full.a * full.d - full.b * full.c).squareRoot()
        let level = Image.mipLevel(forScale: scale, width: image.width, height: image.height)
        guard level > 0, let smaller = halving(id, of: image, level: level) else { return (image, full) }
        let up = Matrix.scale(Double(image.width) / Double(smaller.width), Double(image.height) / Double(smaller.height))
        return (smaller, up.concatenating(full))
    }

    private func halving(_ id: String, of image: Image, level: Int) -> Image? {
        lock.lock(); defer { lock.unlock() }
        var made = halvings[id] ?? []
        // Halvings of another copy (one decoded again for a larger size meanwhile) are not reused.
        if let first = made.first, first.width != (image.width + 1) / 2 || first.height != (image.height + 1) / 2 {
            for old in made { bytesUsed -= old.width * old.height * 4 }
            made = []
        }
        while made.count < level {
            let next = (made.last ?? image).halved()
            let bytes = next.width * next.height * 4
            // Past the budget the nearest level already made is used (or the image itself).
            guard bytesUsed + bytes <= byteBudget else { break }
            bytesUsed += bytes
            made.append(next)
        }
        halvings[id] = made
        return made.last
    }

    /// The decoded image of asset `id`, or nil when it has none, failed, or is over the budget.
    /// `drawnSize` is the size, in device pixels, the whole image covers where it is first
    /// drawn: an image drawn at half its size or less in both axes is kept downsampled to about
    /// twice that size (`downsampled(_:toFit:_:)`), so the memory it holds follows the drawn
    /// size; the full decode is transient and must fit the budget. Later draws reuse it as is.
    ///
    /// A reduced copy later drawn larger than it is (an image that grows on screen) is made
    /// again for the new size, so what is drawn does not depend on which frame came first; as
    /// each copy is twice the size it is drawn at, that happens only when the drawn size has
    /// doubled. It is made from the held full decode when the image is small (`sources`),
    /// else by decoding the file again.
    func image(_ id: String, drawnSize: (width: Double, height: Double)? = nil) -> Image? {
        lock.lock(); defer { lock.unlock() }
        var outgrown: Image?
        if let known = decoded[id] {
            guard let reduced = known, let full = fullSizes[id],
                  Self.outgrown(reduced, full: full, drawnSize: drawnSize) else { return known }
            forget(id, reduced)
            outgrown = reduced
        }
        if let source = sources[id] { return keep(id, source, drawnSize: drawnSize) }
        guard let asset = assets[id] else { return nil }
        var result = ImageDecoding.decode(asset, maxPixels: max(0, (byteBudget - bytesUsed) / 4))
        if case .failure = result, !sources.isEmpty {
            // Held full decodes give way to any image that must be drawn: a decode too large
            // for what is left is refused from its header, then tried again without them.
            releaseSources(toFit: byteBudget + 1, except: id)
            result = ImageDecoding.decode(asset, maxPixels: max(0, (byteBudget - bytesUsed) / 4))
        }
        switch result {
        case .success(let full):
            return keep(id, full, drawnSize: drawnSize)
        case .failure(let error):
            if let outgrown {
                // The budget, taken meanwhile by other images, no longer holds the full decode:
                // keep drawing the reduced copy (not tried again) rather than nothing.
                bytesUsed += outgrown.width * outgrown.height * 4
                decoded[id] = outgrown
                return outgrown
            }
            problems.append("image asset \(id): \(error)")
            decoded[id] = .some(nil)
            return nil
        }
    }

    /// Keeps the copy of the full decode `full` to draw at `drawnSize` (under the lock), and
    /// `full` itself beside a reduced copy when it is small and the budget allows.
    private func keep(_ id: String, _ full: Image, drawnSize: (width: Double, height: Double)?) -> Image {
        let image = Self.kept(full, drawnSize: drawnSize)
        releaseSources(toFit: image.width * image.height * 4, except: id)
        bytesUsed += image.width * image.height * 4
        decoded[id] = image
        guard image.width < full.width || image.height < full.height else {
            if sources.removeValue(forKey: id) != nil { bytesUsed -= full.width * full.height * 4 }
            return image
        }
        fullSizes[id] = (full.width, full.height)
        let fullBytes = full.width * full.height * 4
        if sources[id] == nil, fullBytes <= Self.maxHeldSourceBytes, bytesUsed + fullBytes <= byteBudget {
            sources[id] = full
            bytesUsed += fullBytes
        }
        return image
    }

    /// Bytes of the full decodes held beside reduced copies (under the lock).
    private var heldSourceBytes: Int { sources.values.reduce(0) { $0 + $1.width * $1.height * 4 } }

    /// Drops held full decodes of images other than `id` (under the lock) until `bytes` more
    /// fit the budget: they only save decoding again, what is drawn comes first.
    private func releaseSources(toFit bytes: Int, except id: String) {
        for key in sources.keys.sorted() where key != id && bytesUsed + bytes > byteBudget {
            if let held = sources.removeValue(forKey: key) { bytesUsed -= held.width * held.height * 4 }
        }
    }

    /// Whether a reduced copy of an image `full` pixels large is drawn larger than it is.
    static func outgrown(_ reduced: Image, full: (width: Int, height: Int), drawnSize: (width: Double, height: Double)?) -> Bool {
        guard let drawnSize, drawnSize.width.isFinite, drawnSize.height.isFinite else { return false }
        guard reduced.width < full.width || reduced.height < full.height else { return false }
        return drawnSize.width > Double(reduced.width) || drawnSize.height > Double(reduced.height)
    }

    /// Drops the reduced copy of `id` and its halvings (under the lock), giving back their bytes.
    private func forget(_ id: String, _ reduced: Image) {
        bytesUsed -= reduced.width * reduced.height * 4
        for halving in halvings[id] ?? [] { bytesUsed -= halving.width * halving.height * 4 }
        halvings[id] = nil
        decoded[id] = nil
        fullSizes[id] = nil
    }

    /// `full` itself, or a copy downsampled to twice `drawnSize` when it is drawn at half its
    /// size or less in both axes.
    static func kept(_ full: Image, drawnSize: (width: Double, height: Double)?) -> Image {
        guard let drawnSize, drawnSize.width.isFinite, drawnSize.height.isFinite,
              drawnSize.width * 2 <= Double(full.width), drawnSize.height * 2 <= Double(full.height) else { return full }
        let width = max(1, Int((drawnSize.width * 2).rounded(.up))), height = max(1, Int((drawnSize.height * 2).rounded(.up)))
        return downsampled(full, toFit: width, height)
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
