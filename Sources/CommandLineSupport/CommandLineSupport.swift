import ArgumentParser
import Foundation
import LaunchPolicy

/// Writes one line to standard error.
public func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Standard output as a stream, for reports written a line at a time (``LaunchPolicy/Decision/writeReport(to:)``):
/// through `print`, so that what is written this way and by `print` comes out in the order written.
public struct StandardOutput: TextOutputStream {
    /// Standard output; every value writes to the same stream.
    public init() {}

    /// Writes `string` as it is, with no line break after it.
    public mutating func write(_ string: String) {
        print(string, terminator: "")
    }
}

/// Prints `value` as JSON on one line, then a line break, written out in pieces as it is made: a document far larger
/// than its input (a decision that quotes a long message at each of thousands of rules) is never whole in memory.
public func printJSON(_ value: JSONValue) {
    value.write { print(String(decoding: $0, as: UTF8.self), terminator: "") }
    print()
}

/// Prints a JSON array of `items` as ``printJSON(_:)`` prints a value, each item made only as it is written.
public func printJSON(arrayOf items: some Sequence<JSONValue>) {
    JSONValue.write(arrayOf: items) { print(String(decoding: $0, as: UTF8.self), terminator: "") }
    print()
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
