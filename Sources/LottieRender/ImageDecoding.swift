import LottieModel
import Raster

/// Decodes image assets once, when an animation is prepared.
enum ImageDecoding {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func decode(_ asset: ImageAsset) -> Result<Image, Failure> {
        do {
            switch asset.source {
            case .embedded(let bytes):
                return .success(try PNG.decode(bytes))
            case .file(let path):
                return .success(try PNG.read(path: path))
            case .missing:
                return .failure(Failure(description: "no image data"))
            }
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }
}
