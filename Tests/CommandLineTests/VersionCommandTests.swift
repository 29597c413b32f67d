import Foundation
import Testing
import TestSupport

@Suite struct VersionCommandTests {
    func run(_ arguments: String...) throws -> CommandResult {
        try Executables.run("launch-policy", ["version"] + arguments)
    }

    @Test func compareprintsMinusOneZeroOrOne() throws {
        #expect(try run("--compare", "1.10", "1.9").standardOutput == "1\n")
        #expect(try run("--compare", "9.5", "10.0").standardOutput == "-1\n")
        #expect(try run("--compare", "1.1", "1.1.0").standardOutput == "0\n")
        #expect(try run("--kind", "semver", "--compare", "1.0.0-rc.1", "1.0.0").standardOutput == "-1\n")
        #expect(try run("--kind", "version-code", "--compare", "120", "119").standardOutput == "1\n")
        #expect(try run("--kind", "build", "--compare", "2.4.1.7", "2.4.1.10").standardOutput == "-1\n")
        #expect(try run("--compare", "1", "2").status == 0)
    }

    @Test func rangePrintsSatisfyingVersionsAsGivenInOrder() throws {
        let result = try run("--range", "< 2.4", "2.4.1", "2.3.9", "1.10", "2.4", "02.3")
        #expect(result.standardOutput == "2.3.9\n1.10\n02.3\n")
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
    }

    @Test func rangeExitsOneWhenNothingSatisfies() throws {
        let result = try run("--range", ">= 3", "1.0", "2.9")
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
    }

    @Test func anInvalidVersionOrRangeIsOneLineOnStandardErrorAndExitTwo() throws {
        let badVersion = try run("--compare", "1.2-beta", "1.0")
        #expect(badVersion.status == 2)
        #expect(badVersion.standardOutput.isEmpty)
        #expect(badVersion.standardError.split(separator: "\n").count == 1)
        #expect(badVersion.standardError.contains("\"1.2-beta\" is not a valid marketing version"))

        let badRange = try run("--range", "~> 1.2", "1.2")
        #expect(badRange.status == 2)
        #expect(badRange.standardError.split(separator: "\n").count == 1)
        #expect(badRange.standardError.contains("\"~> 1.2\""))

        let badCandidate = try run("--range", "*", "1.0", "v2")
        #expect(badCandidate.status == 2)
        #expect(badCandidate.standardOutput.isEmpty)
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try run("--compare", "1").status == 2)
        #expect(try run("--kind", "calendar", "--compare", "1", "2").status == 2)
        #expect(try run("--compare", "--range", "1", "2").status == 2)
        #expect(try run("--range", "*").status == 2)
    }
}

@Suite struct PolicyLintCommandTests {
    @Test func theExamplePoliciesAreClean() throws {
        let result = try Executables.run("policy-lint", ["policies"])
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("0 errors"))
    }

    @Test func aBrokenFileIsReportedWithItsPositionAndExitsOne() throws {
        let folder = try makeTemporaryFolder("lint")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("policy: 1\nid: a\nid: b\nrules: []\n".utf8).write(to: folder.appendingPathComponent("bad.yaml"))
        try Data("policy: 1\nid: ok\nrules: []\n".utf8).write(to: folder.appendingPathComponent("good.yml"))
        try Data("ignored".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let result = try Executables.run("policy-lint", [folder.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("bad.yaml:3:1: error: the key \"id\" appears twice"))
        #expect(result.standardOutput.contains("[yaml.duplicate-key]"))
        #expect(result.standardOutput.contains("good.yml: ok"))
        #expect(!result.standardOutput.contains("notes.txt"))
        #expect(result.standardOutput.contains("checked 2 files: 1 error, 0 warnings, 0 notes"))
    }

    @Test func decoderProblemsAreReportedWithFixIts() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("policy: 1\nrules:\n  - {id: a, then: grant, entitlments: [x]}\n".utf8).write(to: file)
        let result = try Executables.run("policy-lint", [file.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains(":3:26: error: a rule has no key \"entitlments\"; did you mean \"entitlements\"? [policy.unknown-key]"))
        #expect(result.standardOutput.contains("fix-it: rename to \"entitlements\""))
    }

    @Test func aPolicysFailingTestIsAnErrorAtTheTestsLine() throws {
        let folder = try makeTemporaryFolder("lint")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
            policy: 1
            messages: {m: {default: "Update"}}
            rules:
              - {id: minimum, when: {app-version: "< 2.4"}, then: require-update, message: m}
            tests:
              - name: "2.3 must update"
                context: {app-version: "2.3"}
                expect: {gate: require-update}
              - name: "2.5 must update too (wrong)"
                context: {app-version: "2.5"}
                expect: {gate: require-update}
            """.utf8).write(to: folder.appendingPathComponent("gate.yaml"))
        let result = try Executables.run("policy-lint", [folder.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains(
            "gate.yaml:9:5: error: test \"2.5 must update too (wrong)\" failed: gate: expected require-update, got none [test.failed]"),
            "\(result.standardOutput)")
        #expect(result.standardOutput.contains("note: minimum does not match: app-version 2.5 does not satisfy < 2.4"))
        #expect(result.standardOutput.contains("checked 1 file: 1 error"))
    }

    @Test func aMissingPathIsAUsageError() throws {
        let result = try Executables.run("policy-lint", ["no/such/file.yaml"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("no such file or folder: no/such/file.yaml"))
    }
}
