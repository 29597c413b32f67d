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
    /// SemVer build metadata identifiers, kept but ignored for precedence.
    public let buildMetadata: [String]
    /// The version as plain numbers for the launch path's comparisons; nil for the rare version that has none.
    let key: ComparisonKey?
    /// The parts and prerelease of the rare version without a key. A version with one is its key alone: its parts
    /// as a list were an allocation for each bound of every range a policy writes, and a retain and a release at
    /// every copy lint makes of a bound.
    private let unkeyed: Unkeyed?

    private struct Unkeyed: Sendable {
        let parts: [Numeral]
        let prerelease: [PrereleaseIdentifier]
    }

    /// Numeric parts with trailing zero parts removed, so that `1`, `1.0` and `1.0.0` are the same value.
    var parts: [Numeral] {
        if let unkeyed { return unkeyed.parts }
        return (0..<partCount).map(part)
    }

    /// SemVer prerelease identifiers; empty for other kinds.
    var prerelease: [PrereleaseIdentifier] {
        if let unkeyed { return unkeyed.prerelease }
        return key?.release == 0 ? [.numeric(.zero)] : []
    }

    /// Parses a version of the given kind.
    ///
    /// - Throws: ``VersionError`` saying what is wrong and where, for anything that is not exactly a version of
    ///   that kind.
    public init(_ text: String, kind: VersionKind = .marketing) throws(VersionError) {
        self = try VersionSyntax.parseVersion(text, kind: kind)
    }

    /// A version of its parts, as written `text`. The parts and prerelease are borrowed, not handed over: a version
    /// with a key keeps neither, and handed over they were retained by each caller to be released here.
    init(
        kind: VersionKind, text: String, parts: borrowing [Numeral],
        prerelease: borrowing [PrereleaseIdentifier] = [], buildMetadata: [String] = []
    ) {
        // Trailing zero parts are left out by count, which copies nothing.
        var count = parts.count
        while count > 0, parts[count - 1].isZero { count -= 1 }
        self.kind = kind
        self.text = text
        self.buildMetadata = buildMetadata
        key = ComparisonKey(parts: parts, count: count, prerelease: prerelease)
        unkeyed = key == nil ? Unkeyed(parts: Array(parts[..<count]), prerelease: copy prerelease) : nil
    }

    /// A version of `kind` that is `key`, written "".
    private init(kind: VersionKind, key: ComparisonKey) {
        self.kind = kind
        text = ""
        buildMetadata = []
        self.key = key
        unkeyed = nil
    }

    /// The version without its prerelease, written "": lint asks it of each `-0` bound of a kind without
    /// prereleases, which from the key makes no list of parts.
    var withoutPrerelease: Version {
        if let key { return Version(kind: kind, key: key.released) }
        return Version(kind: kind, text: "", parts: parts)
    }

    /// The numeric part at `index`, zero when absent.
    func part(_ index: Int) -> Numeral {
        if let unkeyed { return index < unkeyed.parts.count ? unkeyed.parts[index] : .zero }
        return key.map { Numeral($0.part(index)) } ?? .zero
    }

    /// How many parts there are, trailing zero parts left out: from the key, without the list ``parts`` makes.
    var partCount: Int {
        if let unkeyed { return unkeyed.parts.count }
        guard let key else { return 0 }
        return key.fourth != 0 ? 4 : key.third != 0 ? 3 : key.second != 0 ? 2 : key.first != 0 ? 1 : 0
    }

    /// Whether this is a SemVer prerelease.
    public var isPrerelease: Bool {
        if let unkeyed { return !unkeyed.prerelease.isEmpty }
        return key?.release == 0
    }

    /// The value written in its normal form: every part of a marketing or SemVer version (`1.2` → `1.2.0`), no
    /// leading zeros, no build metadata.
    ///
    /// Written as bytes into one buffer: a `once-per-version` memory key asks for it at launch, and joining each
    /// part's own string cost about half as much again (1,300 instructions for `9.9.9`, against 900).
    public var canonical: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        for index in 0..<max(kind.fullLength ?? partCount, 1) {
            if index > 0 { bytes.append(UInt8(ascii: ".")) }
            part(index).appendDigits(to: &bytes)
        }
        for (position, identifier) in prerelease.enumerated() {
            bytes.append(position == 0 ? UInt8(ascii: "-") : UInt8(ascii: "."))
            switch identifier {
            case .numeric(let number): number.appendDigits(to: &bytes)
            case .alphanumeric(let text): bytes.append(contentsOf: text.utf8)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text as given.
    public var description: String { text }

    /// -1, 0 or 1 as this version precedes, equals or follows `other`.
    public func compare(to other: Version) -> Int {
        // Nearly every version has a key, and comparing two keys reads five numbers where walking the parts copies
        // each numeral; lint compares bounds this way for every range of every rule.
        if kind == other.kind, let mine = key, let theirs = other.key { return mine.compare(to: theirs) }
        if kind != other.kind {
            let order = VersionKind.allCases
            return order.firstIndex(of: kind)! < order.firstIndex(of: other.kind)! ? -1 : 1
        }
        for index in 0..<max(partCount, other.partCount) {
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

    // Two equal versions either both have a key or neither does: whether a version has one depends on its trimmed
    // parts and its prerelease alone.
    public static func == (lhs: Version, rhs: Version) -> Bool {
        guard lhs.kind == rhs.kind else { return false }
        if let left = lhs.key, let right = rhs.key { return left == right }
        return lhs.parts == rhs.parts && lhs.prerelease == rhs.prerelease
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        if let key {
            hasher.combine(key)
        } else {
            hasher.combine(parts)
            hasher.combine(prerelease)
        }
    }
}

/// A version as five plain numbers that order exactly as the version does: its first four parts (zero when absent),
/// then 1 without a prerelease and 0 with the prerelease `-0`, the lowest of its core (a range's `< 2` is
/// `<2.0.0-0`). Comparing two keys copies and retains nothing, where comparing versions walks arrays of numerals.
/// A version with more parts, a part of 19 digits or more, or any other prerelease has no key and compares as a
/// version.
struct ComparisonKey: Hashable, Sendable {
    let first: UInt64, second: UInt64, third: UInt64, fourth: UInt64
    let release: UInt64

    /// The key of the version with the first `count` of `parts` (the rest zero) and `prerelease`, if it has one.
    init?(parts: borrowing [Numeral], count: Int, prerelease: borrowing [PrereleaseIdentifier]) {
        func part(_ index: Int) -> UInt64? { index < count ? parts[index].smallValue : 0 }
        guard count <= 4, let first = part(0), let second = part(1), let third = part(2), let fourth = part(3)
        else { return nil }
        switch prerelease.count {
        case 0: release = 1
        case 1 where prerelease[0] == .numeric(.zero): release = 0
        default: return nil
        }
        (self.first, self.second, self.third, self.fourth) = (first, second, third, fourth)
    }

    /// The part at `index` (0 to 3), zero past the fourth.
    func part(_ index: Int) -> UInt64 {
        switch index {
        case 0: first
        case 1: second
        case 2: third
        case 3: fourth
        default: 0
        }
    }

    /// The same parts without a prerelease.
    var released: ComparisonKey {
        ComparisonKey(first: first, second: second, third: third, fourth: fourth, release: 1)
    }

    /// The lowest key: `0.0.0.0-0`.
    static let lowest = ComparisonKey(first: 0, second: 0, third: 0, fourth: 0, release: 0)

    private init(first: UInt64, second: UInt64, third: UInt64, fourth: UInt64, release: UInt64) {
        (self.first, self.second, self.third, self.fourth, self.release) = (first, second, third, fourth, release)
    }

    /// -1, 0 or 1 as `self` precedes, equals or follows `other`.
    @inline(__always)
    func compare(to other: ComparisonKey) -> Int {
        if first != other.first { return first < other.first ? -1 : 1 }
        if second != other.second { return second < other.second ? -1 : 1 }
        if third != other.third { return third < other.third ? -1 : 1 }
        if fourth != other.fourth { return fourth < other.fourth ? -1 : 1 }
        if release != other.release { return release < other.release ? -1 : 1 }
        return 0
    }
}
