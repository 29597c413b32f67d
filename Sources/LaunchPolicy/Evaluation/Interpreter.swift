import Foundation

extension Policy {
    /// Decides what the app must do at this launch: a pure function of the policy, the context and what was shown
    /// before. It never changes `memory`; record in it what the app actually shows.
    ///
    /// ```swift
    /// let decision = policy.evaluate(context, memory: try store.load())
    /// for directive in decision.shown {
    ///     show(directive)
    ///     try store.update { $0.record(directive, at: context.now) }
    /// }
    /// ```
    public func evaluate(_ context: LaunchContext, memory: DisplayMemory = DisplayMemory()) -> Decision {
        var interpreter = Interpreter(context: context, memory: memory)
        return interpreter.decide(self)
    }

    /// The same decision, with every rule's match decided up front even behind a gate: for callers that read every
    /// rule's explanation (a simulation), to whom deciding later costs more than deciding now. Without
    /// `keyingDirectives`, its directives have no memory keys, which a caller that remembers nothing does not need.
    func evaluateEveryRule(_ context: LaunchContext, keyingDirectives: Bool = true) -> Decision {
        var interpreter = Interpreter(context: context, memory: DisplayMemory())
        interpreter.decidesEveryRule = true
        interpreter.keysDirectives = keyingDirectives
        return interpreter.decide(self)
    }
}

/// The interpreter: the gate rules' conditions are evaluated in file order up to the first that holds, then the
/// other rules' (only the grants' behind a gate, as nothing else can change the decision then), and the matching
/// rules are sorted into the gate, prompts, notices, presentations and grants by the precedence ``Decision``
/// documents. Whatever only the explanation needs is worked out when it is read.
///
/// The policy is passed to each step, not kept: a policy kept here was copied field by field at every evaluation.
struct Interpreter {
    let context: LaunchContext
    let memory: DisplayMemory
    private(set) var conditions: ConditionEvaluator
    /// Whether rules behind a gate are evaluated too, rather than when their explanation is read.
    var decidesEveryRule = false
    /// Whether directives carry their memory keys. A simulation, which remembers nothing, does without: a key of a
    /// message's text costs a digest of the text, and a simulation evaluates a policy for every row.
    var keysDirectives = true
    /// The app's version as memory keys write it, once a key has needed it.
    private var keptAppVersionText: String?
    /// The scope of a `once` key of each message's text (`text 3f…`), by the message's place in the policy, once a
    /// key has needed it; nil until then. A text's digest takes time in proportion to its length, and rules that
    /// show one message share its text: 14,000 rules showing a 60 KB message took 3.3 s to evaluate, digesting it
    /// again for each.
    private var textScopes: [String?]?
    /// The places of the policy's messages by id.
    private var messages = IDLookup()

    init(context: LaunchContext, memory: DisplayMemory) {
        self.context = context
        self.memory = memory
        conditions = ConditionEvaluator(context: context)
    }

    mutating func decide(_ policy: Policy) -> Decision {
        // Rules are reached through the array, never copied out of it: a copy retains every field of a rule, and
        // at launch that was most of the interpreter's time.
        let rules = policy.rules
        conditions.rules = rules
        // Gates first, in file order, up to the first that matches: it decides the launch.
        var matches: [Bool?] = Array(repeating: nil, count: rules.count)
        var gateIndex: Int?
        // Counted as they are decided, to size the lists below once: grown one match at a time, they were copied
        // four or five times in a launch.
        var matchCount = 0, entitlementCount = 0
        for index in rules.indices where rules[index].action.value.isGate {
            let holds = holds(rule: index, of: policy)
            matches[index] = holds
            if holds {
                gateIndex = index
                matchCount += 1
                break
            }
        }
        // Behind a gate only grants still change the decision: whether the others match is worked out when the
        // explanation is read, like why a rule did not match.
        for index in rules.indices
        where matches[index] == nil && (gateIndex == nil || decidesEveryRule || rules[index].action.value == .grant) {
            let holds = holds(rule: index, of: policy)
            matches[index] = holds
            if holds {
                matchCount += 1
                if rules[index].action.value == .grant { entitlementCount += rules[index].entitlements.count }
            }
        }
        let gateRuleID = gateIndex.map { rules[$0].id.value }

        // Only the matching rules are sorted into the decision; the explanation of every rule is worked out from
        // what was decided here when someone reads it. The decision's parts are gathered as locals and the decision
        // made at the end: filled in place, it was copied whole one more time a launch.
        let gate = gateIndex.map { directive(forRule: $0, of: policy) }
        var prompts: [Directive] = [], notices: [Directive] = [], presentations: [Directive] = []
        var grants: [String] = []
        var outcomes: DeferredExplanation.Outcomes = []
        outcomes.reserveCapacity(matchCount)
        grants.reserveCapacity(entitlementCount)
        var promptRule: String?
        for index in rules.indices where matches[index] == true {
            let action = rules[index].action.value
            let outcome: RuleExplanation.Outcome
            switch action {
            case .block, .requireUpdate:
                outcome = index == gateIndex ? .gate : .gateAlreadyChosen(by: gateRuleID ?? "")
            case .grant:
                // Each once, in order of first appearance: scanned for while few, kept so below when many.
                for entitlement in rules[index].entitlements
                where grants.count > Self.scannedEntitlements || !grants.contains(entitlement.value) {
                    grants.append(entitlement.value)
                }
                outcome = .granted
            case .suggestUpdate, .notify, .present:
                if let gateRuleID {
                    outcome = .hiddenByGate(gateRuleID)
                    break
                }
                // Memory before precedence: a prompt memory refuses leaves the way to the next one.
                if let refusal = memoryRefusal(rule: index, of: policy) {
                    outcome = refusal
                } else if action == .suggestUpdate, let promptRule {
                    outcome = .promptAlreadyChosen(by: promptRule)
                } else if action == .suggestUpdate {
                    promptRule = rules[index].id.value
                    prompts.append(directive(forRule: index, of: policy))
                    outcome = .prompt
                } else if action == .notify {
                    notices.append(directive(forRule: index, of: policy))
                    outcome = .notice
                } else {
                    presentations.append(directive(forRule: index, of: policy))
                    outcome = .presentation
                }
            }
            outcomes.append(DeferredExplanation.Decided(rule: index, outcome: outcome))
        }
        if grants.count > Self.scannedEntitlements { Self.keepFirstAppearances(&grants) }
        let explanation = DeferredExplanation(
            rules: rules, context: context, gateRuleID: gateRuleID, matches: matches, outcomes: outcomes)
        return Decision(gate: consume gate, prompts: consume prompts, notices: consume notices,
            presentations: consume presentations, grants: consume grants, explainedLater: explanation)
    }

    /// Keeps each of `names` once, in order of first appearance, in place, looking for each among those kept in a set.
    static func keepFirstAppearances(_ names: inout [String]) {
        var seen = Set<String>(minimumCapacity: names.count)
        var kept = 0
        for index in names.indices where seen.insert(names[index]).inserted {
            if kept != index { names.swapAt(kept, index) }
            kept += 1
        }
        names.removeSubrange(kept...)
    }

    /// How many entitlements a decision grants before it no longer scans them for the one it adds, but adds every one
    /// and keeps the first appearances once all are in (``keepFirstAppearances(_:)``). A scan for each was
    /// entitlements times entitlements: one `grant` rule listing 90,000 took 13.7 s to evaluate, at an app's launch.
    static let scannedEntitlements = 32

    /// Whether rule `index`'s condition holds.
    private mutating func holds(rule index: Int, of policy: Policy) -> Bool {
        conditions.rule = index
        return policy.rules[index].condition.map { conditions.holds($0) } ?? true
    }

    /// What the app shows for the policy's rule at `index`, in the context's language. The rule is read in place
    /// here and below: a rule copied out of the list retains every one of its fields.
    mutating func directive(forRule index: Int, of policy: Policy) -> Directive {
        let rules = policy.rules
        let action = rules[index].action.value
        let message = message(ofRule: index, of: policy)
        let text = message?.text
        var url: String?
        if action == .requireUpdate || action == .suggestUpdate {
            url = rules[index].url?.value ?? context.platform.flatMap { policy.storeURL(for: $0) }
        }
        return Directive(
            action: action, rule: rules[index].id.value, message: rules[index].message?.value, text: text, url: url,
            screen: rules[index].screen?.value,
            memoryKey: action.isGate || action == .grant || !keysDirectives
                ? nil : memoryKey(forRule: index, of: policy, message: message))
    }

    /// The message of the rule at `index`: its place among the policy's messages, and its text in the context's
    /// language, read where the policy keeps it.
    private mutating func message(ofRule index: Int, of policy: Policy) -> (index: Int, text: String)? {
        guard let id = policy.rules[index].message?.value,
            let message = messages.place(of: id, in: policy.messages, id: \.id)
        else { return nil }
        let translations = policy.messages[message].translations
        return (message, context.localeLookup?.text(in: translations) ?? translations["default"] ?? "")
    }

    /// What showing the rule at `index` is remembered as; see ``DisplayMemory``.
    private mutating func memoryKey(forRule index: Int, of policy: Policy, message: (index: Int, text: String)?)
        -> DisplayMemory.Key
    {
        let rules = policy.rules
        let screen = rules[index].screen?.value
        // What is shown, as `screen welcome` or `message update-available` ("" for neither).
        let (shownLabel, shownName) = screen.map { ("screen ", $0) }
            ?? rules[index].message.map { ("message ", $0.value) } ?? ("", "")
        let scope: String
        switch rules[index].show {
        case .once:
            if let message, screen == nil {
                scope = textScope(message, messageCount: policy.messages.count)
            } else {
                scope = String(concatenating: shownLabel, shownName)
            }
        case .oncePerVersion:
            scope = String(concatenating: "version ", appVersionText(versioning: policy.versioning), ", ", shownLabel,
                shownName)
        case .everyLaunch:
            scope = "every launch"
        }
        return DisplayMemory.Key(rule: rules[index].id.value, scope: scope)
    }

    /// The scope of a `once` key of a message's text: the first 8 bytes of the text's digest, not the text, so that
    /// the memory file stays small and holds no message copies. Worked out once a message and kept, as every rule
    /// that shows the message in this launch shows the same text.
    private mutating func textScope(_ message: (index: Int, text: String), messageCount: Int) -> String {
        if textScopes == nil { textScopes = Array(repeating: nil, count: messageCount) }
        if let scope = textScopes?[message.index] { return scope }
        var text = message.text
        let digest = text.withUTF8 { SHA256.words(of: UnsafeRawBufferPointer($0)) }
        let scope = String(concatenating: "text ", SHA256.hex(digest.0), SHA256.hex(digest.1))
        textScopes?[message.index] = scope
        return scope
    }

    /// The app's version as `once-per-version` remembers it: read as the policy's versioning and written in full
    /// (`2.5` is `2.5.0`), or as given when it is not of that kind. Worked out at the first key that needs it and
    /// kept, as every such key of a launch has the same.
    private mutating func appVersionText(versioning: VersionKind) -> String {
        if let keptAppVersionText { return keptAppVersionText }
        let text = context.versions.app.flatMap { $0.reading(versioning) }?.canonical ?? context.appVersion ?? "unknown"
        keptAppVersionText = text
        return text
    }

    /// Why memory keeps a matching prompt, notice or presentation from showing, or nil when it may show. An empty
    /// memory (a first launch) refuses nothing, and costs no key.
    private mutating func memoryRefusal(rule index: Int, of policy: Policy) -> RuleExplanation.Outcome? {
        guard !memory.shown.isEmpty,
            let last = memory.lastShown(
                memoryKey(forRule: index, of: policy, message: message(ofRule: index, of: policy)))
        else {
            return nil
        }
        let rules = policy.rules
        if let every = rules[index].every?.value {
            let again = last.addingTimeInterval(every)
            // A record from the future means the clock moved back; it does not keep the rule from showing.
            return context.now >= again || last > context.now ? nil : .alreadyShown(at: last, again: again)
        }
        return rules[index].show == .everyLaunch ? nil : .alreadyShown(at: last, again: nil)
    }
}

/// The explanation of one evaluation, built from what the interpreter decided when it is first read, then kept:
/// reports read it more than once. The ``DeferredEvaluation`` its entries refer to (for findings worked out later
/// still) is made then too, not at launch, and is its own object, so that keeping the explanation makes no cycle.
final class DeferredExplanation: @unchecked Sendable {
    /// The policy's rules: all an explanation reads of the policy. A whole policy held here was copied field by
    /// field at every evaluation, and released so when the decision went.
    let rules: [Rule]
    let context: LaunchContext
    /// The rule of the decision's gate, if it has one.
    let gateRuleID: String?
    /// Each rule's match as the interpreter decided it; nil behind the gate, where it was not needed.
    let matches: [Bool?]
    /// The outcome of each matching rule, in file order.
    let outcomes: Outcomes

    /// Rule indices with their outcomes.
    typealias Outcomes = [Decided]

    /// A matching rule's index and its outcome. A struct, not a tuple: an array of tuples is destroyed through the
    /// runtime's generic tuple witness, element by element.
    struct Decided {
        let rule: Int
        let outcome: RuleExplanation.Outcome
    }
    /// The explanation once built; guarded by `lock`, as decisions cross threads.
    private var built: [RuleExplanation]?
    private let lock = Lock.make()

    init(rules: [Rule], context: LaunchContext, gateRuleID: String?, matches: [Bool?], outcomes: Outcomes) {
        self.rules = rules
        self.context = context
        self.gateRuleID = gateRuleID
        self.matches = matches
        self.outcomes = outcomes
    }

    /// Every rule's explanation in file order: a matching rule's outcome as decided, a rule that did not match with
    /// its finding to be worked out when read, and a rule behind the gate with its match to be worked out when read.
    var explanation: [RuleExplanation] {
        lock.withLock { explanationLocked }
    }

    private var explanationLocked: [RuleExplanation] {
        if let built { return built }
        let evaluation = DeferredEvaluation(rules: rules, context: context, gateRuleID: gateRuleID)
        var explanation: [RuleExplanation] = []
        explanation.reserveCapacity(rules.count)
        var next = outcomes.startIndex
        for index in rules.indices {
            let rule = rules[index].id.value, action = rules[index].action.value, range = rules[index].range
            if next < outcomes.endIndex, outcomes[next].rule == index {
                explanation.append(
                    RuleExplanation(rule: rule, action: action, outcome: outcomes[next].outcome, range: range))
                next += 1
            } else if matches[index] == false {
                explanation.append(RuleExplanation(rule: rule, action: action,
                    outcome: .notMatched(ConditionFinding(deferredRule: index, of: evaluation)), range: range))
            } else {
                explanation.append(
                    RuleExplanation(rule: rule, action: action, range: range, afterGate: index, of: evaluation))
            }
        }
        built = explanation
        return explanation
    }
}
