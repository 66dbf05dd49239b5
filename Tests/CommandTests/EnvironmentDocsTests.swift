import Foundation
import XCTest

/// Every environment variable the sources read is documented in `buoy --help`, the man page
/// (tools/gen-man.py on the binary's own help dump) and the README.
final class EnvironmentDocsTests: CommandTestCase {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// Names read as `environment["NAME"]`, `env["NAME"]` or `getenv("NAME")` in Sources/.
    func variablesReadBySources() throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: #"(?:environment|env)\["([A-Za-z_][A-Za-z0-9_]*)"\]|getenv\("([A-Za-z_][A-Za-z0-9_]*)"\)"#)
        var names = Set<String>()
        let sources = repo.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                for group in 1...2 {
                    if let range = Range(match.range(at: group), in: text) { names.insert(String(text[range])) }
                }
            }
        }
        return names
    }

    func testEveryVariableTheSourcesReadIsDocumentedEverywhere() throws {
        let names = try variablesReadBySources()
        XCTAssertTrue(names.isSuperset(of: ["BUOY_FONT_DIRS", "BUOY_CACHE_DIR", "BUOY_DRM_LEGACY", "SSL_CERT_FILE"]), "the scan finds them: \(names)")
        let (status, help, _) = try runCapturing(["--help"])
        XCTAssertEqual(status, 0)
        let (_, dump, _) = try runCapturing(["--experimental-dump-help"])
        try dump.write(toFile: dir + "/help.json", atomically: true, encoding: .utf8)
        let gen = Process()
        gen.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gen.arguments = ["python3", repo.appendingPathComponent("tools/gen-man.py").path, dir + "/help.json", dir, "0", "2026-01-01"]
        let (genStatus, _, genErr) = try runToEnd(gen)
        XCTAssertEqual(genStatus, 0, genErr)
        let man = try String(contentsOfFile: dir + "/buoy.1", encoding: .utf8)
        let environment = try XCTUnwrap(man.range(of: ".SH ENVIRONMENT").map { String(man[$0.lowerBound...]) }, "an ENVIRONMENT section")
        let readme = try String(contentsOf: repo.appendingPathComponent("README.md"), encoding: .utf8)
        for name in names.sorted() {
            XCTAssertTrue(help.contains(name), "\(name) in buoy --help")
            XCTAssertTrue(environment.contains(name.replacingOccurrences(of: "-", with: "\\-")), "\(name) in buoy(1)'s ENVIRONMENT")
            XCTAssertTrue(readme.contains("`\(name)`"), "\(name) in the README")
        }
    }
}
