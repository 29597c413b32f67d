import Foundation

/// Where the shared conformance data lives: `$LAUNCHPOLICY_CONFORMANCE`, else `../shared/conformance` beside the
/// package root.
public enum Conformance {
    /// The environment variable that overrides the location.
    public static let environmentVariable = "LAUNCHPOLICY_CONFORMANCE"

    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The conformance folder, or nil when it is absent.
    public static var directory: URL? {
        let candidates = [
            ProcessInfo.processInfo.environment[environmentVariable].map { URL(fileURLWithPath: $0) },
            packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance"),
        ].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// A sub-folder of the conformance data (`yaml-test-suite`, `semver`), or nil when it is absent.
    public static func folder(_ name: String) -> URL? {
        guard let url = directory?.appendingPathComponent(name),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return url
    }

    /// The sentence a test prints when the data is missing.
    public static func absenceMessage(_ name: String) -> String {
        "conformance data '\(name)' not found: looked in $\(environmentVariable) and "
            + "\(packageRoot.deletingLastPathComponent().path)/shared/conformance"
    }

    /// Whether this run is CI's, where the data must be present.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }
}

/// A small, fast, seedable generator (SplitMix64), so that randomized tests can be replayed from their seed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
