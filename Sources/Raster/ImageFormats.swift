import CJPEG
import CWebP

/// An image file's format, told by its first bytes (its magic number), never by its name.
public enum ImageFormat: String, Sendable, Equatable {
    case png, jpeg, webp

    public init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
                  Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }
}

public struct ImageDecodeError: Error, CustomStringConvertible, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Decodes PNG, JPEG or WebP bytes, whichever their magic number says they are, into
/// premultiplied pixels. Every decoder reads the size from the header first and refuses more
/// than `maxPixels` (and more than `PNG.maxPixels`) before any pixel memory is allocated.
public enum ImageFile {
    public static func decode(_ bytes: [UInt8], maxPixels: Int = PNG.maxPixels) throws -> Image {
        guard let format = ImageFormat(sniffing: bytes) else {
            throw ImageDecodeError("not a PNG, JPEG or WebP image (unknown first bytes)")
        }
        switch format {
        case .png:
            do { return try PNG.decode(bytes, maxPixels: maxPixels) } catch let error as PNGError {
                throw ImageDecodeError("PNG: \(error.reason)")
            }
        case .jpeg: return try JPEG.decode(bytes, maxPixels: maxPixels)
        case .webp: return try WebP.decode(bytes, maxPixels: maxPixels)
        }
    }

    static func checkSize(_ width: Int, _ height: Int, maxPixels: Int, format: String) throws {
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16,
              width * height <= min(maxPixels, PNG.maxPixels) else {
            throw ImageDecodeError("\(format): image size \(width)x\(height) is out of range")
        }
    }

    /// Opaque RGBA bytes (JPEG has no alpha) or straight RGBA into premultiplied ARGB: every
    /// image is decoded through here, during playback when its layer first shows. The same
    /// rounding as `premultipliedReference` (a test compares all channel and alpha values),
    /// without bounds checks, and opaque and clear pixels (most of a cut-out image), for which
    /// the formula gives the channels themselves and zero, without arithmetic.
    static func premultiplied(rgba: [UInt8], width: Int, height: Int) -> Image {
        let count = width * height
        guard count > 0, rgba.count >= count * 4 else { return premultipliedReference(rgba: rgba, width: width, height: height) }
        let pixels = [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
            rgba.withUnsafeBufferPointer { bytes in
                var s = bytes.baseAddress!
                for i in 0..<count {
                    let a = UInt32(s[3])
                    if a == 255 {
                        out[i] = 0xFF00_0000 | UInt32(s[0]) << 16 | UInt32(s[1]) << 8 | UInt32(s[2])
                    } else if a == 0 {
                        out[i] = 0
                    } else {
                        out[i] = a << 24 | premultiply(s[0], a) << 16 | premultiply(s[1], a) << 8 | premultiply(s[2], a)
                    }
                    s += 4
                }
            }
            initialized = count
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    @inline(__always) static func premultiply(_ v: UInt8, _ a: UInt32) -> UInt32 { (UInt32(v) * a + 127) / 255 }

    /// `premultiplied` pixel by pixel: the reference.
    static func premultipliedReference(rgba: [UInt8], width: Int, height: Int) -> Image {
        var pixels = [UInt32](repeating: 0, count: width * height)
        for i in 0..<(width * height) {
            let r = UInt32(rgba[i * 4]), g = UInt32(rgba[i * 4 + 1]), b = UInt32(rgba[i * 4 + 2]), a = UInt32(rgba[i * 4 + 3])
            pixels[i] = a << 24 | ((r * a + 127) / 255) << 16 | ((g * a + 127) / 255) << 8 | ((b * a + 127) / 255)
        }
        return Image(width: width, height: height, pixels: pixels)
    }
}

/// JPEG through libjpeg-turbo's TurboJPEG API.
public enum JPEG {
    public static func decode(_ bytes: [UInt8], maxPixels: Int = PNG.maxPixels) throws -> Image {
        guard let handle = tjInitDecompress() else { throw ImageDecodeError("JPEG: cannot start the decoder") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw ImageDecodeError("JPEG: \(message(handle))") }
        try ImageFile.checkSize(Int(width), Int(height), maxPixels: maxPixels, format: "JPEG")
        var rgba = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let status = bytes.withUnsafeBufferPointer { input in
            rgba.withUnsafeMutableBufferPointer { output in
                tjDecompress2(handle, input.baseAddress, UInt(input.count), output.baseAddress,
                              width, width * 4, height, Int32(TJPF_RGBA.rawValue), Int32(TJFLAG_ACCURATEDCT))
            }
        }
        // A warning (a truncated scan, say) still leaves a full picture; an error does not.
        if status != 0, tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
            throw ImageDecodeError("JPEG: \(message(handle))")
        }
        return ImageFile.premultiplied(rgba: rgba, width: Int(width), height: Int(height))
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "corrupt data" }
        return String(cString: text)
    }
}

/// WebP (lossy, lossless, with or without alpha) through libwebp.
public enum WebP {
    public static func decode(_ bytes: [UInt8], maxPixels: Int = PNG.maxPixels) throws -> Image {
        var width: Int32 = 0, height: Int32 = 0
        let known = bytes.withUnsafeBufferPointer { WebPGetInfo($0.baseAddress, $0.count, &width, &height) }
        guard known != 0 else { throw ImageDecodeError("WebP: not a readable WebP header") }
        try ImageFile.checkSize(Int(width), Int(height), maxPixels: maxPixels, format: "WebP")
        var rgba = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let decoded = bytes.withUnsafeBufferPointer { input in
            rgba.withUnsafeMutableBufferPointer { output in
                WebPDecodeRGBAInto(input.baseAddress, input.count, output.baseAddress, output.count, width * 4)
            }
        }
        guard decoded != nil else { throw ImageDecodeError("WebP: corrupt data") }
        return ImageFile.premultiplied(rgba: rgba, width: Int(width), height: Int(height))
    }
}
