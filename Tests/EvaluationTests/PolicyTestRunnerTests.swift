import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

@Suite struct PolicyTestRunnerTests {
    private static let examples: [URL] = {
        let folder = Conformance.packageRoot.appendingPathComponent("policies")
        // Policies in YAML; test files (NAME.tests.yaml) are run by policy-lint's tests.
        return ((try? PolicyFiles.collect([folder.path]).files) ?? [])
            .filter { $0.pathExtension == "yaml" && !PolicyTestFile.isTestFile($0) }
    }()

    @Test func thereAreExamplePolicies() {
        #expect(Self.examples.count >= 7)
    }

    @Test(arguments: examples)
    func everyExamplePolicysTestsPass(file: URL) throws {
        let result = YAMLPolicyParser().parse(try Data(contentsOf: file))
        let policy = try #require(result.usablePolicy)
        #expect(!policy.tests.isEmpty, "\(file.lastPathComponent) carries no tests")
        for test in PolicyTestRunner.run(policy) {
            #expect(test.passed, "\(test.diagnostics.map { $0.rendered(file: file.lastPathComponent) })")
            #expect(test.decision != nil)
        }
    }

    private let gated = """
        policy: 1
        messages: {m: {default: "m"}}
        rules:
          - {id: minimum, when: {app-version: "< 2"}, then: require-update, message: m}
          - {id: suggest, when: {app-version: "< 3"}, then: suggest-update, message: m}
          - {id: news, then: notify, message: m}
        tests:
          - name: "expects a prompt the gate hides"
            context: {app-version: "1.5"}
            expect: {gate: none, prompts: [suggest]}
          - name: "memory hides the news"
            context: {app-version: "2.5"}
            memory: [news, suggest]
            expect: {gate: none, prompts: [], notices: []}
          - name: "a bad version"
            context: {platform: ios, app-version: "2.x"}
            expect: {gate: none}
          - name: "wrong grants"
            context: {app-version: "2.5"}
            expect: {grants: [premium]}
        """

    @Test func aFailingCaseSaysWhatWasExpectedWhatCameAndWhy() throws {
        let results = PolicyTestRunner.run(try policy(gated))
        #expect(results.map(\.passed) == [false, true, false, false])

        let hidden = try #require(results[0].diagnostics.first)
        #expect(hidden.code == .testFailed)
        #expect(hidden.message == "test \"expects a prompt the gate hides\" failed: gate: expected none, got require-update (minimum); prompts: expected [suggest], got []")
        #expect(hidden.range.start.line == 8)
        #expect(hidden.notes.map(\.message) == [
            "minimum matches: requires an update", "suggest matches, but the gate minimum hides it",
        ])

        let invalid = try #require(results[2].diagnostics.first)
        #expect(invalid.code == .testInvalidContext)
        #expect(invalid.range.start.line == 16)
        #expect(invalid.range.start.column == 43)
        #expect(results[2].decision == nil)

        #expect(results[3].diagnostics.first?.message == "test \"wrong grants\" failed: grants: expected [premium], got []")
        // What policy-lint runs, keeping no decision: the same failures, in the same order.
        #expect(PolicyTestRunner.failures(try policy(gated)) == results.flatMap(\.diagnostics))
        #expect(PolicyTestRunner.failures(try policy(gated)).count == 3)
    }

    /// A case's memory is found rule by rule, by a scan of a few rules and through a table of many, and the rules it
    /// lists are checked against the policy's: an unknown one is an error wherever it stands in the list.
    @Test(arguments: [10, IDLookup.scanned, IDLookup.scanned + 1, 60])
    func aCasesMemoryIsFoundRuleByRule(ruleCount: Int) throws {
        let rules = (0..<ruleCount).map { "  - {id: r\($0), then: notify, message: m}" }.joined(separator: "\n")
        // All but the last three rules, last to first, one listed twice; the three are expected to show.
        let listed = ruleCount - 3
        let memory = (0..<listed).reversed().map { "r\($0)" } + ["r0"]
        let unlisted = (listed..<ruleCount).map { "r\($0)" }
        let yaml = """
            policy: 1
            messages: {m: {default: "Hi."}}
            rules:
            \(rules)
            tests:
              - name: shown before
                context: {platform: ios}
                memory: [\(memory.joined(separator: ", "))]
                expect: {gate: none, notices: [\(unlisted.joined(separator: ", "))]}
            """
        let results = PolicyTestRunner.run(try policy(yaml))
        #expect(results.map(\.passed) == [true], "\(results.flatMap(\.diagnostics).map(\.message))")
        let unknown = YAMLPolicyParser().parse(Data(yaml.replacingOccurrences(
            of: "memory: [r\(listed - 1),", with: "memory: [r\(listed - 1), rx,").utf8))
        #expect(unknown.diagnostics.map(\.code) == [.policyUnknownRule])
    }

    /// A failure notes at most 20 rules, the gate's rule always among them, and says how many more there are from
    /// the first left out: thousands of failing cases of a policy of thousands of gates noted every rule at each.
    @Test func aFailureNotesAtMostTwentyRulesTheGatesAmongThem() throws {
        func rules(_ count: Int) -> String {
            (0..<count).map { "  - {id: r\($0), when: {platform: android}, then: block, message: m}\n" }.joined()
        }
        let header = "policy: 1\nmessages: {m: {default: m}}\nrules:\n"
        let expectsAGate = "tests:\n  - {name: t, context: {platform: ios}, expect: {gate: require-update}}\n"
        for count in [19, 20, 21, 30] {
            let yaml = header + rules(count) + expectsAGate
            let failure = try #require(PolicyTestRunner.failures(try policy(yaml)).first)
            let listed = min(count, 20)
            #expect(failure.notes.prefix(listed).map(\.message)
                == (0..<listed).map { "r\($0) does not match: platform ios is not android" })
            #expect(failure.notes.prefix(listed).map(\.range.start.line) == (0..<listed).map { $0 + 4 })
            if count > 20 {
                #expect(failure.notes.count == 21)
                #expect(failure.notes.last?.message == "\(count - 20) more \(count == 21 ? "rule" : "rules") from here "
                    + "on with these actions \(count == 21 ? "is" : "are") not noted (a failure notes at most 20)")
                #expect(failure.notes.last?.range.start.line == 24)
            } else {
                #expect(failure.notes.count == count)
            }
        }
        // The gate's rule, what came instead, is noted even past the first 20 rules involved.
        let gateLast = header + rules(29) + "  - {id: last, then: require-update, message: m}\n"
            + "tests:\n  - {name: t, context: {platform: ios}, expect: {gate: block}}\n"
        let failure = try #require(PolicyTestRunner.failures(try policy(gateLast)).first)
        #expect(failure.notes.count == 21)
        #expect(failure.notes.prefix(19).map(\.message).last == "r18 does not match: platform ios is not android")
        #expect(failure.notes[19].message == "last matches: requires an update")
        #expect(failure.notes[20].message
            == "10 more rules from here on with these actions are not noted (a failure notes at most 20)")
        #expect(failure.notes[20].range.start.line == 23)
    }
}
