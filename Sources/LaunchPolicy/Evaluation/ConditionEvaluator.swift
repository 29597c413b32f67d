import Foundation

/// Decides whether conditions hold in a launch context, and says why with the entry that decided.
///
/// `all` stops at the first entry that fails and `any` at the first that holds. A ``SharedCondition`` (a YAML
/// anchor used through aliases) is evaluated once and its finding reused, so that the work stays proportional to the
/// policy as written however often aliases repeat a condition. A shared condition with a `rollout` entry depends on
/// the rule (buckets are drawn per rule), so its finding is reused within a rule only.
struct ConditionEvaluator {
    let context: LaunchContext
    /// The rule whose condition is being evaluated; rollout buckets depend on it.
    var ruleID = ""
    private var sharedFindings: [SharedUse: ConditionFinding] = [:]
    private var dependsOnRule: [ObjectIdentifier: Bool] = [:]
    /// How many condition nodes were evaluated (not reused): the measure of the interpreter's work.
    private(set) var evaluatedConditions = 0

    private struct SharedUse: Hashable {
        let condition: ObjectIdentifier
        let rule: String
    }

    init(context: LaunchContext) {
        self.context = context
    }

    /// Whether the condition holds, with the entry that decided it.
    mutating func evaluate(_ condition: Condition) -> ConditionFinding {
        if case .shared(let shared) = condition, let finding = sharedFindings[use(of: shared)] { return finding }
        evaluatedConditions += 1
        switch condition {
        case .all(let parts, let range):
            var last: ConditionFinding?
            for part in parts {
                let finding = evaluate(part)
                if !finding.holds { return finding }
                last = finding
            }
            return last ?? ConditionFinding(key: "all", value: nil, holds: true, message: "no entries, so it holds", range: range)
        case .any(let parts, let range):
            var failures: [ConditionFinding] = []
            for part in parts {
                let finding = evaluate(part)
                if finding.holds { return finding }
                failures.append(finding)
            }
            guard let first = failures.first else {
                return ConditionFinding(key: "any", value: nil, holds: false, message: "any lists no conditions, so it never holds", range: range)
            }
            let message = parts.count == 1 ? first.message
                : "none of the \(parts.count) alternatives of any holds: " + failures.map(\.message).joined(separator: "; ")
            return ConditionFinding(key: "any", value: first.value, holds: false, message: Self.capped(message), range: range)
        case .not(let inner, let range):
            let finding = evaluate(inner)
            return ConditionFinding(key: "not", value: finding.value, holds: !finding.holds,
                message: Self.capped((finding.holds ? "not excludes it: " : "not holds: ") + finding.message), range: range)
        case .shared(let shared):
            let finding = evaluate(shared.condition)
            sharedFindings[use(of: shared)] = finding
            return finding
        case .entry(let entry):
            return evaluate(entry)
        }
    }

    private func evaluate(_ entry: ConditionEntry) -> ConditionFinding {
        let key = entry.key
        func finding(_ value: String?, _ holds: Bool, _ message: String) -> ConditionFinding {
            ConditionFinding(key: key, value: value, holds: holds, message: message, range: entry.range)
        }
        func missing(_ what: String? = nil) -> ConditionFinding {
            finding(nil, false, "\(what ?? key) is not in the context")
        }
        func versions(_ version: ContextVersion?, _ range: VersionRange) -> ConditionFinding {
            guard let version else { return missing() }
            guard let reading = version.readings[range.kind] else {
                return finding(version.text, false, "\(key) \(version.text) is not a \(range.kind) version")
            }
            let holds = range.contains(reading)
            return finding(version.text, holds, "\(key) \(version.text) \(holds ? "satisfies" : "does not satisfy") \(range.text)")
        }
        func number(_ value: Int?, _ range: VersionRange) -> ConditionFinding {
            guard let value else { return missing() }
            let holds = (try? Version(String(value), kind: range.kind)).map(range.contains) ?? false
            return finding(String(value), holds, "\(key) \(value) \(holds ? "satisfies" : "does not satisfy") \(range.text)")
        }
        func oneOf(_ value: String?, _ accepted: [String], matches: (String) -> Bool = { _ in false }) -> ConditionFinding {
            guard let value else { return missing() }
            let holds = accepted.contains(value) || accepted.contains(where: matches)
            let list = accepted.joined(separator: ", ")
            let relation = accepted.count == 1 ? (holds ? "is" : "is not") : (holds ? "is one of" : "is not one of")
            return finding(value, holds, "\(key) \(value) \(relation) \(list)")
        }
        let versions_ = context.versions
        switch entry.test {
        case .platform(let platforms): return oneOf(context.platform?.rawValue, platforms.map(\.rawValue))
        case .appVersion(let range): return versions(versions_.app, range)
        case .previousVersion(let range): return versions(versions_.previous, range)
        case .installVersion(let range): return versions(versions_.install, range)
        case .build(let range): return versions(versions_.build, range)
        case .osVersion(let range): return versions(versions_.os, range)
        case .originalAppVersion(let range): return versions(versions_.original, range)
        case .launch(let kinds): return oneOf(context.launch.kind?.rawValue, kinds.map(\.rawValue))
        case .launchCount(let range): return number(context.launch.count, range)
        case .daysSinceLastLaunch(let range): return number(context.launch.daysSinceLastLaunch, range)
        case .daysSinceInstall(let range): return number(context.launch.daysSinceInstall, range)
        case .launchSource(let sources): return oneOf(context.launch.source?.rawValue, sources.map(\.rawValue))
        case .locale(let tags):
            return oneOf(context.locale, tags) { tag in
                context.locale.map { ValueSyntax.locale($0, isWithin: tag) } ?? false
            }
        case .region(let regions):
            return oneOf(context.region, regions) { $0.uppercased() == context.region?.uppercased() }
        case .date(let from, let until):
            let now = context.now
            let value = Timestamp.text(now)
            if let from, now < from { return finding(value, false, "now \(value) is before from \(Timestamp.text(from))") }
            if let until, now >= until { return finding(value, false, "now \(value) is not before until \(Timestamp.text(until))") }
            let window = [from.map { "from \(Timestamp.text($0))" }, until.map { "until \(Timestamp.text($0))" }]
                .compactMap { $0 }.joined(separator: " ")
            return finding(value, true, "now \(value) is within \(window)")
        case .rollout(let percentage):
            guard let installID = context.installID else {
                return finding(nil, false, "install-id is not in the context, so no rollout includes it")
            }
            let bucket = Rollout.bucket(installID: installID, ruleID: ruleID)
            let holds = Rollout.includes(bucket: bucket, percentage: percentage)
            let limit = Self.formatted(percentage * 100)
            return finding(String(bucket), holds,
                "rollout bucket \(bucket) is \(holds ? "below" : "not below") \(limit) (\(Self.formatted(percentage))%)")
        case .attributes(let accepted):
            var last: ConditionFinding?
            for name in accepted.keys.sorted() {
                guard let value = context.attributes[name] else { return missing("attribute \(name)") }
                let values = accepted[name] ?? []
                let holds = values.contains(value)
                let relation = values.count == 1 ? (holds ? "is" : "is not") : (holds ? "is one of" : "is not one of")
                let result = finding(value, holds, "attribute \(name) \(value) \(relation) \(values.joined(separator: ", "))")
                if !holds { return result }
                last = result
            }
            return last ?? finding(nil, true, "attributes lists none, so it holds")
        }
    }

    /// The key under which a shared condition's finding is reused: the rule too when it holds a rollout entry.
    private mutating func use(of shared: SharedCondition) -> SharedUse {
        SharedUse(condition: ObjectIdentifier(shared), rule: holdsRollout(.shared(shared)) ? ruleID : "")
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
            if let known = dependsOnRule[ObjectIdentifier(shared)] { return known }
            let holds = holdsRollout(shared.condition)
            dependsOnRule[ObjectIdentifier(shared)] = holds
            return holds
        }
    }

    /// Messages of nested `any` and `not` quote their parts; the cap keeps them readable, and their total size
    /// proportional to the policy even when aliases repeat a part many times.
    static let maximumMessageLength = 300

    private static func capped(_ message: String) -> String {
        message.count <= maximumMessageLength ? message : message.prefix(maximumMessageLength - 1) + "…"
    }

    /// `25` for 25.0, `12.5` for 12.5.
    private static func formatted(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
