import Foundation

/// A decoded policy file: the typed syntax tree every later stage works on. Every node keeps its source range, so
/// that any stage can report `file:line:column` without parsing again.
public struct Policy: Sendable {
    /// The format version (`policy: 1`).
    public var formatVersion: Int
    /// The policy's name (`id`), if given.
    public var id: String?
    /// How `app-version`, `previous-version` and `install-version` are read: marketing (default) or semver.
    public var versioning: VersionKind
    /// Update URLs by platform (`store`).
    ///
    /// Made on each read from ``storeURLs``, where the policy keeps them: a table keyed by ``Platform`` costs an app
    /// at its first read of a policy a search of every protocol conformance the app holds, as the Swift runtime looks
    /// `Platform: Hashable` up the first time a process makes one (see BENCHMARKS.md, The first operation in a
    /// process). The launch path reads ``storeURL(for:)``, which makes none.
    public var store: [Platform: Located<String>] {
        get {
            var table: [Platform: Located<String>] = [:]
            for platform in Platform.allCases {
                if let url = storeURLs[platform] { table[platform] = url }
            }
            return table
        }
        set {
            storeURLs = StoreURLs()
            for (platform, url) in newValue { storeURLs[platform] = url }
        }
    }
    /// Update URLs by platform (`store`), one place for each platform.
    public var storeURLs = StoreURLs()
    /// Messages by id, in the order written.
    public var messages: [Message]
    /// The rules, in file order: order decides precedence.
    public var rules: [Rule]
    /// Test cases the policy carries.
    public var tests: [PolicyTestCase]
    /// The whole document.
    public var range: SourceRange

    /// Creates a policy.
    public init(
        formatVersion: Int = 1, id: String? = nil, versioning: VersionKind = .marketing,
        store: [Platform: Located<String>] = [:], messages: [Message] = [], rules: [Rule] = [],
        tests: [PolicyTestCase] = [], range: SourceRange = .wholeInputStart
    ) {
        self.formatVersion = formatVersion
        self.id = id
        self.versioning = versioning
        self.messages = messages
        self.rules = rules
        self.tests = tests
        self.range = range
        if !store.isEmpty { self.store = store }
    }

    /// The message with this id.
    public func message(_ id: String) -> Message? { messages.first { $0.id == id } }

    /// The `store` URL that update rules send users on `platform` to: the platform's own, and on iPadOS the iOS one
    /// when it has none, as an iPad runs the iPhone app from the same listing. The interpreter and policy-lint's
    /// check for a missing URL both ask this.
    public func storeURL(for platform: Platform) -> String? {
        storeURLs[platform]?.value ?? (platform == .ipados ? storeURLs[.ios]?.value : nil)
    }
}

/// A policy's update URLs (`store`), one place for each ``Platform``: what ``Policy/store`` offers as a table,
/// without `Platform: Hashable` (see there).
public struct StoreURLs: Sendable {
    private var urls = [Located<String>?](repeating: nil, count: Platform.allCases.count)

    /// No URL for any platform.
    public init() {}

    /// The URL written for `platform`, if any.
    public subscript(platform: Platform) -> Located<String>? {
        get { urls[platform.ordinal] }
        set { urls[platform.ordinal] = newValue }
    }

    /// Whether no platform has a URL.
    public var isEmpty: Bool { urls.allSatisfy { $0 == nil } }
}

/// A value and where it was written.
public struct Located<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// Where it was written.
    public var range: SourceRange

    /// Creates a located value.
    public init(_ value: Value, range: SourceRange) {
        self.value = value
        self.range = range
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}

/// The platforms a policy can name.
public enum Platform: String, CaseIterable, Sendable, Hashable {
    case ios, ipados, macos, tvos, watchos, visionos, android

    /// The platform's place in ``allCases``.
    var ordinal: Int {
        switch self {
        case .ios: 0
        case .ipados: 1
        case .macos: 2
        case .tvos: 3
        case .watchos: 4
        case .visionos: 5
        case .android: 6
        }
    }
}

/// A message shown to users, with its translations.
public struct Message: Sendable {
    /// The id rules refer to.
    public var id: String
    /// Text by locale tag; always holds `default`.
    public var translations: [String: String]
    /// Where the message is defined.
    public var range: SourceRange

    /// Creates a message.
    public init(id: String, translations: [String: String], range: SourceRange) {
        self.id = id
        self.translations = translations
        self.range = range
    }

    /// The text for a locale, falling back `ja-JP` → `ja` → `default` (``LocaleLookup``, which also finds `zh-Hant`
    /// for `zh-TW`). Tags compare case-insensitively, and `_` counts as `-` (`ja_JP` is `ja-JP`); a platform's
    /// identifier is read as ``LaunchContext`` reads it (`ja_JP@calendar=japanese` is `ja_JP`).
    public func text(for locale: String?) -> String {
        guard let locale else { return translations["default"] ?? "" }
        return LocaleLookup(ValueSyntax.languageTag(ofPlatformLocale: locale)).text(in: translations)
    }
}

/// What a rule does when it matches.
public enum Action: String, CaseIterable, Sendable, Hashable {
    /// Lock the user out (a maintenance window, a kill switch).
    case block
    /// Lock the user out until they update.
    case requireUpdate = "require-update"
    /// Ask the user to update; they may continue.
    case suggestUpdate = "suggest-update"
    /// Show a message.
    case notify
    /// Present a screen of the app's.
    case present
    /// Unlock entitlements.
    case grant

    /// Whether the action stops the user (`block`, `require-update`).
    public var isGate: Bool { self == .block || self == .requireUpdate }

    /// Whether the action needs a `message`.
    public var requiresMessage: Bool { self == .block || self == .requireUpdate || self == .suggestUpdate || self == .notify }
}

/// How often a rule's message or screen may be shown.
public enum ShowFrequency: String, CaseIterable, Sendable, Hashable {
    /// Every launch that matches.
    case everyLaunch = "every-launch"
    /// Once for each app version.
    case oncePerVersion = "once-per-version"
    /// Once, until the message text changes.
    case once
}

/// One rule: a condition, an action, and the action's parameters.
public struct Rule: Sendable {
    /// The unique id.
    public var id: Located<String>
    /// The condition; nil means always.
    public var condition: Condition?
    /// What the rule does.
    public var action: Located<Action>
    /// The message id, for actions that show one.
    public var message: Located<String>?
    /// An update URL that overrides the policy's `store`.
    public var url: Located<String>?
    /// What a `grant` unlocks.
    public var entitlements: [Located<String>]
    /// The screen a `present` shows.
    public var screen: Located<String>?
    /// How often it may be shown (gates always every launch).
    public var show: ShowFrequency
    /// After how long it may be shown again, when set.
    public var every: Located<TimeInterval>?
    /// The whole rule.
    public var range: SourceRange

    /// Creates a rule.
    public init(
        id: Located<String>, condition: Condition? = nil, action: Located<Action>, message: Located<String>? = nil,
        url: Located<String>? = nil, entitlements: [Located<String>] = [], screen: Located<String>? = nil,
        show: ShowFrequency? = nil, every: Located<TimeInterval>? = nil, range: SourceRange
    ) {
        self.id = id
        self.condition = condition
        self.action = action
        self.message = message
        self.url = url
        self.entitlements = entitlements
        self.screen = screen
        self.show = show ?? Self.defaultShow(for: action.value)
        self.every = every
        self.range = range
    }

    /// Gates show every launch; `suggest-update` once per version; `notify` and `present` once.
    public static func defaultShow(for action: Action) -> ShowFrequency {
        switch action {
        case .block, .requireUpdate, .grant: .everyLaunch
        case .suggestUpdate: .oncePerVersion
        case .notify, .present: .once
        }
    }
}
