import ArgumentParser
import CommandLineSupport
import Foundation
import LaunchPolicy

/// The policy at `path` (YAML, or LaunchGate/Gandalf JSON for a `.json` file), its diagnostics printed on standard
/// error; exits 1 when it has errors and 2 when it cannot be read.
func readPolicyFile(_ path: String, command: String) throws -> Policy {
    let bytes = try readInputFile(path, what: "policy", command: command)
    let parser = AutomaticPolicyParser(expectsLaunchGateJSON: path.lowercased().hasSuffix(".json"))
    let result = parser.parse(bytes)
    for diagnostic in result.diagnostics {
        printError(diagnostic.rendered(file: path, source: [UInt8](bytes)))
    }
    guard let usable = result.usablePolicy else { throw ExitCode(1) }
    return usable
}

/// The bytes of a file a command was given, or a usage error (exit 2): `cannot read the WHAT PATH: REASON`.
func readInputFile(_ path: String, what: String, command: String) throws -> Data {
    do {
        return try AtomicFile.contents(of: URL(fileURLWithPath: path))
    } catch {
        throw usageError(command, "cannot read the \(what) \(path): \(AtomicFile.reason(error))")
    }
}
