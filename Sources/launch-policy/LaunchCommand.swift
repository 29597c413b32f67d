import ArgumentParser
import CommandLineSupport
import Foundation
import LaunchPolicy

/// `launch-policy launch`: records one launch in a JSON-file store and prints what is known about it.
///
/// Exit status: 0 with the launch recorded (also after a corrupt store was set aside, with a warning on standard
/// error); 2 for a usage error, a store that cannot be written, or a lock held past `--lock-timeout`.
struct LaunchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract: "Record one launch in a history file and print what is known about it.",
        discussion: """
            Prints kind (first, upgrade, downgrade, normal), count, previousVersion, previousBuild, installVersion, \
            firstLaunchDate, previousLaunchDate, daysSinceLastLaunch, daysSinceInstall and source. Processes that \
            share a store take turns (a lock file beside it), each waiting at most --lock-timeout. A store that \
            cannot be read is kept beside it as STORE.corrupt-TIME, a warning is printed, and a fresh history \
            starts. Command-line tools can use this for their own "what's new since you last ran".
            """)

    @Option(help: ArgumentHelp("The history file (JSON); created when missing.", valueName: "path"))
    var store: String
    @Option(name: .customLong("app-version"), help: "The version being launched, such as 2.4.1.")
    var appVersion: String
    @Option(help: "The build number (Android: the versionCode).")
    var build: String?
    @Option(help: "organic (default), local-notification, remote-notification, url, shortcut or other.")
    var source: String?
    @Option(help: "The time of the launch, ISO 8601 with a time zone (default: now).")
    var now: String?
    @Option(help: "text (default) or json.")
    var format: ReportFormat = .text
    @OptionGroup var lockTimeout: LockTimeoutOption

    private static let name = "launch-policy launch"

    func run() throws {
        var date = Date()
        if let now {
            do {
                date = try LaunchContext(values: ["now": .text(now)]).now
            } catch {
                throw usageError(Self.name, "--now \"\(now)\" is not valid: \(error.reason)")
            }
        }
        var launchSource: LaunchSource?
        if let source {
            guard let parsed = LaunchSource(rawValue: source) else {
                throw usageError(Self.name, "--source \"\(source)\" is not valid: use one of "
                    + LaunchSource.allCases.map(\.rawValue).joined(separator: ", "))
            }
            launchSource = parsed
        }
        let tracker: LaunchTracker
        do {
            let store = JSONFileLaunchHistoryStore(url: URL(fileURLWithPath: store), lockTimeout: lockTimeout.seconds)
            tracker = try LaunchTracker(store: store,
                appVersion: appVersion, build: build, importingLegacyKeysFrom: nil)
        } catch {
            throw usageError(Self.name, "--\(error.key) \"\(error.value)\" is not valid: \(error.reason)")
        }
        let info: LaunchInfo
        do {
            info = try tracker.recordLaunch(source: launchSource, now: date)
        } catch {
            throw usageError(Self.name, "the store \(store) could not be used: \(AtomicFile.reason(error))")
        }
        switch tracker.recovery {
        case .corrupt(_, let keptAt?, let diagnostic?)?:
            printError("launch-policy launch: warning: the launch history could not be read; it was kept as "
                + "\(keptAt.path), and a fresh history was started")
            printStateFileDiagnostic(diagnostic, in: keptAt)
        case let recovery?:
            printError("launch-policy launch: warning: \(recovery); a fresh history was started")
        case nil:
            break
        }
        switch format {
        case .json: printJSON(info.json)
        case .text: print(info.report)
        }
    }

}
