import ArgumentParser
import CommandLineSupport
import Foundation
import LaunchPolicy

/// `launch-policy explain`: each rule of a policy in plain words.
///
/// Exit status: 0, 1 when the policy has errors, 2 for a usage error (an unknown --rule among them).
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say what each rule of a policy does, in plain words.",
        discussion: """
            For reviewers who do not read YAML: "Blocks iOS users below 2.4 and asks them to update: 'Please update \
            Lantern to keep going.'" --rule ID explains one rule. Exit status: 0, 1 when the policy has errors, 2 for \
            a usage error.
            """)

    private static let name = "launch-policy explain"

    @Argument(help: "The policy file (YAML), or a LaunchGate/Gandalf configuration (JSON).")
    var policy: String
    @Option(help: ArgumentHelp("Explain only this rule.", valueName: "id"))
    var rule: String?
    @Option(help: "text (default) or json.")
    var format: ReportFormat = .text

    func run() throws {
        let parsed = try readPolicyFile(policy, command: Self.name)
        var rules = parsed.rules[...]
        if let rule {
            rules = rules.filter { $0.id.value == rule }
            guard !rules.isEmpty else {
                let ids = parsed.rules.map(\.id.value)
                throw usageError(Self.name, "the policy has no rule \"\(rule)\"; its rules are: \(ids.joined(separator: ", "))")
            }
        }
        // Each description made as it is printed: every rule that shows a message quotes its text, so the
        // descriptions of a policy can be far larger than the policy.
        let descriptions = parsed.describing(rules)
        switch format {
        case .text:
            for (id, description) in descriptions { print(TerminalText.visible("\(id): \(description)")) }
        case .json:
            printJSON(arrayOf: descriptions.lazy.map {
                .object([("rule", .string($0.rule)), ("description", .string($0.description))])
            })
        }
    }
}
