import CJPEG
import CWebP
import XCTest
@testable import Raster

/// JPEG and WebP decoding (issue 11): told by their first bytes, sizes refused from the header
/// before pixels are allocated, corrupt data an error rather than a crash.
final class ImageFormatTests: XCTestCase {
    /// A 16x8 picture: left half red, right half blue, straight RGBA.
    static func halves(alpha: UInt8 = 255) -> [UInt8] {
        var rgba: [UInt8] = []
        for _ in 0..<8 {
            for x in 0..<16 { rgba += x < 8 ? [255, 0, 0, alpha] : [0, 0, 255, alpha] }
        }
        return rgba
    }

    static func jpeg(_ rgba: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = rgba.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(width), Int32(width * 4), Int32(height), Int32(TJPF_RGBA.rawValue),
                        &output, &size, Int32(TJSAMP_444.rawValue), 95, 0)
        }
        XCTAssertEqual(status, 0)
        defer { tjFree(output) }
        return Array(UnsafeBufferPointer(start: try XCTUnwrap(output), count: Int(size)))
    }

    static func webpLossless(_ rgba: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>? = nil
        let size = rgba.withUnsafeBufferPointer {
            WebPEncodeLosslessRGBA($0.baseAddress, Int32(width), Int32(height), Int32(width * 4), &output)
        }
        XCTAssertGreaterThan(size, 0)
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: try XCTUnwrap(output), count: size))
    }

    func testFormatsAreToldByTheirFirstBytes() throws {
        XCTAssertEqual(ImageFormat(sniffing: try Self.jpeg(Self.halves(), width: 16, height: 8)), .jpeg)
        XCTAssertEqual(ImageFormat(sniffing: try Self.webpLossless(Self.halves(), width: 16, height: 8)), .webp)
        XCTAssertEqual(ImageFormat(sniffing: try PNG.encode(Surface(width: 2, height: 2, clearColor: .white))), .png)
        XCTAssertNil(ImageFormat(sniffing: Array("GIF89a".utf8)))
        XCTAssertNil(ImageFormat(sniffing: []))
        XCTAssertThrowsError(try ImageFile.decode(Array("<svg/>".utf8)))
    }

    func testJPEGDecodesOpaqueColours() throws {
        let image = try ImageFile.decode(try Self.jpeg(Self.halves(), width: 16, height: 8))
        XCTAssertEqual(image.width, 16)
        XCTAssertEqual(image.height, 8)
        let left = image.pixels[4 * 16 + 2], right = image.pixels[4 * 16 + 13]
        XCTAssertEqual(left >> 24, 255)
        XCTAssertGreaterThan((left >> 16) & 255, 240)
        XCTAssertLessThan(left & 255, 16)
        XCTAssertGreaterThan(right & 255, 240)
        XCTAssertLessThan((right >> 16) & 255, 16)
    }

    func testWebPLosslessDecodesExactPremultipliedPixels() throws {
        let image = try ImageFile.decode(try Self.webpLossless(Self.halves(alpha: 128), width: 16, height: 8))
        XCTAssertEqual(image.width, 16)
        XCTAssertEqual(image.pixels[0], 0x80_80_00_00)
        XCTAssertEqual(image.pixels[15], 0x80_00_00_80)
    }

    func testSizesBeyondTheBudgetAreRefusedFromTheHeader() throws {
        let jpeg = try Self.jpeg(Self.halves(), width: 16, height: 8)
        XCTAssertThrowsError(try ImageFile.decode(jpeg, maxPixels: 100)) { error in
            XCTAssertTrue("\(error)".contains("16x8"), "\(error)")
        }
        let webp = try Self.webpLossless(Self.halves(), width: 16, height: 8)
        XCTAssertThrowsError(try ImageFile.decode(webp, maxPixels: 100))
        // A JPEG whose frame header claims 65000x65000: refused before 16 GB are asked for.
        var huge = jpeg
        let sof = try XCTUnwrap((0..<(huge.count - 9)).first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
        huge[sof + 5] = 0xFD; huge[sof + 6] = 0xE8; huge[sof + 7] = 0xFD; huge[sof + 8] = 0xE8
        XCTAssertThrowsError(try ImageFile.decode(huge)) { error in
            XCTAssertTrue("\(error)".contains("out of range"), "\(error)")
        }
    }

    func testTruncatedAndCorruptDataAreErrors() throws {
        let jpeg = try Self.jpeg(Self.halves(), width: 16, height: 8)
        let webp = try Self.webpLossless(Self.halves(), width: 16, height: 8)
        for cut in [3, 12, 40] {
            XCTAssertThrowsError(try ImageFile.decode(Array(jpeg.prefix(cut))))
            XCTAssertThrowsError(try ImageFile.decode(Array(webp.prefix(cut))))
        }
        var garbled = webp
        for i in 30..<garbled.count { garbled[i] = UInt8(truncatingIfNeeded: i * 37) }
        XCTAssertThrowsError(try ImageFile.decode(garbled))
    }
}
