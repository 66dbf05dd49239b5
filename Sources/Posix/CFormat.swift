import Glibc

extension String {
    /// C's `printf` formatting, for the figures in log lines and command output. It stands in
    /// for Foundation's `String(format:)`, which formats numbers with the same C conversions,
    /// so that the drawing commands link no Foundation (FoundationEssentials has no formatter).
    /// buoy never calls `setlocale`, so the decimal point is always ".". Text goes in by
    /// interpolation, not as an argument: there is no `%@`, and `%s` would need a C string.
    /// An `Int` argument takes `%ld` (`%d` reads 32 bits).
    public init(cFormat format: String, _ arguments: CVarArg...) {
        var capacity = 128
        while true {
            var bytes = [UInt8](repeating: 0, count: capacity)
            let written = bytes.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: capacity) { start in
                    withVaList(arguments) { vsnprintf(start, capacity, format, $0) }
                }
            }
            guard written >= 0 else { self = ""; return }
            if Int(written) < capacity {
                self = String(decoding: bytes[..<Int(written)], as: UTF8.self)
                return
            }
            capacity = Int(written) + 1
        }
    }
}
