import CCurl
import Glibc
import Posix

extension DownloadSession {
    /// One file's transfer state across its attempts.
    final class Transfer {
        let index: Int
        var handle: UnsafeMutableRawPointer?
        /// DEST's directory, opened at the first attempt; everything is relative to it.
        var placement: Placement?
        /// The locked `.part`, open from the first request to the end (retries included).
        var fd: Int32 = -1
        /// Bytes already in the .part when this attempt started.
        var offset: Int64 = 0
        var written: Int64 = 0
        var attempt = 0
        var retryAt = 0.0
        /// A server's Retry-After (seconds) for the next retry's wait.
        var retryAfter: Double?
        var diskError: Int32?
        /// The response's status was looked at on its first bytes (200 to a Range: start over).
        var responseChecked = false
        /// A 206 whose Content-Range does not start where the `.part` ends.
        var rangeMismatch = false
        /// The current response's Content-Range: first byte and total size.
        var rangeStart: Int64?
        var rangeTotal: Int64?
        /// The hash of the .part's first `hashed` bytes, when a checksum is expected.
        var hasher: SHA256?
        var hashed: Int64 = 0
        /// The `.part` there before the request is being hashed, to install it if complete.
        var prefixCheck = false
        /// Until when the write callback may hash what it writes (the call's budget); later
        /// bytes are caught up from the file on the next calls.
        var hashDeadline = 0.0
        /// The transfer is complete and fsync'd; verification waits for the hash to catch up.
        var awaitingHash = false
        /// How much of the .part is known to be on disk: what arrives is synced a few MB at a
        /// time, so the fsync before the rename has little left to write.
        var synced: Int64 = 0
        /// The `.sha256` URL's transfer and what it has sent.
        var checksumHandle: UnsafeMutableRawPointer?
        var checksumBytes: [UInt8] = []
        /// Hashing DEST, a slice per call, to see whether it is already the expected file.
        var destinationCheck: FileHasher?
        /// libcurl writes its error message here; it must outlive the handle.
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

        init(index: Int) {
            self.index = index
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        }

        deinit { errorBuffer.deallocate() }

        /// Closes the `.part`, which releases its lock.
        func closeFile() {
            if fd >= 0 { Glibc.close(fd); fd = -1 }
            awaitingHash = false
        }
    }

    /// Hashes DEST from the start a slice at a time (only a regular file).
    final class FileHasher {
        let path: String
        let fd: Int32
        var hasher = SHA256()
        var position: Int64 = 0

        init?(_ placement: Placement) {
            fd = placement.openDestination()
            guard fd >= 0 else { return nil }
            var st = stat()
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
                Glibc.close(fd)
                return nil
            }
            path = placement.shown
        }

        deinit { Glibc.close(fd) }

        /// Reads and hashes up to `limit` more bytes; returns the hex digest at the end of the file.
        func advance(limit: Int) throws -> String? {
            var buffer = [UInt8](repeating: 0, count: limit)
            let n = retryingInterrupts { buffer.withUnsafeMutableBytes { Glibc.pread(fd, $0.baseAddress, limit, off_t(position)) } }
            if n < 0 {
                throw DownloadError.disk(path: path, reason: "cannot read it", errno: errno)
            }
            if n == 0 { return SHA256.hex(hasher.finalize()) }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
            position += Int64(n)
            return nil
        }
    }
}
