import ArgumentParser
import CommandLineSupport
import Foundation
import LaunchPolicy

/// `launch-policy convert`: a LaunchGate or Gandalf JSON configuration as an equivalent YAML policy.
///
/// Exit status: 0 when converted, 1 when the configuration has errors (or the converted policy's own tests fail,
/// which would be a bug in the converter), 2 for a usage error.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a LaunchGate or Gandalf JSON configuration into an equivalent YAML policy.",
        discussion: """
            The policy has a comment on each rule naming the JSON it came from, and a tests: section checking the \
            versions around each threshold against LaunchGate's semantics; they are run before the policy is \
            written. Exit status: 0, 1 when the configuration has errors, 2 for a usage error.
            """)

    private static let name = "launch-policy convert"

    @Argument(help: "The LaunchGate (ios) or Gandalf (android) JSON configuration.")
    var config: String
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Where to write the policy (default: standard output).", valueName: "policy.yaml"))
    var output: String?

    func run() throws {
        let bytes = try readParsedFile(config, what: "configuration", command: Self.name, exitWhenTooLarge: 1)
        let converted = LaunchGateConversion.convert(bytes, name: URL(fileURLWithPath: config).lastPathComponent)
        printDiagnostics(converted.diagnostics, file: config, source: bytes)
        guard let text = converted.policy else { throw ExitCode(1) }

        // The converted policy must pass its own tests before anyone relies on it.
        let outputName = output ?? "<converted>"
        let parsed = YAMLPolicyParser().parse(Data(text.utf8))
        let failures = parsed.diagnostics.filter { $0.severity == .error }
            + (parsed.usablePolicy.map { PolicyTestRunner.failures($0) } ?? [])
        guard failures.isEmpty else {
            printDiagnostics(failures, file: outputName, source: Data(text.utf8))
            printError("\(Self.name): the converted policy fails its own checks; please report this with \(config)")
            throw ExitCode(1)
        }
        if let output {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw usageError(Self.name, "cannot write \(output): \(AtomicFile.reason(error))")
            }
        } else {
            print(text, terminator: "")
        }
    }
}
