/// A version of one of the four ``VersionKind``s, parsed strictly and compared exactly.
///
/// ```swift
/// let installed = try Version("1.10")            // marketing, the default kind
/// installed > (try Version("1.9"))               // true: parts compare as numbers, never as strings
/// try Version("1.1") == (try Version("1.1.0"))   // true: missing parts are zero
/// try Version("1.2-beta")                        // throws: marketing versions have no prerelease
/// ```
///
/// Equality and hashing agree with the ordering: two versions are equal exactly when neither precedes the other.
/// Versions of different kinds are never equal; they order by kind first (marketing, build, version-code, semver)
/// so that the order stays total.
public struct Version: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The kind the version was read as.
    public let kind: VersionKind
    /// The text as given.
    public let text: String
    /// Numeric parts with trailing zero parts removed, so that `1`, `1.0` and `1.0.0` are the same value.
    let parts: [Numeral]
    /// SemVer prerelease identifiers; empty for other kinds.
    let prerelease: [PrereleaseIdentifier]
    /// SemVer build metadata identifiers, kept but ignored for precedence.
    public let buildMetadata: [String]

    /// Parses a version of the given kind.
    ///
    /// - Throws: ``VersionError`` saying what is wrong and where, for anything that is not exactly a version of
    ///   that kind.
    public init(_ text: String, kind: VersionKind = .marketing) throws(VersionError) {
        self = try VersionSyntax.parseVersion(text, kind: kind)
    }

    init(kind: VersionKind, text: String, parts: [Numeral], prerelease: [PrereleaseIdentifier] = [],
        buildMetadata: [String] = [])
    {
        var trimmed = parts
        while let last = trimmed.last, last.isZero { trimmed.removeLast() }
        self.kind = kind
        self.text = text
        self.parts = trimmed
        self.prerelease = prerelease
        self.buildMetadata = buildMetadata
    }

    /// The numeric part at `index`, zero when absent.
    func part(_ index: Int) -> Numeral { index < parts.count ? parts[index] : .zero }

    /// Whether this is a SemVer prerelease.
    public var isPrerelease: Bool { !prerelease.isEmpty }

    /// The value written in its normal form: every part of a marketing or SemVer version (`1.2` → `1.2.0`), no
    /// leading zeros, no build metadata.
    public var canonical: String {
        let count = max(kind.fullLength ?? parts.count, 1)
        var text = (0..<count).map { part($0).description }.joined(separator: ".")
        if !prerelease.isEmpty { text += "-" + prerelease.map(\.description).joined(separator: ".") }
        return text
    }

    /// The text as given.
    public var description: String { text }

    /// -1, 0 or 1 as this version precedes, equals or follows `other`.
    public func compare(to other: Version) -> Int {
        if kind != other.kind {
            let order = VersionKind.allCases
            return order.firstIndex(of: kind)! < order.firstIndex(of: other.kind)! ? -1 : 1
        }
        for index in 0..<max(parts.count, other.parts.count) {
            let left = part(index)
            let right = other.part(index)
            if left != right { return left < right ? -1 : 1 }
        }
        switch (prerelease.isEmpty, other.prerelease.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false):
            for (left, right) in zip(prerelease, other.prerelease) where left != right {
                return left < right ? -1 : 1
            }
            return prerelease.count == other.prerelease.count ? 0 : (prerelease.count < other.prerelease.count ? -1 : 1)
        }
    }

    public static func < (lhs: Version, rhs: Version) -> Bool { lhs.compare(to: rhs) < 0 }

    public static func == (lhs: Version, rhs: Version) -> Bool {
        lhs.kind == rhs.kind && lhs.parts == rhs.parts && lhs.prerelease == rhs.prerelease
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(parts)
        hasher.combine(prerelease)
    }
}
