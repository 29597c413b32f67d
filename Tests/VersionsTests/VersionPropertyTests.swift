@testable import LaunchPolicy
import Testing
import TestSupport

/// Properties checked over many random versions and ranges, from fixed seeds so that a failure can be replayed.
@Suite struct VersionPropertyTests {
    static func randomVersion(_ kind: VersionKind, _ random: inout SeededGenerator) -> String {
        let number = { (random: inout SeededGenerator) -> String in
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return "0" + String(Int.random(in: 0...3, using: &random))  // a leading zero (not for semver)
            case 1: return String(repeating: "9", count: Int.random(in: 18...21, using: &random))
            default: return String(Int.random(in: 0...4, using: &random))
            }
        }
        switch kind {
        case .marketing:
            return (0..<Int.random(in: 1...3, using: &random)).map { _ in number(&random) }.joined(separator: ".")
        case .build:
            return (0..<Int.random(in: 1...5, using: &random)).map { _ in number(&random) }.joined(separator: ".")
        case .versionCode:
            return String(Int.random(in: 0...12, using: &random))
        case .semver:
            var text = (0..<3).map { _ in String(Int.random(in: 0...3, using: &random)) }.joined(separator: ".")
            if Bool.random(using: &random) {
                let identifiers = ["alpha", "beta", "0", "1", "2", "rc", "x-y"]
                text += "-" + (0..<Int.random(in: 1...3, using: &random))
                    .map { _ in identifiers.randomElement(using: &random)! }.joined(separator: ".")
            }
            if Int.random(in: 0..<4, using: &random) == 0 { text += "+b.\(Int.random(in: 0...9, using: &random))" }
            return text
        }
    }

    static func randomRange(_ kind: VersionKind, _ random: inout SeededGenerator) -> String {
        let operators = ["<", "<=", ">", ">=", "=", "", "!=", "~", "^"]
        func operand(_ random: inout SeededGenerator) -> String {
            var parts = randomVersion(kind == .semver ? .marketing : kind, &random)
                .split(separator: ".").map { String(Int($0.prefix(6)) ?? 0) }
            if kind == .semver, Bool.random(using: &random) {
                parts = Array(parts.prefix(3))
                while parts.count < 3 { parts.append("0") }
                return parts.joined(separator: ".") + (Bool.random(using: &random) ? "-beta.1" : "")
            }
            if kind == .marketing || kind == .semver, Int.random(in: 0..<5, using: &random) == 0 {
                parts = Array(parts.prefix(2)) + ["x"]
            }
            return parts.joined(separator: ".")
        }
        let alternatives = (0..<Int.random(in: 1...2, using: &random)).map { _ -> String in
            if Int.random(in: 0..<6, using: &random) == 0 {
                return "\(operand(&random)) - \(operand(&random))"
            }
            return (0..<Int.random(in: 1...3, using: &random)).map { _ in
                operators.randomElement(using: &random)! + operand(&random)
            }.joined(separator: " ")
        }
        return alternatives.joined(separator: " || ")
    }

    @Test(arguments: VersionKind.allCases)
    func compareIsATotalOrderConsistentWithEqualityAndHashing(kind: VersionKind) throws {
        var random = SeededGenerator(seed: 0x5EED_0001 &+ UInt64(kind.hashValue & 0xFF))
        let versions = try (0..<300).map { _ in try Version(Self.randomVersion(kind, &random), kind: kind) }
        for a in versions.prefix(120) {
            #expect(a.compare(to: a) == 0)
            for b in versions.prefix(120) {
                let ab = a.compare(to: b)
                #expect(ab == -b.compare(to: a))
                #expect((ab == 0) == (a == b))
                if a == b { #expect(a.hashValue == b.hashValue) }
                #expect((a < b) == (ab < 0))
            }
        }
        // Transitivity, through sorting: a sorted array is ordered pairwise.
        let sorted = versions.sorted()
        for (left, right) in zip(sorted, sorted.dropFirst()) { #expect(left.compare(to: right) <= 0) }
        #expect(Set(versions).count == Set(versions.map(\.canonical)).count)
    }

    /// Evaluates a canonical comparator string directly, as the brute-force reference.
    static func bruteForce(_ canonical: String, _ version: Version, kind: VersionKind) throws -> Bool {
        if canonical == "*" { return true }
        return try canonical.split(separator: "||").contains { alternative in
            try alternative.split(separator: " ").allSatisfy { token in
                var text = String(token)
                let negate = text.hasPrefix("!=")
                if negate { text = String(text.dropFirst(2)) }
                let op = ["<=", ">=", "<", ">"].first { text.hasPrefix($0) } ?? ""
                let bound = try Version(String(text.dropFirst(op.count)), kind: kind == .semver ? .semver : kind)
                let order = version.compare(to: bound)
                let result = switch op {
                case "<=": order <= 0
                case ">=": order >= 0
                case "<": order < 0
                case ">": order > 0
                default: order == 0
                }
                return negate ? !result : result
            }
        }
    }

    @Test(arguments: VersionKind.allCases)
    func satisfiesAgreesWithTheExpandedComparators(kind: VersionKind) throws {
        var random = SeededGenerator(seed: 0xACE5_0002 &+ UInt64(VersionKind.allCases.firstIndex(of: kind)!))
        var ranges = 0
        var matches = 0
        while ranges < 400 {
            let text = Self.randomRange(kind, &random)
            guard let range = try? VersionRange(text, kind: kind) else { continue }
            // A negated x-range prints as a group, `!(>=a <b)`, which this reference does not read; the analysis
            // test samples those ranges.
            guard !range.canonical.contains("!(") else { continue }
            ranges += 1
            for _ in 0..<25 {
                let version = try Version(Self.randomVersion(kind, &random), kind: kind)
                let expected = try Self.bruteForce(range.canonical, version, kind: kind)
                #expect(range.contains(version) == expected, "\(text) → \(range.canonical) on \(version)")
                if expected { matches += 1 }
            }
        }
        #expect(matches > 100, "the random ranges should match some random versions")
    }

    /// The launch path compares fixed-size keys where both sides have one; it must agree with comparing versions on
    /// every pair, with and without node-semver's prerelease rule.
    @Test(arguments: VersionKind.allCases)
    func keyComparisonAgreesWithComparingVersions(kind: VersionKind) throws {
        var random = SeededGenerator(seed: 0xC0DE_0004 &+ UInt64(VersionKind.allCases.firstIndex(of: kind)!))
        var (byKey, byVersion) = (0, 0)
        var ranges = 0
        while ranges < 300 {
            let text = Self.randomRange(kind, &random)
            let includePrerelease = Bool.random(using: &random)
            guard let range = try? VersionRange(text, kind: kind, includePrerelease: includePrerelease) else {
                continue
            }
            ranges += 1
            for _ in 0..<25 {
                let version = try Version(Self.randomVersion(kind, &random), kind: kind)
                #expect(range.contains(version) == range.containsComparingVersions(version),
                    "\(text) (includePrerelease \(includePrerelease)) on \(version)")
                if version.key != nil { byKey += 1 } else { byVersion += 1 }
            }
        }
        // Both paths are exercised: most versions have a key, and long or prerelease ones do not.
        #expect(byKey > 1_000)
        if kind != .versionCode { #expect(byVersion > 100) }
    }

    @Test func keysOrderAsTheirVersions() throws {
        let texts = ["0.0.0-0", "0.0.0", "1.2.3-0", "1.2.3-alpha", "1.2.3", "1.2.4-0", "1.10.0", "2.0.0"]
        let versions = try texts.map { try Version($0, kind: .semver) }
        #expect(versions.map { $0.key == nil } == [false, false, false, true, false, false, false, false])
        for a in versions {
            for b in versions {
                guard let left = a.key, let right = b.key else { continue }
                #expect(left.compare(to: right) == a.compare(to: b), "\(a) against \(b)")
            }
        }
        #expect(try Version("1.2.3.4.5", kind: .build).key == nil)
        #expect(try Version("1.1000000000000000000", kind: .build).key == nil)
        #expect(try Version("1.2.3.4", kind: .build).key != nil)
    }

    @Test(arguments: [VersionKind.marketing, .versionCode, .semver, .build])
    func analysisAgreesWithSampling(kind: VersionKind) throws {
        var random = SeededGenerator(seed: 0xB0B_0003 &+ UInt64(VersionKind.allCases.firstIndex(of: kind)!))
        let samples = try (0..<400).map { _ in try Version(Self.randomVersion(kind, &random), kind: kind) }
        var pairs = 0
        while pairs < 200 {
            guard let a = try? VersionRange(Self.randomRange(kind, &random), kind: kind),
                let b = try? VersionRange(Self.randomRange(kind, &random), kind: kind)
            else { continue }
            pairs += 1
            let aMatches = samples.filter(a.contains)
            if !aMatches.isEmpty { #expect(a.canMatch, "\(a.text) matches \(aMatches[0]) but canMatch is false") }
            if a.includes(b) {
                for version in samples where b.contains(version) {
                    #expect(a.contains(version), "\(a.text) includes \(b.text) but not \(version)")
                }
            }
            #expect(a.includes(a), "every range includes itself: \(a.text)")
            if let both = samples.first(where: { a.contains($0) && b.contains($0) }) {
                #expect(VersionRange.canMatch(all: [a, b]), "\(a.text) and \(b.text) both match \(both)")
            }
            #expect(a.includes(all: [a, b]), "\(a.text) includes what it and \(b.text) both match")
            if a.matchesEveryVersion { #expect(samples.allSatisfy(a.contains), "\(a.text) matches every version") }
        }
    }

    /// The interval sets as they were computed before they were kept sorted: every pair of intervals intersected,
    /// and the complement as the intersection of each interval's outside. Slow, and plainly right.
    private enum Reference {
        typealias Interval = RangeAnalysis.Interval

        static func intersection(_ a: [Interval], _ b: [Interval], _ kind: VersionKind) -> [Interval] {
            a.flatMap { mine in b.map { mine.intersection($0) } }.filter { !$0.isEmpty(kind: kind) }
        }

        static func complement(_ set: [Interval], _ kind: VersionKind) -> [Interval] {
            set.reduce([Interval.everything]) { result, interval in
                var outside: [Interval] = []
                if let lower = interval.lower {
                    let end = RangeAnalysis.Bound(version: lower.version, inclusive: !lower.inclusive)
                    outside.append(Interval(lower: nil, upper: end))
                }
                if let upper = interval.upper {
                    let start = RangeAnalysis.Bound(version: upper.version, inclusive: !upper.inclusive)
                    outside.append(Interval(lower: start, upper: nil))
                }
                return intersection(result, outside, kind)
            }
        }

        static func intervals(of range: VersionRange) -> [Interval] {
            range.alternatives.flatMap { alternative in
                alternative.reduce([Interval.everything]) { set, constraint in
                    switch constraint {
                    case .compare(let comparator):
                        return intersection(set, [RangeAnalysis.interval(of: comparator)], range.kind)
                    case .exclude(let comparators):
                        let excluded = comparators.reduce(Interval.everything) {
                            $0.intersection(RangeAnalysis.interval(of: $1))
                        }
                        return intersection(set, complement([excluded], range.kind), range.kind)
                    }
                }
            }
        }
    }

    /// Whether one interval includes another is settled by comparing their ends where that can settle it (one within
    /// the other's ends; a version one holds and the other does not), and otherwise from the intervals around the
    /// outer one: both answer alike for every pair, open ends included, where the kind's next version decides
    /// (`> 1.2.3` and `>= 1.2.4`).
    @Test(arguments: [VersionKind.marketing, .versionCode, .semver, .build])
    func intervalInclusionByItsEndsAnswersAsTheIntervalsAroundIt(kind: VersionKind) throws {
        var random = SeededGenerator(seed: 0x1C1_0001 &+ UInt64(VersionKind.allCases.firstIndex(of: kind)!))
        func interval() -> RangeAnalysis.Interval? {
            // One or two comparisons, or a partial version: a plain interval, closed or open at either end.
            let text = (0..<Int.random(in: 1...2, using: &random)).map { _ in Self.randomRange(kind, &random) }
                .joined(separator: " ")
            return (try? VersionRange(text, kind: kind)).flatMap { VersionRange.plainInterval(of: CollectionOfOne($0)) }
        }
        var pairs = 0, answers: [Bool: Int] = [:]
        while pairs < 800 {
            guard let a = interval(), let b = interval() else { continue }
            pairs += 1
            // Both ways, and each with its ends made open or closed, which the next version decides.
            for (outer, inner) in [(a, b), (b, a), (a, Self.flipped(a)), (Self.flipped(a), a)] {
                let answer = VersionRange.interval(outer, includes: inner, kind: kind)
                #expect(answer == VersionRange.intervalAround(outer, includes: inner, kind: kind),
                    "\(outer) includes \(inner)")
                answers[answer, default: 0] += 1
            }
        }
        #expect(answers[true, default: 0] > 300 && answers[false, default: 0] > 300, "\(answers)")
    }

    /// The interval with each end's inclusiveness turned over.
    private static func flipped(_ interval: RangeAnalysis.Interval) -> RangeAnalysis.Interval {
        var flipped = interval
        flipped.lower?.inclusive.toggle()
        flipped.upper?.inclusive.toggle()
        return flipped
    }

    @Test(arguments: [VersionKind.marketing, .versionCode, .semver, .build])
    func sortedIntervalSetsAnswerAsEveryPairDid(kind: VersionKind) throws {
        var random = SeededGenerator(seed: 0x5E7_0001 &+ UInt64(VersionKind.allCases.firstIndex(of: kind)!))
        // Ranges of up to eight alternatives, so that sets overlap, touch and nest.
        func range() -> VersionRange? {
            let text = (0..<Int.random(in: 1...4, using: &random)).map { _ in Self.randomRange(kind, &random) }
                .joined(separator: " || ")
            return try? VersionRange(text, kind: kind)
        }
        var pairs = 0
        while pairs < 300 {
            guard let a = range(), let b = range() else { continue }
            pairs += 1
            let (setA, setB) = (RangeAnalysis.intervals(of: a), RangeAnalysis.intervals(of: b))
            let (listA, listB) = (Reference.intervals(of: a), Reference.intervals(of: b))
            let what = "\(a.text) and \(b.text)"
            #expect(setA.isEmpty == listA.isEmpty, "\(what)")
            #expect(setA.intersection(setB).isEmpty == Reference.intersection(listA, listB, kind).isEmpty, "\(what)")
            #expect(setA.complement.isEmpty == Reference.complement(listA, kind).isEmpty, "\(what)")
            #expect(setA.complement.intersection(setB).isEmpty
                == Reference.intersection(Reference.complement(listA, kind), listB, kind).isEmpty, "\(what)")
            // A set and its complement share nothing, and the complement of the complement is the set again: it
            // shares nothing with the complement either (on whole numbers it may be written with fewer intervals:
            // [1, 1] and [2, 2] come back as [1, 2]).
            #expect(setA.intersection(setA.complement).isEmpty, "\(a.text)")
            #expect(setA.complement.complement.intersection(setA.complement).isEmpty, "\(a.text)")
            #expect(setA.complement.complement.complement.isEmpty == setA.complement.isEmpty, "\(a.text)")
            #expect(setA.complement.complement.intersection(setB).isEmpty == setA.intersection(setB).isEmpty, "\(what)")
            for (earlier, later) in zip(setA.intervals, setA.intervals.dropFirst()) {
                #expect(RangeAnalysis.lowerOrder(earlier.lower, later.lower) < 0
                    && !RangeAnalysis.meet(earlier.upper, later.lower), "\(a.text): sorted and apart")
            }
        }
    }
}
