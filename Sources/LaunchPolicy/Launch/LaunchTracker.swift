import Foundation

/// Records each launch once and says what kind of launch it is: first, upgrade, downgrade or normal, with the
/// count, the versions and dates before it, and what opened the app.
///
/// ```swift
/// let tracker = try LaunchTracker(store: JSONFileLaunchHistoryStore(url: stateURL), appVersion: "2.4", build: "412")
/// let launch = try tracker.recordLaunch()        // once per process; asking again returns the same answer
/// tracker.reportSource(.remoteNotification)      // the first report of a session wins
/// let context = try LaunchContext(platform: .ios, appVersion: "2.4", launch: tracker.launchInfo ?? launch)
/// ```
///
/// - The kind comes from version order, never text order: `1.10` after `1.9` is an upgrade. With equal versions
///   the builds decide (a new TestFlight build of 2.4 is an upgrade); versions that cannot be ordered (one
///   marketing, one SemVer prerelease) count as an upgrade.
/// - A launch is counted once per process: a second call, or a second tracker on the same store in the same process
///   (another scene), returns the recorded answer. The store remembers which process recorded its latest launch.
/// - When the store is empty, history is imported from the keys hand-written code leaves (``LegacyLaunchKeys``), so
///   that users of an app adopting the library are not shown onboarding again.
/// - A store that cannot be read has kept its contents aside; the tracker starts a fresh history and says so in
///   ``recovery``.
public final class LaunchTracker: @unchecked Sendable {
    /// This process's identifier, recorded with each launch: a random UUID drawn once per process.
    public static let processIdentifier = UUID().uuidString

    /// The app version, as reported.
    public let appVersion: String
    /// The build, as reported.
    public let build: String?
    private let version: ContextVersion
    private let buildVersion: ContextVersion?
    private let store: any LaunchHistoryStore
    // UserDefaults is documented as thread-safe; it is not marked Sendable on every platform.
    private let legacyDefaults: UserDefaults?
    private let process: String

    // Guards the state below; recording happens outside it, under the store's own lock.
    private let lock = Lock.make()
    private var recorded: LaunchInfo?
    private var sessionSource: LaunchSource?
    private var recoveredFrom: LaunchHistoryStoreError?

    /// Creates a tracker for this run of the app.
    ///
    /// - Parameters:
    ///   - store: where the history is kept.
    ///   - appVersion: the app's version (marketing or SemVer), as the app reports it.
    ///   - build: the build number (Android: the versionCode).
    ///   - legacyDefaults: where to look for ``LegacyLaunchKeys`` when the store is empty; nil not to.
    ///   - process: the identifier of this process; tests give each simulated launch its own.
    /// - Throws: ``LaunchContextError`` when the version or the build is not one.
    public init(
        store: any LaunchHistoryStore, appVersion: String, build: String? = nil,
        importingLegacyKeysFrom legacyDefaults: UserDefaults? = .standard, process: String = LaunchTracker.processIdentifier
    ) throws(LaunchContextError) {
        version = try ContextVersion(appVersion, key: "app-version", kinds: LaunchContext.Versions.appKinds)
        buildVersion = try ContextVersion.read(build, key: "build", kinds: [.build])
        self.appVersion = appVersion
        self.build = build
        self.store = store
        self.legacyDefaults = legacyDefaults
        self.process = process
    }

    /// The launch as recorded, with the source reported so far in this session; nil before ``recordLaunch(source:now:)``.
    public var launchInfo: LaunchInfo? {
        lock.withLock { () -> LaunchInfo? in
            guard var info = recorded else { return nil }
            info.source = sessionSource ?? .organic
            return info
        }
    }

    /// Why the stored history was set aside, if it could not be read when the launch was recorded.
    public var recovery: LaunchHistoryStoreError? { lock.withLock { recoveredFrom } }

    /// Records this launch, once per process, and returns what is known about it.
    ///
    /// - Parameters:
    ///   - source: what opened the app, if known now; the same as calling ``reportSource(_:)`` first.
    ///   - now: the time of the launch.
    /// - Throws: what the store throws when it cannot be read or written at all (a store that reads but holds
    ///   garbage is not an error: see ``recovery``).
    @discardableResult
    public func recordLaunch(source: LaunchSource? = nil, now: Date = Date()) throws -> LaunchInfo {
        if let source { reportSource(source) }
        if let info = launchInfo { return info }
        var recovery: LaunchHistoryStoreError?
        let info = try store.exclusively { () throws -> LaunchInfo in
            var history: LaunchHistory?
            do {
                history = try store.read()
            } catch let error as LaunchHistoryStoreError {
                recovery = error
            }
            if history == nil, let legacyDefaults { history = LegacyLaunchKeys.history(in: legacyDefaults) }
            if let history, let latest = history.latest, latest.process == process {
                return Self.info(of: latest, in: history)
            }
            let updated = next(after: history, now: now)
            try store.write(updated)
            return Self.info(of: updated.latest!, in: updated)
        }
        lock.withLock {
            if recorded == nil { recorded = info }
            recoveredFrom = recoveredFrom ?? recovery
        }
        return launchInfo ?? info
    }

    /// Reports what opened the app in this session. The first report wins; later ones change nothing until
    /// ``beginForegroundSession()``. Without a report the source is `organic`.
    public func reportSource(_ source: LaunchSource) {
        lock.withLock {
            if sessionSource == nil { sessionSource = source }
        }
    }

    /// Marks the start of a new foreground session (the app came back from the background): the next report
    /// decides its source. The launch itself is not counted again.
    public func beginForegroundSession() {
        lock.withLock { sessionSource = nil }
    }

    /// The history after this launch.
    private func next(after history: LaunchHistory?, now: Date) -> LaunchHistory {
        let previous = history?.latest
        let count = Self.counted(history?.count ?? 0)
        let kind: LaunchKind
        if let previous {
            kind = Self.kind(from: previous, to: version, build: buildVersion)
        } else {
            kind = count == 0 ? .first : .normal
        }
        let record = LaunchRecord(
            version: appVersion, build: build, date: now, kind: kind, previousVersion: previous?.version,
            previousBuild: previous?.build, previousLaunchDate: previous?.date, process: process)
        return LaunchHistory(
            count: min(count + 1, VersionKind.maximumVersionCode),
            installVersion: history?.installVersion ?? (kind == .first ? appVersion : nil),
            firstLaunchDate: history?.firstLaunchDate ?? (kind == .first ? now : nil),
            latest: record)
    }

    /// A stored count as the tracker counts on from it: from 0 to the largest a context holds
    /// (``VersionKind/maximumVersionCode``), where it stays. A store hands over whatever it holds (a legacy key
    /// another library wrote, a file edited by hand, a custom store): counted on as it was, `Int.max` overflowed and
    /// stopped the app at launch, and a count past the largest made no context.
    private static func counted(_ count: Int) -> Int {
        min(max(count, 0), VersionKind.maximumVersionCode)
    }

    /// A stored app version as the launch reports it: nil, unknown, when it is not a version a context reads. A
    /// legacy key or a file edited by hand may hold any text, and passed on, it made no context at launch; unknown,
    /// the conditions on it are false, as they are for any value the context lacks. The store keeps the text.
    private static func readable(_ version: String?) -> String? {
        guard let version, (try? ContextVersion(version, key: "", kinds: LaunchContext.Versions.appKinds)) != nil else {
            return nil
        }
        return version
    }

    /// What is known about the launch `record` describes.
    private static func info(of record: LaunchRecord, in history: LaunchHistory) -> LaunchInfo {
        LaunchInfo(
            kind: record.kind, count: counted(history.count), previousVersion: readable(record.previousVersion),
            previousBuild: record.previousBuild, installVersion: readable(history.installVersion),
            firstLaunchDate: history.firstLaunchDate, previousLaunchDate: record.previousLaunchDate,
            daysSinceLastLaunch: record.previousLaunchDate.flatMap { start in
                record.date.map { LaunchInfo.wholeDays(from: start, to: $0) }
            },
            daysSinceInstall: history.firstLaunchDate.flatMap { start in
                record.date.map { LaunchInfo.wholeDays(from: start, to: $0) }
            },
            source: nil)
    }

    /// Upgrade, downgrade or normal, by version order and then by build order.
    static func kind(from previous: LaunchRecord, to version: ContextVersion, build: ContextVersion?) -> LaunchKind {
        let previousVersion = try? ContextVersion(previous.version, key: "previous-version", kinds: LaunchContext.Versions.appKinds)
        switch order(previousVersion, version) {
        case .some(let order) where order != 0: return order < 0 ? .upgrade : .downgrade
        case .some: break
        case .none: return previous.version == version.text ? .normal : .upgrade
        }
        let previousBuild = previous.build.flatMap { try? ContextVersion($0, key: "build", kinds: [.build]) }
        guard let build, let previousBuild, let order = order(previousBuild, build), order != 0 else {
            return .normal
        }
        return order < 0 ? .upgrade : .downgrade
    }

    /// -1, 0 or 1 when both versions read as a common kind; nil when they cannot be ordered.
    private static func order(_ left: ContextVersion?, _ right: ContextVersion) -> Int? {
        guard let left else { return nil }
        for kind in [VersionKind.marketing, .semver, .build] {
            if let a = left.reading(kind), let b = right.reading(kind) { return a.compare(to: b) }
        }
        return nil
    }
}

extension LaunchTracker {
    /// A tracker whose every launch is a first launch, for previews and tests of onboarding. Nothing is stored.
    public static func alwaysFirstLaunch(appVersion: String, build: String? = nil) throws(LaunchContextError) -> LaunchTracker {
        try LaunchTracker(store: ClosureLaunchHistoryStore(read: { nil }, write: { _ in }), appVersion: appVersion,
            build: build, importingLegacyKeysFrom: nil, process: UUID().uuidString)
    }

    /// A tracker whose launch is an upgrade from `previousVersion`, last launched at `previousLaunchDate`, for
    /// previews and tests of "what's new". Nothing is stored outside the tracker.
    ///
    /// - Throws: ``LaunchContextError`` when a version is not one, or `previousVersion` is not below `appVersion`.
    public static func upgrade(
        from previousVersion: String, to appVersion: String, build: String? = nil, previousLaunchDate: Date? = nil
    ) throws(LaunchContextError) -> LaunchTracker {
        let record = LaunchRecord(version: previousVersion, date: previousLaunchDate, kind: .first)
        let history = LaunchHistory(count: 1, installVersion: previousVersion, firstLaunchDate: previousLaunchDate, latest: record)
        let tracker = try LaunchTracker(store: InMemoryLaunchHistoryStore(history), appVersion: appVersion, build: build,
            importingLegacyKeysFrom: nil, process: UUID().uuidString)
        _ = try ContextVersion(previousVersion, key: "previous-version", kinds: LaunchContext.Versions.appKinds)
        guard kind(from: record, to: tracker.version, build: nil) == .upgrade else {
            throw LaunchContextError(key: "previous-version", value: previousVersion,
                reason: "an upgrade needs a previous version below the app version \(appVersion)")
        }
        return tracker
    }
}
