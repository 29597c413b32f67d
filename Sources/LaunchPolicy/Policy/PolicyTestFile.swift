import Foundation

/// A `*.tests.yaml` file: test cases for the policy of the same name beside it (`minimum-version.tests.yaml` tests
/// `minimum-version.yaml`, `.yml` or `.json`), in the format of a policy's own `tests:`, under a `tests:` key.
/// Keeping cases in their own file suits LaunchGate/Gandalf configurations, whose JSON has no room for them.
public enum PolicyTestFile {
    /// The endings that make a file a test file.
    public static let suffixes = [".tests.yaml", ".tests.yml"]
    /// The keys of a test file.
    public static let keys = Key.known.names

    enum Key: String, WrittenNames {
        case tests
        static let known = KnownNames<Self>()
    }

    /// Whether the file at `url` is a test file.
    public static func isTestFile(_ url: URL) -> Bool {
        suffixes.contains { url.lastPathComponent.lowercased().hasSuffix($0) }
    }

    /// The policy a test file tests: the first of `NAME.yaml`, `NAME.yml`, `NAME.json` that exists beside it.
    public static func policy(for testFile: URL) -> URL? {
        let name = testFile.lastPathComponent
        guard let suffix = suffixes.first(where: { name.lowercased().hasSuffix($0) }) else { return nil }
        let stem = String(name.dropLast(suffix.count))
        let folder = testFile.deletingLastPathComponent()
        return ["yaml", "yml", "json"].lazy.map { folder.appendingPathComponent("\(stem).\($0)") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The test file beside a policy, if there is one.
    public static func testFile(for policy: URL) -> URL? {
        guard !isTestFile(policy) else { return nil }
        let stem = policy.deletingPathExtension().lastPathComponent
        let folder = policy.deletingLastPathComponent()
        return suffixes.lazy.map { folder.appendingPathComponent(stem + $0) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Decodes a test file's cases against the rules of its policy (a case naming a missing rule is reported).
    public static func decode(_ bytes: [UInt8], rules: [Rule], limits: YAMLLimits = .default)
        -> (tests: [PolicyTestCase], diagnostics: [Diagnostic])
    {
        decode(read: YAMLReader(limits: limits).read(bytes), rules: rules)
    }

    /// Decodes an already-read test file.
    static func decode(
        read: YAMLReadResult, rules: [Rule], problemLimit: Int = DecodingSupport.maximumReported
    ) -> (tests: [PolicyTestCase], diagnostics: [Diagnostic]) {
        guard let root = read.root else { return ([], read.diagnostics) }
        var support = DecodingSupport(problemLimit: problemLimit)
        var tests: [PolicyTestCase] = []
        if let entries = support.mapping(root, "a test file") {
            let byKey = support.entries(entries, as: Key.self, in: "a test file")
            support.require(.tests, in: byKey, of: root, "a test file (tests: [...])")
            if let node = byKey[.tests] { tests = TestCaseDecoding.testCases(node, rules: rules, &support) }
        }
        return (tests, (read.diagnostics + support.diagnostics).sortedBySource())
    }
}
