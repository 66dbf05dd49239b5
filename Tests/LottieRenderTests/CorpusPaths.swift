import Foundation

/// Where the shared corpus lives: `../shared` beside the package root, as in CI.
enum CorpusPaths {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var corpus: URL {
        if let override = ProcessInfo.processInfo.environment["BUOY_SHARED"] {
            return URL(fileURLWithPath: override).appendingPathComponent("corpus/lottie-ios")
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/lottie-ios")
    }

    static var available: Bool { FileManager.default.fileExists(atPath: corpus.appendingPathComponent("manifest.json").path) }

    struct Frame {
        var sample: String
        var file: String
        var frame: Double
        var width: Int
        var height: Int
        var reference: String
        var precision: Double
        var perceptualPrecision: Double
        var label: String
    }

    /// The manifest's frames for one sample.
    static func frames(of sample: String) throws -> [Frame] {
        let data = try Data(contentsOf: corpus.appendingPathComponent("manifest.json"))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let samples = root["samples"] as? [String: Any],
              let entry = samples[sample] as? [String: Any],
              let frames = entry["frames"] as? [[String: Any]] else { return [] }
        return frames.compactMap { f in
            guard let frame = (f["frame"] as? NSNumber)?.doubleValue, let reference = f["reference"] as? String else { return nil }
            return Frame(sample: sample, file: corpus.appendingPathComponent(entry["file"] as? String ?? "").path,
                         frame: frame, width: (entry["width"] as? NSNumber)?.intValue ?? 0,
                         height: (entry["height"] as? NSNumber)?.intValue ?? 0,
                         reference: corpus.appendingPathComponent(reference).path,
                         precision: (f["precision"] as? NSNumber)?.doubleValue ?? 0.985,
                         perceptualPrecision: (f["perceptual_precision"] as? NSNumber)?.doubleValue ?? 0.97,
                         label: f["label"] as? String ?? "")
        }
    }
}
