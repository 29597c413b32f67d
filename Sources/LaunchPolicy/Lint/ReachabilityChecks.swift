/// Whom each rule reaches: nobody (`lint.never-matches`), everybody on a platform for good (`lint.lockout`), or only
/// users an earlier rule of its kind already decides for (`lint.shadowed-rule`).
extension PolicyChecks {
    /// The findings on whom rules reach; shadowing within `shadowingComparisons` pairs of alternatives.
    func reachability(shadowingComparisons: Int = maximumShadowingComparisons) -> [Diagnostic] {
        var found: [Diagnostic] = []
        // The earlier rules that can match, of the two kinds that shadow: the gates, and the suggest-update prompts;
        // and how many alternatives each kind's hold, as each rule's are compared with all of them at most.
        var gates: [Int] = []
        var prompts: [Int] = []
        var gateAlternatives = 0, promptAlternatives = 0
        var comparisonsLeft = shadowingComparisons
        for index in policy.rules.indices {
            let analysis = analyses[index]
            // Asked range by range only when the analysis does not already prove every range can match.
            let emptyRanges = analysis.rangesCanMatch
                ? [] : self.emptyRanges(of: index, ruleNeverMatches: analysis.neverMatches)
            found += emptyRanges
            if analysis.neverMatches {
                if emptyRanges.isEmpty { found.append(contradiction(of: policy.rules[index], analysis)) }
                continue
            }
            let action = policy.rules[index].action.value
            if action.isGate, let lockout = lockout(of: index, analysis) { found.append(lockout) }
            if action.isGate || action == .suggestUpdate {
                let alternatives = analysis.satisfiableBranches.count
                // Saturating, as `Int` has 32 bits on some watches.
                let (pairs, overflow) = alternatives.multipliedReportingOverflow(
                    by: action.isGate ? gateAlternatives : promptAlternatives)
                comparisonsLeft = overflow || pairs > comparisonsLeft ? -1 : comparisonsLeft - pairs
                if comparisonsLeft >= 0, let shadowed = shadowing(of: index, byOneOf: action.isGate ? gates : prompts) {
                    found.append(shadowed)
                }
                if action.isGate {
                    gates.append(index)
                    gateAlternatives += alternatives
                } else {
                    prompts.append(index)
                    promptAlternatives += alternatives
                }
            }
        }
        return found
    }

    /// Entries whose range alone matches nothing (`">= 3 < 2"`).
    private func emptyRanges(of index: Int, ruleNeverMatches: Bool) -> [Diagnostic] {
        entries(of: index, throughNot: false).compactMap { entry in
            guard let range = entry.test.range, !range.canMatch else { return nil }
            let id = policy.rules[index].id.value
            let consequence = ruleNeverMatches
                ? "so the rule \"\(id)\" never applies"
                : "so the alternative of \"\(id)\" that holds it never does"
            return finding(.lintNeverMatches, "\(entry.key) \"\(range.text)\" matches no version, \(consequence)",
                at: entry.valueRange)
        }
    }

    /// Entries that each can match but not together (`platform: ios` with `platform: android`), or an empty `any`.
    private func contradiction(of rule: Rule, _ analysis: ConditionAnalysis) -> Diagnostic {
        let range = rule.condition?.range ?? rule.range
        guard let branch = analysis.branches?.first, let key = branch.contradiction else {
            return finding(.lintNeverMatches,
                "the rule \"\(rule.id.value)\" can never match: its condition has no alternative (an empty any: list)",
                at: range)
        }
        let conflicting = branch.entries.filter { $0.key == key }
        let alternatives = (analysis.branches?.count ?? 0) > 1 ? " in any of its alternatives" : ""
        return finding(.lintNeverMatches,
            "the rule \"\(rule.id.value)\" can never match: its \(key) conditions contradict each other\(alternatives)",
            at: range, notes: conflicting.map { .init(message: "\($0.key) is required here", range: $0.valueRange) })
    }

    /// A gate that some platform's users cannot update their way out of, and no date window ends.
    private func lockout(of index: Int, _ analysis: ConditionAnalysis) -> Diagnostic? {
        var bits: UInt8 = 0
        for branch in analysis.satisfiableBranches where Self.locksOut(branch) {
            bits |= branch.platformBits ?? ConditionAnalysis.everyPlatform
        }
        guard bits != 0 else { return nil }
        let whom = bits == ConditionAnalysis.everyPlatform
            ? "every platform" : Self.names(ConditionAnalysis.platforms(of: bits))
        let rule = policy.rules[index]
        // Made at its size at once, as the shadowing warning is.
        return finding(.lintLockout, String(concatenating:
            "the ", rule.action.value.rawValue, " rule \"", rule.id.value, "\" matches every app version on ", whom,
            " and no date window ends it: no update lets these users in. Limit it with an app-version or build range, "
                + "or a date window with until"),
            at: rule.action.range)
    }

    /// Whether a branch holds whatever the app version or build, and for ever: no range an update leaves, no `until`.
    /// Branches with parts the analysis does not look into are given the benefit of the doubt.
    private static func locksOut(_ branch: ConditionAnalysis.Branch) -> Bool {
        // A rollout of 0% holds for no one yet: it locks no one out, however it is staged later.
        guard branch.opaque.isEmpty, branch.until == nil, branch.rolloutShare != 0 else { return false }
        func leavesEveryVersion(_ kind: ConditionAnalysis.Branch.Footprint.Kind) -> Bool {
            branch.ranges(kind)?.allRanges { $0.matchesEveryVersion } ?? true
        }
        return leavesEveryVersion(.appVersion) && leavesEveryVersion(.build)
    }

    /// The most pairs of alternatives the shadowing check may compare in a file, in file order, counting every pair a
    /// rule's alternatives make with those of the earlier rules of its kind; rules after them are not checked. It
    /// compares each rule with every earlier one, alternative by alternative: gates of 251 alternatives each, 250 of
    /// them shared, took 37 s. 8,000 gates of one alternative each are 32 million pairs; a thousand gates of a few
    /// alternatives each, a few million.
    static let maximumShadowingComparisons = 1 << 25

    /// The earlier rule that always decides before this one, among `candidates` (the earlier rules of its kind that
    /// can match): for gates, any earlier gate (the first matching gate wins); for `suggest-update`, an earlier
    /// `suggest-update` (the first allowed prompt wins). Notices, presentations and grants are never shadowed: every
    /// matching one applies.
    private func shadowing(of index: Int, byOneOf candidates: [Int]) -> Diagnostic? {
        // Through a buffer pointer, and the rule's own analysis read once: an analysis read out of the array is
        // copied, and this runs for every pair.
        let analysis = analyses[index]
        let found = analyses.withUnsafeBufferPointer { analyses -> Int? in
            for candidate in candidates where analyses[candidate].contains(analysis) { return candidate }
            return nil
        }
        guard let earlier = found else { return nil }
        let id = policy.rules[index].id, other = policy.rules[earlier].id.value
        let action = policy.rules[earlier].action.value.rawValue
        // Made at its size at once: a large policy can have a warning like this for most of its rules.
        let message = policy.rules[index].action.value.isGate
            ? String(concatenating: "the earlier ", action, " rule \"", other, "\" matches whenever \"", id.value,
                "\" does, so \"", id.value, "\" never decides")
            : String(concatenating: "the earlier ", action, " rule \"", other, "\" matches whenever \"", id.value,
                "\" does, so \"", id.value, "\" is only shown when \"", other, "\" may not be shown again yet")
        return finding(.lintShadowedRule, message, at: id.range,
            notes: [.init(message: "\"\(other)\" is here", range: policy.rules[earlier].id.range)])
    }
}

extension ConditionEntry.Test {
    /// The version or number range the entry compares, if it compares one.
    var range: VersionRange? {
        switch self {
        case .appVersion(let range), .previousVersion(let range), .installVersion(let range), .build(let range),
            .osVersion(let range), .originalAppVersion(let range), .launchCount(let range),
            .daysSinceLastLaunch(let range), .daysSinceInstall(let range):
            range
        case .platform, .launch, .launchSource, .locale, .region, .date, .rollout, .attributes:
            nil
        }
    }
}
