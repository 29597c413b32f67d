import Foundation

/// The semantic checks over a policy that decoded without errors: what the decoder cannot see rule by rule, such
/// as a lockout, a rule that never matches or one an earlier rule shadows, a window that has ended, a message that is
/// missing a translation. Each group of checks lives in a file of its own (`Lint/*Checks.swift`) as an extension of
/// this type.
///
/// The checks walk the rules by index and read the fields they need in place (`policy.rules[index].action`), as the
/// interpreter does: a loop over `policy.rules` copies each rule out, retaining and releasing its six strings and
/// lists, and five checks walking every rule that way cost lint about 2% of its instructions.
struct PolicyChecks {
    /// The policy checked.
    let policy: Policy
    /// The format it was written in: LaunchGate/Gandalf files skip the checks their format cannot satisfy.
    let format: PolicyFileFormat
    /// The time date windows are compared with.
    let now: Date
    /// The longest date window a `block` rule may have before it is reported.
    let maximumBlockWindow: TimeInterval
    /// The scalars of the file, to point inside a value.
    let scalars: ScalarIndex
    /// Each rule's condition analysed once, in rule order.
    let analyses: [ConditionAnalysis]
    /// Every rule's condition entries, listed once, rule after rule: those through `not`, then, for a rule with a
    /// `not`, those outside any; see ``entries(of:throughNot:)``. One list, not one per rule, which cost an
    /// allocation for every rule.
    private let listedEntries: [ConditionEntry]
    /// Where each rule's entries are in ``listedEntries``, in rule order.
    private let entryPlaces: [EntryPlaces]

    /// Where one rule's entries are in ``listedEntries``: all of them, and those outside any `not` (the same ones
    /// when the condition has none).
    private struct EntryPlaces {
        let throughNot: Range<Int>
        let outsideNot: Range<Int>
    }

    init(policy: Policy, format: PolicyFileFormat, now: Date, maximumBlockWindow: TimeInterval, scalars: ScalarIndex) {
        self.policy = policy
        self.format = format
        self.now = now
        self.maximumBlockWindow = maximumBlockWindow
        self.scalars = scalars
        self.analyses = policy.rules.map { ConditionAnalysis($0.condition) }
        var listed: [ConditionEntry] = []
        var places: [EntryPlaces] = []
        places.reserveCapacity(policy.rules.count)
        for index in policy.rules.indices {
            places.append(Self.listEntries(of: policy.rules[index].condition, into: &listed))
        }
        listedEntries = listed
        entryPlaces = places
    }

    /// Every check's findings.
    func run() -> [Diagnostic] {
        // Appended to the first check's list, which grows as it needs to: joined with `+`, each join made a new list
        // and copied the findings so far into it.
        var found = reachability()
        found += dateWindows()
        found += messages()
        found += versionReadings()
        found += updateURLs()
        return found
    }

    /// A finding of one of the checks, at the check's default severity.
    func finding(
        _ code: DiagnosticCode, _ message: String, at range: SourceRange, fixIt: FixIt? = nil,
        notes: [Diagnostic.Note] = []
    ) -> Diagnostic {
        Diagnostic(code: code, severity: LintCheck.named(code)?.severity ?? .warning, message: message, range: range,
            fixIt: fixIt, notes: notes)
    }

    /// The entries of a rule's condition, each once, however many aliases repeat it. `throughNot: false` leaves out
    /// entries under `not`, for checks whose finding would read backwards there ("the window ended, so the rule no
    /// longer applies" is false of `not: {date: …}`).
    func entries(of rule: Int, throughNot: Bool = true) -> ArraySlice<ConditionEntry> {
        listedEntries[throughNot ? entryPlaces[rule].throughNot : entryPlaces[rule].outsideNot]
    }

    /// Appends a condition's entries, each once, to `listed`: all of them, then those outside any `not` (a second
    /// walk, only when the first met a `not`), and returns where they are.
    private static func listEntries(of condition: Condition?, into listed: inout [ConditionEntry]) -> EntryPlaces {
        let start = listed.count
        guard let condition else { return EntryPlaces(throughNot: start..<start, outsideNot: start..<start) }
        var all = EntryLister(throughNot: true)
        all.walk(condition, listing: &listed)
        let throughNot = start..<listed.count
        // Without a `not` the two lists are the same: listed once, as most rules' are.
        guard all.sawNot else { return EntryPlaces(throughNot: throughNot, outsideNot: throughNot) }
        var outside = EntryLister(throughNot: false)
        outside.walk(condition, listing: &listed)
        return EntryPlaces(throughNot: throughNot, outsideNot: throughNot.upperBound..<listed.count)
    }

    /// The walk of ``listEntries(of:into:)``: a value, not a nested function capturing its state, which boxed it on
    /// the heap for every rule.
    private struct EntryLister {
        /// Whether the entries under a `not` are listed too.
        let throughNot: Bool
        /// The shared conditions walked: every alias of one repeats its entries, which are listed once.
        var walked: Set<ObjectIdentifier> = []
        /// Whether the walk met a `not`.
        var sawNot = false

        mutating func walk(_ condition: Condition, listing entries: inout [ConditionEntry]) {
            switch condition {
            case .all(let parts, _), .any(let parts, _):
                for part in parts { walk(part, listing: &entries) }
            case .not(let inner, _):
                sawNot = true
                if throughNot { walk(inner, listing: &entries) }
            case .entry(let entry):
                entries.append(entry)
            case .shared(let shared):
                guard walked.insert(ObjectIdentifier(shared)).inserted else { return }
                walk(shared.condition, listing: &entries)
            }
        }
    }

    /// The platforms a rule can apply on, in the order they are declared; nil when some alternative of its condition
    /// does not name a platform, or the condition was too large to analyse.
    func platforms(of index: Int) -> [Platform]? {
        platformReach(of: index).flatMap { $0.everyPlatform ? nil : $0.named }
    }

    /// The platforms the alternatives of a rule's condition name, in the order they are declared, and whether some
    /// alternative names none, so that the rule applies on every platform too; nil when the condition was too large
    /// to analyse.
    func platformReach(of index: Int) -> (named: [Platform], everyPlatform: Bool)? {
        guard analyses[index].branches != nil else { return nil }
        var bits: UInt8 = 0
        var everyPlatform = false
        for branch in analyses[index].satisfiableBranches {
            if let some = branch.platformBits { bits |= some } else { everyPlatform = true }
        }
        return (ConditionAnalysis.platforms(of: bits), everyPlatform)
    }

    /// "ios and android", of platforms in the order they are declared.
    static func names(_ platforms: [Platform]) -> String {
        let names = platforms.map(\.rawValue)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
