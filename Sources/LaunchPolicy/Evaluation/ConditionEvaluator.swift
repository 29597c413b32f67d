import Foundation

/// Decides whether conditions hold in a launch context, and says why with the entry that decided.
///
/// Two passes over the same condition tree: ``holds(_:)``, the launch path, which only answers; and
/// ``finding(_:)``, which also records the entry that decided and what it compared, for explanations (a
/// ``ConditionFinding`` of a rule that did not match is worked out when it is first read). Both look at `all`'s
/// `rollout` entries, and at `any`'s alternatives that have one, last (a bucket costs a digest), stop `all` at the
/// first entry that fails and `any` at the first alternative that holds, so they agree; a test holds them to it.
///
/// A ``SharedCondition`` (a YAML anchor used through aliases) is evaluated once and its result reused, so that the
/// work stays proportional to the policy as written however often aliases repeat a condition. A shared condition with
/// a `rollout` entry depends on the rule (buckets are drawn per rule), so its result is reused within a rule only.
struct ConditionEvaluator {
    let context: LaunchContext
    /// The policy's rules, among which ``rule`` is the one whose condition is being evaluated; none for a condition
    /// that is no rule's, whose rollout buckets are drawn for the rule id "".
    var rules: [Rule] = []
    /// The place among the rules of the one whose condition is being evaluated: rollout buckets depend on its id,
    /// which is read where the rule keeps it, when a bucket is drawn. Handing the evaluator the id itself for each rule
    /// retained the new id and released the last at every rule of a launch.
    var rule = 0
    private var sharedResults = SharedTable<Bool>()
    private var sharedFindings = SharedTable<ConditionFinding>()
    /// Whether each shared condition holds a rollout entry, by its ``number(of:)``.
    private var dependsOnRule: [Int: Bool] = [:]
    /// How many condition nodes were evaluated (not reused): the measure of the interpreter's work.
    private(set) var evaluatedConditions = 0

    private struct SharedUse {
        let condition: Int
        let rule: String
    }

    /// What was worked out for each use of a shared condition, by the condition's object and the rule. Keyed by `Int`
    /// and `String`, not by ``SharedUse`` or `ObjectIdentifier`: a table keyed by a type whose `Hashable` conformance
    /// the process has not used yet costs an app's first evaluation of a policy with anchors a scan of every
    /// conformance the process holds (BENCHMARKS.md, The first operation in a process).
    private struct SharedTable<Value> {
        private var byCondition: [Int: [String: Value]] = [:]

        subscript(use: SharedUse) -> Value? {
            get { byCondition[use.condition]?[use.rule] }
            set { byCondition[use.condition, default: [:]][use.rule] = newValue }
        }
    }

    /// The number a shared condition is known by in the tables: its object's address, which the policy keeps while
    /// it is evaluated.
    private static func number(of shared: SharedCondition) -> Int { Int(bitPattern: ObjectIdentifier(shared)) }

    init(context: LaunchContext) {
        self.context = context
    }

    /// The id of the rule whose condition is being evaluated.
    private var ruleID: String { rules.indices.contains(rule) ? rules[rule].id.value : "" }

    /// Whether the condition holds: the launch path, which records nothing.
    mutating func holds(_ condition: Condition) -> Bool {
        evaluatedConditions += 1
        switch condition {
        case .all(let parts, _):
            // Rollout entries wait for a second pass, which only an `all` that has one needs.
            var rollouts = 0
            for part in parts {
                if part.isRolloutEntry {
                    rollouts += 1
                } else if !holds(part) {
                    return false
                }
            }
            if rollouts > 0 {
                for part in parts where part.isRolloutEntry {
                    if !holds(part) { return false }
                }
            }
            return true
        case .any(let parts, _):
            // Alternatives that draw a rollout bucket last: one that holds without spares the digest.
            var rollouts = 0
            for part in parts {
                if part.drawsRollout {
                    rollouts += 1
                } else if holds(part) {
                    return true
                }
            }
            if rollouts > 0 {
                for part in parts where part.drawsRollout {
                    if holds(part) { return true }
                }
            }
            return false
        case .not(let inner, _):
            return !holds(inner)
        case .shared(let shared):
            let use = use(of: shared)
            if let known = sharedResults[use] {
                evaluatedConditions -= 1
                return known
            }
            let result = holds(shared.condition)
            sharedResults[use] = result
            return result
        case .entry(let entry):
            return holds(entry.test)
        }
    }

    /// Whether an entry's test holds. It takes the test, not the entry: the entry's key and ranges are no part of the
    /// answer, and the launch path then copies the test alone out of the condition.
    @inline(__always)
    private func holds(_ test: ConditionEntry.Test) -> Bool {
        let versions = context.versions
        switch test {
        case .platform(let platforms): return context.platform.map(platforms.contains) ?? false
        case .appVersion(let range): return versions.app?.satisfies(range) ?? false
        case .previousVersion(let range): return versions.previous?.satisfies(range) ?? false
        case .installVersion(let range): return versions.install?.satisfies(range) ?? false
        case .build(let range): return versions.build?.satisfies(range) ?? false
        case .osVersion(let range): return versions.os?.satisfies(range) ?? false
        case .originalAppVersion(let range): return versions.original?.satisfies(range) ?? false
        case .launch(let kinds): return context.launch.kind.map(kinds.contains) ?? false
        case .launchCount(let range): return versions.launchCount?.satisfies(range) ?? false
        case .daysSinceLastLaunch(let range): return versions.daysSinceLastLaunch?.satisfies(range) ?? false
        case .daysSinceInstall(let range): return versions.daysSinceInstall?.satisfies(range) ?? false
        case .launchSource(let sources): return context.launch.source.map(sources.contains) ?? false
        case .locale(let tags):
            guard let locale = context.locale else { return false }
            return tags.contains { ValueSyntax.locale(locale, alternate: context.localeAlternate, holds: $0) }
        case .region(let regions):
            guard let region = context.region else { return false }
            return regions.contains { ValueSyntax.sameRegion($0, region) }
        case .date(let from, let until):
            return (from.map { context.now >= $0 } ?? true) && (until.map { context.now < $0 } ?? true)
        case .rollout(let percentage):
            guard let installID = context.installID else { return false }
            return Rollout.includes(bucket: Rollout.bucket(installID: installID, ruleID: ruleID), percentage: percentage)
        case .attributes(let accepted):
            return accepted.allSatisfy { name, values in context.attribute(name).map(values.contains) ?? false }
        }
    }

    /// Whether the condition holds, with the entry that decided it.
    mutating func finding(_ condition: Condition) -> ConditionFinding {
        if case .shared(let shared) = condition, let finding = sharedFindings[use(of: shared)] { return finding }
        evaluatedConditions += 1
        switch condition {
        case .all(let parts, let range):
            // Rollout entries last: their bucket costs a digest, and most launches fail a cheaper entry first.
            var last: ConditionFinding?
            for pass in 0..<2 {
                for part in parts where part.isRolloutEntry == (pass == 1) {
                    let finding = finding(part)
                    if !finding.holds { return finding }
                    last = finding
                }
            }
            return last ?? ConditionFinding(key: "all", holds: true,
                reason: .worded(value: nil, message: "no entries, so it holds"), range: range)
        case .any(let parts, let range):
            // Alternatives that draw a rollout bucket last, as on the launch path; the failures are told in the
            // order written.
            var failed: [ConditionFinding?] = Array(repeating: nil, count: parts.count)
            for pass in 0..<2 {
                for index in parts.indices where parts[index].drawsRollout == (pass == 1) {
                    let finding = finding(parts[index])
                    if finding.holds { return finding }
                    failed[index] = finding
                }
            }
            let failures = failed.compactMap { $0 }
            guard !failures.isEmpty else {
                return ConditionFinding(key: "any", holds: false,
                    reason: .worded(value: nil, message: "any lists no conditions, so it never holds"), range: range)
            }
            return ConditionFinding(key: "any", holds: false, reason: .noAlternative(failures), range: range)
        case .not(let inner, let range):
            let finding = finding(inner)
            return ConditionFinding(key: "not", holds: !finding.holds, reason: .not(finding), range: range)
        case .shared(let shared):
            let finding = finding(shared.condition)
            sharedFindings[use(of: shared)] = finding
            return finding
        case .entry(let entry):
            return finding(entry)
        }
    }

    /// Whether an entry holds, and what it compared.
    private func finding(_ entry: ConditionEntry) -> ConditionFinding {
        func finding(_ holds: Bool, _ reason: ConditionFinding.Reason) -> ConditionFinding {
            ConditionFinding(key: entry.key, holds: holds, reason: reason, range: entry.range)
        }
        func missing(_ what: String? = nil) -> ConditionFinding {
            finding(false, .missing(what ?? entry.key))
        }
        func versions(_ version: ContextVersion?, _ range: VersionRange) -> ConditionFinding {
            guard let version else { return missing() }
            guard let reading = version.reading(range.kind) else {
                return finding(false, .notOfKind(version.text, range.kind))
            }
            return finding(range.contains(reading), .version(version.text, range))
        }
        func count(_ value: Int?, _ reading: Version?, _ range: VersionRange) -> ConditionFinding {
            guard let value, let reading else { return missing() }
            return finding(range.contains(reading), .count(value, range))
        }
        func oneOf<Value: Equatable>(_ value: Value?, _ accepted: [Value], text: (Value) -> String,
            _ spelled: ConditionFinding.AcceptedValues) -> ConditionFinding
        {
            guard let value else { return missing() }
            return finding(accepted.contains(value), .oneOf(text(value), spelled))
        }
        switch entry.test {
        case .platform(let platforms):
            return oneOf(context.platform, platforms, text: \.rawValue, .platforms(platforms))
        case .appVersion(let range): return versions(context.versions.app, range)
        case .previousVersion(let range): return versions(context.versions.previous, range)
        case .installVersion(let range): return versions(context.versions.install, range)
        case .build(let range): return versions(context.versions.build, range)
        case .osVersion(let range): return versions(context.versions.os, range)
        case .originalAppVersion(let range): return versions(context.versions.original, range)
        case .launch(let kinds):
            return oneOf(context.launch.kind, kinds, text: \.rawValue, .launchKinds(kinds))
        case .launchCount(let range): return count(context.launch.count, context.versions.launchCount, range)
        case .daysSinceLastLaunch(let range):
            return count(context.launch.daysSinceLastLaunch, context.versions.daysSinceLastLaunch, range)
        case .daysSinceInstall(let range):
            return count(context.launch.daysSinceInstall, context.versions.daysSinceInstall, range)
        case .launchSource(let sources):
            return oneOf(context.launch.source, sources, text: \.rawValue, .launchSources(sources))
        case .locale(let tags):
            guard let locale = context.locale else { return missing() }
            let holds = tags.contains { ValueSyntax.locale(locale, alternate: context.localeAlternate, holds: $0) }
            return finding(holds, .oneOf(locale, .texts(tags)))
        case .region(let regions):
            guard let region = context.region else { return missing() }
            let holds = regions.contains { ValueSyntax.sameRegion($0, region) }
            return finding(holds, .oneOf(region, .texts(regions)))
        case .date(let from, let until):
            let now = context.now
            let holds = (from.map { now >= $0 } ?? true) && (until.map { now < $0 } ?? true)
            return finding(holds, .date(now: now, from: from, until: until))
        case .rollout(let percentage):
            guard let installID = context.installID else {
                return finding(false, .worded(value: nil, message: "install-id is not in the context, so no rollout includes it"))
            }
            let bucket = Rollout.bucket(installID: installID, ruleID: ruleID)
            return finding(Rollout.includes(bucket: bucket, percentage: percentage),
                .rollout(bucket: bucket, percentage: percentage))
        case .attributes(let accepted):
            var last: ConditionFinding?
            for name in accepted.keys.sorted() {
                guard let value = context.attribute(name) else { return missing("attribute \(name)") }
                let values = accepted[name] ?? []
                let result = finding(values.contains(value), .attribute(name: name, value: value, accepted: values))
                if !result.holds { return result }
                last = result
            }
            return last ?? finding(true, .worded(value: nil, message: "attributes lists none, so it holds"))
        }
    }

    /// The key under which a shared condition's finding is reused: the rule too when it holds a rollout entry.
    private mutating func use(of shared: SharedCondition) -> SharedUse {
        SharedUse(condition: Self.number(of: shared), rule: holdsRollout(.shared(shared)) ? ruleID : "")
    }

    /// Whether a condition has a `rollout` entry, each shared condition looked at once.
    private mutating func holdsRollout(_ condition: Condition) -> Bool {
        switch condition {
        case .all(let parts, _), .any(let parts, _): return parts.contains { holdsRollout($0) }
        case .not(let inner, _): return holdsRollout(inner)
        case .entry(let entry):
            if case .rollout = entry.test { return true }
            return false
        case .shared(let shared):
            let key = Self.number(of: shared)
            if let known = dependsOnRule[key] { return known }
            let holds = holdsRollout(shared.condition)
            dependsOnRule[key] = holds
            return holds
        }
    }
}

extension Condition {
    /// Whether the condition is a `rollout` entry itself.
    fileprivate var isRolloutEntry: Bool {
        if case .entry(let entry) = self, case .rollout = entry.test { return true }
        return false
    }

    /// Whether an alternative of an `any` draws a rollout bucket: a `rollout` entry, or a mapping of entries that
    /// has one (each item of an `any` list is a mapping). Looked at one level deep, so that the check costs no more
    /// than the alternative as written.
    fileprivate var drawsRollout: Bool {
        switch self {
        case .entry: isRolloutEntry
        case .all(let parts, _): parts.contains { $0.isRolloutEntry }
        case .any, .not, .shared: false
        }
    }
}
