import CCurl
import Foundation

/// Fetches files with libcurl's multi interface: every transfer advances inside `step`, which
/// the caller's loop (the frame loop) calls; no thread per transfer.
///
/// Each file grows in `DEST.part`; when complete it is fsync'd, checked against its SHA-256
/// and renamed over DEST in one step, so a failure of any kind leaves the old DEST as it was.
/// A dropped or stalled transfer is retried with back-off, resuming the `.part` with a Range
/// request; a server that ignores Range sends the whole file again.
///
/// Nothing in `step` waits on the network or on a whole file: the bytes are hashed as they are
/// written, and what is already on disk (the `.part` being resumed, a DEST that may already be
/// the wanted file) is hashed a bounded slice per step; a `.sha256` URL is one more transfer on
/// the same multi handle. The frame loop that calls `step` keeps its rate on a large file.
public final class DownloadSession {
    /// How long one `step` may spend hashing bytes already on disk or just received.
    public static let hashingBudget = 0.005
    public private(set) var status: DownloadStatus
    public let policy: DownloadPolicy
    private var transfers: [Transfer] = []
    private let multi: UnsafeMutableRawPointer

    public init(requests: [DownloadRequest], policy: DownloadPolicy = DownloadPolicy()) {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        self.policy = policy
        multi = curl_multi_init()!
        status = DownloadStatus(files: requests.map {
            FileStatus(request: $0, state: .queued, received: 0, expected: nil, cached: false)
        })
        transfers = requests.indices.map { Transfer(index: $0) }
    }

    deinit {
        for t in transfers {
            detach(t)
            t.closeFile()
            t.destinationCheck = nil
        }
        curl_multi_cleanup(multi)
    }

    public var isFinished: Bool { status.isFinished }

    /// Advances every transfer, waiting at most `timeout` seconds for network activity.
    /// Returns false once every file is done or failed.
    @discardableResult
    public func step(timeout: Double = 0) -> Bool {
        let now = Self.now()
        for t in transfers where t.handle == nil && t.checksumHandle == nil && t.destinationCheck == nil {
            switch status.files[t.index].state {
            case .queued: start(t)
            case .retrying: if now >= t.retryAt { start(t) }
            default: break
            }
        }
        // Bytes curl hands over during this perform are hashed as they are written, within the budget.
        let deadline = now + Self.hashingBudget
        for t in transfers { t.hashDeadline = deadline }
        var running: Int32 = 0
        curl_multi_perform(multi, &running)
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            if let t = transfers.first(where: { $0.handle == easy }) {
                finish(t, code: message.pointee.data.result)
            } else if let t = transfers.first(where: { $0.checksumHandle == easy }) {
                checksumFetched(t, code: message.pointee.data.result)
            }
        }
        for t in transfers where t.handle != nil { updateProgress(t) }
        syncSome()
        hashOnDisk(until: max(deadline, Self.now() + Self.hashingBudget / 2))
        if status.isFinished { return false }
        if timeout > 0 {
            // Hashing still to do on disk: come back at once rather than wait for the network.
            let busy = transfers.contains { $0.destinationCheck != nil || ($0.hasher != nil && $0.fd >= 0 && $0.hashed < $0.offset + $0.written) }
            if !busy {
                var fds: Int32 = 0
                curl_multi_poll(multi, nil, 0, Int32(max(1, min(timeout, 1) * 1000)), &fds)
            }
        }
        return true
    }

    /// Runs until every file is done or failed.
    public func run(progress: ((DownloadStatus) -> Void)? = nil) -> DownloadStatus {
        while step(timeout: 0.1) { progress?(status) }
        progress?(status)
        return status
    }

    /// Stops every transfer; `.part` files stay for a later resume.
    public func cancel() {
        for t in transfers where !isTerminal(status.files[t.index].state) {
            detach(t)
            t.closeFile()
            t.destinationCheck = nil
            status.files[t.index].state = .failed(.cancelled(url: status.files[t.index].request.url))
        }
    }

    // MARK: Transfers

    final class Transfer {
        let index: Int
        var handle: UnsafeMutableRawPointer?
        var fd: Int32 = -1
        /// Bytes already in the .part when this attempt started.
        var offset: Int64 = 0
        var written: Int64 = 0
        var attempt = 0
        var retryAt = 0.0
        var diskError: String?
        var restartedFromZero = false
        /// The hash of the .part's first `hashed` bytes, when a checksum is expected.
        var hasher: SHA256?
        var hashed: Int64 = 0
        /// Until when the write callback may hash what it writes (the step's budget); later
        /// bytes are caught up from the file on the next steps.
        var hashDeadline = 0.0
        /// The transfer is complete and fsync'd; verification waits for the hash to catch up.
        var awaitingHash = false
        /// How much of the .part is known to be on disk: what arrives is synced a few MB at a
        /// time, so the fsync before the rename has little left to write.
        var synced: Int64 = 0
        /// The `.sha256` URL's transfer and what it has sent.
        var checksumHandle: UnsafeMutableRawPointer?
        var checksumBytes: [UInt8] = []
        /// Hashing DEST, a slice per step, to see whether it is already the expected file.
        var destinationCheck: FileHasher?
        /// libcurl writes its error message here; it must outlive the handle.
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

        init(index: Int) {
            self.index = index
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        }

        deinit { errorBuffer.deallocate() }

        func closeFile() {
            if fd >= 0 { Glibc.close(fd); fd = -1 }
            awaitingHash = false
        }
    }

    /// Hashes a file from the start a slice at a time.
    final class FileHasher {
        let path: String
        let fd: Int32
        var hasher = SHA256()
        var position: Int64 = 0

        init(path: String) throws {
            fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw DownloadError.disk(path: path, reason: String(cString: strerror(errno))) }
            self.path = path
        }

        deinit { Glibc.close(fd) }

        /// Reads and hashes up to `limit` more bytes; returns the hex digest at the end of the file.
        func advance(limit: Int) throws -> String? {
            var buffer = [UInt8](repeating: 0, count: limit)
            let n = buffer.withUnsafeMutableBytes { Glibc.pread(fd, $0.baseAddress, limit, off_t(position)) }
            if n < 0 {
                if errno == EINTR { return nil }
                throw DownloadError.disk(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { return SHA256.hex(hasher.finalize()) }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
            position += Int64(n)
            return nil
        }
    }

    /// Bytes read and hashed per slice of the work on disk.
    static let hashSlice = 1 << 16

    private func isTerminal(_ s: FileStatus.State) -> Bool {
        if case .done = s { return true }
        if case .failed = s { return true }
        return false
    }

    private func start(_ t: Transfer) {
        if status.files[t.index].request.sha256 == nil, let checksumURL = status.files[t.index].request.checksumURL {
            startChecksumFetch(t, checksumURL)
            return
        }
        let request = status.files[t.index].request
        t.attempt += 1
        // A destination that already has the expected checksum needs no download: hashed a
        // slice per step (hashOnDisk), then `destinationChecked` decides.
        if t.attempt == 1, let _ = request.sha256, let check = try? FileHasher(path: request.destination) {
            t.destinationCheck = check
            status.files[t.index].state = .verifying
            return
        }
        beginTransfer(t)
    }

    /// DEST is hashed: the expected file needs nothing more; any other goes on to the download.
    private func destinationChecked(_ t: Transfer, digest: String?) {
        t.destinationCheck = nil
        let request = status.files[t.index].request
        if let digest, digest == request.sha256 {
            var st = stat()
            let size = stat(request.destination, &st) == 0 ? Int64(st.st_size) : 0
            status.files[t.index].received = size
            status.files[t.index].expected = size
            status.files[t.index].cached = true
            status.files[t.index].state = .done
            return
        }
        beginTransfer(t)
    }

    private func beginTransfer(_ t: Transfer) {
        let request = status.files[t.index].request
        let part = request.partPath
        let directory = (request.destination as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            fail(t, .disk(path: directory, reason: "the directory does not exist"))
            return
        }
        // Read too: the part already there (and bytes written past the step's hashing budget)
        // is hashed back from the file.
        t.fd = Glibc.open(part, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard t.fd >= 0 else {
            fail(t, .disk(path: part, reason: String(cString: strerror(errno))))
            return
        }
        var st = stat()
        fstat(t.fd, &st)
        t.offset = Int64(st.st_size)
        t.synced = t.offset
        t.written = 0
        t.diskError = nil
        t.restartedFromZero = false
        t.awaitingHash = false
        t.hasher = request.sha256 == nil ? nil : SHA256()
        t.hashed = 0
        guard let h = curl_easy_init() else {
            fail(t, .transfer(url: request.url, reason: "libcurl could not create a handle"))
            return
        }
        t.handle = h
        buoy_curl_set_str(h, CURLOPT_URL, request.url)
        buoy_curl_set_long(h, CURLOPT_FOLLOWLOCATION, 1)
        buoy_curl_set_long(h, CURLOPT_MAXREDIRS, policy.maxRedirects)
        buoy_curl_set_long(h, CURLOPT_FAILONERROR, 1)
        buoy_curl_set_long(h, CURLOPT_NOSIGNAL, 1)
        buoy_curl_set_long(h, CURLOPT_CONNECTTIMEOUT_MS, Int(policy.connectTimeout * 1000))
        buoy_curl_set_long(h, CURLOPT_LOW_SPEED_LIMIT, policy.lowSpeedLimit)
        buoy_curl_set_long(h, CURLOPT_LOW_SPEED_TIME, max(1, Int(policy.lowSpeedTime.rounded(.up))))
        buoy_curl_set_str(h, CURLOPT_USERAGENT, "buoy")
        t.errorBuffer[0] = 0
        buoy_curl_set_ptr(h, CURLOPT_ERRORBUFFER, t.errorBuffer)
        if t.offset > 0 { buoy_curl_set_off(h, CURLOPT_RESUME_FROM_LARGE, curl_off_t(t.offset)) }
        buoy_curl_set_ptr(h, CURLOPT_WRITEDATA, Unmanaged.passUnretained(t).toOpaque())
        buoy_curl_set_write(h) { data, size, count, user in
            guard let data, let user else { return 0 }
            let t = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            return DownloadSession.write(t, data, size * count)
        }
        status.files[t.index].state = .connecting
        status.files[t.index].received = t.offset
        curl_multi_add_handle(multi, h)
    }

    /// The write callback: append to the .part; a failed write aborts the transfer.
    static func write(_ t: Transfer, _ data: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
        if t.written == 0, t.offset > 0, let h = t.handle {
            // Asked for a range but got the whole file: start the .part again.
            var code = 0
            buoy_curl_get_long(h, CURLINFO_RESPONSE_CODE, &code)
            if code == 200 {
                ftruncate(t.fd, 0)
                t.offset = 0
                t.restartedFromZero = true
                if t.hasher != nil { t.hasher = SHA256(); t.hashed = 0 }
            }
        }
        var done = 0
        while done < length {
            let n = Glibc.write(t.fd, data + done, length - done)
            if n < 0 {
                if errno == EINTR { continue }
                t.diskError = String(cString: strerror(errno))
                return 0
            }
            done += n
        }
        // Hashed as it is written while the hash is caught up and the step has time left;
        // otherwise it is read back from the file later.
        if t.hasher != nil, t.hashed == t.offset + t.written, now() < t.hashDeadline {
            t.hasher!.update(UnsafeRawBufferPointer(start: data, count: length))
            t.hashed += Int64(length)
        }
        t.written += Int64(length)
        return length
    }

    private func updateProgress(_ t: Transfer) {
        guard let h = t.handle else { return }
        var length: curl_off_t = -1
        buoy_curl_get_off(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        if length >= 0 { status.files[t.index].expected = t.offset + Int64(length) }
        status.files[t.index].received = t.offset + t.written
        if t.written > 0 { status.files[t.index].state = .receiving }
    }

    private func detach(_ t: Transfer) {
        if let h = t.handle {
            curl_multi_remove_handle(multi, h)
            curl_easy_cleanup(h)
            t.handle = nil
        }
        if let h = t.checksumHandle {
            curl_multi_remove_handle(multi, h)
            curl_easy_cleanup(h)
            t.checksumHandle = nil
        }
    }

    private func finish(_ t: Transfer, code: CURLcode) {
        updateProgress(t)
        let request = status.files[t.index].request
        var httpStatus = 0
        if let h = t.handle { buoy_curl_get_long(h, CURLINFO_RESPONSE_CODE, &httpStatus) }
        let message = String(cString: t.errorBuffer)
        detach(t)
        if let diskError = t.diskError {
            t.closeFile()
            unlink(request.partPath)  // free the space; DEST is untouched
            fail(t, .disk(path: request.partPath, reason: diskError))
            return
        }
        if code != CURLE_OK {
            t.closeFile()
            let error: DownloadError
            if code == CURLE_RANGE_ERROR {
                // The server cannot continue the .part: fetch the whole file again.
                unlink(request.partPath)
                error = .transfer(url: request.url, reason: "the server cannot resume; starting over")
            } else if code == CURLE_HTTP_RETURNED_ERROR {
                if httpStatus == 416 {
                    // The .part is not a prefix the server can continue: start over.
                    unlink(request.partPath)
                    error = .transfer(url: request.url, reason: "range not satisfiable; restarting")
                } else {
                    error = .http(url: request.url, status: httpStatus)
                }
            } else {
                let text = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
                error = .transfer(url: request.url, reason: text)
            }
            retryOrFail(t, error)
            return
        }
        let received = t.offset + t.written
        if let expected = status.files[t.index].expected, received < expected {
            t.closeFile()
            retryOrFail(t, .incomplete(url: request.url, received: received, expected: expected))
            return
        }
        status.files[t.index].expected = status.files[t.index].expected ?? received
        status.files[t.index].state = .verifying
        if fsync(t.fd) != 0 {
            let reason = String(cString: strerror(errno))
            t.closeFile()
            unlink(request.partPath)
            fail(t, .disk(path: request.partPath, reason: "fsync failed: \(reason)"))
            return
        }
        if t.hasher != nil && t.hashed < received {
            // The rest is hashed from the file over the next steps (hashOnDisk), then placed.
            t.awaitingHash = true
            return
        }
        verifyAndPlace(t)
    }

    /// The .part is complete and fsync'd, and hashed when a checksum is expected: check it and
    /// rename it over DEST.
    private func verifyAndPlace(_ t: Transfer) {
        let request = status.files[t.index].request
        let digest = t.hasher.map { h -> String in var h = h; return SHA256.hex(h.finalize()) }
        t.closeFile()
        t.hasher = nil
        if let expected = request.sha256 {
            let actual = digest ?? ""
            guard actual == expected else {
                unlink(request.partPath)  // wrong bytes: do not resume from them
                fail(t, .checksum(path: request.destination, expected: expected, actual: actual))
                return
            }
        }
        guard rename(request.partPath, request.destination) == 0 else {
            fail(t, .disk(path: request.destination, reason: "cannot rename into place: \(String(cString: strerror(errno)))"))
            return
        }
        Self.syncDirectory(of: request.destination)
        status.files[t.index].state = .done
    }

    /// Bytes written and not yet synced that make one transfer sync them.
    static let syncSlice: Int64 = 1 << 20

    /// Writes one transfer's newly received bytes to disk once there are a few MB of them: a
    /// bounded wait now instead of one long fsync of the whole file at the end.
    private func syncSome() {
        guard let t = transfers.first(where: { $0.handle != nil && $0.fd >= 0 && $0.offset + $0.written - $0.synced >= Self.syncSlice }) else { return }
        // A failure here shows again in the fsync before the rename, which decides.
        if fdatasync(t.fd) == 0 { t.synced = t.offset + t.written }
    }

    /// Hashes what is on disk and not hashed yet — DEST being checked, the .part's resumed
    /// prefix, bytes written past a step's budget — in slices until `deadline`.
    private func hashOnDisk(until deadline: Double) {
        for t in transfers {
            if let check = t.destinationCheck {
                var digest: String?
                do {
                    while digest == nil && Self.now() < deadline { digest = try check.advance(limit: Self.hashSlice) }
                } catch {
                    destinationChecked(t, digest: nil)  // unreadable: download it again
                    continue
                }
                if let digest { destinationChecked(t, digest: digest) }
                continue
            }
            guard t.hasher != nil, t.fd >= 0 else { continue }
            let total = t.offset + t.written
            var buffer = [UInt8]()
            while t.hashed < total && Self.now() < deadline {
                let want = Int(min(Int64(Self.hashSlice), total - t.hashed))
                if buffer.count < want { buffer = [UInt8](repeating: 0, count: Self.hashSlice) }
                let n = buffer.withUnsafeMutableBytes { Glibc.pread(t.fd, $0.baseAddress, want, off_t(t.hashed)) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    let reason = n < 0 ? String(cString: strerror(errno)) : "the file is shorter than what was written"
                    let part = status.files[t.index].request.partPath
                    detach(t)
                    t.closeFile()
                    unlink(part)
                    fail(t, .disk(path: part, reason: "cannot read it back to hash it: \(reason)"))
                    break
                }
                buffer.withUnsafeBytes { t.hasher!.update(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
                t.hashed += Int64(n)
            }
            if t.awaitingHash && t.hasher != nil && t.hashed == total { verifyAndPlace(t) }
        }
    }

    private func retryOrFail(_ t: Transfer, _ error: DownloadError) {
        guard error.isTransient, t.attempt < policy.maxAttempts else {
            fail(t, error)
            return
        }
        let delay = min(policy.maxRetryDelay, policy.retryDelay * pow(2, Double(t.attempt - 1)))
        t.retryAt = Self.now() + delay
        status.files[t.index].state = .retrying(attempt: t.attempt + 1)
    }

    private func fail(_ t: Transfer, _ error: DownloadError) {
        detach(t)
        t.closeFile()
        // A .part with bytes in it stays for a later resume; an empty one (a 404, a refused
        // connection) would only be litter beside DEST.
        let part = status.files[t.index].request.partPath
        var info = stat()
        if stat(part, &info) == 0, info.st_size == 0 { unlink(part) }
        status.files[t.index].state = .failed(error)
    }

    // MARK: Helpers

    /// Starts fetching a small `.sha256` file on the multi handle (short timeouts: it is a few
    /// bytes); `checksumFetched` takes the digest and starts the file.
    private func startChecksumFetch(_ t: Transfer, _ url: String) {
        guard let h = curl_easy_init() else {
            t.attempt += 1
            retryOrFail(t, .transfer(url: url, reason: "libcurl could not create a handle"))
            return
        }
        t.checksumHandle = h
        t.checksumBytes = []
        t.errorBuffer[0] = 0
        buoy_curl_set_str(h, CURLOPT_URL, url)
        buoy_curl_set_long(h, CURLOPT_FOLLOWLOCATION, 1)
        buoy_curl_set_long(h, CURLOPT_MAXREDIRS, policy.maxRedirects)
        buoy_curl_set_long(h, CURLOPT_FAILONERROR, 1)
        buoy_curl_set_long(h, CURLOPT_NOSIGNAL, 1)
        buoy_curl_set_long(h, CURLOPT_CONNECTTIMEOUT_MS, Int(min(policy.connectTimeout, 5) * 1000))
        buoy_curl_set_long(h, CURLOPT_TIMEOUT_MS, 10_000)
        buoy_curl_set_str(h, CURLOPT_USERAGENT, "buoy")
        buoy_curl_set_ptr(h, CURLOPT_ERRORBUFFER, t.errorBuffer)
        buoy_curl_set_ptr(h, CURLOPT_WRITEDATA, Unmanaged.passUnretained(t).toOpaque())
        buoy_curl_set_write(h) { data, size, count, user in
            guard let data, let user else { return 0 }
            let t = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            guard t.checksumBytes.count < 1 << 16 else { return 0 }  // not a checksum file
            data.withMemoryRebound(to: UInt8.self, capacity: size * count) { t.checksumBytes += UnsafeBufferPointer(start: $0, count: size * count) }
            return size * count
        }
        status.files[t.index].state = .connecting
        curl_multi_add_handle(multi, h)
    }

    /// The `.sha256` transfer ended: with a digest the file starts at once; otherwise it is an
    /// attempt that failed (retried like the file's own).
    private func checksumFetched(_ t: Transfer, code: CURLcode) {
        guard let h = t.checksumHandle, let url = status.files[t.index].request.checksumURL else { return }
        var httpStatus = 0
        buoy_curl_get_long(h, CURLINFO_RESPONSE_CODE, &httpStatus)
        let message = String(cString: t.errorBuffer)
        curl_multi_remove_handle(multi, h)
        curl_easy_cleanup(h)
        t.checksumHandle = nil
        let result = code == CURLE_OK ? Self.digest(in: t.checksumBytes, url: url)
            : .failure(code == CURLE_HTTP_RETURNED_ERROR ? .http(url: url, status: httpStatus)
                : .transfer(url: url, reason: message.isEmpty ? String(cString: curl_easy_strerror(code)) : message))
        t.checksumBytes = []
        switch result {
        case .success(let digest):
            status.files[t.index].request.sha256 = digest
            start(t)
        case .failure(let error):
            t.attempt += 1
            retryOrFail(t, error)
        }
    }

    /// The first 64-hex-digit word of a checksum file (`sha256sum` output or the bare digest).
    static func digest(in bytes: [UInt8], url: String) -> Result<String, DownloadError> {
        let text = String(decoding: bytes, as: UTF8.self)
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "*" || $0 == "\r" })
        where word.count == 64 && word.allSatisfy(\.isHexDigit) {
            return .success(word.lowercased())
        }
        return .failure(.transfer(url: url, reason: "no SHA-256 digest in the checksum file"))
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The rename is durable only once the directory entry is on disk.
    static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = Glibc.open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); Glibc.close(fd) }
    }

    public static func sha256(ofFile path: String) throws -> String {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DownloadError.disk(path: path, reason: String(cString: strerror(errno))) }
        defer { Glibc.close(fd) }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw DownloadError.disk(path: path, reason: String(cString: strerror(errno))) }
            if n == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
        }
        return SHA256.hex(hasher.finalize())
    }
}
