/// The four kinds of version LaunchPolicy compares, each with its own strict syntax and ordering.
public enum VersionKind: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// Apple's CFBundleShortVersionString, and Android's versionName when numeric: 1 to 3 dot-separated runs of ASCII
    /// digits. Missing parts are zero (`1` = `1.0.0`); leading zeros are ignored (`1.01` = `1.1`).
    case marketing
    /// Apple's CFBundleVersion: 1 or more dot-separated runs of ASCII digits, any number of parts, missing parts zero.
    case build
    /// Android's versionCode: a decimal integer from 0 to 2,100,000,000.
    case versionCode = "version-code"
    /// SemVer 2.0.0 exactly: no `v`, no leading zeros in numeric identifiers; build metadata is ignored for
    /// precedence.
    case semver

    /// The largest Android versionCode Google Play accepts.
    public static let maximumVersionCode = 2_100_000_000

    /// How many numeric parts a complete version of this kind has; nil when any number is complete (build).
    var fullLength: Int? {
        switch self {
        case .marketing, .semver: 3
        case .versionCode: 1
        case .build: nil
        }
    }

    /// What a valid version of this kind looks like, for error messages.
    var shape: String {
        switch self {
        case .marketing: "a marketing version is 1 to 3 dot-separated numbers, such as 2.4 or 2.4.1"
        case .build: "a build number is dot-separated numbers, such as 412 or 2.4.1.7"
        case .versionCode: "a versionCode is a whole number from 0 to 2100000000, such as 120"
        case .semver: "a semantic version is MAJOR.MINOR.PATCH with an optional -prerelease and +build, such as 2.4.1-beta.2"
        }
    }

    public var description: String { rawValue }
}
