import CCurl
import Glibc
import Posix

/// The libcurl side: handles, what they may speak, and the callbacks that receive bytes.
extension DownloadSession {
    /// A URL whose scheme may not be fetched, as the error to fail with before any transfer:
    /// http and https always, file only when the request allows it (the operator's own URL).
    static func schemeRefusal(_ url: String, allowsFile: Bool) -> DownloadError? {
        guard let separator = url.firstRange(of: "://") else {
            return .refused(path: url, reason: "not an http:// or https:// URL")
        }
        let scheme = url[..<separator.lowerBound].lowercased()
        if scheme == "http" || scheme == "https" || (scheme == "file" && allowsFile) { return nil }
        if scheme == "file" { return .refused(path: url, reason: "file:// is accepted only for a URL given on the command line") }
        return .refused(path: url, reason: "the scheme is not allowed (http and https only)")
    }

    /// What every handle shares: the protocols it may speak and follow, timeouts, the CA file.
    func configure(_ h: UnsafeMutableRawPointer, url: String, allowsFile: Bool, t: Transfer) {
        buoy_curl_set_str(h, CURLOPT_URL, url)
        // Checked up front too (`schemeRefusal`); curl enforces it, and a redirect may lead to
        // http or https only, never to file: or any other scheme libcurl speaks.
        buoy_curl_set_str(h, CURLOPT_PROTOCOLS_STR, allowsFile ? "http,https,file" : "http,https")
        buoy_curl_set_str(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        buoy_curl_set_long(h, CURLOPT_FOLLOWLOCATION, 1)
        buoy_curl_set_long(h, CURLOPT_MAXREDIRS, policy.maxRedirects)
        buoy_curl_set_long(h, CURLOPT_FAILONERROR, 1)
        buoy_curl_set_long(h, CURLOPT_NOSIGNAL, 1)
        buoy_curl_set_str(h, CURLOPT_USERAGENT, "buoy")
        if let caFile = policy.caFile { buoy_curl_set_str(h, CURLOPT_CAINFO, caFile) }
        t.errorBuffer[0] = 0
        buoy_curl_set_ptr(h, CURLOPT_ERRORBUFFER, t.errorBuffer)
    }

    /// Why libcurl gave no handle: the library could not be loaded (the loader says why: not
    /// installed, too old), or it refused one.
    static func noHandleReason() -> String {
        buoy_curl_unavailable().map { String(cString: $0) } ?? "libcurl could not create a handle"
    }

    /// Starts the file's request, continuing the `.part` from its end with a Range header (set
    /// by hand: curl's own resume fails a 200 answer instead of letting it restart the file).
    func startRequest(_ t: Transfer) {
        let request = status.files[t.index].request
        guard let h = buoy_curl_easy_init() else {
            return fail(t, .transfer(url: request.url, reason: Self.noHandleReason()))
        }
        t.handle = h
        t.rangeStart = nil
        t.rangeTotal = nil
        configure(h, url: request.url, allowsFile: request.allowsFileScheme, t: t)
        buoy_curl_set_long(h, CURLOPT_CONNECTTIMEOUT_MS, Int(policy.connectTimeout * 1000))
        buoy_curl_set_long(h, CURLOPT_LOW_SPEED_LIMIT, policy.lowSpeedLimit)
        buoy_curl_set_long(h, CURLOPT_LOW_SPEED_TIME, max(1, Int(policy.lowSpeedTime.rounded(.up))))
        if t.offset > 0 { buoy_curl_set_str(h, CURLOPT_RANGE, "\(t.offset)-") }
        let me = Unmanaged.passUnretained(t).toOpaque()
        buoy_curl_set_ptr(h, CURLOPT_WRITEDATA, me)
        buoy_curl_set_write(h) { data, size, count, user in
            guard let data, let user else { return 0 }
            let t = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            return DownloadSession.write(t, data, size * count)
        }
        buoy_curl_set_ptr(h, CURLOPT_HEADERDATA, me)
        buoy_curl_set_header(h) { data, size, count, user in
            guard let data, let user else { return 0 }
            let t = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            DownloadSession.header(t, UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
        status.files[t.index].state = .connecting
        status.files[t.index].received = t.offset
        buoy_curl_multi_add_handle(multi, h)
    }

    /// A response header line: the Content-Range of the response that ends the redirects.
    static func header(_ t: Transfer, _ line: UnsafeRawBufferPointer) {
        let text = String(decoding: line.prefix(256), as: UTF8.self).lowercased()
        if text.hasPrefix("http/") {
            t.rangeStart = nil
            t.rangeTotal = nil
        } else if text.hasPrefix("content-range:") {
            (t.rangeStart, t.rangeTotal) = contentRange(String(text.dropFirst(14)))
        }
    }

    /// `bytes S-E/T` or `bytes */T`: the first byte and the total (nil where absent or `*`).
    static func contentRange(_ value: String) -> (Int64?, Int64?) {
        let trimmed = value.trimmingWhitespace()
        guard trimmed.hasPrefix("bytes") else { return (nil, nil) }
        let spec = trimmed.dropFirst(5).trimmingWhitespace(lineEnds: false)
        let halves = spec.split(separator: "/", maxSplits: 1).map(String.init)
        let total = halves.count == 2 ? Int64(halves[1]) : nil
        let start = halves.first.flatMap { $0.split(separator: "-", maxSplits: 1).first.flatMap { Int64($0) } }
        return (start, total)
    }

    /// The write callback: append to the .part; a failed write aborts the transfer.
    static func write(_ t: Transfer, _ data: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
        if !t.responseChecked, let h = t.handle {
            t.responseChecked = true
            var code = 0
            buoy_curl_get_long(h, CURLINFO_RESPONSE_CODE, &code)
            if code == 200 && t.offset > 0 {
                // Asked for a range but got the whole file: start the .part again.
                ftruncate(t.fd, 0)
                t.offset = 0
                if t.hasher != nil { t.hasher = SHA256(); t.hashed = 0 }
            } else if code == 206 && t.rangeStart != t.offset {
                t.rangeMismatch = true
                return 0
            }
        }
        var done = 0
        while done < length {
            let n = retryingInterrupts { Glibc.write(t.fd, data + done, length - done) }
            if n < 0 {
                t.diskError = errno
                return 0
            }
            done += n
        }
        // Hashed as it is written while the hash is caught up and the call has time left;
        // otherwise it is read back from the file later.
        if t.hasher != nil, t.hashed == t.offset + t.written, Monotonic.now() < t.hashDeadline {
            t.hasher!.update(UnsafeRawBufferPointer(start: data, count: length))
            t.hashed += Int64(length)
        }
        t.written += Int64(length)
        return length
    }

    /// Starts fetching a small `.sha256` file on the multi handle (short timeouts: it is a few
    /// bytes); `checksumFetched` takes the digest and starts the file.
    func startChecksumFetch(_ t: Transfer, _ url: String) {
        guard let h = buoy_curl_easy_init() else {
            t.attempt += 1
            return retryOrFail(t, .transfer(url: url, reason: Self.noHandleReason()))
        }
        t.checksumHandle = h
        t.checksumBytes = []
        configure(h, url: url, allowsFile: status.files[t.index].request.allowsFileScheme, t: t)
        buoy_curl_set_long(h, CURLOPT_CONNECTTIMEOUT_MS, Int(min(policy.connectTimeout, 5) * 1000))
        buoy_curl_set_long(h, CURLOPT_TIMEOUT_MS, 10_000)
        buoy_curl_set_ptr(h, CURLOPT_WRITEDATA, Unmanaged.passUnretained(t).toOpaque())
        buoy_curl_set_write(h) { data, size, count, user in
            guard let data, let user else { return 0 }
            let t = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            guard t.checksumBytes.count < 1 << 16 else { return 0 }  // not a checksum file
            data.withMemoryRebound(to: UInt8.self, capacity: size * count) { t.checksumBytes += UnsafeBufferPointer(start: $0, count: size * count) }
            return size * count
        }
        status.files[t.index].state = .connecting
        buoy_curl_multi_add_handle(multi, h)
    }

    /// The `.sha256` transfer ended: with a digest the file starts at once; otherwise it is an
    /// attempt that failed (retried like the file's own).
    func checksumFetched(_ t: Transfer, code: CURLcode) {
        guard let h = t.checksumHandle, let url = status.files[t.index].request.checksumURL else { return }
        var httpStatus = 0
        buoy_curl_get_long(h, CURLINFO_RESPONSE_CODE, &httpStatus)
        let message = String(cString: t.errorBuffer)
        buoy_curl_multi_remove_handle(multi, h)
        buoy_curl_easy_cleanup(h)
        t.checksumHandle = nil
        let text = message.isEmpty ? String(cString: buoy_curl_easy_strerror(code)) : message
        let result: Result<String, DownloadError>
        switch code {
        case CURLE_OK: result = Self.digest(in: t.checksumBytes, url: url)
        case CURLE_HTTP_RETURNED_ERROR: result = .failure(.http(url: url, status: httpStatus))
        case CURLE_UNSUPPORTED_PROTOCOL: result = .failure(.refused(path: url, reason: text))
        default: result = .failure(.transfer(url: url, reason: text))
        }
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
}
