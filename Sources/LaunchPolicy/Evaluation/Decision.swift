import Foundation

/// What the app must do at this launch, and why.
///
/// - ``gate``: the first matching `block` or `require-update` rule; while there is one, the user cannot reach
///   anything else, so ``prompts``, ``notices`` and ``presentations`` are empty.
/// - ``prompts``: the first matching `suggest-update` rule that memory allows (at most one).
/// - ``notices``: every matching `notify` rule that memory allows, in file order.
/// - ``presentations``: every matching `present` rule that memory allows, in file order.
/// - ``grants``: the entitlements of every matching `grant` rule, in order of first appearance, gate or not.
public struct Decision: Sendable, Hashable {
    /// The rule that stops the user, if any.
    public var gate: Directive?
    /// The update suggestion to show, if any (at most one).
    public var prompts: [Directive]
    /// The messages to show.
    public var notices: [Directive]
    /// The screens to present.
    public var presentations: [Directive]
    /// What the user is entitled to.
    public var grants: [String]
    /// For each rule in file order, what became of it.
    ///
    /// An evaluation works this out when it is first read, not at launch: the app acts on the directives, and only
    /// a report or a simulation reads why each rule did what it did.
    public var explanation: [RuleExplanation] {
        get {
            switch explanationStorage {
            case .written(let explanation): explanation
            case .deferred(let deferred): deferred.explanation
            }
        }
        set { explanationStorage = .written(newValue) }
    }

    private var explanationStorage: ExplanationStorage

    private enum ExplanationStorage: Sendable {
        case written([RuleExplanation])
        /// An evaluation's explanation, built when first read.
        case deferred(DeferredExplanation)
    }

    /// Creates a decision.
    public init(
        gate: Directive? = nil, prompts: [Directive] = [], notices: [Directive] = [], presentations: [Directive] = [],
        grants: [String] = [], explanation: [RuleExplanation] = []
    ) {
        self.gate = gate
        self.prompts = prompts
        self.notices = notices
        self.presentations = presentations
        self.grants = grants
        explanationStorage = .written(explanation)
    }

    /// Creates a decision whose explanation is worked out when first read. Made whole in one go: a decision made
    /// and then given its explanation was copied once more.
    init(
        gate: Directive?, prompts: [Directive], notices: [Directive], presentations: [Directive], grants: [String],
        explainedLater deferred: DeferredExplanation
    ) {
        explanationStorage = .deferred(deferred)
        self.gate = gate
        self.prompts = prompts
        self.notices = notices
        self.presentations = presentations
        self.grants = grants
    }

    public static func == (lhs: Decision, rhs: Decision) -> Bool {
        lhs.gate == rhs.gate && lhs.prompts == rhs.prompts && lhs.notices == rhs.notices
            && lhs.presentations == rhs.presentations && lhs.grants == rhs.grants && lhs.explanation == rhs.explanation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(gate)
        hasher.combine(prompts)
        hasher.combine(notices)
        hasher.combine(presentations)
        hasher.combine(grants)
        hasher.combine(explanation)
    }

    /// Everything the user will see, in the order to show it: the gate alone, or prompts, notices, presentations.
    public var shown: [Directive] { gate.map { [$0] } ?? prompts + notices + presentations }
}

/// One thing the app shows: a gate, a prompt, a notice or a screen.
public struct Directive: Sendable, Hashable {
    /// The rule's action.
    public var action: Action
    /// The rule's id.
    public var rule: String
    /// The message id, for actions that show a message.
    public var message: String?
    /// The message text in the best translation for the context's locale.
    public var text: String?
    /// Where to update: the rule's `url`, else the policy's `store` URL for the platform (iPadOS falls back to iOS).
    public var url: String?
    /// The screen, for `present`.
    public var screen: String?
    /// What to record in ``DisplayMemory`` once the app has shown it; nil for gates, which show every launch.
    public var memoryKey: DisplayMemory.Key?

    /// Creates a directive.
    public init(
        action: Action, rule: String, message: String? = nil, text: String? = nil, url: String? = nil,
        screen: String? = nil, memoryKey: DisplayMemory.Key? = nil
    ) {
        self.action = action
        self.rule = rule
        self.message = message
        self.text = text
        self.url = url
        self.screen = screen
        self.memoryKey = memoryKey
    }
}

/// What became of one rule.
public struct RuleExplanation: Sendable, Hashable {
    /// What became of it.
    public enum Outcome: Sendable, Hashable {
        /// Its condition does not hold; the finding says which entry failed and with what value.
        case notMatched(ConditionFinding)
        /// It is the gate.
        case gate
        /// It matched, but an earlier gate was chosen.
        case gateAlreadyChosen(by: String)
        /// It matched, but the gate hides it.
        case hiddenByGate(String)
        /// It is the prompt.
        case prompt
        /// It matched, but an earlier prompt was chosen.
        case promptAlreadyChosen(by: String)
        /// It is shown as a notice.
        case notice
        /// Its screen is presented.
        case presentation
        /// Its entitlements are granted.
        case granted
        /// It matched, but memory says it was shown already: at that date, and it may show again from `again`
        /// (nil: not until what it remembers changes).
        case alreadyShown(at: Date, again: Date?)
    }

    /// The rule's id.
    public var rule: String
    /// The rule's action.
    public var action: Action
    /// What became of it.
    public var outcome: Outcome {
        get {
            switch storage {
            case .known(let outcome):
                return outcome
            case .afterGate(let evaluation, let index):
                guard evaluation.holds(rule: index) else {
                    return .notMatched(ConditionFinding(deferredRule: index, of: evaluation))
                }
                let gate = evaluation.gateRuleID ?? ""
                return action.isGate ? .gateAlreadyChosen(by: gate) : .hiddenByGate(gate)
            }
        }
        set { storage = .known(newValue) }
    }
    /// Where the rule is written.
    public var range: SourceRange

    private var storage: Storage

    private enum Storage: Sendable {
        case known(Outcome)
        /// A rule that cannot change the decision the gate (`evaluation`'s) made: whether it matched is worked out
        /// when the outcome is first read; if it did, the gate hides it or was chosen before it.
        case afterGate(DeferredEvaluation, rule: Int)
    }

    /// Creates an explanation.
    public init(rule: String, action: Action, outcome: Outcome, range: SourceRange) {
        self.rule = rule
        self.action = action
        self.range = range
        storage = .known(outcome)
    }

    /// The explanation of a rule a gate keeps from mattering, decided when first read.
    init(rule: String, action: Action, range: SourceRange, afterGate index: Int, of evaluation: DeferredEvaluation) {
        self.rule = rule
        self.action = action
        self.range = range
        storage = .afterGate(evaluation, rule: index)
    }

    public static func == (lhs: RuleExplanation, rhs: RuleExplanation) -> Bool {
        lhs.rule == rhs.rule && lhs.action == rhs.action && lhs.range == rhs.range && lhs.outcome == rhs.outcome
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rule)
        hasher.combine(action)
        hasher.combine(range)
        hasher.combine(outcome)
    }

    /// Whether the rule's condition held.
    public var matched: Bool {
        if case .notMatched = outcome { return false }
        return true
    }

    /// A sentence saying what became of the rule: `does not match: app-version 2.4.1 does not satisfy < 2.4`.
    public var summary: String {
        switch outcome {
        case .notMatched(let finding): "does not match: \(finding.message)"
        case .gate: "matches: \(action == .block ? "blocks the app" : "requires an update")"
        case .gateAlreadyChosen(let rule): "matches, but the earlier gate \(rule) decides"
        case .hiddenByGate(let rule): "matches, but the gate \(rule) hides it"
        case .prompt: "matches: suggests an update"
        case .promptAlreadyChosen(let rule): "matches, but the earlier prompt \(rule) is shown instead"
        case .notice: "matches: shows its message"
        case .presentation: "matches: presents its screen"
        case .granted: "matches: grants its entitlements"
        case .alreadyShown(let at, let again):
            "matches, but was shown at \(Timestamp.text(at))"
                + (again.map { "; it may show again from \(Timestamp.text($0))" } ?? " and is not shown again")
        }
    }
}
