import Foundation

/// A condition rewritten as alternatives of plain requirements (its disjunctive normal form), for the checks that
/// ask whether a rule can match at all, whom it matches, and whether one rule's condition contains another's.
///
/// The analysis is sound where it answers: "contains" and "matches every version" are only claimed when they hold
/// for every context. `not` is not looked into (a branch holding one is never claimed to contain another, nor to be
/// a lockout), and a condition with more than ``maximumBranches`` alternatives is not analysed at all.
struct ConditionAnalysis {
    /// Conditions whose normal form is larger are left alone: the checks stay linear in the policy's size.
    static let maximumBranches = 256

    /// One alternative: every requirement in it must hold.
    struct Branch {
        // Every requirement is set through `add`, which keeps the footprint in step with it.
        // Closed sets (platforms, launch kinds, sources) are bits and ranges a short list by kind, not sets and a
        // table keyed by text: the shadowing check compares every gate with every earlier one, and lint builds a
        // branch for every alternative of every rule.
        /// The platforms it can hold on, one bit per case of ``Platform``; nil for any.
        private(set) var platformBits: UInt8?
        /// Version and number ranges by kind of entry, with the key as written; all must hold.
        private(set) var rangesByKind: [KindRanges] = []

        /// The ranges of one kind of entry, and the versions they all admit as one interval, worked out once the
        /// branch is complete: the shadowing check compares every gate with every earlier one, and comparing two
        /// intervals there costs less than narrowing an interval by every range of both branches for each pair.
        /// A struct, not a tuple: an array of tuples is copied and destroyed element by element through the
        /// runtime's generic tuple witness, and lint copies branches often.
        struct KindRanges {
            let kind: Footprint.Kind
            let key: String
            /// The first range, and any more of this kind of entry: nearly every group has one, which then needs no
            /// list of its own (a list was an allocation for every group of every branch lint builds).
            let first: VersionRange
            private(set) var more: [VersionRange] = []
            /// The versions every range admits, once ``settle()`` has worked it out, when each range is one
            /// alternative of plain comparisons and all compare one kind of version, as nearly every range a policy
            /// writes. Nil otherwise, and then the ranges themselves are asked.
            private(set) var interval: RangeAnalysis.Interval?

            init(kind: Footprint.Kind, key: String, range: VersionRange) {
                self.kind = kind
                self.key = key
                first = range
            }

            /// Every range of the group, in the order added.
            var ranges: [VersionRange] { [first] + more }

            /// The kind of version the first range compares.
            private var versionKind: VersionKind { first.kind }

            mutating func append(_ range: VersionRange) {
                more.append(range)
                interval = nil
            }

            /// Whether every range passes `test`.
            func allRanges(satisfy test: (VersionRange) -> Bool) -> Bool {
                test(first) && more.allSatisfy(test)
            }

            /// Works out ``interval``, and returns whether some version satisfies every range. Not on every
            /// ``append(_:)``: a branch is built by copying and combining others, and an interval holds two versions
            /// that each copy would retain and release. The answer is returned, not kept or asked later: asked of a
            /// group in the branch's list, a computed property copied the group, and a kept one made every copy of a
            /// group larger (the shadowing check copies two for each pair of gates it compares).
            mutating func settle() -> Bool {
                let kind = versionKind
                if more.isEmpty {
                    interval = VersionRange.plainInterval(of: CollectionOfOne(first))
                } else {
                    interval = more.allSatisfy { $0.kind == kind } ? VersionRange.plainInterval(of: ranges) : nil
                }
                if let interval { return !interval.isEmpty(kind: kind) }
                return VersionRange.canMatch(all: ranges)
            }

            /// Whether every version that satisfies all of `other`'s ranges satisfies all of these too, by plain
            /// precedence: the same as asking it of each of these ranges, since a version lies in each of them
            /// exactly when it lies in the interval they share.
            func includes(_ other: KindRanges) -> Bool {
                if let outer = interval, let inner = other.interval, versionKind == other.versionKind {
                    return VersionRange.interval(outer, includes: inner, kind: versionKind)
                }
                let theirs = other.ranges
                return allRanges { $0.includes(all: theirs) }
            }
        }
        private var launchKindBits: UInt8?
        private var sourceBits: UInt8?
        /// Regions, upper-cased; nil for any. Lists, not sets, as ``attributes`` are.
        private(set) var regions: [String]?
        /// Lists of accepted language tags; the locale must lie within one tag of each list.
        private(set) var locales: [[String]] = []
        /// The date window all `date` entries leave open.
        private(set) var from: Date?
        private(set) var until: Date?
        private(set) var hasDateWindow = false
        /// The share of installs it holds for, in percent: the smallest of its rollouts (one rule draws one bucket
        /// per install, so every rollout of the branch must take it); nil when it has none.
        private(set) var rolloutShare: Double?
        /// Accepted values by attribute name. The entry's own table while the branch has one `attributes` entry, as
        /// nearly every branch with any has: shared, not copied into a table of sets (a table and a set per name, made
        /// and freed for every branch lint builds, about 45K instructions a lint of 48 rules). ``ValueLists`` compares
        /// the lists.
        private(set) var attributes: [String: [String]] = [:]
        /// Sets of the long lists among ``regions`` and ``attributes`` (``ValueLists/longList``), made once the branch
        /// is complete (``settle()``); nil while none is long, as in nearly every branch. The shadowing check asks of
        /// each pair of gates whether one's lists lie within the other's, and a long list looked through, or made a
        /// set, for every pair cost the product of their lengths (2,200 gates of 31 attribute values each took 5.2 s
        /// to lint that way, 2.7 s with these sets).
        private(set) var longLists: LongLists?

        /// The sets of a branch's long lists (``longLists``).
        struct LongLists {
            var regions: Set<String>?
            var attributes: [String: Set<String>] = [:]
        }
        /// Parts the analysis does not look into (`not`).
        private(set) var opaque: [Condition] = []
        /// The entries the branch is made of, each once, in the order written.
        private(set) var entries: [ConditionEntry] = []

        /// The group of ranges of one kind of entry; nil when the branch has none.
        func ranges(_ kind: Footprint.Kind) -> KindRanges? {
            rangesByKind.first { $0.kind == kind }
        }

        /// What the branch requires, in a few bits, so that ``ConditionAnalysis/contains(_:)`` turns most pairs down
        /// before ``implies(_:_:)`` looks at sets and ranges: shadowing compares every gate with every earlier one.
        private(set) var footprint = Footprint()

        /// The kinds of requirement a branch holds, and its platforms as bits.
        struct Footprint {
            /// One bit per kind of requirement (``Kind``).
            var kinds: UInt32 = 0
            /// One bit per platform it can hold on; every bit when it names none.
            var platforms: UInt8 = .max

            /// A kind of requirement: one for each kind of condition entry, with a date window's two ends apart.
            enum Kind: Int {
                case platform, appVersion, previousVersion, installVersion, build, osVersion, originalAppVersion
                case launch, launchCount, daysSinceLastLaunch, daysSinceInstall, launchSource, locale, region
                case from, until, rollout, attributes, opaque
            }

            mutating func insert(_ kind: Kind) { kinds |= 1 << kind.rawValue }

            func has(_ kind: Kind) -> Bool { kinds & 1 << kind.rawValue != 0 }

            /// False when the branch with this footprint cannot imply a branch with `other`'s: `other` requires a
            /// kind of thing this one does not, holds a part no implication is claimed for, or allows fewer
            /// platforms. True says only that ``Branch/implies(_:_:)`` must look.
            func mayImply(_ other: Footprint) -> Bool {
                other.kinds & ~kinds == 0 && !other.has(.rollout) && !other.has(.opaque)
                    && platforms & ~other.platforms == 0
            }
        }
        /// Where each entry and opaque part is written, once the branch holds more than ``writtenListLimit``: an
        /// entry met again (through an alias) adds nothing, so that a branch stays as large as the condition as
        /// written. A short branch compares its entries instead, which costs no table.
        private var written: Set<WrittenEntry>?
        private static let writtenListLimit = 16

        private struct WrittenEntry: Hashable {
            // The offsets first: they tell nearly every pair apart, and compare faster than the key.
            let start: Int
            let end: Int
            let key: String

            init(_ entry: ConditionEntry) {
                key = entry.key
                start = entry.range.start.offset
                end = entry.range.end.offset
            }

            init(opaque part: Condition) {
                key = "not"
                start = part.range.start.offset
                end = part.range.end.offset
            }
        }

        /// Records where a part is written; false when the branch already holds it.
        private mutating func insertWritten(_ position: WrittenEntry) -> Bool {
            if written == nil {
                if entries.contains(where: { WrittenEntry($0) == position })
                    || opaque.contains(where: { WrittenEntry(opaque: $0) == position })
                {
                    return false
                }
                if entries.count + opaque.count >= Self.writtenListLimit {
                    written = Set(entries.map(WrittenEntry.init) + opaque.map(WrittenEntry.init(opaque:)))
                }
            }
            return written?.insert(position).inserted ?? true
        }

        /// A branch that requires nothing yet, with room for `entryCapacity` entries.
        init(entryCapacity: Int = 0) {
            entries.reserveCapacity(entryCapacity)
        }

        /// Adds an entry's requirement, in place: a branch is built up entry by entry, and a copy per entry would
        /// copy every set and table it holds.
        mutating func add(_ entry: ConditionEntry) {
            guard insertWritten(WrittenEntry(entry)) else { return }
            entries.append(entry)
            func narrow<Value: Equatable>(_ current: inout UInt8?, _ values: [Value], of all: [Value]) {
                let bits = CaseBits.bits(of: values, in: all)
                current = current.map { $0 & bits } ?? bits
            }
            func range(_ kind: Footprint.Kind, _ range: VersionRange) {
                footprint.insert(kind)
                if let index = rangesByKind.firstIndex(where: { $0.kind == kind }) {
                    rangesByKind[index].append(range)
                } else {
                    rangesByKind.append(KindRanges(kind: kind, key: entry.key, range: range))
                }
            }
            switch entry.test {
            case .platform(let platforms):
                narrow(&platformBits, platforms, of: CaseBits.platforms)
                footprint.insert(.platform)
                footprint.platforms = platformBits!
            case .launch(let kinds):
                narrow(&launchKindBits, kinds, of: CaseBits.launchKinds)
                footprint.insert(.launch)
            case .launchSource(let sources):
                narrow(&sourceBits, sources, of: CaseBits.sources)
                footprint.insert(.launchSource)
            case .locale(let tags):
                locales.append(tags)
                footprint.insert(.locale)
            case .region(let regions):
                let upper = ValueLists.uppercased(regions)
                self.regions = self.regions.map { ValueLists.intersection($0, upper) } ?? upper
                footprint.insert(.region)
            case .date(let from, let until):
                hasDateWindow = true
                if let from { self.from = max(from, self.from ?? from); footprint.insert(.from) }
                if let until { self.until = min(until, self.until ?? until); footprint.insert(.until) }
            case .rollout(let percent):
                rolloutShare = min(percent, rolloutShare ?? percent)
                footprint.insert(.rollout)
            case .attributes(let accepted):
                if attributes.isEmpty {
                    attributes = accepted
                } else {
                    for (name, values) in accepted {
                        attributes[name] = attributes[name].map { ValueLists.intersection($0, values) } ?? values
                    }
                }
                if !accepted.isEmpty { footprint.insert(.attributes) }
            case .appVersion(let versions): range(.appVersion, versions)
            case .previousVersion(let versions): range(.previousVersion, versions)
            case .installVersion(let versions): range(.installVersion, versions)
            case .build(let versions): range(.build, versions)
            case .osVersion(let versions): range(.osVersion, versions)
            case .originalAppVersion(let versions): range(.originalAppVersion, versions)
            case .launchCount(let versions): range(.launchCount, versions)
            case .daysSinceLastLaunch(let versions): range(.daysSinceLastLaunch, versions)
            case .daysSinceInstall(let versions): range(.daysSinceInstall, versions)
            }
        }

        /// Works out each kind's interval and the branch's ``contradiction``, once the branch is complete.
        mutating func settle() {
            // The first key in alphabetical order whose ranges contradict each other, found without sorting a
            // copy of the list: nearly every branch has none, and then every group is looked at either way.
            var contradicting: String?
            for index in rangesByKind.indices where !rangesByKind[index].settle() {
                let key = rangesByKind[index].key
                if contradicting.map({ key < $0 }) ?? true { contradicting = key }
            }
            contradiction = platformBits == 0 ? "platform" : contradicting ?? otherContradiction()
            if let regions, regions.count > ValueLists.longList {
                longLists = LongLists(regions: Set(regions))
            }
            // Asked first: iterating an empty table still costs its iterator, in nearly every branch (3.3K a lint).
            if !attributes.isEmpty {
                for (name, values) in attributes where values.count > ValueLists.longList {
                    longLists = longLists ?? LongLists()
                    longLists!.attributes[name] = Set(values)
                }
            }
        }

        /// Adds a part the analysis does not look into.
        mutating func add(opaque part: Condition) {
            guard insertWritten(WrittenEntry(opaque: part)) else { return }
            opaque.append(part)
            footprint.insert(.opaque)
        }

        /// The branch with both branches' requirements.
        func combined(with other: Branch) -> Branch {
            var branch = self
            branch.add(other)
            return branch
        }

        /// Adds another branch's requirements, in place.
        mutating func add(_ other: Branch) {
            for entry in other.entries { add(entry) }
            for part in other.opaque { add(opaque: part) }
        }

        /// Why no context satisfies the branch, naming the key whose requirements contradict each other; nil when
        /// some context may, or until the branch is settled (``settle()``). Kept, not worked out when asked: asked
        /// of a branch in a list, as the analysis asks every branch, a computed property copied the whole branch
        /// (every set, table and list in it retained, then released).
        private(set) var contradiction: String?

        /// Works out ``contradiction`` past the platforms and ranges, which ``settle()`` looks at.
        private func otherContradiction() -> String? {
            if launchKindBits == 0 { return "launch" }
            if sourceBits == 0 { return "launch-source" }
            if regions?.isEmpty == true { return "region" }
            if let from, let until, from >= until { return "date" }
            // Closures, not key paths: `\.isEmpty` as a function goes through the runtime's key path calls.
            if attributes.values.contains(where: { $0.isEmpty }) { return "attributes" }
            if locales.contains(where: { $0.isEmpty }) { return "locale" }
            if locales.count > 1, !Self.someLocaleHolds(locales) { return "locale" }
            return nil
        }

        /// The most locale tags in one branch's lists that ``someLocaleHolds(_:)`` looks at.
        static let maximumLocaleTags = 256

        /// Whether some locale holds a tag of each list. When one does, so does one of the written tags, or one of
        /// them with another's script put in (`zh-Hans` and `zh-TW`: `zh-Hans-TW`, which holds `zh-TW` without its
        /// script): the most specific tags such a locale holds, with and without its script, make one.
        ///
        /// Each candidate is tried against every list, so the work grows as the square of the tags, and with
        /// scripts put in as the cube: past ``maximumLocaleTags`` tags (a list of every locale an app has, more than
        /// once; past a quarter of them for scripts put in) the answer is yes, unproven, so that lint claims nothing
        /// it has not shown.
        private static func someLocaleHolds(_ locales: [[String]]) -> Bool {
            func holdsAll(_ candidate: String) -> Bool {
                let alternate = ValueSyntax.alternateLocale(of: candidate)
                return locales.allSatisfy { list in
                    list.contains { ValueSyntax.locale(candidate, alternate: alternate, holds: $0) }
                }
            }
            let written = locales.flatMap { $0 }
            guard written.count <= maximumLocaleTags else { return true }
            if written.contains(where: holdsAll) { return true }
            guard written.count <= maximumLocaleTags / 4 else { return true }
            return written.contains { tag in
                written.contains { other in ValueSyntax.locale(tag, withScriptOf: other).map(holdsAll) == true }
            }
        }

        /// Whether every context that satisfies the branch at `mine` satisfies the one at `other` too.
        ///
        /// Through pointers, each field read where it lies: the shadowing check compares branches in their lists,
        /// and a branch read out of a list, or called a method on, is copied whole, each of its lists and tables
        /// retained and then released.
        static func implies(_ mine: UnsafePointer<Branch>, _ other: UnsafePointer<Branch>) -> Bool {
            guard other.pointee.opaque.isEmpty, !other.pointee.footprint.has(.rollout) else { return false }
            func within(_ mine: UInt8?, _ theirs: UInt8?) -> Bool {
                guard let theirs else { return true }
                return mine.map { $0 & ~theirs == 0 } ?? false
            }
            guard within(mine.pointee.platformBits, other.pointee.platformBits),
                within(mine.pointee.launchKindBits, other.pointee.launchKindBits),
                within(mine.pointee.sourceBits, other.pointee.sourceBits)
            else { return false }
            if let required = other.pointee.regions {
                guard let regions = mine.pointee.regions,
                    ValueLists.all(regions, areIn: required, other.pointee.longLists?.regions)
                else { return false }
            }
            let rangesHold = other.pointee.rangesByKind.withUnsafeBufferPointer { theirs in
                mine.pointee.rangesByKind.withUnsafeBufferPointer { mine in
                    theirs.indices.allSatisfy { required in
                        guard let held = mine.indices.first(where: { mine[$0].kind == theirs[required].kind }) else {
                            return false
                        }
                        return theirs[required].includes(mine[held])
                    }
                }
            }
            guard rangesHold else { return false }
            if !other.pointee.locales.isEmpty {
                let locales = mine.pointee.locales
                // Every tag against every tag: past the square of ``maximumLocaleTags``, not shown.
                let pairs = locales.reduce(0) { $0 + $1.count } * other.pointee.locales.reduce(0) { $0 + $1.count }
                if pairs > Self.maximumLocaleTags * Self.maximumLocaleTags { return false }
                for required in other.pointee.locales {
                    let covered = locales.contains { list in
                        list.allSatisfy { tag in required.contains { ValueSyntax.localeTag(tag, isWithin: $0) } }
                    }
                    if !covered { return false }
                }
            }
            if let start = other.pointee.from, (mine.pointee.from.map { $0 < start } ?? true) { return false }
            if let end = other.pointee.until, (mine.pointee.until.map { $0 > end } ?? true) { return false }
            if !other.pointee.attributes.isEmpty {
                let attributes = mine.pointee.attributes
                let sets = other.pointee.longLists?.attributes
                for (name, accepted) in other.pointee.attributes {
                    guard let values = attributes[name], ValueLists.all(values, areIn: accepted, sets?[name]) else {
                        return false
                    }
                }
            }
            return true
        }
    }

    /// The alternatives; nil when the condition has too many to analyse.
    let branches: [Branch]?
    /// The branches some context may satisfy, worked out once: the shadowing check compares every rule with every
    /// earlier one, and a contradiction costs interval arithmetic on each range.
    let satisfiableBranches: [Branch]
    /// What every satisfiable branch requires, and the platforms any can hold on: a condition can only contain
    /// another whose common requirements include its own and whose platforms are among its own.
    let common: Branch.Footprint
    /// Whether every version or number range written outside a `not` is proved to admit some value on its own, so
    /// that none needs asking one by one: every such entry is in some branch (no empty `any` took it out of them
    /// all), and every branch can be satisfied, which each of its ranges must then be. False proves nothing.
    let rangesCanMatch: Bool

    /// Analyses a condition; nil stands for a rule without `when`, which always holds.
    init(_ condition: Condition?) {
        guard let condition else {
            let always = [Branch()]
            branches = always
            satisfiableBranches = always
            common = Branch.Footprint()
            rangesCanMatch = true
            return
        }
        var walk = Walk()
        var all: [Branch] = []
        if Self.appendBranches(of: condition, to: &all, walk: &walk) {
            for index in all.indices { all[index].settle() }
            branches = all
        } else {
            branches = nil
            all = []
        }
        // The same array when every branch is satisfiable, as nearly always: a filtered copy copies every branch.
        if all.indices.allSatisfy({ all[$0].contradiction == nil }) {
            satisfiableBranches = all
        } else {
            satisfiableBranches = all.filter { $0.contradiction == nil }
        }
        rangesCanMatch = branches != nil && !walk.metEmptyAny && satisfiableBranches.count == all.count
        // Each footprint read where it lies in the list: a list of footprints apart cost an allocation for every rule.
        var common = Branch.Footprint(kinds: .max, platforms: 0)
        for index in satisfiableBranches.indices {
            common.kinds &= satisfiableBranches[index].footprint.kinds
            common.platforms |= satisfiableBranches[index].footprint.platforms
        }
        self.common = common
    }

    /// The platforms of `bits` in the order they are declared, bit `n` standing for case `n` of ``Platform``.
    /// Platforms are gathered as bits and made a list once: a set per branch, united with the others, was most of
    /// what the lockout check cost, and the checks name platforms in this order.
    static func platforms(of bits: UInt8) -> [Platform] {
        CaseBits.values(of: bits, in: CaseBits.platforms)
    }

    /// Every platform, as bits.
    static var everyPlatform: UInt8 { CaseBits.everyPlatform }

    /// Whether no context at all satisfies the condition.
    var neverMatches: Bool {
        branches != nil && satisfiableBranches.isEmpty
    }

    /// Whether every context that satisfies `other` satisfies this condition too.
    func contains(_ other: ConditionAnalysis) -> Bool {
        guard branches != nil, other.branches != nil, other.common.mayImply(common) else { return false }
        // Footprints first, and branches only through buffer pointers: this runs for every pair of gates, and
        // reading a branch out of an array copies every set and table in it.
        return other.satisfiableBranches.withUnsafeBufferPointer { theirs in
            satisfiableBranches.withUnsafeBufferPointer { mine in
                theirs.indices.allSatisfy { their in
                    mine.indices.contains { my in
                        theirs[their].footprint.mayImply(mine[my].footprint)
                            && Branch.implies(theirs.baseAddress! + their, mine.baseAddress! + my)
                    }
                }
            }
        }
    }

    /// What the walk that builds the branches keeps.
    private struct Walk {
        /// Each shared condition's alternatives, once worked out.
        var memo: [ObjectIdentifier: [Branch]] = [:]
        /// Whether some `any` lists no alternatives: it takes the entries beside it out of every branch.
        var metEmptyAny = false
    }

    /// The alternatives of `condition`, appended to `result`; false when there are more than ``maximumBranches``.
    ///
    /// Built where they end up: a branch holds a dozen lists and tables, and each list of alternatives made for a part
    /// and then appended to its parent's copied every branch in it once more, each list and table retained, and
    /// released again with the part's list. `result[start...]` are the alternatives of this condition.
    private static func appendBranches(
        of condition: Condition, to result: inout [Branch], walk: inout Walk
    ) -> Bool {
        let start = result.count
        switch condition {
        case .entry(let entry):
            result.append(Branch())
            result[start].add(entry)
        case .not:
            result.append(Branch())
            result[start].add(opaque: condition)
        case .shared(let shared):
            // Aliases repeat the same condition: analyse it once, or an alias-doubling policy would take 2^n steps.
            // One that has too many alternatives ends the whole analysis, so only complete ones are kept.
            let key = ObjectIdentifier(shared)
            if let known = walk.memo[key] {
                result += known
            } else {
                guard appendBranches(of: shared.condition, to: &result, walk: &walk) else { return false }
                walk.memo[key] = Array(result[start...])
            }
        case .any(let parts, _):
            if parts.isEmpty { walk.metEmptyAny = true }
            for part in parts {
                guard appendBranches(of: part, to: &result, walk: &walk), result.count - start <= maximumBranches
                else { return false }
            }
        case .all(let parts, _):
            // Room for every part's entry from the start: grown one append at a time, the list was made three times
            // over for a rule of three entries.
            result.append(Branch(entryCapacity: parts.count))
            var more: [Branch] = []
            guard conjoin(parts, with: &result, from: start, more: &more, walk: &walk) else { return false }
        }
        return true
    }

    /// Narrows the alternatives `result[start...]` by every one of `parts`, the parts of an `all`; `more` is room
    /// for a part's own alternatives.
    ///
    /// An entry narrows every alternative in place, and so do the parts of an `all` within: every condition mapping
    /// is an `all`, so that `all: [{os-version: …}, {not: …}]` is an `all` of `all`s, and each made alternatives of
    /// its own, copied entry by entry into its parent's (about 100K instructions a lint of 48 rules).
    private static func conjoin(
        _ parts: [Condition], with result: inout [Branch], from start: Int, more: inout [Branch], walk: inout Walk
    ) -> Bool {
        for part in parts {
            switch part {
            case .entry(let entry):
                for index in start..<result.count { result[index].add(entry) }
            case .all(let inner, _):
                guard conjoin(inner, with: &result, from: start, more: &more, walk: &walk) else { return false }
            case .any, .not, .shared:
                more.removeAll(keepingCapacity: true)
                guard appendBranches(of: part, to: &more, walk: &walk),
                    (result.count - start) * more.count <= maximumBranches
                else { return false }
                if more.count == 1 {
                    // One alternative, as nearly every part has: added to every alternative so far, in place.
                    for index in start..<result.count { result[index].add(more[0]) }
                } else {
                    let sofar = Array(result[start...])
                    result.removeSubrange(start...)
                    for branch in sofar {
                        for alternative in more { result.append(branch.combined(with: alternative)) }
                    }
                }
            }
        }
        return true
    }
}

/// Set operations on the lists of values a branch keeps (its regions and attributes): a policy lists a few values,
/// which compare faster as a list than they hash into a set, but no long list costs more than linear time: a branch
/// keeps a set of each once it is complete, and a list is made a set to intersect it with a long one.
enum ValueLists {
    /// A branch keeps a set of a list of more than this many values (``ConditionAnalysis/Branch/longLists``).
    static let longList = 8

    /// Whether every value of `values` is in `allowed`, given with its set when it is long (``longList``): a short
    /// one is looked through, at most ``longList`` comparisons a value.
    static func all(_ values: [String], areIn allowed: [String], _ allowedSet: Set<String>?) -> Bool {
        if let allowedSet { return values.allSatisfy(allowedSet.contains) }
        return values.allSatisfy(allowed.contains)
    }

    /// The values of `values` that are in `allowed`, in the order of `values`.
    static func intersection(_ values: [String], _ allowed: [String]) -> [String] {
        guard allowed.count > longList else { return values.filter(allowed.contains) }
        let allowedSet = Set(allowed)
        return values.filter(allowedSet.contains)
    }

    /// The values upper-cased; the same list when they are ASCII without a lower-case letter, as region codes are
    /// written.
    static func uppercased(_ values: [String]) -> [String] {
        let upper = values.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 && !(0x61...0x7A).contains($0) } }
        return upper ? values : values.map { $0.uppercased() }
    }
}

/// The cases of the closed sets a branch keeps as bits (at most 8 cases each), in declaration order: bit `n` is case
/// `n`.
private enum CaseBits {
    static let platforms = Platform.allCases
    static let launchKinds = LaunchKind.allCases
    static let sources = LaunchSource.allCases

    static let everyPlatform = bits(of: platforms, in: platforms)

    static func bits<Value: Equatable>(of values: [Value], in all: [Value]) -> UInt8 {
        values.reduce(0) { bits, value in bits | 1 << all.firstIndex(of: value)! }
    }

    static func values<Value>(of bits: UInt8, in all: [Value]) -> [Value] {
        all.indices.filter { bits & 1 << $0 != 0 }.map { all[$0] }
    }
}
