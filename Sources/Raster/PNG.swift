import CPNG
import FoundationEssentials
import Glibc
import Posix

public struct PNGError: Error, CustomStringConvertible, Equatable {
    /// The file read or written, when there is one.
    public var path: String?
    public var reason: String

    public init(path: String?, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.map { "\($0): \(reason)" } ?? reason }
}

/// PNG files through libpng's simplified API. Images are premultiplied in memory and straight
/// in files.
public enum PNG {
    /// Larger images are refused before decoding (a hostile header could ask for gigabytes).
    public static let maxPixels = 64 * 1024 * 1024

    public static func read(path: String) throws -> Image {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PNGError(path: path, reason: "cannot read the file")
        }
        do { return try decode([UInt8](data)) } catch let error as PNGError {
            throw PNGError(path: path, reason: error.reason)
        }
    }

    /// Decodes a PNG of at most `maxPixels` pixels; a larger one is refused from its header,
    /// before any pixel memory is allocated.
    public static func decode(_ bytes: [UInt8], maxPixels: Int = PNG.maxPixels) throws -> Image {
        var image = png_image()
        image.version = png_uint_32(buoy_png_image_version)
        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard began != 0 else { throw PNGError(path: nil, reason: "not a PNG image (\(message(image)))") }
        defer { png_image_free(&image) }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= min(maxPixels, Self.maxPixels) else {
            throw PNGError(path: nil, reason: "image size \(width)x\(height) is out of range")
        }
        image.format = png_uint_32(buoy_png_format_rgba)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let finished = bytes.withUnsafeBytes { _ in
            rgba.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, nil, out.baseAddress, png_int_32(width * 4), nil)
            }
        }
        guard finished != 0 else { throw PNGError(path: nil, reason: "corrupt PNG data (\(message(image)))") }
        return ImageFile.premultiplied(rgba: rgba, width: width, height: height)
    }

    /// PNG bytes of the surface (straight RGBA).
    public static func encode(_ surface: Surface) throws -> [UInt8] {
        guard surface.width > 0, surface.height > 0 else { throw PNGError(path: nil, reason: "cannot encode an empty image") }
        var rgba = [UInt8](repeating: 0, count: surface.width * surface.height * 4)
        for (i, p) in surface.pixels.enumerated() {
            let c = straight(p)
            rgba[i * 4] = c.0; rgba[i * 4 + 1] = c.1; rgba[i * 4 + 2] = c.2; rgba[i * 4 + 3] = c.3
        }
        var image = png_image()
        image.version = png_uint_32(buoy_png_image_version)
        image.width = png_uint_32(surface.width)
        image.height = png_uint_32(surface.height)
        image.format = png_uint_32(buoy_png_format_rgba)
        // Written once into a buffer that holds the worst case (the image data stored, not
        // compressed, with deflate's and PNG's own overhead); should that ever fall short,
        // libpng says how much it needs and the image is written again.
        // The buffer is not zeroed first: libpng writes it, and the pages past what it writes
        // (most of them: the worst case is rare) are never touched, so never resident.
        let raw = surface.height * (surface.width * 4 + 1)
        var out = uninitializedBytes(raw + raw / 8 + raw / 64 + 4096)
        for _ in 0..<2 {
            var size = png_alloc_size_t(out.count)
            let written = rgba.withUnsafeBytes { raw in
                out.withUnsafeMutableBytes { dst in
                    png_image_write_to_memory(&image, dst.baseAddress, &size, 0, raw.baseAddress, png_int_32(surface.width * 4), nil)
                }
            }
            if written != 0, Int(size) <= out.count {
                out.removeLast(out.count - Int(size))
                return out
            }
            guard Int(size) > out.count else { break }
            image.warning_or_error = 0
            out = uninitializedBytes(Int(size))
        }
        throw PNGError(path: nil, reason: "PNG encoding failed (\(message(image)))")
    }

    /// `count` bytes for a C library to write into (their values are not defined until it has).
    private static func uninitializedBytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Writes a PNG file atomically: to a temporary file beside it, then renamed over it, so
    /// a failure (a full disk) never leaves a half-written file in place.
    public static func write(_ surface: Surface, to path: String) throws {
        let bytes = try encode(surface)
        let url = URL(fileURLWithPath: path)
        do {
            try Data(bytes).write(to: url, options: .atomic)
        } catch {
            throw PNGError(path: path, reason: "cannot write: \(SystemError.reason(of: error))")
        }
    }

    private static func straight(_ p: UInt32) -> (UInt8, UInt8, UInt8, UInt8) {
        let a = p >> 24
        guard a > 0 else { return (0, 0, 0, 0) }
        func un(_ v: UInt32) -> UInt8 { UInt8(min(255, (v * 255 + a / 2) / a)) }
        return (un((p >> 16) & 0xff), un((p >> 8) & 0xff), un(p & 0xff), UInt8(a))
    }

    private static func message(_ image: png_image) -> String {
        var copy = image.message
        return withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
