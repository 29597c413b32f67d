import Foundation
import Testing
import TestSupport

@Suite struct SimulateCommandTests {
    @Test func simulatesInEveryFormatAndDrawsTheChart() throws {
        let folder = try makeTemporaryFolder("simulate-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let population = folder.appendingPathComponent("base.csv")
        try Data("platform,app-version,users\nios,2.3.9,180\nios,2.5,300\nios,2.10,520\n".utf8).write(to: population)
        let chart = folder.appendingPathComponent("chart.svg")

        let text = try Executables.run("launch-policy", ["simulate", "policies/minimum-version.yaml", "--population",
            population.path, "--now", "2026-11-21T00:00:00Z", "--svg", chart.path])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.hasPrefix("1,000 users at 2026-11-21T00:00:00.000Z"))
        #expect(text.standardOutput.contains("update required     180  18.0%"))
        #expect(text.standardOutput.contains("minimum-ios     180  18.0%  require-update"))
        let svg = try String(contentsOf: chart, encoding: .utf8)
        #expect(svg.contains("<svg"))
        #expect(svg.contains("ios 2.3.9: 180 users"))

        let json = try Executables.run("launch-policy", ["simulate", "policies/minimum-version.yaml", "--population",
            population.path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["users"] as? Int == 1_000)

        let csv = try Executables.run("launch-policy", ["simulate", "policies/minimum-version.yaml", "--population",
            population.path, "--format", "csv"])
        #expect(csv.standardOutput.contains("total,,,,1000,0,180,300,0,0,0,520\n"))
    }

    @Test func aPopulationWithErrorsIsReportedAtItsCellsAndNotSimulated() throws {
        let folder = try makeTemporaryFolder("simulate-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let population = folder.appendingPathComponent("base.csv")
        try Data("platform,app-version,users\nios,two,3\n".utf8).write(to: population)
        let result = try Executables.run("launch-policy", ["simulate", "policies/minimum-version.yaml", "--population",
            population.path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("base.csv:2:5: error: app-version \"two\" is not valid"))
        #expect(result.standardOutput.isEmpty)

        let badNow = try Executables.run("launch-policy", ["simulate", "policies/minimum-version.yaml", "--population",
            population.path, "--now", "tomorrow"])
        #expect(badNow.status == 2)
        #expect(badNow.standardError.contains("--now \"tomorrow\" is not valid"))
    }
}

@Suite struct ConvertCommandTests {
    @Test func convertsToStandardOutputOrAFileThatLintsClean() throws {
        let folder = try makeTemporaryFolder("convert-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let printed = try Executables.run("launch-policy", ["convert", "policies/launchgate/launchgate.json"])
        #expect(printed.status == 0, "\(printed.standardError)")
        #expect(printed.standardOutput.contains("# LaunchGate ios.requiredUpdate: below minimumVersion 2.4."))
        #expect(printed.standardOutput.contains("tests:"))

        let output = folder.appendingPathComponent("policy.yaml").path
        let written = try Executables.run("launch-policy", ["convert", "policies/launchgate/gandalf-and-launchgate.json", "-o", output])
        #expect(written.status == 0)
        #expect(written.standardOutput.isEmpty)
        let lint = try Executables.run("policy-lint", [output])
        #expect(lint.status == 0)
        #expect(lint.standardOutput.contains("0 errors, 0 warnings, 0 notes"))
    }

    @Test func aConfigurationWithErrorsIsReportedAndNotWritten() throws {
        let folder = try makeTemporaryFolder("convert-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("bad.json")
        try Data(#"{"ios": {"requiredUpdate": {"minimumVersion": "two", "message": "U"}}}"#.utf8).write(to: config)
        let output = folder.appendingPathComponent("policy.yaml")
        let result = try Executables.run("launch-policy", ["convert", config.path, "-o", output.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("[compat.invalid-version]"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
