import CCurl
import Glibc
import Posix

/// Fetches files with libcurl's multi interface: every transfer advances inside `step` (or,
/// driven by the caller's event loop, `socketAction` and `timerFired`); no thread per transfer.
///
/// Each file grows in `DEST.part`, opened without following a link and locked (flock) for the
/// whole transfer, retries included, so two fetches to one DEST never write one file. When
/// complete it is fsync'd, checked against its SHA-256 and renamed over DEST in one step in
/// the directory opened at the start, so a failure of any kind leaves the old DEST as it was.
/// A dropped or stalled transfer is retried with back-off (or the server's Retry-After),
/// resuming the `.part` with a Range request; a server that answers a Range with the whole file
/// (200) makes the `.part` start again from zero.
///
/// Nothing in a call waits on the network or on a whole file: the bytes are hashed as they are
/// written, and what is already on disk (the `.part` being resumed, a DEST that may already be
/// the wanted file) is hashed a bounded slice per call; a `.sha256` URL is one more transfer on
/// the same multi handle. The frame loop that calls `step` keeps its rate on a large file.
public final class DownloadSession {
    /// How long one call may spend hashing bytes already on disk or just received.
    public static let hashingBudget = 0.005
    public internal(set) var status: DownloadStatus
    public let policy: DownloadPolicy
    var transfers: [Transfer] = []
    /// nil when libcurl could not be loaded: every transfer then fails with the loader's reason.
    let multi: UnsafeMutableRawPointer?
    /// Set by `useEventLoop`: the caller's callbacks and curl's last timer request.
    var eventLoop: EventLoop?

    public init(requests: [DownloadRequest], policy: DownloadPolicy = DownloadPolicy()) {
        buoy_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        self.policy = policy
        multi = buoy_curl_multi_init()
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
        buoy_curl_multi_cleanup(multi)
    }

    public var isFinished: Bool { status.isFinished }

    /// Advances every transfer, waiting at most `timeout` seconds for network activity.
    /// Returns false once every file is done or failed. (Polling mode: not mixed with
    /// `useEventLoop`.)
    @discardableResult
    public func step(timeout: Double = 0) -> Bool {
        let deadline = prepare()
        var running: Int32 = 0
        buoy_curl_multi_perform(multi, &running)
        complete(hashingUntil: deadline)
        if status.isFinished { return false }
        if timeout > 0 && !hasWorkOnDisk {
            var fds: Int32 = 0
            buoy_curl_multi_poll(multi, nil, 0, Int32(max(1, min(timeout, 1) * 1000)), &fds)
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
        eventLoop?.reschedule(self)
    }

    // MARK: The one path both modes share

    /// Before curl runs: starts what is due and gives the write callbacks their hashing budget.
    func prepare() -> Double {
        let now = Monotonic.now()
        for t in transfers where t.handle == nil && t.checksumHandle == nil && t.destinationCheck == nil && !t.prefixCheck {
            switch status.files[t.index].state {
            case .queued: start(t)
            case .retrying: if now >= t.retryAt { start(t) }
            default: break
            }
        }
        // Bytes curl hands over during this call are hashed as they are written, within the budget.
        let deadline = now + Self.hashingBudget
        for t in transfers { t.hashDeadline = deadline }
        return deadline
    }

    /// After curl ran: finished transfers, progress, a slice of syncing and of hashing on disk.
    func complete(hashingUntil deadline: Double) {
        var queued: Int32 = 0
        while let message = buoy_curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            if let t = transfers.first(where: { $0.handle == easy }) {
                finish(t, code: message.pointee.data.result)
            } else if let t = transfers.first(where: { $0.checksumHandle == easy }) {
                checksumFetched(t, code: message.pointee.data.result)
            }
        }
        for t in transfers where t.handle != nil { updateProgress(t) }
        syncSome()
        hashOnDisk(until: max(deadline, Monotonic.now() + Self.hashingBudget / 2))
        eventLoop?.reschedule(self)
    }

    /// Hashing still to do on disk: the caller should come back at once rather than wait for
    /// the network.
    var hasWorkOnDisk: Bool {
        transfers.contains { $0.destinationCheck != nil || ($0.hasher != nil && $0.fd >= 0 && $0.hashed < $0.offset + $0.written) }
    }

    /// When the next retry is due (monotonic seconds), if one is waiting.
    var nextRetry: Double? {
        transfers.filter { t in
            if case .retrying = status.files[t.index].state { return t.handle == nil && t.checksumHandle == nil }
            return false
        }.map(\.retryAt).min()
    }

    // MARK: Transfers

    /// Bytes read and hashed per slice of the work on disk.
    static let hashSlice = 1 << 16

    func isTerminal(_ s: FileStatus.State) -> Bool {
        if case .done = s { return true }
        if case .failed = s { return true }
        return false
    }

    func start(_ t: Transfer) {
        let request = status.files[t.index].request
        if t.placement == nil {
            // Checked once, before anything is fetched or written.
            for url in [request.url] + (request.checksumURL.map { [$0] } ?? []) {
                if let refusal = Self.schemeRefusal(url, allowsFile: request.allowsFileScheme) { return fail(t, refusal) }
            }
            do { t.placement = try Placement.open(request) } catch { return fail(t, Self.downloadError(error, request)) }
        }
        if request.sha256 == nil, let checksumURL = request.checksumURL {
            startChecksumFetch(t, checksumURL)
            return
        }
        t.attempt += 1
        // A destination that already has the expected checksum needs no download: hashed a
        // slice per call (hashOnDisk), then `destinationChecked` decides.
        if t.attempt == 1, request.sha256 != nil, let placement = t.placement, let check = FileHasher(placement) {
            t.destinationCheck = check
            status.files[t.index].state = .verifying
            return
        }
        beginTransfer(t)
    }

    /// DEST is hashed: the expected file needs nothing more; any other goes on to the download.
    private func destinationChecked(_ t: Transfer, digest: String?, size: Int64) {
        t.destinationCheck = nil
        if let digest, digest == status.files[t.index].request.sha256 {
            status.files[t.index].received = size
            status.files[t.index].expected = size
            status.files[t.index].cached = true
            status.files[t.index].state = .done
            return
        }
        beginTransfer(t)
    }

    /// Opens and locks the `.part` (kept open and locked across retries), then either checks a
    /// `.part` already there against the checksum before asking the server anything, or starts
    /// the request.
    private func beginTransfer(_ t: Transfer) {
        guard let placement = t.placement else { return }
        if t.fd < 0 {
            do { t.fd = try placement.openPart() } catch { return fail(t, Self.downloadError(error, status.files[t.index].request)) }
        }
        var st = stat()
        fstat(t.fd, &st)
        t.offset = Int64(st.st_size)
        t.synced = t.offset
        t.written = 0
        t.diskError = nil
        t.rangeMismatch = false
        t.responseChecked = false
        t.awaitingHash = false
        t.hasher = status.files[t.index].request.sha256 == nil ? nil : SHA256()
        t.hashed = 0
        status.files[t.index].received = t.offset
        status.files[t.index].retryDelay = nil
        if t.hasher != nil && t.offset > 0 {
            // A `.part` that is already the whole file is installed without a request (a
            // server ignoring Range would otherwise send it all again, or fail).
            t.prefixCheck = true
            status.files[t.index].state = .verifying
            return
        }
        startRequest(t)
    }

    /// The `.part` present before the request is hashed: the expected file is installed, any
    /// other prefix is resumed (the hash so far carries on with the bytes that arrive).
    private func prefixChecked(_ t: Transfer) {
        t.prefixCheck = false
        guard var copy = t.hasher else { return }
        if SHA256.hex(copy.finalize()) == status.files[t.index].request.sha256 {
            status.files[t.index].expected = t.offset
            status.files[t.index].received = t.offset
            if fsync(t.fd) != 0 { return fail(t, .disk(path: t.placement?.shownPart ?? "", reason: "fsync failed", errno: errno)) }
            verifyAndPlace(t)
            return
        }
        startRequest(t)
    }

    func updateProgress(_ t: Transfer) {
        guard let h = t.handle else { return }
        var length: curl_off_t = -1
        buoy_curl_get_off(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        var code = 0
        buoy_curl_get_long(h, CURLINFO_RESPONSE_CODE, &code)
        // A 200 is the whole file whatever was asked; a 206 continues the `.part`.
        if length >= 0 { status.files[t.index].expected = (code == 200 ? 0 : t.offset) + Int64(length) }
        status.files[t.index].received = t.offset + t.written
        if t.written > 0 { status.files[t.index].state = .receiving }
    }

    func detach(_ t: Transfer) {
        if let h = t.handle {
            buoy_curl_multi_remove_handle(multi, h)
            buoy_curl_easy_cleanup(h)
            t.handle = nil
        }
        if let h = t.checksumHandle {
            buoy_curl_multi_remove_handle(multi, h)
            buoy_curl_easy_cleanup(h)
            t.checksumHandle = nil
        }
    }

    /// The `.part` starts again from zero (still ours: the lock is held).
    func truncatePart(_ t: Transfer) {
        if t.fd >= 0 { ftruncate(t.fd, 0) }
    }

    private func finish(_ t: Transfer, code: CURLcode) {
        updateProgress(t)
        let request = status.files[t.index].request
        var httpStatus = 0
        var retryAfter: curl_off_t = 0
        if let h = t.handle {
            buoy_curl_get_long(h, CURLINFO_RESPONSE_CODE, &httpStatus)
            buoy_curl_get_off(h, CURLINFO_RETRY_AFTER, &retryAfter)
        }
        let message = String(cString: t.errorBuffer)
        detach(t)
        let part = t.placement?.shownPart ?? request.partPath
        if let diskError = t.diskError {
            // What is in the `.part` is good: it stays for a resume once there is room.
            return fail(t, .disk(path: part, reason: "cannot write (the .part is kept to resume)", errno: diskError))
        }
        if t.rangeMismatch {
            truncatePart(t)
            return retryOrFail(t, .transfer(url: request.url, reason: "the server sent another range than the one asked; starting over"))
        }
        if code != CURLE_OK {
            if let error = transferError(t, code: code, httpStatus: httpStatus, message: message, retryAfter: Int64(retryAfter)) {
                return retryOrFail(t, error)
            }
        } else if httpStatus == 200 && t.offset > 0 && !t.responseChecked {
            // The whole file, empty, in answer to a Range: what was in the `.part` is not it.
            truncatePart(t)
            t.offset = 0
        }
        let received = t.offset + t.written
        if let expected = status.files[t.index].expected, received < expected {
            return retryOrFail(t, .incomplete(url: request.url, received: received, expected: expected))
        }
        status.files[t.index].expected = status.files[t.index].expected ?? received
        status.files[t.index].state = .verifying
        if fsync(t.fd) != 0 {
            return fail(t, .disk(path: part, reason: "fsync failed", errno: errno))
        }
        if t.hasher != nil && t.hashed < received {
            // The rest is hashed from the file over the next calls (hashOnDisk), then placed.
            t.awaitingHash = true
            return
        }
        verifyAndPlace(t)
    }

    /// The error a failed transfer is retried or failed with; nil when the `.part` turns out to
    /// be complete (a 416 whose Content-Range says the file is as long as it) and the file
    /// goes on to be placed.
    private func transferError(_ t: Transfer, code: CURLcode, httpStatus: Int, message: String, retryAfter: Int64) -> DownloadError? {
        let url = status.files[t.index].request.url
        let text = message.isEmpty ? String(cString: buoy_curl_easy_strerror(code)) : message
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .refused(path: url, reason: "\(text) (only http and https, and never file through a redirect)")
        case CURLE_RANGE_ERROR:
            truncatePart(t)
            return .transfer(url: url, reason: "the server cannot resume; starting over")
        case CURLE_HTTP_RETURNED_ERROR where httpStatus == 416:
            if t.offset > 0, t.rangeTotal == t.offset, status.files[t.index].request.sha256 == nil {
                status.files[t.index].expected = t.offset
                return nil
            }
            // The `.part` is not a prefix the server can continue: start over.
            truncatePart(t)
            return .transfer(url: url, reason: "range not satisfiable; restarting")
        case CURLE_HTTP_RETURNED_ERROR:
            if (httpStatus == 429 || httpStatus == 503) && retryAfter > 0 { t.retryAfter = Double(retryAfter) }
            return .http(url: url, status: httpStatus)
        default:
            return .transfer(url: url, reason: text)
        }
    }

    /// The .part is complete and fsync'd, and hashed when a checksum is expected: check it and
    /// rename it over DEST (still holding its lock), then let it go.
    func verifyAndPlace(_ t: Transfer) {
        let request = status.files[t.index].request
        let digest = t.hasher.map { h -> String in var h = h; return SHA256.hex(h.finalize()) }
        t.hasher = nil
        guard let placement = t.placement else { return }
        if let expected = request.sha256 {
            let actual = digest ?? ""
            guard actual == expected else {
                placement.unlinkPart()  // wrong bytes: do not resume from them
                t.closeFile()
                return fail(t, .checksum(path: placement.shown, expected: expected, actual: actual))
            }
        }
        do { try placement.installPart() } catch { return fail(t, Self.downloadError(error, request)) }
        t.closeFile()
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
    /// prefix, bytes written past a call's budget — in slices until `deadline`.
    private func hashOnDisk(until deadline: Double) {
        for t in transfers {
            if let check = t.destinationCheck {
                var digest: String?
                do {
                    while digest == nil && Monotonic.now() < deadline { digest = try check.advance(limit: Self.hashSlice) }
                } catch {
                    destinationChecked(t, digest: nil, size: 0)  // unreadable: download it again
                    continue
                }
                if let digest { destinationChecked(t, digest: digest, size: check.position) }
                continue
            }
            guard t.hasher != nil, t.fd >= 0 else { continue }
            hashPart(t, until: deadline)
            if t.prefixCheck && t.hasher != nil && t.hashed == t.offset { prefixChecked(t) }
            if t.awaitingHash && t.hasher != nil && t.hashed == t.offset + t.written { verifyAndPlace(t) }
        }
    }

    /// Reads back and hashes the `.part`'s bytes not hashed yet, until `deadline`.
    private func hashPart(_ t: Transfer, until deadline: Double) {
        let total = t.offset + t.written
        var buffer = [UInt8]()
        while t.hashed < total && Monotonic.now() < deadline {
            let want = Int(min(Int64(Self.hashSlice), total - t.hashed))
            if buffer.count < want { buffer = [UInt8](repeating: 0, count: Self.hashSlice) }
            let n = retryingInterrupts { buffer.withUnsafeMutableBytes { Glibc.pread(t.fd, $0.baseAddress, want, off_t(t.hashed)) } }
            guard n > 0 else {
                let error: Int32? = n < 0 ? errno : nil
                t.placement?.unlinkPart()
                t.prefixCheck = false
                let reason = error == nil ? "cannot read it back to hash it: the file is shorter than what was written" : "cannot read it back to hash it"
                return fail(t, .disk(path: t.placement?.shownPart ?? "", reason: reason, errno: error))
            }
            buffer.withUnsafeBytes { t.hasher!.update(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
            t.hashed += Int64(n)
        }
    }

    func retryOrFail(_ t: Transfer, _ error: DownloadError) {
        guard error.isTransient, t.attempt < policy.maxAttempts else { return fail(t, error) }
        var delay = min(policy.maxRetryDelay, policy.retryDelay * pow(2, Double(t.attempt - 1)))
        // The server's own wait, within the policy's bound.
        if let asked = t.retryAfter { delay = max(delay, min(asked, policy.maxRetryAfter)) }
        t.retryAfter = nil
        t.retryAt = Monotonic.now() + delay
        status.files[t.index].retryDelay = delay
        status.files[t.index].state = .retrying(attempt: t.attempt + 1)
    }

    func fail(_ t: Transfer, _ error: DownloadError) {
        detach(t)
        t.prefixCheck = false
        // A .part with bytes in it stays for a later resume; an empty one (a 404, a refused
        // connection) would only be litter beside DEST. Only ours, while its lock is held.
        if t.fd >= 0 {
            var info = stat()
            if fstat(t.fd, &info) == 0, info.st_size == 0 { t.placement?.unlinkPart() }
        }
        t.closeFile()
        status.files[t.index].state = .failed(error)
    }

    // MARK: Helpers

    static func downloadError(_ error: Error, _ request: DownloadRequest) -> DownloadError {
        if let error = error as? DownloadError { return error }
        if let error = error as? SystemError { return .disk(path: error.path, reason: "\(error.operation) failed", errno: error.errno) }
        return .disk(path: request.shownDestination, reason: "\(error)")
    }

    public static func sha256(ofFile path: String) throws -> String {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DownloadError.disk(path: path, reason: "cannot open", errno: errno) }
        defer { Glibc.close(fd) }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = retryingInterrupts { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
            if n < 0 { throw DownloadError.disk(path: path, reason: "cannot read", errno: errno) }
            if n == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
        }
        return SHA256.hex(hasher.finalize())
    }
}
