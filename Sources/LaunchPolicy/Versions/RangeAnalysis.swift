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

        /// Whether `version` lies in the interval, by plain precedence.
        func contains(_ version: Version) -> Bool {
            if let lower {
                let order = version.compare(to: lower.version)
                if order < 0 || (order == 0 && !lower.inclusive) { return false }
            }
            if let upper {
                let order = version.compare(to: upper.version)
                if order > 0 || (order == 0 && !upper.inclusive) { return false }
            }
            return true
        }

        /// Whether a version this interval holds is one `other` does not hold, among the versions at hand: this
        /// interval's inclusive ends and `other`'s exclusive ones. False proves nothing.
        func witnessesMore(than other: Interval) -> Bool {
            func witnesses(_ version: Version) -> Bool { contains(version) && !other.contains(version) }
            if let lower, lower.inclusive, witnesses(lower.version) { return true }
            if let upper, upper.inclusive, witnesses(upper.version) { return true }
            if let end = other.lower, !end.inclusive, witnesses(end.version) { return true }
            if let end = other.upper, !end.inclusive, witnesses(end.version) { return true }
            return false
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

    /// A union of intervals of one kind, kept sorted by their lower ends, overlapping ones merged, and empty ones
    /// dropped as they arise: intersections and complements are then one pass over each set, and stay as small as
    /// the answer. Kept as they came, a range of 7,000 alternatives took 49 million interval intersections to be
    /// compared with another, and lint of one file of such ranges minutes.
    struct IntervalSet {
        let kind: VersionKind
        private(set) var intervals: [Interval]

        init(kind: VersionKind, intervals: [Interval]) {
            self.kind = kind
            self.intervals = Self.sortedAndMerged(intervals.filter { !$0.isEmpty(kind: kind) })
        }

        /// A set of intervals already sorted, disjoint and not empty.
        private init(kind: VersionKind, sorted intervals: [Interval]) {
            self.kind = kind
            self.intervals = intervals
        }

        /// Every version of the kind.
        static func everything(_ kind: VersionKind) -> IntervalSet {
            IntervalSet(kind: kind, sorted: [.everything])
        }

        private static func sortedAndMerged(_ intervals: [Interval]) -> [Interval] {
            guard intervals.count > 1 else { return intervals }
            let sorted = intervals.sorted { RangeAnalysis.lowerOrder($0.lower, $1.lower) < 0 }
            var merged: [Interval] = [sorted[0]]
            for next in sorted.dropFirst() {
                let last = merged.count - 1
                if RangeAnalysis.meet(merged[last].upper, next.lower) {
                    if RangeAnalysis.upperOrder(next.upper, merged[last].upper) > 0 { merged[last].upper = next.upper }
                } else {
                    merged.append(next)
                }
            }
            return merged
        }

        /// Both sets walked once, side by side: the interval that ends first cannot meet any later one of the other.
        func intersection(_ other: IntervalSet) -> IntervalSet {
            var result: [Interval] = []
            var mine = 0, theirs = 0
            while mine < intervals.count, theirs < other.intervals.count {
                let both = intervals[mine].intersection(other.intervals[theirs])
                if !both.isEmpty(kind: kind) { result.append(both) }
                let order = RangeAnalysis.upperOrder(intervals[mine].upper, other.intervals[theirs].upper)
                if order <= 0 { mine += 1 }
                if order >= 0 { theirs += 1 }
            }
            return IntervalSet(kind: kind, sorted: result)
        }

        /// Everything outside the set: the gaps before, between and after its intervals.
        var complement: IntervalSet {
            var result: [Interval] = []
            var gapStart: Bound? = nil
            for interval in intervals {
                if let lower = interval.lower {
                    let end = Bound(version: lower.version, inclusive: !lower.inclusive)
                    let gap = Interval(lower: gapStart, upper: end)
                    if !gap.isEmpty(kind: kind) { result.append(gap) }
                }
                guard let upper = interval.upper else { return IntervalSet(kind: kind, sorted: result) }
                gapStart = Bound(version: upper.version, inclusive: !upper.inclusive)
            }
            result.append(Interval(lower: gapStart, upper: nil))
            return IntervalSet(kind: kind, sorted: result)
        }

        var isEmpty: Bool { intervals.isEmpty }
    }

    /// The order of two lower ends, nil being the lowest: at one version, an inclusive end comes first.
    static func lowerOrder(_ a: Bound?, _ b: Bound?) -> Int {
        guard let a else { return b == nil ? 0 : -1 }
        guard let b else { return 1 }
        let order = a.version.compare(to: b.version)
        if order != 0 || a.inclusive == b.inclusive { return order }
        return a.inclusive ? -1 : 1
    }

    /// The order of two upper ends, nil being the highest: at one version, an exclusive end comes first.
    static func upperOrder(_ a: Bound?, _ b: Bound?) -> Int {
        guard let a else { return b == nil ? 0 : 1 }
        guard let b else { return -1 }
        let order = a.version.compare(to: b.version)
        if order != 0 || a.inclusive == b.inclusive { return order }
        return a.inclusive ? 1 : -1
    }

    /// Whether an interval ending at `upper` and one starting at `lower` (no earlier) overlap or touch, so that
    /// together they are one interval.
    static func meet(_ upper: Bound?, _ lower: Bound?) -> Bool {
        guard let upper, let lower else { return true }
        let order = lower.version.compare(to: upper.version)
        return order < 0 || (order == 0 && (lower.inclusive || upper.inclusive))
    }

    /// A range's versions. Each alternative is the interval its comparisons leave, less the union of what its
    /// exclusions (`!=`, `!(…)`) name, taken out once: taken out one by one, an alternative with thousands of
    /// exclusions cost an intersection over the whole set for each.
    static func intervals(of range: VersionRange) -> IntervalSet {
        IntervalSet(kind: range.kind, intervals: range.alternatives.flatMap { alternative -> [Interval] in
            var compared = Interval.everything
            var excluded: [Interval] = []
            for constraint in alternative {
                switch constraint {
                case .compare(let comparator):
                    compared = compared.intersection(interval(of: comparator))
                case .exclude(let comparators):
                    excluded.append(comparators.reduce(Interval.everything) { $0.intersection(interval(of: $1)) })
                }
            }
            let kept = IntervalSet(kind: range.kind, intervals: [compared])
            guard !excluded.isEmpty else { return kept.intervals }
            return kept.intersection(IntervalSet(kind: range.kind, intervals: excluded).complement).intervals
        })
    }

    static func interval(of comparator: VersionRange.Comparator) -> Interval {
        var version = comparator.version
        var op = comparator.op
        // A `-0` bound on a kind without prereleases sits just below its core: `< 1.3.0-0` is `< 1.3.0` there, and
        // `> 1.3.0-0` is `>= 1.3.0`.
        if version.kind != .semver, version.isPrerelease {
            version = version.withoutPrerelease
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
