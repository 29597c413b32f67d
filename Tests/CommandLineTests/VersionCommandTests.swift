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
