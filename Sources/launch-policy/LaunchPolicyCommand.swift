import ArgumentParser
import CommandLineSupport
import LaunchPolicy

@main
struct LaunchPolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch-policy",
        abstract: "Evaluate, explain and test LaunchPolicy files.",
        subcommands: [EvalCommand.self, LaunchCommand.self, VersionCommand.self])

    /// Runs the command; usage errors exit 2.
    static func main() { mainWithUsageStatus() }
}
