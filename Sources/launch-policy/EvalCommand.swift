import ArgumentParser
import CommandLineSupport
import Foundation
import LaunchPolicy

/// `launch-policy eval`: what a policy decides for one launch, and why.
///
/// Exit status: 0 with a decision, 1 when the policy has errors (diagnostics on standard error), 2 for a usage
/// error — an invalid context value, an unknown platform, a file that cannot be read — and when `--record` cannot
/// write the memory file, its lock held past `--lock-timeout` included.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Decide what the app must do at one launch, and explain why.",
        discussion: """
            The context comes from the options, named after the condition keys, over --context FILE (YAML or JSON \
            with the same keys). --memory FILE reads what was shown before (a missing file is an empty memory); \
            --record writes back what this decision shows, waiting at most --lock-timeout for another process \
            recording into the same file. Policies and LaunchGate/Gandalf JSON files are both read. \
            Exit status: 0 with a decision, 1 when the policy has errors, 2 for a usage error or a memory file that \
            --record cannot write.
            """)

    @Argument(help: "The policy file (YAML), or a LaunchGate/Gandalf configuration (JSON).")
    var policy: String

    @Option(help: "ios, ipados, macos, tvos, watchos, visionos or android.")
    var platform: String?
    @Option(name: .customLong("app-version"), help: "The app's version, such as 2.4.1.")
    var appVersion: String?
    @Option(help: "The build number (Android: the versionCode).")
    var build: String?
    @Option(name: .customLong("os-version"), help: "The operating system's version.")
    var osVersion: String?
    @Option(help: "first, upgrade, downgrade or normal.")
    var launch: String?
    @Option(name: .customLong("previous-version"), help: "The app version of the previous launch.")
    var previousVersion: String?
    @Option(name: .customLong("install-version"), help: "The app version first installed.")
    var installVersion: String?
    @Option(name: .customLong("original-app-version"), help: "The version first bought (iOS: a build number).")
    var originalAppVersion: String?
    @Option(name: .customLong("launch-count"), help: "Launches so far, this one included.")
    var launchCount: String?
    @Option(name: .customLong("days-since-last-launch"), help: "Whole days since the previous launch.")
    var daysSinceLastLaunch: String?
    @Option(name: .customLong("days-since-install"), help: "Whole days since the first launch.")
    var daysSinceInstall: String?
    @Option(name: .customLong("launch-source"), help: "organic, local-notification, remote-notification, url, shortcut or other.")
    var launchSource: String?
    @Option(help: ArgumentHelp(
        "The user's language tag, such as ja-JP, or a platform's identifier (zh_TW_#Hant); message texts are chosen "
            + "for it."))
    var locale: String?
    @Option(help: "The user's region, such as NO or 419.")
    var region: String?
    @Option(help: "The time of the launch, ISO 8601 with a time zone (default: now).")
    var now: String?
    @Option(name: .customLong("install-id"), help: "The install's id, for staged rollouts.")
    var installID: String?
    @Option(name: .customLong("attribute"), help: ArgumentHelp("An app-defined attribute; repeatable.", valueName: "name=value"))
    var attributes: [String] = []
    @Option(help: ArgumentHelp("A YAML or JSON file with context values; options override it.", valueName: "file"))
    var context: String?
    @Option(help: ArgumentHelp("A JSON file of what was shown before.", valueName: "file"))
    var memory: String?
    @Flag(help: "Write what this decision shows into the --memory file.")
    var record = false
    @OptionGroup var lockTimeout: LockTimeoutOption
    @Option(help: "text (default) or json.")
    var format: ReportFormat = .text

    func validate() throws {
        if record, memory == nil { throw ValidationError("--record needs --memory FILE to write to") }
        for attribute in attributes where !attribute.contains("=") || attribute.hasPrefix("=") {
            throw ValidationError("--attribute takes NAME=VALUE, such as plan=pro; got \"\(attribute)\"")
        }
    }

    /// The options' values by condition key, as given.
    private var optionValues: [String: String] {
        let pairs: [(String, String?)] = [
            ("platform", platform), ("app-version", appVersion), ("build", build), ("os-version", osVersion),
            ("launch", launch), ("previous-version", previousVersion), ("install-version", installVersion),
            ("original-app-version", originalAppVersion), ("launch-count", launchCount),
            ("days-since-last-launch", daysSinceLastLaunch), ("days-since-install", daysSinceInstall),
            ("launch-source", launchSource), ("locale", locale), ("region", region), ("now", now),
            ("install-id", installID),
        ]
        return Dictionary(uniqueKeysWithValues: pairs.compactMap { key, value in value.map { (key, $0) } })
    }

    private static let name = "launch-policy eval"

    func run() throws {
        let policy = try readPolicyFile(policy, command: Self.name)
        let launchContext = try buildContext()
        let store = memory.map {
            JSONFileDisplayMemoryStore(url: URL(fileURLWithPath: $0), lockTimeout: lockTimeout.seconds)
        }
        var shown = DisplayMemory()
        if let store {
            do {
                shown = try store.load()
            } catch let error as DisplayMemoryError {
                guard let diagnostic = error.diagnostic else { throw usageError(Self.name, "\(error)") }
                printStateFileDiagnostic(diagnostic, in: store.url)
                throw ExitCode(2)
            } catch {
                throw usageError(Self.name, "the memory file \(store.url.path) could not be read: "
                    + AtomicFile.reason(error))
            }
        }
        let decision = policy.evaluate(launchContext, memory: shown)
        switch format {
        case .json: printJSON(decision.json)
        case .text:
            var output = StandardOutput()
            decision.writeReport(to: &output)
            print()
        }
        if record, let store {
            do {
                // Recorded into the memory as it is now, which another process may have changed since it was read.
                try store.update { memory in
                    for directive in decision.shown { memory.record(directive, at: launchContext.now) }
                }
            } catch {
                printError("launch-policy: the memory file \(store.url.path) could not be written: "
                    + AtomicFile.reason(error))
                throw ExitCode(2)
            }
        }
    }

    /// The context from `--context`, the options and `--attribute`; exit 2 when a value is invalid.
    private func buildContext() throws -> LaunchContext {
        var values: [String: ContextValue] = [:]
        if let context {
            let bytes = try readParsedFile(context, what: "context", command: Self.name, exitWhenTooLarge: 2)
            let file = LaunchContextFile.values(bytes)
            printDiagnostics(file.diagnostics, file: context, source: bytes)
            if file.diagnostics.containsErrors { throw ExitCode(2) }
            values = file.values.mapValues(\.value)
        }
        for (key, value) in optionValues { values[key] = .text(value) }
        if !attributes.isEmpty {
            var merged: [String: String] = [:]
            if case .map(let fromFile) = values["attributes"] { merged = fromFile }
            for attribute in attributes {
                let parts = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                merged[String(parts[0])] = String(parts[1])
            }
            values["attributes"] = .map(merged)
        }
        do {
            return try LaunchContext(values: values)
        } catch {
            let source = optionValues[error.key] != nil ? "--\(error.key)" : (context.map { "\(error.key) in \($0)" } ?? error.key)
            throw usageError(Self.name, "\(source) \"\(error.value)\" is not valid: \(error.reason)")
        }
    }
}
