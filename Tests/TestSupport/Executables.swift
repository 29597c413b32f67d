import Foundation

/// What a finished command printed and how it exited.
public struct CommandResult: Sendable {
    /// The exit status, or the number of the signal that ended the command (see ``crashed``).
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
    /// Whether a signal ended the command: a trap, a crash.
    public var crashed = false
}

/// Runs the package's built executables, which `swift test` builds next to the test bundle.
public enum Executables {
    /// The folder holding the built products.
    public static var productsDirectory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Apple platforms the test binary sits inside a .xctest bundle.
        while url.pathExtension == "xctest" || url.lastPathComponent == "MacOS" || url.lastPathComponent == "Contents" {
            url.deleteLastPathComponent()
        }
        return url
    }

    /// Runs `name` with `arguments` in `directory` (the package root by default), with `environment` added to and
    /// `removing` taken from this process's environment.
    public static func run(
        _ name: String, _ arguments: [String], in directory: URL = Conformance.packageRoot,
        environment: [String: String] = [:], removing: [String] = []
    ) throws -> CommandResult {
        try run(executable: productsDirectory.appendingPathComponent(name), arguments, in: directory,
            environment: environment, removing: removing)
    }

    /// Runs the program at `executable` (a tool of the system's, say) as ``run(_:_:in:environment:removing:)`` runs
    /// a built product.
    public static func run(
        executable: URL, _ arguments: [String], in directory: URL = Conformance.packageRoot,
        environment: [String: String] = [:], removing: [String] = []
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        for name in removing { merged[name] = nil }
        process.environment = merged
        process.currentDirectoryURL = directory
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self),
            crashed: process.terminationReason == .uncaughtSignal)
    }
}
