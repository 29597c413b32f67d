/// A node-semver range over one ``VersionKind``: comparators `<` `<=` `>` `>=` `=`, hyphen ranges, x-ranges and
/// partial versions, `~`, `^`, `*`, `||`, whitespace meaning "and", plus `!=`.
///
/// The grammar and meaning are node-semver's, without its lenient extras (`v` prefixes, `~>`, empty ranges or
/// alternatives). A partial version is an x-range exactly as in node-semver: `<= 1.1` means `< 1.2.0`, `= 1.1` and a
/// bare `1.1` mean `>= 1.1.0 < 1.2.0`, `> 1.1` means `>= 1.2.0`. `!= X` means "does not satisfy `= X`", so `!= 1.2`
/// excludes every 1.2.x. Marketing and SemVer versions have three parts, so fewer make a partial version; a version
/// code has one; a build number is complete as written (write `40.x` for an x-range).
///
/// Prereleases compare by plain precedence when `includePrerelease` is true, the default and what policies use:
/// `2.0.0-beta.1` satisfies `< 2.0.0`. With false, node-semver's default applies: a prerelease satisfies a range only
/// if a comparator of the same alternative names a prerelease of the same MAJOR.MINOR.PATCH.
public struct VersionRange: Hashable, Sendable, CustomStringConvertible {
    /// A comparison operator, after desugaring.
    enum Operator: String, Hashable, Sendable {
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", equal = ""

        /// Whether a candidate that compares to the bound as `order` (-1, 0 or 1) passes.
        @inline(__always)
        func admits(_ order: Int) -> Bool {
            switch self {
            case .less: order < 0
            case .lessOrEqual: order <= 0
            case .greater: order > 0
            case .greaterOrEqual: order >= 0
            case .equal: order == 0
            }
        }
    }

    /// One comparison against a bound.
    struct Comparator: Hashable, Sendable {
        let op: Operator
        let version: Version

        func test(_ candidate: Version) -> Bool { op.admits(candidate.compare(to: version)) }

        /// node-semver's printed form; for kinds without prereleases a `-0` bound prints as the bare version, which
        /// means the same there.
        var text: String {
            let version = self.version.kind == .semver
                ? self.version.canonical
                : self.version.withoutPrerelease.canonical
            return op.rawValue + version
        }

        /// `<0.0.0-0`: node-semver's "matches nothing".
        var isNullSet: Bool {
            op == .less && version.key == .lowest
        }
    }

    /// What an alternative requires: a comparison, or that a set of comparisons does not all hold (`!=`).
    enum Constraint: Hashable, Sendable {
        case compare(Comparator)
        case exclude([Comparator])

        /// Whether it is a plain comparison, not an exclusion.
        var isComparison: Bool {
            if case .compare = self { return true }
            return false
        }

        var text: String {
            switch self {
            case .compare(let comparator): return comparator.text
            case .exclude(let comparators):
                if comparators.count == 1, comparators[0].op == .equal { return "!=" + comparators[0].text }
                return "!(" + (comparators.isEmpty ? "*" : comparators.map(\.text).joined(separator: " ")) + ")"
            }
        }
    }

    /// An operand that people read two ways: a partial version after `<=`, `>`, `=`, `!=`, bare, or at the top of
    /// a hyphen range (`<= 2.4` includes 2.4.9; some readers expect it to stop at 2.4.0). A written wildcard says
    /// what it means (`<= 2.4.x`, `4.x`) and is not flagged.
    public struct AmbiguousOperand: Hashable, Sendable {
        /// The operator as written (`""` for a bare version, `-` for the top of a hyphen range).
        public let op: String
        /// The partial version as written.
        public let operand: String
        /// The offset of the operand in the range's text, in characters.
        public let position: Int
        /// What it means, in words: "`<= 2.4` means `< 2.5.0`".
        public let meaning: String
    }

    /// One comparison of the launch path's form of a range: a bound's key, with whether it is the last comparison
    /// of its alternative. An alternative without comparisons is `>=` the lowest key, which every key satisfies.
    struct KeyComparison: Hashable, Sendable {
        let op: Operator
        let bound: ComparisonKey
        let endsAlternative: Bool

        @inline(__always)
        func admits(_ key: ComparisonKey) -> Bool { op.admits(key.compare(to: bound)) }
    }

    /// The parsed range, shared by every copy: a condition entry holding a range is copied at each launch, and a
    /// copy then costs one reference, not one per text and list.
    private final class Storage: Sendable {
        let kind: VersionKind
        let text: String
        let includePrerelease: Bool
        let alternatives: [[Constraint]]
        let ambiguousOperands: [AmbiguousOperand]
        /// The alternatives as one flat list of key comparisons, when every comparison has a bound with a key and
        /// none is an exclusion (`!=`): nearly every range a policy writes. Nil otherwise.
        let keyComparisons: [KeyComparison]?

        init(kind: VersionKind, text: String, includePrerelease: Bool, alternatives: [[Constraint]],
            ambiguousOperands: [AmbiguousOperand])
        {
            self.kind = kind
            self.text = text
            self.includePrerelease = includePrerelease
            self.alternatives = alternatives
            self.ambiguousOperands = ambiguousOperands
            keyComparisons = Self.keyComparisons(of: alternatives)
        }

        private static func keyComparisons(of alternatives: [[Constraint]]) -> [KeyComparison]? {
            var comparisons: [KeyComparison] = []
            for alternative in alternatives {
                guard !alternative.isEmpty else {
                    comparisons.append(KeyComparison(op: .greaterOrEqual, bound: .lowest, endsAlternative: true))
                    continue
                }
                for (index, constraint) in alternative.enumerated() {
                    guard case .compare(let comparator) = constraint, let bound = comparator.version.key else {
                        return nil
                    }
                    comparisons.append(KeyComparison(
                        op: comparator.op, bound: bound, endsAlternative: index == alternative.count - 1))
                }
            }
            return comparisons
        }
    }

    private let storage: Storage

    /// The kind of version the range compares.
    public var kind: VersionKind { storage.kind }
    /// The text as given.
    public var text: String { storage.text }
    /// Whether prereleases compare by plain precedence.
    public var includePrerelease: Bool { storage.includePrerelease }
    /// The desugared alternatives; an empty alternative matches everything.
    var alternatives: [[Constraint]] { storage.alternatives }
    /// Partial operands people read two ways, for the linter.
    public var ambiguousOperands: [AmbiguousOperand] { storage.ambiguousOperands }

    /// Parses a range.
    ///
    /// - Throws: ``VersionError`` (with `isRange` set) saying what is wrong and at which character.
    public init(_ text: String, kind: VersionKind = .marketing, includePrerelease: Bool = true) throws(VersionError) {
        let parsed = try RangeParser.parse(text, kind: kind, includePrerelease: includePrerelease)
        storage = Storage(kind: kind, text: text, includePrerelease: includePrerelease,
            alternatives: parsed.alternatives, ambiguousOperands: parsed.ambiguous)
    }

    public static func == (lhs: VersionRange, rhs: VersionRange) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.kind == rhs.kind && lhs.text == rhs.text && lhs.includePrerelease == rhs.includePrerelease
                && lhs.alternatives == rhs.alternatives && lhs.ambiguousOperands == rhs.ambiguousOperands)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(text)
        hasher.combine(includePrerelease)
        hasher.combine(alternatives)
        hasher.combine(ambiguousOperands)
    }

    /// node-semver's canonical form of the comparators: `>=1.2.0 <1.3.0-0||>=2.0.0`; `*` for any version.
    public var canonical: String {
        alternatives.map { $0.isEmpty ? "*" : $0.map(\.text).joined(separator: " ") }.joined(separator: "||")
    }

    public var description: String { text }

    /// Whether `version` satisfies the range. A version of another kind never does.
    public func contains(_ version: Version) -> Bool {
        guard version.kind == kind else { return false }
        if let key = version.key, let answer = contains(key: key) { return answer }
        return containsComparingVersions(version)
    }

    /// Whether the version with this key satisfies the range, comparing plain numbers: the launch path. Nil when
    /// keys cannot decide: the range has a bound without a key or an exclusion, or node-semver's prerelease rule
    /// applies to the key.
    func contains(key: ComparisonKey) -> Bool? {
        guard let comparisons = storage.keyComparisons, key.release == 1 || includePrerelease else { return nil }
        var holding = true
        for comparison in comparisons {
            if holding, !comparison.admits(key) { holding = false }
            if comparison.endsAlternative {
                if holding { return true }
                holding = true
            }
        }
        return false
    }

    /// Whether `version` satisfies the range, comparing versions rather than keys: the path for what keys cannot
    /// hold, and the reference the key path is tested against.
    func containsComparingVersions(_ version: Version) -> Bool {
        guard version.kind == kind else { return false }
        return alternatives.contains { alternative in
            for constraint in alternative {
                switch constraint {
                case .compare(let comparator):
                    if !comparator.test(version) { return false }
                case .exclude(let comparators):
                    if comparators.allSatisfy({ $0.test(version) }) { return false }
                }
            }
            guard version.isPrerelease, !includePrerelease else { return true }
            // node-semver: a prerelease only matches where a comparator names a prerelease of the same core.
            return alternative.contains { constraint in
                guard case .compare(let comparator) = constraint, comparator.version.isPrerelease else { return false }
                return (0..<3).allSatisfy { comparator.version.part($0) == version.part($0) }
            }
        }
    }

    /// Whether any version at all satisfies the range (`>= 3 < 2` cannot), by plain precedence.
    public var canMatch: Bool { Self.canMatch(all: CollectionOfOne(self)) }

    /// Whether every version of the kind satisfies the range (`*`, `>= 0`, `< 2 || >= 2`).
    public var matchesEveryVersion: Bool {
        if let interval = Self.plainInterval(of: CollectionOfOne(self)) {
            return !interval.isEmpty(kind: kind) && Self.outside(interval, allSatisfy: { $0.isEmpty(kind: kind) })
        }
        return RangeAnalysis.intervals(of: self).complement.isEmpty
    }

    /// Whether every version that satisfies `other` satisfies this range too, by plain precedence.
    public func includes(_ other: VersionRange) -> Bool { includes(all: [other]) }

    /// Whether every version that satisfies all of `others` at once satisfies this range too, by plain precedence.
    /// Ranges of another kind match no version of this one.
    public func includes(all others: [VersionRange]) -> Bool {
        guard others.allSatisfy({ $0.kind == kind }) else { return !Self.canMatch(all: others) }
        if let mine = Self.plainInterval(of: CollectionOfOne(self)), let theirs = Self.plainInterval(of: others) {
            return Self.interval(mine, includes: theirs, kind: kind)
        }
        let outside = RangeAnalysis.intervals(of: self).complement
        return others.reduce(outside) { $0.intersection(RangeAnalysis.intervals(of: $1)) }.isEmpty
    }

    /// Whether every version of `kind` in `inner` lies in `outer`, by plain precedence.
    ///
    /// Comparisons of the ends settle most pairs: `inner` within `outer`'s ends is included; a version `inner` holds
    /// and `outer` does not (an inclusive end of `inner`, or an exclusive end of `outer`) shows it is not. Only the
    /// rest, where an open end may or may not leave a version out (`> 1.2.3` and `>= 1.2.4` hold the same marketing
    /// versions), builds the intervals around `outer`, which copies versions and may make one. Lint's shadowing check
    /// asks this of every pair of gates: 8,000 gates of one version each took 27 s that way.
    static func interval(
        _ outer: RangeAnalysis.Interval, includes inner: RangeAnalysis.Interval, kind: VersionKind
    ) -> Bool {
        if RangeAnalysis.lowerOrder(outer.lower, inner.lower) <= 0,
            RangeAnalysis.upperOrder(inner.upper, outer.upper) <= 0
        {
            return true
        }
        if inner.witnessesMore(than: outer) { return false }
        return intervalAround(outer, includes: inner, kind: kind)
    }

    /// The same answer as ``interval(_:includes:kind:)``, from the intervals around `outer`: `inner` shares no
    /// version with either. The tests hold the comparisons to it.
    static func intervalAround(
        _ outer: RangeAnalysis.Interval, includes inner: RangeAnalysis.Interval, kind: VersionKind
    ) -> Bool {
        if outer.isEmpty(kind: kind) { return inner.isEmpty(kind: kind) }
        return outside(outer, allSatisfy: { $0.intersection(inner).isEmpty(kind: kind) })
    }

    /// The versions all of `ranges` admit, as one interval, when each range is one alternative of plain comparisons
    /// — nearly every range a policy writes — so that the checks need no sets of intervals; nil otherwise. Any
    /// collection, so that one range needs no array. The ranges are of one kind.
    static func plainInterval(of ranges: some Collection<VersionRange>) -> RangeAnalysis.Interval? {
        var interval = RangeAnalysis.Interval.everything
        for range in ranges {
            guard range.alternatives.count == 1 else { return nil }
            for constraint in range.alternatives[0] {
                guard case .compare(let comparator) = constraint else { return nil }
                interval.narrow(to: comparator)
            }
        }
        return interval
    }

    /// Whether `test` holds for both intervals around a non-empty interval (below its lower bound and above its
    /// upper one), each when there is one.
    private static func outside(
        _ interval: RangeAnalysis.Interval, allSatisfy test: (RangeAnalysis.Interval) -> Bool
    ) -> Bool {
        if let lower = interval.lower,
            !test(.init(lower: nil, upper: .init(version: lower.version, inclusive: !lower.inclusive)))
        {
            return false
        }
        if let upper = interval.upper,
            !test(.init(lower: .init(version: upper.version, inclusive: !upper.inclusive), upper: nil))
        {
            return false
        }
        return true
    }

    /// Whether some version satisfies all of `ranges` at once (`< 2` and `>= 3` together cannot), by plain
    /// precedence. Ranges of different kinds never match together; no ranges at all match any version.
    public static func canMatch(all ranges: [VersionRange]) -> Bool { canMatch(all: ranges[...]) }

    private static func canMatch(all ranges: some Collection<VersionRange>) -> Bool {
        guard let kind = ranges.first?.kind else { return true }
        guard ranges.allSatisfy({ $0.kind == kind }) else { return false }
        if let interval = plainInterval(of: ranges) { return !interval.isEmpty(kind: kind) }
        return !ranges.reduce(RangeAnalysis.IntervalSet.everything(kind)) { $0.intersection(RangeAnalysis.intervals(of: $1)) }.isEmpty
    }
}
