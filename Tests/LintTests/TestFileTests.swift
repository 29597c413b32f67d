import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// `*.tests.yaml` beside a policy.
@Suite struct TestFileTests {
    private let policy = """
        policy: 1
        store: {ios: "https://apps.apple.com/app/id1"}
        messages: {up: {default: "Update."}}
        rules:
          - id: old
            when: {platform: ios, app-version: "< 2.0.0"}
            then: require-update
            message: up
        """

    private func folder(policy: String?, tests: String, policyName: String = "app.yaml") throws -> URL {
        let folder = try makeTemporaryFolder("lint-tests")
        if let policy { try Data(policy.utf8).write(to: folder.appendingPathComponent(policyName)) }
        try Data(tests.utf8).write(to: folder.appendingPathComponent("app.tests.yaml"))
        return folder
    }

    @Test func aFailingCaseIsReportedAtItsLineWithNotesInThePolicy() throws {
        let folder = try folder(policy: policy, tests: """
            tests:
              - name: "old versions must update"
                context: {platform: ios, app-version: "1.9"}
                expect: {gate: require-update}
              - name: "wrong on purpose"
                context: {platform: ios, app-version: "1.9"}
                expect: {gate: none}
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("app.tests.yaml")
        #expect(PolicyTestFile.policy(for: file)?.lastPathComponent == "app.yaml")
        #expect(PolicyTestFile.testFile(for: folder.appendingPathComponent("app.yaml"))?.lastPathComponent == "app.tests.yaml")
        let report = PolicyLinter(now: lintNow).lint(fileAt: file, path: "app.tests.yaml")
        let failure = try #require(findings(.testFailed, report.diagnostics).first)
        #expect(report.diagnostics.count == 1, "\(report.diagnostics.map(\.description))")
        #expect(failure.range.start.line == 5 && failure.range.start.column == 5)
        #expect(failure.message.contains("gate: expected none, got require-update (old)"))
        #expect(failure.notes.first?.path?.hasSuffix("app.yaml") == true)
        #expect(failure.notes.first?.range.start.line == 5)
        let rendered = failure.rendered(file: report.path, source: report.source)
        #expect(rendered.contains("app.yaml:5:"), "\(rendered)")
    }

    @Test func aCaseNamingAMissingRuleIsReported() throws {
        let folder = try folder(policy: policy, tests: """
            tests:
              - name: "typo"
                context: {platform: ios, app-version: "1.9"}
                expect: {gate: {action: require-update, rule: olf}}
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = PolicyLinter(now: lintNow).lint(fileAt: folder.appendingPathComponent("app.tests.yaml"), path: "t")
        let unknown = try #require(findings(.policyUnknownRule, report.diagnostics).first)
        #expect(unknown.range.start.line == 4 && unknown.range.start.column == 51)
        #expect(unknown.fixIt?.replacement == "old")
    }

    @Test func aTestFileWithoutItsPolicyOrWithABrokenOneIsAnError() throws {
        let alone = try folder(policy: nil, tests: "tests: []\n")
        defer { try? FileManager.default.removeItem(at: alone) }
        let report = PolicyLinter(now: lintNow).lint(fileAt: alone.appendingPathComponent("app.tests.yaml"), path: "t")
        #expect(report.diagnostics.map(\.code) == [.lintTestsWithoutPolicy])

        let broken = try folder(policy: "policy: 1\nrules: [{id: a, then: nope}]\n", tests: "tests: []\n")
        defer { try? FileManager.default.removeItem(at: broken) }
        let second = PolicyLinter(now: lintNow).lint(fileAt: broken.appendingPathComponent("app.tests.yaml"), path: "t")
        #expect(second.diagnostics.map(\.code) == [.lintTestsWithoutPolicy])
        #expect(second.diagnostics.first?.message.contains("has errors") == true)

        // A folder where the policy should be: said as what it is, not as a policy with errors.
        let unreadable = try folder(policy: nil, tests: "tests: []\n")
        defer { try? FileManager.default.removeItem(at: unreadable) }
        try FileManager.default.createDirectory(at: unreadable.appendingPathComponent("app.yaml"),
            withIntermediateDirectories: true)
        let tests = unreadable.appendingPathComponent("app.tests.yaml")
        let third = PolicyLinter(now: lintNow).lint(fileAt: tests, path: "t")
        #expect(third.diagnostics.map(\.code) == [.lintTestsWithoutPolicy])
        let message = third.diagnostics.first?.message ?? ""
        #expect(message.hasSuffix("could not be read (is a directory), so its tests cannot run"), "\(message)")
    }

    @Test func aLaunchGateConfigurationCanHaveTests() throws {
        let folder = try folder(policy: """
            {"ios": {"requiredUpdate": {"minimumVersion": "1.10", "message": "Update."}}}
            """, tests: """
            tests:
              - name: "1.9 is below 1.10"
                context: {platform: ios, app-version: "1.9"}
                expect: {gate: {action: require-update, rule: requiredUpdate}}
            """, policyName: "app.json")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = PolicyLinter(now: lintNow).lint(fileAt: folder.appendingPathComponent("app.tests.yaml"), path: "t")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.description))")
    }

    @Test func aPolicyNamedOnItsOwnBringsItsTestFile() throws {
        let folder = try folder(policy: policy, tests: "tests: []\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try PolicyFiles.collect([folder.appendingPathComponent("app.yaml").path]).files
        #expect(files.map(\.lastPathComponent) == ["app.yaml", "app.tests.yaml"])
        let both = try PolicyFiles.collect([folder.path, folder.appendingPathComponent("app.yaml").path]).files
        #expect(both.map(\.lastPathComponent) == ["app.tests.yaml", "app.yaml"], "each file once")
    }
}
