import Foundation

/// A condition: entries that must all hold, or a combination.
///
/// Only `not` is `indirect`: the other cases' payloads are already one reference each (an array, an entry's shared
/// storage, a shared condition), and a box around them cost an allocation per node and a copy of the payload out of
/// it at every evaluation.
public enum Condition: Sendable {
    /// Every condition holds (a `when` mapping, or `all`).
    case all([Condition], range: SourceRange)
    /// At least one holds (`any`).
    case any([Condition], range: SourceRange)
    /// The condition does not hold (`not`).
    indirect case not(Condition, range: SourceRange)
    /// One entry, such as `app-version: "< 2.4"`.
    case entry(ConditionEntry)
    /// A condition written once under a YAML anchor and used again through aliases: every use holds the same
    /// ``SharedCondition``, so that decoding and evaluation stay proportional to the policy as written.
    case shared(SharedCondition)

    /// Where the condition is written.
    public var range: SourceRange {
        switch self {
        case .all(_, let range), .any(_, let range), .not(_, let range): range
        case .entry(let entry): entry.range
        case .shared(let shared): shared.condition.range
        }
    }
}

/// A condition with an identity: the one written under a YAML anchor (`&recent-ios`), which each alias
/// (`*recent-ios`) refers to. The interpreter evaluates it at most once per decision and reuses the result.
public final class SharedCondition: Sendable {
    /// The condition.
    public let condition: Condition
    /// The anchor's name.
    public let anchor: String

    /// Creates a shared condition.
    public init(_ condition: Condition, anchor: String) {
        self.condition = condition
        self.anchor = anchor
    }
}

/// How the app was launched: first launch, after an upgrade or a downgrade, or a normal launch.
public enum LaunchKind: String, CaseIterable, Sendable, Hashable {
    case first, upgrade, downgrade, normal
}

/// What opened the app.
public enum LaunchSource: String, CaseIterable, Sendable, Hashable {
    case organic
    case localNotification = "local-notification"
    case remoteNotification = "remote-notification"
    case url, shortcut, other
}

/// One condition entry; a field the context lacks makes it false, never an error.
public struct ConditionEntry: Sendable {
    /// What the entry tests.
    public enum Test: Sendable {
        case platform([Platform])
        case appVersion(VersionRange)
        case previousVersion(VersionRange)
        case installVersion(VersionRange)
        /// Build numbers (on Android the versionCode).
        case build(VersionRange)
        case osVersion(VersionRange)
        /// The version first bought, compared as build numbers.
        case originalAppVersion(VersionRange)
        case launch([LaunchKind])
        /// Numeric ranges over whole numbers.
        case launchCount(VersionRange)
        case daysSinceLastLaunch(VersionRange)
        case daysSinceInstall(VersionRange)
        case launchSource([LaunchSource])
        /// Language tags matched by prefix on subtag boundaries.
        case locale([String])
        /// ISO 3166 region codes, compared case-insensitively.
        case region([String])
        /// A half-open window `[from, until)`.
        case date(from: Date?, until: Date?)
        /// A percentage of install ids, 0 to 100.
        case rollout(Double)
        /// App-defined attributes: name → accepted values.
        case attributes([String: [String]])
    }

    /// The key as written (`app-version`).
    public var key: String {
        get { storage.fields.key }
        set { change(\.key, to: newValue) }
    }
    /// What it tests.
    public var test: Test {
        get { storage.fields.test }
        set { change(\.test, to: newValue) }
    }
    /// Where the entry is written (key and value).
    public var range: SourceRange {
        get { storage.fields.range }
        set { change(\.range, to: newValue) }
    }
    /// Where its value is written.
    public var valueRange: SourceRange {
        get { storage.fields.valueRange }
        set { change(\.valueRange, to: newValue) }
    }

    /// The entry's fields, shared by every copy: evaluating a condition copies each entry out of its condition, and
    /// a copy of the fields themselves retained and released the key and the test's payload one by one, through a
    /// switch over the test's cases. A change makes new storage, so copies never see it.
    private var storage: Storage

    private struct Fields: Sendable {
        var key: String
        var test: Test
        var range: SourceRange
        var valueRange: SourceRange
    }

    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    /// Creates an entry; `valueRange` defaults to `range`.
    public init(key: String, test: Test, range: SourceRange, valueRange: SourceRange? = nil) {
        storage = Storage(Fields(key: key, test: test, range: range, valueRange: valueRange ?? range))
    }

    /// Sets one field in new storage, leaving the old to the copies that share it.
    private mutating func change<Value>(_ field: WritableKeyPath<Fields, Value>, to value: Value) {
        var fields = storage.fields
        fields[keyPath: field] = value
        storage = Storage(fields)
    }
}
