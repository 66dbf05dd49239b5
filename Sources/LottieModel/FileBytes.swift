import FoundationEssentials
import Glibc
import Posix

/// The file's bytes, read one past `limit` so that a file that grew since its size was checked
/// is still caught; a read error gives no bytes (the parser then reports the file empty).
/// `expectedSize` (what stat gave) sizes the buffer the file is read straight into: no
/// bounce buffer, whose zeroing, copy and fresh pages were paid at every start.
func readFile(_ path: String, limit: Int, expectedSize: Int? = nil) throws -> Data {
    let fd = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else {
        let exists = FileManager.default.fileExists(atPath: path)
        throw ParseError(file: path, jsonPath: "", reason: exists ? "cannot open the file (permission?)" : "no such file")
    }
    defer { close(fd) }
    // One byte more than expected: reading it tells a file that grew.
    var data = Data(count: min(max(expectedSize ?? fileSize(atPath: path) ?? 0, 0), limit) + 1)
    let capacity = data.count
    var filled = 0
    while filled < capacity {
        let n = retryingInterrupts { data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) } }
        if n < 0 { return Data() }
        if n == 0 { break }
        filled += n
    }
    data.count = filled
    guard filled == capacity, filled <= limit else { return data }
    // The file is longer than stat said: the rest in chunks, up to one byte past the limit.
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
