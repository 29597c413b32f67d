import ArgumentParser
import LaunchPolicy

@main
struct LaunchPolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "launch-policy")
}
