import ArgumentParser
import CommandLineSupport
import LaunchPolicy

/// `launch-policy version`: compare versions, or filter versions by a range.
///
/// Exit status: 0 on success (with `--range`, when at least one version satisfies it), 1 when no version satisfies
/// the range, 2 for an invalid version or range or a usage error.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Compare versions exactly, or list the versions that satisfy a range.",
        discussion: """
            --compare A B prints -1, 0 or 1. --range RANGE V... prints each V that satisfies RANGE, as given, one \
            per line, in the order given; exit 0 if at least one does, 1 if none does. An invalid version or range \
            prints one line on stderr and exits 2.
            """)

    @Option(help: "marketing (default), build, version-code or semver.")
    var kind: VersionKind = .marketing

    @Flag(help: "Compare the two versions given as arguments.")
    var compare = false

    @Option(help: "A range, such as \">= 2.0 < 3\" or \"^1.2 || 2.x\".")
    var range: String?

    @Argument(help: "The versions.")
    var versions: [String] = []

    func validate() throws {
        if compare == (range != nil) {
            throw ValidationError("give exactly one of --compare A B or --range RANGE V [V ...]")
        }
        if compare, versions.count != 2 {
            throw ValidationError("--compare takes exactly two versions, got \(versions.count)")
        }
        if range != nil, versions.isEmpty {
            throw ValidationError("--range needs at least one version to test")
        }
    }

    func run() throws {
        do {
            if compare {
                let left = try Version(versions[0], kind: kind)
                let right = try Version(versions[1], kind: kind)
                print(left.compare(to: right))
                return
            }
            let parsed = try VersionRange(range ?? "", kind: kind)
            let candidates = try versions.map { text throws(VersionError) in (text, try Version(text, kind: kind)) }
            let matching = candidates.filter { parsed.contains($0.1) }
            for (text, _) in matching { print(text) }
            if matching.isEmpty { throw ExitCode(1) }
        } catch let error as VersionError {
            printError("launch-policy: \(error)")
            throw ExitCode(2)
        }
    }
}
