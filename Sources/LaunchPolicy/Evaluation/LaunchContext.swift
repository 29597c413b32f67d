import Foundation

/// Everything a policy may ask about this launch: the app, the device, the user's language and region, the time,
/// the install, and the launch itself.
///
/// Values are checked when the context is built: an app version that is not a version throws
/// ``LaunchContextError`` here rather than being read as `0.0.0` later. A field left out is unknown, and every
/// condition on an unknown field is false.
///
/// ```swift
/// let context = try LaunchContext(
///     platform: .ios, appVersion: "2.3.9", locale: "ja-JP",
///     launch: LaunchInfo(kind: .upgrade, previousVersion: "2.3"))
/// ```
public struct LaunchContext: Sendable {
    /// The platform the app runs on.
    public var platform: Platform? { values.platform }
    /// The app's marketing version (CFBundleShortVersionString, Android versionName), or a SemVer version.
    public var appVersion: String? { versions.app?.text }
    /// The build number (CFBundleVersion; on Android the versionCode).
    public var build: String? { versions.build?.text }
    /// The operating system's version.
    public var osVersion: String? { versions.os?.text }
    /// The app version the user first bought (on iOS `AppTransaction.originalAppVersion`, a build number).
    public var originalAppVersion: String? { versions.original?.text }
    /// The user's language tag, such as `ja-JP`. A platform's locale identifier may be given as it is: Apple's
    /// keywords (`ja_JP@calendar=japanese`) are left out, and Android's script and extensions (`zh_TW_#Hant`,
    /// `en_US_#u-fw-mon`) are written as subtags (`zh-Hant-TW`, `en-US-u-fw-mon`).
    public var locale: String? { values.locale }
    /// How a text is looked up for ``locale``, worked out once.
    var localeLookup: LocaleLookup? { values.localeLookup }
    /// The other form of ``locale`` that `locale` conditions match (``ValueSyntax/alternateLocale(of:)``), worked out
    /// once.
    var localeAlternate: String? { values.localeAlternate }
    /// The user's region, an ISO 3166 alpha-2 code such as `NO`, or a UN M.49 area of three digits such as `419`
    /// (Android's country for `es-419`). An empty region, which Android gives for a locale without a country, is
    /// taken as unknown.
    public var region: String? { values.region }
    /// The time of the launch.
    public var now: Date { values.now }
    /// A stable, anonymous id of this install, used for staged rollouts.
    public var installID: String? { values.installID }
    /// What is known about this launch.
    public var launch: LaunchInfo { values.launch }
    /// Values the app defines, such as `plan: pro`.
    public var attributes: [String: String] { values.attributes }

    /// The versions, each read as every kind a condition may compare it as.
    var versions: Versions { values.versions }

    /// The value of the attribute `name`, as an `attributes` condition reads it. An app sets a handful, and among
    /// up to ``scannedAttributes`` the names are compared one by one: hashing the name cost about 300 instructions
    /// a lookup, where a short name compares with another in a few dozen, and with itself as two words.
    func attribute(_ name: String) -> String? {
        let attributes = values.attributes
        guard attributes.count <= Self.scannedAttributes else { return attributes[name] }
        for (key, value) in attributes where key == name { return value }
        return nil
    }

    /// How many attributes ``attribute(_:)`` compares one by one before it looks a name up by its hash.
    static let scannedAttributes = 8

    /// Every value of the context, in one object shared by every copy: the interpreter, its condition evaluator
    /// and what it defers each keep a copy, and a copy of a dozen strings, tables and dates retained one by one
    /// cost about a tenth of an evaluation behind a gate.
    private let values: Values

    /// Creates a context, checking every value.
    ///
    /// - Throws: ``LaunchContextError`` naming the first invalid value: a version that is not one, a locale that
    ///   is not a language tag, a region that is not a two-letter code or three digits, a negative count.
    public init(
        platform: Platform? = nil, appVersion: String? = nil, build: String? = nil, osVersion: String? = nil,
        originalAppVersion: String? = nil, locale: String? = nil, region: String? = nil, now: Date = Date(),
        installID: String? = nil, launch: LaunchInfo = LaunchInfo(), attributes: [String: String] = [:]
    ) throws(LaunchContextError) {
        // What the platforms give (`Locale.current.identifier`) is taken as they give it.
        let tag = locale.map(ValueSyntax.languageTag(ofPlatformLocale:))
        if let locale, let tag, !ValueSyntax.isLocaleTag(tag) {
            throw LaunchContextError(key: "locale", value: locale, reason: "it is not a language tag such as ja or pt-BR")
        }
        // Android's `Locale.getCountry()` is empty for a locale without a country: the region is not known.
        let region = region?.isEmpty == true ? nil : region
        if let region, !ValueSyntax.isRegionCode(region) {
            throw LaunchContextError(key: "region", value: region, reason: "it is not \(ValueSyntax.regionCodeForm)")
        }
        for (key, count) in [("launch-count", launch.count), ("days-since-last-launch", launch.daysSinceLastLaunch),
            ("days-since-install", launch.daysSinceInstall)]
        {
            if let count, !(0...VersionKind.maximumVersionCode).contains(count) {
                throw LaunchContextError(key: key, value: String(count),
                    reason: "it must be a whole number from 0 to \(VersionKind.maximumVersionCode)")
            }
        }
        let versions = Versions(
            app: try ContextVersion.read(appVersion, key: "app-version", kinds: Versions.appKinds),
            previous: try ContextVersion.read(launch.previousVersion, key: "previous-version", kinds: Versions.appKinds),
            install: try ContextVersion.read(launch.installVersion, key: "install-version", kinds: Versions.appKinds),
            build: try ContextVersion.read(build, key: "build", kinds: [.build]),
            os: try ContextVersion.read(osVersion, key: "os-version", kinds: [.marketing]),
            original: try ContextVersion.read(originalAppVersion, key: "original-app-version", kinds: [.build]),
            launchCount: launch.count.map(Versions.count),
            daysSinceLastLaunch: launch.daysSinceLastLaunch.map(Versions.count),
            daysSinceInstall: launch.daysSinceInstall.map(Versions.count))
        values = Values(platform: platform, locale: tag, region: region, now: now, installID: installID,
            launch: launch, attributes: attributes, versions: versions)
    }

    /// The stored values of a context; see `values`.
    private final class Values: Sendable {
        let platform: Platform?
        let locale, region, installID: String?
        let localeLookup: LocaleLookup?
        let localeAlternate: String?
        let now: Date
        let launch: LaunchInfo
        let attributes: [String: String]
        let versions: Versions

        init(platform: Platform?, locale: String?, region: String?, now: Date, installID: String?, launch: LaunchInfo,
            attributes: [String: String], versions: Versions)
        {
            (self.platform, self.locale, self.region, self.now, self.installID) = (platform, locale, region, now, installID)
            // Both other forms of the locale, texts' and conditions', worked out once.
            let forms = locale.map(ValueSyntax.otherForms(of:))
            localeLookup = locale.map { LocaleLookup($0, alternate: forms?.lookup) }
            localeAlternate = forms?.condition
            (self.launch, self.attributes, self.versions) = (launch, attributes, versions)
        }
    }

    /// The versions of the context, each read as every kind a condition may compare it as.
    final class Versions: Sendable {
        /// App versions are marketing versions or SemVer, as the policy's `versioning` says.
        static let appKinds: [VersionKind] = [.marketing, .semver]

        let app, previous, install, build, os, original: ContextVersion?
        /// The counts, read once as the whole numbers their ranges compare them as.
        let launchCount, daysSinceLastLaunch, daysSinceInstall: Version?

        init(app: ContextVersion?, previous: ContextVersion?, install: ContextVersion?, build: ContextVersion?,
            os: ContextVersion?, original: ContextVersion?, launchCount: Version?, daysSinceLastLaunch: Version?,
            daysSinceInstall: Version?)
        {
            (self.app, self.previous, self.install, self.build, self.os, self.original) =
                (app, previous, install, build, os, original)
            (self.launchCount, self.daysSinceLastLaunch, self.daysSinceInstall) =
                (launchCount, daysSinceLastLaunch, daysSinceInstall)
        }

        /// A count already checked to be from 0 to the largest versionCode.
        static func count(_ value: Int) -> Version {
            Version(kind: .versionCode, text: String(value), parts: [Numeral(UInt64(value))])
        }
    }
}

extension Version {
    /// Whether the version is in the range, asked as of a ``ContextVersion``: a count of the context is read in place
    /// through optional chaining, where `count.map(range.contains)` copied it out, on every count entry at launch.
    func satisfies(_ range: VersionRange) -> Bool { range.contains(self) }
}

/// A version from the context, with its reading as each kind it is valid in. An object, not a struct: every version
/// entry of a condition reads one out of the context, and a struct's text and two lists were retained and released
/// on each read.
final class ContextVersion: Sendable {
    let text: String
    /// The readings, at most one per kind: a short list, which is quicker to search than a dictionary is to hash.
    private let readingList: [Version]

    /// Each reading's kind and comparison key, beside the readings: what the launch path reads, copied freely.
    private let keyList: [KindAndKey]

    /// A struct, not a tuple: an array of tuples is destroyed through the runtime's generic tuple witness, and its
    /// type is built at run time the first time a process makes one.
    private struct KindAndKey {
        let kind: VersionKind
        let key: ComparisonKey?
    }

    /// Whether the version, read as the range's kind, is in the range; false when it is not a version of that kind.
    func satisfies(_ range: VersionRange) -> Bool {
        // By key where it can: taking a reading out of its list copies the version, on every version entry at launch.
        for index in keyList.indices where keyList[index].kind == range.kind {
            if let key = keyList[index].key, let answer = range.contains(key: key) { return answer }
            return range.contains(readingList[index])
        }
        return false
    }

    /// The version read as `kind`, or nil when the text is not a version of that kind.
    func reading(_ kind: VersionKind) -> Version? {
        readingList.first { $0.kind == kind }
    }

    /// Reads `text` as each of `kinds`, or nil for nil text; throws when it is valid as none of them.
    static func read(_ text: String?, key: String, kinds: [VersionKind]) throws(LaunchContextError) -> ContextVersion? {
        try text.map { text throws(LaunchContextError) in try ContextVersion(text, key: key, kinds: kinds) }
    }

    /// Reads `text` as each of `kinds`; throws when it is valid as none of them.
    init(_ text: String, key: String, kinds: [VersionKind]) throws(LaunchContextError) {
        var readings: [Version] = []
        readings.reserveCapacity(kinds.count)
        var errors: [VersionError] = []
        for kind in kinds {
            do {
                readings.append(try Version(text, kind: kind))
            } catch {
                errors.append(error)
            }
        }
        guard !readings.isEmpty else {
            // A `-` or `+` says the writer meant SemVer; otherwise the first kind's reason is the useful one.
            let semverMeant = text.contains("-") || text.contains("+")
            let error = errors.first { $0.kind == .semver && semverMeant } ?? errors[0]
            throw LaunchContextError(key: key, value: text, reason: error.reason)
        }
        self.text = text
        readingList = readings
        keyList = readings.map { KindAndKey(kind: $0.kind, key: $0.key) }
    }
}

/// A context value that is not valid for its key.
public struct LaunchContextError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The context key, as conditions name it (`app-version`).
    public var key: String
    /// The value given.
    public var value: String
    /// Why it is not valid, and what a valid one looks like.
    public var reason: String

    /// Creates an error.
    public init(key: String, value: String, reason: String) {
        self.key = key
        self.value = value
        self.reason = reason
    }

    /// `app-version "2.x" is not valid: …`.
    public var description: String { "\(key) \"\(value)\" is not valid: \(reason)" }
}

extension LaunchContextError: LocalizedError {
    /// The description, which Foundation's `localizedDescription` gives.
    public var errorDescription: String? { description }
}
