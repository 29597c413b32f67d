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
// misspelt key in the decoder is a compile error, and matches a written key once (see ``KnownKeys``).

enum TopLevelKey: String, MappingKey {
    case policy, id, versioning, store, messages, rules, tests
    static let known = KnownKeys<Self>()
}

enum RuleKey: String, MappingKey {
    case id, when, then, message, url, entitlements, screen, show, every
    static let known = KnownKeys<Self>()
}

enum ConditionKey: String, MappingKey {
    case platform, appVersion = "app-version", previousVersion = "previous-version",
        installVersion = "install-version", build, osVersion = "os-version",
        originalAppVersion = "original-app-version", launch, launchCount = "launch-count",
        daysSinceLastLaunch = "days-since-last-launch", daysSinceInstall = "days-since-install",
        launchSource = "launch-source", locale, region, date, rollout, attributes, all, any, not
    static let known = KnownKeys<Self>()
}

enum DateWindowKey: String, MappingKey {
    case from, until
    static let known = KnownKeys<Self>()
}

enum TestCaseKey: String, MappingKey {
    case name, context, expect, memory
    static let known = KnownKeys<Self>()
}

enum ExpectKey: String, MappingKey {
    case gate, prompts, notices, presentations, grants
    static let known = KnownKeys<Self>()
}

enum ExpectedGateKey: String, MappingKey {
    case action, rule
    static let known = KnownKeys<Self>()
}

enum ContextKey: String, MappingKey {
    case platform, appVersion = "app-version", build, osVersion = "os-version", launch,
        previousVersion = "previous-version", installVersion = "install-version",
        originalAppVersion = "original-app-version", launchCount = "launch-count",
        daysSinceLastLaunch = "days-since-last-launch", daysSinceInstall = "days-since-install",
        launchSource = "launch-source", locale, region, now, installID = "install-id", attributes
    static let known = KnownKeys<Self>()
}

/// The keys one kind of mapping takes: an enum whose raw values are the keys as written.
protocol MappingKey: RawRepresentable, CaseIterable, Equatable, Sendable where RawValue == String {
    /// The keys, listed once for matching every mapping of this kind.
    static var known: KnownKeys<Self> { get }
}

/// A kind of mapping's keys, matched against written keys by length first.
///
/// Every mapping of a policy is matched against its keys, and comparing two different strings costs a call each;
/// comparing their lengths costs nothing, and the language's keys rarely share one. So text is compared only where
/// the length agrees: a written key costs about one comparison, not one per key.
struct KnownKeys<Key: MappingKey>: Sendable {
    /// The keys, in the order written in the enum.
    let keys: [Key]
    /// Their names, for messages and suggestions.
    let names: [String]
    private let lengths: [Int]

    init() {
        keys = Array(Key.allCases)
        names = keys.map(\.rawValue)
        lengths = names.map(\.utf8.count)
    }

    /// The key written as `name`, or nil when the mapping takes no such key.
    func key(named name: String) -> Key? {
        let length = name.utf8.count
        for index in lengths.indices where lengths[index] == length && names[index] == name {
            return keys[index]
        }
        return nil
    }
}
