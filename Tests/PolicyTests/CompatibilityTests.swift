import Foundation
import LaunchPolicy
import Testing
import TestSupport

private func parseJSON(_ text: String) -> PolicyParseResult {
    AutomaticPolicyParser(expectsLaunchGateJSON: true).parse(Data(text.utf8))
}

/// The range a rule's condition puts on a key, if any.
private func range(of key: String, in rule: Rule) -> VersionRange? {
    guard case .all(let parts, _) = rule.condition else { return nil }
    for part in parts {
        guard case .entry(let entry) = part, entry.key == key else { continue }
        switch entry.test {
        case .appVersion(let range), .build(let range): return range
        default: return nil
        }
    }
    return nil
}

private func platforms(of rule: Rule) -> [Platform] {
    guard case .all(let parts, _) = rule.condition else { return [] }
    for case .entry(let entry) in parts {
        if case .platform(let platforms) = entry.test { return platforms }
    }
    return []
}

@Suite struct LaunchGateCompatibilityTests {
    static let documented = """
        {
          "ios": {
            "alert": {"message": "We are performing maintenance.", "blocking": true},
            "optionalUpdate": {"optionalVersion": "0.5", "message": "A new version is available."},
            "requiredUpdate": {"minimumVersion": "0.4", "message": "Please update."}
          }
        }
        """

    @Test func theDocumentedConfigurationMapsToRules() throws {
        let result = parseJSON(Self.documented)
        #expect(result.diagnostics.isEmpty)
        let policy = try #require(result.usablePolicy)
        #expect(policy.rules.map(\.id.value) == ["alert", "requiredUpdate", "optionalUpdate"])
        #expect(policy.rules.map(\.action.value) == [.block, .requireUpdate, .suggestUpdate])
        #expect(policy.rules[2].show == .oncePerVersion)
        #expect(range(of: "app-version", in: policy.rules[1])?.canonical == "<0.4.0")
        #expect(range(of: "app-version", in: policy.rules[2])?.canonical == "<0.5.0")
        // LaunchGate reads its ios section on iPads too.
        #expect(policy.rules.allSatisfy { platforms(of: $0) == [.ios, .ipados] })
        #expect(policy.message("requiredUpdate")?.text(for: nil) == "Please update.")
        #expect(policy.rules[1].id.range.start.line == 5)
    }

    @Test func aNonBlockingAlertIsANoticeShownOncePerText() throws {
        let policy = try #require(parseJSON(#"{"ios": {"alert": {"message": "Hi", "blocking": false}}}"#).usablePolicy)
        #expect(policy.rules.map(\.action.value) == [.notify])
        #expect(policy.rules[0].show == .once)
    }

    @Test func versionsCompareAsNumbersNotStrings() throws {
        let policy = try #require(parseJSON(#"{"ios": {"requiredUpdate": {"minimumVersion": "1.10", "message": "m"}}}"#).usablePolicy)
        let below = try #require(range(of: "app-version", in: policy.rules[0]))
        #expect(below.contains(try Version("1.9")))
        #expect(!below.contains(try Version("1.10")))
        // A JSON number keeps its text: 1.10 is not read as 1.1.
        let numeric = try #require(parseJSON(#"{"ios": {"requiredUpdate": {"minimumVersion": 1.10, "message": "m"}}}"#).usablePolicy)
        #expect(range(of: "app-version", in: numeric.rules[0])?.canonical == "<1.10.0")
    }

    @Test func gandalfVersionsAreVersionCodesTestedAsBuilds() throws {
        let result = parseJSON("""
            {"ios": {"requiredUpdate": {"minimumVersion": "2.4", "message": "m"}},
             "android": {"requiredUpdate": {"minimumVersion": "120", "message": "m"},
                         "optionalUpdate": {"optionalVersion": 130, "message": "o"}}}
            """)
        #expect(result.diagnostics.isEmpty)
        let policy = try #require(result.usablePolicy)
        #expect(policy.rules.map(\.id.value) == ["requiredUpdate-ios", "requiredUpdate-android", "optionalUpdate-android"])
        #expect(platforms(of: policy.rules[1]) == [.android])
        #expect(range(of: "build", in: policy.rules[1])?.canonical == "<120")
        #expect(range(of: "build", in: policy.rules[2])?.contains(try Version("129", kind: .build)) == true)
        #expect(policy.messages.map(\.id) == ["requiredUpdate-ios", "requiredUpdate-android", "optionalUpdate-android@130"])
    }

    @Test func malformedSectionsAreReportedWithPositionAndField() {
        let result = parseJSON("""
            {"ios": {
              "alert": {"message": "x", "blocking": "true"},
              "requiredUpdate": {"message": "m"},
              "optionalUpdate": {"optionalVersion": "v2", "message": "m"}
            }}
            """)
        #expect(result.diagnostics.map { "\($0.code)@\($0.range.start.line):\($0.range.start.column)" } == [
            "compat.wrong-type@2:41", "compat.missing-key@3:21", "compat.invalid-version@4:41",
        ])
        #expect(result.diagnostics[0].message == "alert.blocking must be true or false, not \"true\"")
        #expect(result.diagnostics[1].message.contains("minimumVersion"))
    }

    @Test func aFileWithNeitherSectionOrNothingAtAllIsAnError() {
        #expect(parseJSON("{}").diagnostics.map(\.code) == [.compatNoPlatformSection])
        #expect(parseJSON(#"{"iOS": {}}"#).diagnostics.map(\.code) == [.compatNoPlatformSection, .compatUnknownKey])
        #expect(parseJSON("").diagnostics.map(\.code) == [.yamlEmptyInput])
        #expect(parseJSON("[1]").diagnostics.map(\.code) == [.compatWrongType])
    }

    @Test func theBuiltInParserKeepsLaunchGatesOwnContract() throws {
        let parser = LaunchGateDefaultParser()
        let configuration = try #require(parser.parse(Data(Self.documented.utf8)))
        #expect(configuration.alert?.blocking == true)
        #expect(configuration.requiredUpdate?.version == "0.4")
        #expect(configuration.optionalUpdate?.message == "A new version is available.")
        #expect(parser.parse(Data(#"{"ios": {"alert": {"blocking": true}}}"#.utf8)) == nil)
        #expect(parser.parse(Data(#"{"android": {}}"#.utf8))?.alert == nil)
    }

    /// JSON allows NEL, LS and PS raw in a string; the reader, on libyaml (YAML 1.1), read each as a line break and
    /// folded it into a space, so that a message pasted with one was shown changed.
    @Test func aMessageKeepsItsLineSeparators() throws {
        let json = "{\"ios\": {\"alert\": {\"message\": \"Down\u{2028}for\u{85}now\u{2029}\", \"blocking\": false}}}"
        let configuration = try #require(LaunchGateDefaultParser().parse(Data(json.utf8)))
        #expect(configuration.alert?.message == "Down\u{2028}for\u{85}now\u{2029}")
    }

    /// PHP's `json_encode` and Python's `json.dumps` write an emoji as an escape pair and `/` as `\/`; LaunchGate
    /// read such a file, and this parser refused it (libyaml reads each half of a pair as no character).
    @Test func aConfigurationAsPHPWritesItReads() throws {
        let json = #"{"ios": {"alert": {"message": "Back soon \ud83d\udee0\ufe0f https:\/\/x.com", "blocking": true}}}"#
        let configuration = try #require(LaunchGateDefaultParser().parse(Data(json.utf8)))
        #expect(configuration.alert?.message == "Back soon 🛠️ https://x.com")
    }

    @Test func formatDetectionSendsPoliciesAndConfigurationsToTheirParsers() {
        let automatic = AutomaticPolicyParser()
        #expect(automatic.parse(Data(Self.documented.utf8)).usablePolicy?.rules.count == 3)
        #expect(automatic.parse(Data("policy: 1\nrules: []\n".utf8)).usablePolicy != nil)
        // Without the .json hint a mapping with no platform key is a policy, and is reported as one.
        #expect(automatic.parse(Data("{}".utf8)).diagnostics.first?.code == .policyMissingKey)
    }

    @Test func theExampleConfigurationsLintClean() throws {
        let folder = Conformance.packageRoot.appendingPathComponent("policies/launchgate")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(files.count == 2)
        for file in files {
            let report = PolicyLinter().lint(fileAt: folder.appendingPathComponent(file), path: file)
            #expect(report.diagnostics.isEmpty, "\(file): \(report.diagnostics)")
        }
    }
}

/// A custom parser written for LaunchGate, for a JSON shape of its own; it must compile unchanged and plug in.
struct FlatConfigurationParser: LaunchGateParser {
    func parse(_ jsonData: Data) -> LaunchGateConfiguration? {
        guard let object = try? JSONSerialization.jsonObject(with: jsonData) as? [String: Any] else { return nil }
        var configuration = LaunchGateConfiguration()
        if let minimum = object["min_version"] as? String, let text = object["min_text"] as? String {
            configuration.requiredUpdate = UpdateConfiguration(version: minimum, message: text)
        }
        if let down = object["down"] as? String {
            configuration.alert = AlertConfiguration(message: down, blocking: true)
        }
        return configuration
    }
}

@Suite struct CustomLaunchGateParserTests {
    @Test func aCustomParserDrivesTheSameMapping() throws {
        let adapter = LaunchGateParserAdapter(FlatConfigurationParser())
        let result = adapter.parse(Data(#"{"min_version": "3.1", "min_text": "Update please", "down": "Back soon"}"#.utf8))
        #expect(result.diagnostics.isEmpty)
        let policy = try #require(result.usablePolicy)
        #expect(policy.rules.map(\.id.value) == ["alert", "requiredUpdate"])
        let below = try #require(range(of: "app-version", in: policy.rules[1]))
        #expect(below.contains(try Version("3.0.9")))
        #expect(!below.contains(try Version("3.1")))
        #expect(policy.message("alert")?.text(for: "de") == "Back soon")
    }

    @Test func aCustomParserThatFailsIsReported() {
        let result = LaunchGateParserAdapter(FlatConfigurationParser()).parse(Data("not json".utf8))
        #expect(result.policy == nil)
        #expect(result.diagnostics.map(\.code) == [.compatParserFailed])
    }

    @Test func anInvalidVersionFromACustomParserIsReported() {
        let result = LaunchGateParserAdapter(FlatConfigurationParser(), section: .android)
            .parse(Data(#"{"min_version": "1.2", "min_text": "x"}"#.utf8))
        #expect(result.diagnostics.map(\.code) == [.compatInvalidVersion])
    }
}

@Suite struct CustomLaunchGateParserEvaluationTests {
    /// A LaunchGate user's own parser and JSON shape, unchanged, all the way to a decision.
    @Test func aCustomParsersConfigurationIsEvaluated() throws {
        let adapter = LaunchGateParserAdapter(FlatConfigurationParser())
        let policy = try #require(adapter.parse(Data(#"{"min_version": "3.10", "min_text": "Update please"}"#.utf8)).usablePolicy)
        let old = policy.evaluate(try LaunchContext(platform: .ios, appVersion: "3.9"))
        #expect(old.gate?.rule == "requiredUpdate")
        #expect(old.gate?.text == "Update please")
        #expect(policy.evaluate(try LaunchContext(platform: .ios, appVersion: "3.10")).gate == nil)
        #expect(policy.evaluate(try LaunchContext(platform: .android, appVersion: "1.0")).gate == nil,
            "a LaunchGate configuration applies to iOS only")

        let down = try #require(adapter.parse(Data(#"{"min_version": "3.1", "min_text": "u", "down": "Back soon"}"#.utf8)).usablePolicy)
        #expect(down.evaluate(try LaunchContext(platform: .ios, appVersion: "4.0")).gate?.text == "Back soon")
    }
}
