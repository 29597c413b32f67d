/// The keys of the policy language, in one place: the decoder reads them from here, and a test keeps
/// `schemas/launch-policy.schema.json` in step with them.
public enum PolicyLanguage {
    /// Keys at the top of a policy file.
    public static let topLevelKeys = TopLevelKey.known.names
    /// Keys of a rule.
    public static let ruleKeys = RuleKey.known.names
    /// Keys of a condition (`when`, and each item of `all` and `any`, and `not`).
    public static let conditionKeys = ConditionKey.known.names
    /// Keys of a `date` window.
    public static let dateWindowKeys = DateWindowKey.known.names
    /// Keys of a test case.
    public static let testCaseKeys = TestCaseKey.known.names
    /// Keys of a test case's `expect`.
    public static let expectKeys = ExpectKey.known.names
    /// Keys of an expected gate written as a mapping.
    public static let expectedGateKeys = ExpectedGateKey.known.names
    /// Keys of a test case's `context`: the condition keys a context has, plus `now` and `install-id`.
    public static let contextKeys = ContextKey.known.names
}

// The keys of each kind of mapping, in the order the messages list them. A decoder names a key by its case, so a
// misspelt key in the decoder is a compile error, and matches a written key once (see ``KnownNames``).

enum TopLevelKey: String, WrittenNames {
    case policy, id, versioning, store, messages, rules, tests
    static let known = KnownNames<Self>()
}

enum RuleKey: String, WrittenNames {
    case id, when, then, message, url, entitlements, screen, show, every
    static let known = KnownNames<Self>()
}

enum ConditionKey: String, WrittenNames {
    case platform, appVersion = "app-version", previousVersion = "previous-version",
        installVersion = "install-version", build, osVersion = "os-version",
        originalAppVersion = "original-app-version", launch, launchCount = "launch-count",
        daysSinceLastLaunch = "days-since-last-launch", daysSinceInstall = "days-since-install",
        launchSource = "launch-source", locale, region, date, rollout, attributes, all, any, not
    static let known = KnownNames<Self>()
}

enum DateWindowKey: String, WrittenNames {
    case from, until
    static let known = KnownNames<Self>()
}

enum TestCaseKey: String, WrittenNames {
    case name, context, expect, memory
    static let known = KnownNames<Self>()
}

enum ExpectKey: String, WrittenNames {
    case gate, prompts, notices, presentations, grants
    static let known = KnownNames<Self>()
}

enum ExpectedGateKey: String, WrittenNames {
    case action, rule
    static let known = KnownNames<Self>()
}

enum ContextKey: String, WrittenNames {
    case platform, appVersion = "app-version", build, osVersion = "os-version", launch,
        previousVersion = "previous-version", installVersion = "install-version",
        originalAppVersion = "original-app-version", launchCount = "launch-count",
        daysSinceLastLaunch = "days-since-last-launch", daysSinceInstall = "days-since-install",
        launchSource = "launch-source", locale, region, now, installID = "install-id", attributes
    static let known = KnownNames<Self>()
}

// The values written from a closed set, looked up the same way.

extension Platform: WrittenNames { static let known = KnownNames<Self>() }
extension Action: WrittenNames { static let known = KnownNames<Self>() }
extension ShowFrequency: WrittenNames { static let known = KnownNames<Self>() }
extension LaunchKind: WrittenNames { static let known = KnownNames<Self>() }
extension LaunchSource: WrittenNames { static let known = KnownNames<Self>() }
extension Severity: WrittenNames { static let known = KnownNames<Self>() }

/// A closed set of names a policy writes: the keys one kind of mapping takes, or the values a key takes (actions,
/// platforms, …). An enum whose raw values are the names as written.
protocol WrittenNames: RawRepresentable, CaseIterable, Equatable, Sendable where RawValue == String {
    /// The names, listed once for matching every one written.
    static var known: KnownNames<Self> { get }
}

/// A closed set of names, matched against written text by length first.
///
/// Every key and choice of a policy is matched against its set, and comparing two different strings costs a call
/// each (`init(rawValue:)` compares with each case in turn); comparing their lengths costs nothing, and the
/// language's names rarely share one. So text is compared only where the length agrees: a written name costs about
/// one comparison, not one per name.
struct KnownNames<Name: WrittenNames>: Sendable {
    /// The names' cases, in declaration order.
    let cases: [Name]
    /// The names as written, for messages and suggestions.
    let names: [String]
    private let lengths: [Int]

    init() {
        cases = Array(Name.allCases)
        names = cases.map(\.rawValue)
        lengths = names.map(\.utf8.count)
    }

    /// The case written as `text`, or nil when the set has no such name.
    func named(_ text: String) -> Name? {
        let length = text.utf8.count
        for index in lengths.indices where lengths[index] == length && names[index] == text {
            return cases[index]
        }
        return nil
    }
}
