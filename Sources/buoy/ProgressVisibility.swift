import ArgumentParser

/// `--progress`: whether the download screen draws its progress line.
enum ProgressVisibility: String, CaseIterable, ExpressibleByArgument, Sendable {
    case show, hide
}
