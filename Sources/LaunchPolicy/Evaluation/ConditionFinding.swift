import Foundation

/// The entry that decided a condition, with the context's value: `app-version 2.4.1 does not satisfy < 2.4`.
///
/// The interpreter answers a launch without wording anything: the finding of a rule that did not match is worked
/// out from the policy and the context when it is first read, and its value and message are worded from what was
/// compared only then. A launch that never shows its explanation never pays for one.
public struct ConditionFinding: Sendable, Hashable {
    private var storage: Storage

    private enum Storage: Sendable {
        /// Boxed, so that a finding is two words wherever it is copied: explanations hold one per rule.
        case known(KnownBox)
        /// The finding of rule `rule`'s condition in `evaluation`, not yet worked out.
        case deferred(DeferredEvaluation, rule: Int)
    }

    final class KnownBox: Sendable {
        let known: Known
        init(_ known: Known) { self.known = known }
    }

    /// A finding's parts.
    struct Known: Sendable {
        var key: String
        var holds: Bool
        var range: SourceRange
        var reason: Reason
    }

    /// Creates a finding.
    public init(key: String, value: String?, holds: Bool, message: String, range: SourceRange) {
        self.init(key: key, holds: holds, reason: .worded(value: value, message: message), range: range)
    }

    init(key: String, holds: Bool, reason: Reason, range: SourceRange) {
        storage = .known(KnownBox(Known(key: key, holds: holds, range: range, reason: reason)))
    }

    /// The finding of a rule's condition, to be worked out when read.
    init(deferredRule rule: Int, of evaluation: DeferredEvaluation) {
        storage = .deferred(evaluation, rule: rule)
    }

    var known: Known {
        get {
            switch storage {
            case .known(let box): box.known
            case .deferred(let evaluation, let rule): evaluation.finding(ofRule: rule)
            }
        }
        set { storage = .known(KnownBox(newValue)) }
    }

    /// The condition key (`app-version`, `any`, `not`).
    public var key: String {
        get { known.key }
        set { known.key = newValue }
    }

    /// Whether the entry holds.
    public var holds: Bool {
        get { known.holds }
        set { known.holds = newValue }
    }

    /// Where the entry is written.
    public var range: SourceRange {
        get { known.range }
        set { known.range = newValue }
    }

    /// What was compared, from which ``value`` and ``message`` are worded.
    var reason: Reason { known.reason }

    /// The context's value as text; nil when the context does not have it.
    public var value: String? {
        get { known.reason.value }
        set { known.reason = .worded(value: newValue, message: message) }
    }

    /// The sentence.
    public var message: String {
        get { let known = known; return known.reason.message(key: known.key, holds: known.holds) }
        set { known.reason = .worded(value: value, message: newValue) }
    }

    /// Messages of nested `any` and `not` quote their parts; the cap keeps them readable, and their size
    /// proportional to the policy even when aliases repeat a part many times.
    static let maximumMessageLength = 300

    public static func == (lhs: ConditionFinding, rhs: ConditionFinding) -> Bool {
        let (left, right) = (lhs.known, rhs.known)
        return left.key == right.key && left.holds == right.holds && left.range == right.range
            && left.reason.value == right.reason.value
            && left.reason.message(key: left.key, holds: left.holds) == right.reason.message(key: right.key, holds: right.holds)
    }

    public func hash(into hasher: inout Hasher) {
        let known = known
        hasher.combine(known.key)
        hasher.combine(known.holds)
        hasher.combine(known.range)
        hasher.combine(known.reason.message(key: known.key, holds: known.holds))
    }

    /// What a condition entry compared.
    enum Reason: Sendable {
        /// Already in words.
        case worded(value: String?, message: String)
        /// The context lacks the value (`what`: the key, or `attribute plan`).
        case missing(String)
        /// A version against a range.
        case version(String, VersionRange)
        /// A version that is not of the range's kind.
        case notOfKind(String, VersionKind)
        /// A count (launches, days) against a range.
        case count(Int, VersionRange)
        /// A value against the values the entry accepts.
        case oneOf(String, AcceptedValues)
        /// An app-defined attribute against the values the entry accepts.
        case attribute(name: String, value: String, accepted: [String])
        /// The time against a date window.
        case date(now: Date, from: Date?, until: Date?)
        /// An install's bucket against a rollout percentage.
        case rollout(bucket: Int, percentage: Double)
        /// No alternative of an `any` held.
        case noAlternative([ConditionFinding])
        /// A `not` around a finding.
        indirect case not(ConditionFinding)

        var value: String? {
            switch self {
            case .worded(let value, _): value
            case .missing: nil
            case .version(let text, _), .notOfKind(let text, _): text
            case .count(let count, _): String(count)
            case .oneOf(let value, _), .attribute(_, let value, _): value
            case .date(let now, _, _): Timestamp.text(now)
            case .rollout(let bucket, _): String(bucket)
            case .noAlternative(let failures): failures.first?.value
            case .not(let inner): inner.value
            }
        }

        func message(key: String, holds: Bool) -> String {
            switch self {
            case .worded(_, let message):
                return message
            case .missing(let what):
                return "\(what) is not in the context"
            case .version(let text, let range):
                return "\(key) \(text) \(holds ? "satisfies" : "does not satisfy") \(range.text)"
            case .notOfKind(let text, let kind):
                return "\(key) \(text) is not a \(kind) version"
            case .count(let count, let range):
                return "\(key) \(count) \(holds ? "satisfies" : "does not satisfy") \(range.text)"
            case .oneOf(let value, let accepted):
                return "\(key) \(value) \(Self.relation(holds, count: accepted.texts.count)) "
                    + accepted.texts.joined(separator: ", ")
            case .attribute(let name, let value, let accepted):
                return "attribute \(name) \(value) \(Self.relation(holds, count: accepted.count)) "
                    + accepted.joined(separator: ", ")
            case .date(let now, let from, let until):
                let value = Timestamp.text(now)
                if let from, now < from { return "now \(value) is before from \(Timestamp.text(from))" }
                if let until, now >= until { return "now \(value) is not before until \(Timestamp.text(until))" }
                let window = [from.map { "from \(Timestamp.text($0))" }, until.map { "until \(Timestamp.text($0))" }]
                    .compactMap { $0 }.joined(separator: " ")
                return "now \(value) is within \(window)"
            case .rollout(let bucket, let percentage):
                return "rollout bucket \(bucket) is \(holds ? "below" : "not below") \((percentage * 100).plainText)"
                    + " (\(percentage.plainText)%)"
            case .noAlternative(let failures):
                guard failures.count > 1 else { return failures.first?.message ?? "" }
                // Parts are worded only until the cap is reached: an alias repeated in every alternative of nested
                // `any`s would otherwise be worded once per path to it, exponentially many times.
                var message = "none of the \(failures.count) alternatives of any holds: "
                for (index, failure) in failures.enumerated() {
                    if index > 0 { message += "; " }
                    message += failure.message
                    if message.count > ConditionFinding.maximumMessageLength { break }
                }
                return Self.capped(message)
            case .not(let inner):
                return Self.capped((inner.holds ? "not excludes it: " : "not holds: ") + inner.message)
            }
        }

        private static func relation(_ holds: Bool, count: Int) -> String {
            count == 1 ? (holds ? "is" : "is not") : (holds ? "is one of" : "is not one of")
        }

        private static func capped(_ message: String) -> String {
            let limit = ConditionFinding.maximumMessageLength
            return message.count <= limit ? message : message.prefix(limit - 1) + "…"
        }
    }

    /// The values an entry accepts, kept as the entry holds them and spelled out only for a message.
    enum AcceptedValues: Sendable {
        case platforms([Platform])
        case launchKinds([LaunchKind])
        case launchSources([LaunchSource])
        case texts([String])

        var texts: [String] {
            switch self {
            case .platforms(let values): values.map(\.rawValue)
            case .launchKinds(let values): values.map(\.rawValue)
            case .launchSources(let values): values.map(\.rawValue)
            case .texts(let values): values
            }
        }
    }
}

/// What a deferred ``ConditionFinding`` needs to be worked out: the rules and the context of one evaluation, shared
/// by the findings of all its rules. Each rule's finding is worked out once, when first read, and kept: a report
/// reads a finding's key, value and message in turn.
final class DeferredEvaluation: @unchecked Sendable {
    /// The policy's rules, all of it that a finding reads.
    let rules: [Rule]
    let context: LaunchContext
    /// The rule of the decision's gate, if it has one.
    let gateRuleID: String?
    /// Findings worked out so far, by rule index; guarded by `lock`, as decisions cross threads.
    private var known: [Int: ConditionFinding.Known] = [:]
    /// Whether rules behind the gate matched, as far as asked; guarded by `lock`.
    private var matched: [Int: Bool] = [:]
    private let lock = Lock.make()

    init(rules: [Rule], context: LaunchContext, gateRuleID: String?) {
        self.rules = rules
        self.context = context
        self.gateRuleID = gateRuleID
    }

    /// Whether rule `index`'s condition holds, by the launch path's evaluation: a rule behind the gate needs only
    /// this to say whether the gate hid it (a simulation asks it of every rule at every launch), and the finding,
    /// which words why, only if it did not match and someone reads why.
    func holds(rule index: Int) -> Bool {
        lock.withLock { holdsLocked(rule: index) }
    }

    private func holdsLocked(rule index: Int) -> Bool {
        if let finding = known[index] { return finding.holds }
        if let answer = matched[index] { return answer }
        let rule = rules[index]
        var evaluator = ConditionEvaluator(context: context)
        evaluator.rules = rules
        evaluator.rule = index
        let answer = rule.condition.map { evaluator.holds($0) } ?? true
        matched[index] = answer
        return answer
    }

    /// The finding of rule `index`'s condition: the same evaluation, this time recording what decided it.
    func finding(ofRule index: Int) -> ConditionFinding.Known {
        lock.withLock { findingLocked(ofRule: index) }
    }

    private func findingLocked(ofRule index: Int) -> ConditionFinding.Known {
        if let finding = known[index] { return finding }
        let rule = rules[index]
        var evaluator = ConditionEvaluator(context: context)
        evaluator.rules = rules
        evaluator.rule = index
        // A rule without a condition always matches (deferred only behind a gate).
        let finding = rule.condition.map { evaluator.finding($0) }
            ?? ConditionFinding(key: "when", holds: true, reason: .worded(value: nil, message: "no condition, so it holds"),
                range: rule.range)
        known[index] = finding.known
        return finding.known
    }
}
