import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

/// Every LaunchGate/Gandalf example converts to a policy that lints clean, passes its own tests, and decides as the
/// JSON does on every version around and between the thresholds.
@Suite struct ConversionTests {
    static let bundledExamples: [URL] = {
        let folder = Conformance.packageRoot.appendingPathComponent("policies/launchgate")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }()

    /// Configurations beyond the examples: every section alone, blocking alerts, thresholds at .0 and two-digit
    /// components, texts that need escaping.
    static let configurations: [String] = [
        #"{"ios": {"requiredUpdate": {"minimumVersion": "2.0", "message": "Update"}}}"#,
        #"{"ios": {"optionalUpdate": {"optionalVersion": "3.10.2", "message": "New \"3.10\" is out"}}}"#,
        #"{"ios": {"alert": {"message": "Down", "blocking": true}, "requiredUpdate": {"minimumVersion": "1.4", "message": "Update"}}}"#,
        #"{"ios": {"alert": {"message": "Line one\nline two — ünïcode \"quoted\" \\ \u0007\u0085\u00a0\u2028", "blocking": false}}}"#,
        #"{"android": {"requiredUpdate": {"minimumVersion": "1", "message": "Update"}, "optionalUpdate": {"optionalVersion": "7", "message": "Please"}}}"#,
        #"{"android": {"alert": {"message": "Stop", "blocking": true}}, "ios": {"optionalUpdate": {"optionalVersion": "4.6", "message": "Maybe"}}}"#,
        // Found by the fuzzer: a section with nothing LaunchGate reads wrote `messages:` and `rules:` as nulls.
        #"{"ios": {"unknown": "ignored"}}"#,
        // Found by the fuzzer: a part too long for an `Int` was read as 0 by the tests' own comparison, so that
        // 2.6111… came out below 2.4 and the converted policy failed its tests. Parts of any length, below and above
        // (a borrow through zeros, a carry through nines), and the highest version code.
        #"{"ios": {"optionalUpdate": {"optionalVersion": "2.611111111111111111111111111111111111111", "message": "M"}, "requiredUpdate": {"minimumVersion": "2.4", "message": "U"}}}"#,
        #"{"ios": {"requiredUpdate": {"minimumVersion": "1.100000000000000000000000", "message": "U"}, "optionalUpdate": {"optionalVersion": "3.0.99999999999999999999999", "message": "M"}}}"#,
        #"{"android": {"requiredUpdate": {"minimumVersion": "2100000000", "message": "U"}}}"#,
        #"{"ios": {}, "android": {}}"#,
        // The shapes of LaunchGate's and Gandalf's own README examples: everything at once, early versions.
        #"{"ios": {"alert": {"message": "We are currently performing server maintenance. Please try again later.", "blocking": true}, "optionalUpdate": {"optionalVersion": "0.5", "message": "A new version is available."}, "requiredUpdate": {"minimumVersion": "0.4", "message": "This version is no longer supported."}}}"#,
        #"{"android": {"alert": {"message": "Maintenance", "blocking": false}, "optionalUpdate": {"optionalVersion": "6", "message": "A new version is available."}, "requiredUpdate": {"minimumVersion": "5", "message": "This version is no longer supported."}}}"#,
    ]

    private func check(_ json: Data, name: String) throws {
        let converted = LaunchGateConversion.convert(json, name: name)
        let text = try #require(converted.policy, "\(name): \(converted.diagnostics)")
        // Lints clean: no error, no warning, no note, and every test case passes (the linter runs them).
        let report = PolicyLinter().lint(Array(text.utf8), path: name + ".yaml")
        #expect(report.diagnostics.isEmpty, "\(name):\n\(report.diagnostics.map { $0.rendered(file: name) }.joined(separator: "\n"))\n\(text)")
        let yamlPolicy = try #require(YAMLPolicyParser().parse(Data(text.utf8)).usablePolicy)
        #expect(!yamlPolicy.tests.isEmpty)
        #expect(PolicyTestRunner.run(yamlPolicy).allSatisfy { $0.passed })

        // Decides as the JSON file does, on a sweep of versions well beyond the tests.
        let jsonPolicy = try #require(AutomaticPolicyParser(expectsLaunchGateJSON: true).parse(json).usablePolicy)
        let marketing = (0...5).flatMap { major in (0...12).map { "\(major).\($0)" } } + ["2.3.99", "3.10.1", "3.10.3"]
        for version in marketing {
            let context = try LaunchContext(platform: .ios, appVersion: version)
            #expect(summary(yamlPolicy.evaluate(context)) == summary(jsonPolicy.evaluate(context)), "\(name) ios \(version)")
        }
        for code in 0...140 {
            let context = try LaunchContext(platform: .android, appVersion: "1.0", build: String(code))
            #expect(summary(yamlPolicy.evaluate(context)) == summary(jsonPolicy.evaluate(context)), "\(name) android \(code)")
        }
    }

    private func summary(_ decision: Decision) -> String {
        let gate = decision.gate.map { "\($0.action.rawValue) \($0.rule) \($0.text ?? "")" } ?? "none"
        return "\(gate) | \(decision.prompts.map(\.rule)) \(decision.prompts.map(\.text)) | \(decision.notices.map(\.rule)) \(decision.notices.map(\.text))"
    }

    @Test(arguments: bundledExamples)
    func eachBundledExampleConverts(url: URL) throws {
        try check(try Data(contentsOf: url), name: url.lastPathComponent)
    }

    @Test func theExamplesAreThere() {
        #expect(Self.bundledExamples.count >= 2)
    }

    @Test(arguments: configurations.indices)
    func eachConfigurationConverts(index: Int) throws {
        try check(Data(Self.configurations[index].utf8), name: "configuration-\(index).json")
    }

    /// A random configuration: either section or both, each part present or not, versions of one to three parts
    /// (Android's a version code) within the sweep of ``check(_:name:)``, texts that need escaping.
    static func randomConfiguration(using random: inout SeededGenerator) -> String {
        let texts = [#"Update"#, #"Line one\nline two"#, #"\"quoted\" — ünïcode"#, #"a: b # c"#, #"- dash"#, "",
            #"\\"#]
        func version(android: Bool) -> String {
            if android { return String(Int.random(in: 0...140, using: &random)) }
            let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: 0...12, using: &random) }
            return parts.map(String.init).joined(separator: ".")
        }
        var sections: [String] = []
        for name in ["ios", "android"] where Int.random(in: 0..<3, using: &random) > 0 {
            var parts: [String] = []
            let android = name == "android"
            if Bool.random(using: &random) {
                let (text, blocking) = (texts.randomElement(using: &random)!, Bool.random(using: &random))
                parts.append(#""alert": {"message": "\#(text)", "blocking": \#(blocking)}"#)
            }
            if Bool.random(using: &random) {
                let (version, text) = (version(android: android), texts.randomElement(using: &random)!)
                parts.append(#""optionalUpdate": {"optionalVersion": "\#(version)", "message": "\#(text)"}"#)
            }
            if Bool.random(using: &random) {
                let (version, text) = (version(android: android), texts.randomElement(using: &random)!)
                parts.append(#""requiredUpdate": {"minimumVersion": "\#(version)", "message": "\#(text)"}"#)
            }
            sections.append("\"\(name)\": {\(parts.joined(separator: ", "))}")
        }
        return "{\(sections.joined(separator: ", "))}"
    }

    /// Random configurations convert as the written ones do.
    @Test(arguments: [UInt64(1), 2, 3])
    func randomConfigurationsConvert(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var converted = 0
        for index in 0..<25 {
            let json = Self.randomConfiguration(using: &random)
            guard LaunchGateConversion.convert(Data(json.utf8), name: "r.json").policy != nil else { continue }
            converted += 1
            try check(Data(json.utf8), name: "random-\(seed)-\(index).json \(json)")
        }
        #expect(converted >= 15)
    }

    @Test func theTestsNameWhereLaunchPolicyDiffersFromLaunchGate() throws {
        let converted = LaunchGateConversion.convert(Data(Self.configurations[2].utf8), name: "c.json")
        let text = try #require(converted.policy)
        #expect(text.contains("LaunchGate would show the required update and hide the alert"))
        let trap = LaunchGateConversion.convert(Data(#"{"ios": {"requiredUpdate": {"minimumVersion": "2.6", "message": "U"}}}"#.utf8), name: "t.json")
        #expect(trap.policy?.contains("LaunchGate compared text, so 2.10 was below 2.6") == true)
    }

    @Test func aConfigurationWithErrorsIsNotConverted() {
        let converted = LaunchGateConversion.convert(Data(#"{"ios": {"requiredUpdate": {"minimumVersion": "two", "message": "U"}}}"#.utf8), name: "bad.json")
        #expect(converted.policy == nil)
        #expect(converted.diagnostics.map(\.code) == [.compatInvalidVersion])
        #expect(LaunchGateConversion.convert(Data("{}".utf8), name: "empty.json").policy == nil)
    }
}
