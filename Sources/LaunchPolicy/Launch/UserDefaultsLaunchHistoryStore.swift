import Foundation

/// A store that keeps the history in `UserDefaults` (Foundation's, on Linux too), one key per field under a prefix,
/// `LaunchPolicy.` by default:
///
/// | Key | Type |
/// | --- | --- |
/// | `LaunchPolicy.launchCount` | integer |
/// | `LaunchPolicy.installVersion` | string |
/// | `LaunchPolicy.firstLaunchDate` | date |
/// | `LaunchPolicy.latestVersion`, `.latestBuild`, `.latestKind`, `.latestProcess` | string |
/// | `LaunchPolicy.latestDate`, `.latestPreviousLaunchDate` | date |
/// | `LaunchPolicy.latestPreviousVersion`, `.latestPreviousBuild` | string |
///
/// Values of the wrong type are copied under `PREFIX.corrupt.KEY` before a fresh history replaces them. UserDefaults
/// has no lock between processes: an app and its extensions that both record launches should share a
/// ``JSONFileLaunchHistoryStore`` in their app group container instead.
public struct UserDefaultsLaunchHistoryStore: LaunchHistoryStore, @unchecked Sendable {
    // UserDefaults is documented as thread-safe; it is not marked Sendable on every platform.
    private let defaults: UserDefaults
    /// The prefix of every key.
    public let keyPrefix: String
    private let lock = NSRecursiveLock()

    /// Creates a store in `defaults` under `keyPrefix`.
    public init(defaults: UserDefaults = .standard, keyPrefix: String = "LaunchPolicy.") {
        self.defaults = defaults
        self.keyPrefix = keyPrefix
    }

    private static let stringKeys = ["installVersion", "latestVersion", "latestBuild", "latestKind", "latestProcess",
        "latestPreviousVersion", "latestPreviousBuild"]
    private static let dateKeys = ["firstLaunchDate", "latestDate", "latestPreviousLaunchDate"]
    private static var allKeys: [String] { ["launchCount"] + stringKeys + dateKeys }

    public func read() throws -> LaunchHistory? {
        func key(_ name: String) -> String { keyPrefix + name }
        guard Self.allKeys.contains(where: { defaults.object(forKey: key($0)) != nil }) else { return nil }
        var problems: [String] = []
        func string(_ name: String) -> String? {
            guard let value = defaults.object(forKey: key(name)) else { return nil }
            if let text = value as? String { return text }
            problems.append(name)
            return nil
        }
        func date(_ name: String) -> Date? {
            guard let value = defaults.object(forKey: key(name)) else { return nil }
            if let date = value as? Date { return date }
            problems.append(name)
            return nil
        }
        let count = defaults.object(forKey: key("launchCount")).flatMap { ($0 as? NSNumber)?.intValue }
        if count == nil || count! < 0 { problems.append("launchCount") }
        var history = LaunchHistory(count: max(count ?? 0, 0), installVersion: string("installVersion"),
            firstLaunchDate: date("firstLaunchDate"))
        if let version = string("latestVersion") {
            let kindText = string("latestKind")
            guard let kind = kindText.flatMap(LaunchKind.init(rawValue:)) else {
                problems.append("latestKind")
                throw corrupt(problems)
            }
            history.latest = LaunchRecord(
                version: version, build: string("latestBuild"), date: date("latestDate"), kind: kind,
                previousVersion: string("latestPreviousVersion"), previousBuild: string("latestPreviousBuild"),
                previousLaunchDate: date("latestPreviousLaunchDate"), process: string("latestProcess"))
        }
        if !problems.isEmpty { throw corrupt(problems) }
        return history
    }

    /// Copies the stored values aside and describes what was wrong.
    private func corrupt(_ problems: [String]) -> LaunchHistoryStoreError {
        for name in Self.allKeys {
            if let value = defaults.object(forKey: keyPrefix + name) {
                defaults.set(value, forKey: keyPrefix + "corrupt." + name)
            }
        }
        return .corrupt(reason: "wrong values under " + problems.map { keyPrefix + $0 }.joined(separator: ", ")
            + "; copied under \(keyPrefix)corrupt.", keptAt: nil)
    }

    public func write(_ history: LaunchHistory) {
        func set(_ value: Any?, _ name: String) {
            if let value { defaults.set(value, forKey: keyPrefix + name) } else { defaults.removeObject(forKey: keyPrefix + name) }
        }
        set(history.count, "launchCount")
        set(history.installVersion, "installVersion")
        set(history.firstLaunchDate, "firstLaunchDate")
        let latest = history.latest
        set(latest?.version, "latestVersion")
        set(latest?.build, "latestBuild")
        set(latest?.kind.rawValue, "latestKind")
        set(latest?.process, "latestProcess")
        set(latest?.date, "latestDate")
        set(latest?.previousVersion, "latestPreviousVersion")
        set(latest?.previousBuild, "latestPreviousBuild")
        set(latest?.previousLaunchDate, "latestPreviousLaunchDate")
    }

    public func exclusively<Result>(_ body: () throws -> Result) throws -> Result {
        try lock.withLock(body)
    }
}

/// The keys hand-written launch tracking commonly leaves in `UserDefaults.standard`, read once when the library is
/// adopted so that existing users are not taken for new ones:
///
/// | Key | Read as |
/// | --- | --- |
/// | `appLaunchCount` | the number of launches so far (integer, or a string of digits) |
/// | `appLastLaunchVersion` | the app version of the last launch |
/// | `launchedVersion` | the app version of the last launch, when `appLastLaunchVersion` is absent |
/// | `appLastLaunchDate` | the date of the last launch (a date, seconds since 1970, or ISO 8601 text) |
///
/// The keys are read, never changed or removed.
public enum LegacyLaunchKeys {
    /// The keys, in the order they are consulted.
    public static let keys = ["appLaunchCount", "appLastLaunchVersion", "launchedVersion", "appLastLaunchDate"]

    /// The history those keys describe, or nil when none of them is set.
    public static func history(in defaults: UserDefaults) -> LaunchHistory? {
        let count: Int? = switch defaults.object(forKey: "appLaunchCount") {
        case let number as NSNumber: number.intValue
        case let text as String: Int(text)
        default: nil
        }
        let version = [defaults.string(forKey: "appLastLaunchVersion"), defaults.string(forKey: "launchedVersion")]
            .compactMap { $0 }.first { !$0.isEmpty }
        let date: Date? = switch defaults.object(forKey: "appLastLaunchDate") {
        case let date as Date: date
        case let number as NSNumber: Date(timeIntervalSince1970: number.doubleValue)
        case let text as String: (try? ValueSyntax.date(text).get())
        default: nil
        }
        guard version != nil || (count ?? 0) > 0 else { return nil }
        // A version without a count still means at least one launch before this one.
        return LaunchHistory(count: max(count ?? 1, 1), latest: version.map { LaunchRecord(version: $0, date: date) })
    }
}
