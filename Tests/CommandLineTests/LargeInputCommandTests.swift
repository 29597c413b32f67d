import Foundation
import Testing
import TestSupport

/// Files too large for the tools: refused with the reader's diagnostic or a usage error, without being held whole.
@Suite struct LargeInputCommandTests {
    /// A file of `count` bytes of `#` (one line) in a new folder.
    private func largeFile(_ name: String, _ count: Int) throws -> (folder: URL, file: URL) {
        let folder = try makeTemporaryFolder("large-input")
        let file = folder.appendingPathComponent(name)
        try Data(repeating: UInt8(ascii: "#"), count: count).write(to: file)
        return (folder, file)
    }

    @Test func aPolicyOverTheLimitIsRefusedWithItsSizeInAFewLines() throws {
        let (folder, file) = try largeFile("big.yaml", 2_000_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [["eval", file.path, "--platform", "ios"], ["explain", file.path], ["simulate", file.path,
            "--population", "/dev/null"]] {
            let command = arguments[0]
            let result = try Executables.run("launch-policy", arguments)
            #expect(result.status == 1, "\(command)")
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError.contains(
                "big.yaml:1:1048577: error: the input is 2000000 bytes, more than the limit of 1048576 bytes"
                    + " [yaml.input-too-large]"), "\(command)")
            // The line around the position, not a million columns of it.
            #expect(result.standardError.utf8.count < 1_000, "\(command)")
        }
        let context = try Executables.run("launch-policy",
            ["eval", "policies/minimum-version.yaml", "--context", file.path])
        #expect(context.status == 2)
        #expect(context.standardError.contains("[yaml.input-too-large]"))
        let sign = try Executables.run("launch-policy", ["sign", file.path, "--key", file.path])
        #expect(sign.status == 1)
        #expect(sign.standardError.contains("[yaml.input-too-large]"))
        #expect(!FileManager.default.fileExists(atPath: file.path + ".sig"))
    }

    @Test func aKeyOverItsLimitIsAUsageError() throws {
        let (folder, file) = try largeFile("key", 70_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Executables.run("launch-policy",
            ["verify", "policies/minimum-version.yaml", "--public-key", file.path])
        #expect(result.status == 2)
        #expect(result.standardError.contains(
            "cannot read the public key \(file.path): it is 70000 bytes, more than the limit of 65536 bytes"))
    }

    @Test func aConfigurationOverTheLimitIsReportedByPolicyLint() throws {
        let (folder, _) = try largeFile(".policy-lint.yaml", 1_100_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let policy = Conformance.packageRoot.appendingPathComponent("policies/minimum-version.yaml")
        try FileManager.default.copyItem(at: policy, to: folder.appendingPathComponent("minimum-version.yaml"))
        let result = try Executables.run("policy-lint", [folder.path])
        #expect(result.status == 2)
        let output = result.standardOutput + result.standardError
        #expect(output.contains(".policy-lint.yaml:1:1048577: error: the input is 1100000 bytes"),
            "\(output.prefix(500))")
        #expect(output.utf8.count < 2_000)
    }

    #if os(Linux)
    @Test func aStreamWithNoEndIsReadOnlyToTheLimit() throws {
        // Before, each of these read /dev/zero until memory ran out.
        let eval = try Executables.run("launch-policy", ["eval", "/dev/zero", "--platform", "ios"])
        #expect(eval.status == 1)
        #expect(eval.standardError.contains(
            "/dev/zero:1:1048577: error: the input is more than the limit of 1048576 bytes [yaml.input-too-large]"))
        let key = try Executables.run("launch-policy",
            ["verify", "policies/minimum-version.yaml", "--public-key", "/dev/zero"])
        #expect(key.status == 2)
        #expect(key.standardError.contains(
            "cannot read the public key /dev/zero: it is more than the limit of 65536 bytes"))
        let population = try Executables.run("launch-policy",
            ["simulate", "policies/minimum-version.yaml", "--population", "/dev/zero"])
        #expect(population.status == 2)
        #expect(population.standardError.contains(
            "cannot read the population /dev/zero: it is more than the limit of 67108864 bytes"))
    }
    #endif
}
