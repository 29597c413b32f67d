import ArgumentParser
import Foundation
import LaunchPolicy

/// Writes one line to standard error.
public func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Prints `command: message` on standard error and returns the usage-error exit status (2) to throw.
public func usageError(_ command: String, _ message: String) -> ExitCode {
    printError("\(command): \(message)")
    return ExitCode(2)
}

extension ParsableCommand {
    /// Parses the arguments and runs the command; a usage error exits 2, the status every LaunchPolicy tool gives a
    /// usage error (ArgumentParser's own is 64).
    public static func mainWithUsageStatus() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exitWithUsageStatus(error)
        }
    }

    /// Exits for `error` as ``mainWithUsageStatus()`` does.
    fileprivate static func exitWithUsageStatus(_ error: Error) -> Never {
        if exitCode(for: error) == .validationFailure {
            printError(fullMessage(for: error))
            Foundation.exit(2)
        }
        exit(withError: error)
    }
}

extension AsyncParsableCommand {
    /// ``ParsableCommand/mainWithUsageStatus()`` for a tool with asynchronous subcommands.
    public static func asyncMainWithUsageStatus() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exitWithUsageStatus(error)
        }
    }
}

extension VersionKind: ExpressibleByArgument {}

/// How a command prints its result: `text` for people, `json` for scripts.
public enum ReportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}
