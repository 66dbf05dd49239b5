import ArgumentParser
import FoundationEssentials
import LottieModel
import Posix

/// Why Buoy reads JSON with its own reader: this times, on one file, the three ways to get
/// from bytes to a tree — Buoy's reader, Foundation's JSONSerialization, and Codable
/// (JSONDecoder into a generic tree) — and the whole load into the model.
struct ParseBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse-bench",
        abstract: "Time parsing a Lottie file: Buoy's JSON reader vs JSONSerialization vs Codable, and the full load.",
        discussion: "Prints one line per method: parse: METHOD median_ms=X"
    )

    @Argument(help: "The Lottie JSON file.")
    var animation: String

    @Option(help: "Repetitions per method.")
    var reps: Int = 50

    @Option(help: "Only this method: buoy-json-reader, jsonserialization, codable-tree or buoy-full-load.")
    var only: String?

    func validate() throws {
        if reps < 1 { throw ValidationError("--reps must be at least 1") }
    }

    /// A JSON tree decoded through Codable, for comparison only.
    enum CodableJSON: Decodable {
        case null, bool(Bool), number(Double), string(String), array([CodableJSON]), object([String: CodableJSON])

        init(from decoder: Decoder) throws {
            if var array = try? decoder.unkeyedContainer() {
                var items: [CodableJSON] = []
                while !array.isAtEnd { items.append(try array.decode(CodableJSON.self)) }
                self = .array(items)
                return
            }
            if let object = try? decoder.container(keyedBy: AnyKey.self) {
                var members: [String: CodableJSON] = [:]
                for key in object.allKeys { members[key.stringValue] = try object.decode(CodableJSON.self, forKey: key) }
                self = .object(members)
                return
            }
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let b = try? single.decode(Bool.self) { self = .bool(b) }
            else if let d = try? single.decode(Double.self) { self = .number(d) }
            else { self = .string(try single.decode(String.self)) }
        }

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    func run() throws {
        guard let data = FileManager.default.contents(atPath: animation) else {
            throw CommandFailure.badArguments("cannot read \(animation)")
        }
        func time(_ name: String, _ body: () throws -> Void) rethrows {
            if let only, only != name { return }
            var samples: [Double] = []
            for _ in 0..<reps {
                let start = Monotonic.now()
                try body()
                samples.append((Monotonic.now() - start) * 1e3)
            }
            samples.sort()
            print("parse: \(name) " + String(cFormat: "median_ms=%.3f", samples[samples.count / 2]))
        }
        print("file: \(animation) bytes=\(data.count)")
        try time("buoy-json-reader") { _ = try JSONReader.parse(data) }
        try time("codable-tree") { _ = try JSONDecoder().decode(CodableJSON.self, from: data) }
        do {
            try time("buoy-full-load") { _ = try Animation.parse(data, name: "bench", file: animation, baseDirectory: nil) }
        } catch let error as ParseError {
            throw CommandFailure.badAnimation("\(error)")
        }
    }
}
