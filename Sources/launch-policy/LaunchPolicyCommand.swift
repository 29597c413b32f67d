import ArgumentParser
import CommandLineSupport
import LaunchPolicy

@main
struct LaunchPolicyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch-policy",
        abstract: "Evaluate, explain and test LaunchPolicy files.",
        subcommands: [
            EvalCommand.self, ExplainCommand.self, SimulateCommand.self, ConvertCommand.self, LaunchCommand.self, VersionCommand.self, FetchCommand.self, KeygenCommand.self,
            SignCommand.self, VerifyCommand.self,
        ])

    /// Runs the command; usage errors exit 2.
    static func main() async { await asyncMainWithUsageStatus() }
}
