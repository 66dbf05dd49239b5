import FoundationEssentials
import Glibc

extension SystemError {
    /// Why a FoundationEssentials file call (`Data.write`, `FileManager`) failed, in C's words
    /// ("No such file or directory"): the errno its `CocoaError` carries. Full Foundation's
    /// `localizedDescription` said "The operation could not be completed. The file doesn’t
    /// exist." for most of them; FoundationEssentials has no such text.
    public static func reason(of error: any Error) -> String {
        if let system = error as? SystemError { return system.reason }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
                return String(cString: strerror(posix.code.rawValue))
            }
            return "file error \(cocoa.code.rawValue)"
        }
        return String(describing: error)
    }
}
