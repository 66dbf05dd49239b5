import FoundationEssentials
import Glibc
import Posix

/// The file's bytes, read one past `limit` so that a file that grew since its size was checked
/// is still caught; a read error gives no bytes (the parser then reports the file empty).
func readFile(_ path: String, limit: Int) throws -> Data {
    let fd = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else {
        let exists = FileManager.default.fileExists(atPath: path)
        throw ParseError(file: path, jsonPath: "", reason: exists ? "cannot open the file (permission?)" : "no such file")
    }
    defer { close(fd) }
    var data = Data()
    data.reserveCapacity(min(fileSize(atPath: path) ?? 0, limit) + 1)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while data.count <= limit {
        let wanted = min(chunk.count, limit + 1 - data.count)
        let n = retryingInterrupts { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, wanted) } }
        if n < 0 { return Data() }
        if n == 0 { break }
        data.append(contentsOf: chunk[..<n])
    }
    return data
}
