import ArgumentParser
import CommandLineSupport
import Foundation
import LaunchPolicy

/// `policy-lint`: checks policy files for CI. Exit 0 when no file has an error, 1 when one has, 2 on a usage error.
@main
struct PolicyLint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy-lint",
        abstract: "Check LaunchPolicy files and LaunchGate/Gandalf configurations.",
        discussion: """
            Folders are searched for *.yaml, *.yml and *.json files. Diagnostics are printed as \
            FILE:LINE:COL: SEVERITY: MESSAGE [CODE] with the source line. Exit status: 0 no errors, 1 errors \
            found, 2 usage error.
            """)

    @Argument(help: "Policy files or folders to check.")
    var paths: [String] = ["."]

    @Flag(name: .shortAndLong, help: "Print nothing for files without diagnostics, and no summary.")
    var quiet = false

    /// Runs the command; usage errors exit 2.
    static func main() { mainWithUsageStatus() }

    func run() throws {
        let files: [URL]
        do {
            files = try PolicyFiles.collect(paths)
        } catch {
            printError("policy-lint: \(error)")
            throw ExitCode(2)
        }
        let linter = PolicyLinter()
        var counts: [Severity: Int] = [:]
        for file in files {
            let report = linter.lint(fileAt: file, path: PolicyFiles.displayPath(file))
            for diagnostic in report.diagnostics {
                counts[diagnostic.severity, default: 0] += 1
                print(diagnostic.rendered(file: report.path, source: report.source))
            }
            if report.diagnostics.isEmpty, !quiet { print("\(report.path): ok") }
        }
        if !quiet {
            let tally = [(Severity.error, "error"), (.warning, "warning"), (.note, "note")].map { severity, word in
                counted(counts[severity] ?? 0, word)
            }
            print("checked \(counted(files.count, "file")): \(tally.joined(separator: ", "))")
        }
        if (counts[.error] ?? 0) > 0 { throw ExitCode(1) }
    }
}

/// `1 error`, `2 errors`.
private func counted(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
