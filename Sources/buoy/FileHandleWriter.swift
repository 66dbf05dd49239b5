import Glibc

enum FileHandleWriter {
    /// Writes all of `text` to standard error; a failed write (a closed pipe) is dropped, as
    /// there is nowhere left to report it.
    static func stderr(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            written += n
        }
    }
}
