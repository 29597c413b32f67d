/// Ranges as unions of intervals, to answer what the linter asks: can a range match anything, and does one range
/// include another. Analyses use plain precedence (prereleases are ordinary versions), as policies do.
enum RangeAnalysis {
    /// One end of an interval.
    struct Bound: Hashable {
        var version: Version
        var inclusive: Bool
    }

    /// Versions from `lower` to `upper`; nil means unbounded on that side.
    struct Interval: Hashable {
        var lower: Bound?
        var upper: Bound?

        static let everything = Interval(lower: nil, upper: nil)

        func intersection(_ other: Interval) -> Interval {
            Interval(lower: RangeAnalysis.tighter(lower, other.lower, preferGreater: true),
                upper: RangeAnalysis.tighter(upper, other.upper, preferGreater: false))
        }

        /// Narrows the interval, in place, to the versions `comparator` admits too: the same as the intersection
        /// with ``RangeAnalysis/interval(of:)``, but a bound's version is copied only when it becomes the tighter
        /// bound. Lint narrows an interval by every comparison of every range it looks at, and building an interval
        /// for each and intersecting copied and released each bound's version several times.
        mutating func narrow(to comparator: VersionRange.Comparator) {
            let version = comparator.version
            if version.kind != .semver, version.isPrerelease {
                // A `-0` bound on a kind without prereleases, which ``RangeAnalysis/interval(of:)`` rewrites: rare.
                self = intersection(RangeAnalysis.interval(of: comparator))
                return
            }
            switch comparator.op {
            case .less: narrowUpper(to: version, inclusive: false)
            case .lessOrEqual: narrowUpper(to: version, inclusive: true)
            case .greater: narrowLower(to: version, inclusive: false)
            case .greaterOrEqual: narrowLower(to: version, inclusive: true)
            case .equal:
                narrowLower(to: version, inclusive: true)
                narrowUpper(to: version, inclusive: true)
            }
        }

        private mutating func narrowLower(to version: Version, inclusive: Bool) {
            guard let current = lower?.version.compare(to: version) else {
                lower = Bound(version: version, inclusive: inclusive)
                return
            }
            if current < 0 {
                lower = Bound(version: version, inclusive: inclusive)
            } else if current == 0, !inclusive {
                lower!.inclusive = false
            }
        }

        private mutating func narrowUpper(to version: Version, inclusive: Bool) {
            guard let current = upper?.version.compare(to: version) else {
                upper = Bound(version: version, inclusive: inclusive)
                return
            }
            if current > 0 {
                upper = Bound(version: version, inclusive: inclusive)
            } else if current == 0, !inclusive {
                upper!.inclusive = false
            }
        }

        /// Whether no version of `kind` lies in the interval. Kinds whose versions have a next one (marketing,
        /// version codes, SemVer) turn an open lower end into a closed one first, so that `> 1.2.3 < 1.2.4` is
        /// empty for marketing versions; build numbers have none (1.2.3.1 lies between), so there it is not.
        func isEmpty(kind: VersionKind) -> Bool {
            // No upper end first: the outside of every `<` range has none, and needs no version built.
            guard let high = upper else { return false }
            var low = lower ?? Bound(version: RangeAnalysis.minimum(kind), inclusive: true)
            if !low.inclusive, let next = RangeAnalysis.successor(of: low.version) {
                low = Bound(version: next, inclusive: true)
            }
            let order = low.version.compare(to: high.version)
            if order != 0 { return order > 0 }
            return !(low.inclusive && high.inclusive)
        }
    }

    /// A union of intervals of one kind. Empty intervals are dropped as they arise, so that intersections and
    /// complements stay as small as the answer (at most one interval more than the inputs have), however many
    /// alternatives a range has.
    struct IntervalSet {
        let kind: VersionKind
        private(set) var intervals: [Interval]

        init(kind: VersionKind, intervals: [Interval]) {
            self.kind = kind
            self.intervals = intervals.filter { !$0.isEmpty(kind: kind) }
        }

        /// Every version of the kind.
        static func everything(_ kind: VersionKind) -> IntervalSet { IntervalSet(kind: kind, intervals: [.everything]) }

        func intersection(_ other: IntervalSet) -> IntervalSet {
            IntervalSet(kind: kind, intervals: intervals.flatMap { mine in other.intervals.map { mine.intersection($0) } })
        }

        /// Everything outside the set: the intersection of each interval's outside.
        var complement: IntervalSet {
            var result = IntervalSet.everything(kind)
            for interval in intervals {
                var outside: [Interval] = []
                if let lower = interval.lower {
                    outside.append(Interval(lower: nil, upper: Bound(version: lower.version, inclusive: !lower.inclusive)))
                }
                if let upper = interval.upper {
                    outside.append(Interval(lower: Bound(version: upper.version, inclusive: !upper.inclusive), upper: nil))
                }
                result = result.intersection(IntervalSet(kind: kind, intervals: outside))
            }
            return result
        }

        var isEmpty: Bool { intervals.isEmpty }
    }

    static func intervals(of range: VersionRange) -> IntervalSet {
        IntervalSet(kind: range.kind, intervals: range.alternatives.flatMap { alternative -> [Interval] in
            var set = IntervalSet.everything(range.kind)
            for constraint in alternative {
                switch constraint {
                case .compare(let comparator):
                    set = set.intersection(IntervalSet(kind: range.kind, intervals: [interval(of: comparator)]))
                case .exclude(let comparators):
                    let excluded = comparators.reduce(Interval.everything) { $0.intersection(interval(of: $1)) }
                    set = set.intersection(IntervalSet(kind: range.kind, intervals: [excluded]).complement)
                }
            }
            return set.intervals
        })
    }

    static func interval(of comparator: VersionRange.Comparator) -> Interval {
        var version = comparator.version
        var op = comparator.op
        // A `-0` bound on a kind without prereleases sits just below its core: `< 1.3.0-0` is `< 1.3.0` there, and
        // `> 1.3.0-0` is `>= 1.3.0`.
        if version.kind != .semver, version.isPrerelease {
            version = Version(kind: version.kind, text: "", parts: version.parts)
            switch op {
            case .lessOrEqual: op = .less
            case .greater: op = .greaterOrEqual
            case .equal: return Interval(lower: Bound(version: version, inclusive: false),
                upper: Bound(version: version, inclusive: false))
            default: break
            }
        }
        switch op {
        case .less: return Interval(lower: nil, upper: Bound(version: version, inclusive: false))
        case .lessOrEqual: return Interval(lower: nil, upper: Bound(version: version, inclusive: true))
        case .greater: return Interval(lower: Bound(version: version, inclusive: false), upper: nil)
        case .greaterOrEqual: return Interval(lower: Bound(version: version, inclusive: true), upper: nil)
        case .equal:
            return Interval(lower: Bound(version: version, inclusive: true), upper: Bound(version: version, inclusive: true))
        }
    }

    /// Of two lower (or upper) bounds, the one that admits less.
    static func tighter(_ a: Bound?, _ b: Bound?, preferGreater: Bool) -> Bound? {
        guard let a else { return b }
        guard let b else { return a }
        let order = a.version.compare(to: b.version)
        if order == 0 { return Bound(version: a.version, inclusive: a.inclusive && b.inclusive) }
        return (order > 0) == preferGreater ? a : b
    }

    /// The lowest version of a kind. Made each time it is asked for: without parts it allocates nothing (but SemVer's
    /// `-0`), and versions kept in statics measured 4K instructions more a lint of 48 rules (each access, and four
    /// references retained and released per copy).
    static func minimum(_ kind: VersionKind) -> Version {
        Version(kind: kind, text: "", parts: [], prerelease: kind == .semver ? [.numeric(.zero)] : [])
    }

    /// The next version after `version`, where the kind has one.
    static func successor(of version: Version) -> Version? {
        switch version.kind {
        case .build:
            return nil
        case .marketing, .versionCode:
            let last = (version.kind.fullLength ?? 1) - 1
            var parts: [Numeral] = []
            parts.reserveCapacity(last + 1)
            for index in 0..<last { parts.append(version.part(index)) }
            parts.append(version.part(last).successor)
            return Version(kind: version.kind, text: "", parts: parts)
        case .semver:
            if version.isPrerelease {
                return Version(kind: .semver, text: "", parts: version.parts,
                    prerelease: version.prerelease + [.numeric(.zero)])
            }
            return Version(kind: .semver, text: "", parts: [version.part(0), version.part(1), version.part(2).successor],
                prerelease: [.numeric(.zero)])
        }
    }
}
