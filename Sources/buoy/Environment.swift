import Glibc

/// The process environment, read one variable at a time with getenv(3). `ProcessInfo`'s
/// `environment` copies every variable into a dictionary first: 0.5-0.8 M instructions on
/// every start of a command that reads one variable.
struct Environment {
    subscript(name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
