import Foundation

extension Policy {
    /// Decides what the app must do at this launch: a pure function of the policy, the context and what was shown
    /// before. It never changes `memory`; record in it what the app actually shows.
    ///
    /// ```swift
    /// var memory = try store.load()
    /// let decision = policy.evaluate(context, memory: memory)
    /// for directive in decision.shown { show(directive); memory.record(directive, at: context.now) }
    /// try store.save(memory)
    /// ```
    public func evaluate(_ context: LaunchContext, memory: DisplayMemory = DisplayMemory()) -> Decision {
        var interpreter = Interpreter(policy: self, context: context, memory: memory)
        return interpreter.decide()
    }
}

/// The interpreter: every rule's condition is evaluated in file order, then the matching rules are sorted into the
/// gate, prompts, notices, presentations and grants by the precedence ``Decision`` documents.
struct Interpreter {
    let policy: Policy
    let context: LaunchContext
    let memory: DisplayMemory
    private(set) var conditions: ConditionEvaluator

    init(policy: Policy, context: LaunchContext, memory: DisplayMemory) {
        self.policy = policy
        self.context = context
        self.memory = memory
        conditions = ConditionEvaluator(context: context)
    }

    mutating func decide() -> Decision {
        // Rules are reached through the array, never copied out of it: a copy retains every field of a rule, and
        // at launch that was most of the interpreter's time.
        let rules = policy.rules
        var matches: [Bool] = []
        matches.reserveCapacity(rules.count)
        for index in rules.indices {
            conditions.ruleID = rules[index].id.value
            matches.append(rules[index].condition.map { conditions.holds($0) } ?? true)
        }
        let gateIndex = rules.indices.first { matches[$0] && rules[$0].action.value.isGate }
        // Why a rule did not match is worked out only if someone reads it.
        let deferred = matches.contains(false) ? DeferredEvaluation(policy: policy, context: context) : nil
        let gateRuleID = gateIndex.map { rules[$0].id.value }

        var decision = Decision()
        decision.gate = gateIndex.map { directive(for: rules[$0]) }
        decision.explanation.reserveCapacity(rules.count)
        var promptRule: String?
        for index in rules.indices {
            let action = rules[index].action.value
            let outcome: RuleExplanation.Outcome
            if !matches[index], let deferred {
                outcome = .notMatched(ConditionFinding(deferredRule: index, of: deferred))
            } else {
                switch action {
                case .block, .requireUpdate:
                    outcome = index == gateIndex ? .gate : .gateAlreadyChosen(by: gateRuleID ?? "")
                case .grant:
                    for entitlement in rules[index].entitlements where !decision.grants.contains(entitlement.value) {
                        decision.grants.append(entitlement.value)
                    }
                    outcome = .granted
                case .suggestUpdate, .notify, .present:
                    if let gateRuleID {
                        outcome = .hiddenByGate(gateRuleID)
                        break
                    }
                    let shown = directive(for: rules[index])
                    if let refusal = memoryRefusal(rules[index], shown) {
                        outcome = refusal
                    } else if action == .suggestUpdate {
                        if let promptRule {
                            outcome = .promptAlreadyChosen(by: promptRule)
                        } else {
                            promptRule = rules[index].id.value
                            decision.prompts.append(shown)
                            outcome = .prompt
                        }
                    } else if action == .notify {
                        decision.notices.append(shown)
                        outcome = .notice
                    } else {
                        decision.presentations.append(shown)
                        outcome = .presentation
                    }
                }
            }
            decision.explanation.append(
                RuleExplanation(rule: rules[index].id.value, action: action, outcome: outcome, range: rules[index].range))
        }
        return decision
    }

    /// What the app shows for a rule, in the context's language.
    func directive(for rule: Rule) -> Directive {
        let action = rule.action.value
        let text = rule.message.flatMap { policy.message($0.value) }?.text(for: context.locale)
        var url: String?
        if action == .requireUpdate || action == .suggestUpdate {
            url = rule.url?.value ?? context.platform.flatMap { platform in
                policy.store[platform]?.value ?? (platform == .ipados ? policy.store[.ios]?.value : nil)
            }
        }
        return Directive(
            action: action, rule: rule.id.value, message: rule.message?.value, text: text, url: url,
            screen: rule.screen?.value, memoryKey: action.isGate || action == .grant ? nil : memoryKey(rule, text: text))
    }

    /// What showing a rule is remembered as; see ``DisplayMemory``.
    private func memoryKey(_ rule: Rule, text: String?) -> DisplayMemory.Key {
        let shownThing = rule.screen.map { "screen \($0.value)" } ?? rule.message.map { "message \($0.value)" } ?? ""
        let scope: String
        switch rule.show {
        case .once:
            if let text, rule.screen == nil {
                // The text's digest, not the text: the memory file stays small and holds no message copies.
                scope = "text " + SHA256.digest(Array(text.utf8)).prefix(8).map(SHA256.hexDigits).joined()
            } else {
                scope = shownThing
            }
        case .oncePerVersion:
            let version = context.versions.app.flatMap { $0.reading(policy.versioning) }?.canonical
                ?? context.appVersion ?? "unknown"
            scope = "version \(version), \(shownThing)"
        case .everyLaunch:
            scope = "every launch"
        }
        return DisplayMemory.Key(rule: rule.id.value, scope: scope)
    }

    /// Why memory keeps a matching rule from showing, or nil when it may show.
    private func memoryRefusal(_ rule: Rule, _ directive: Directive) -> RuleExplanation.Outcome? {
        guard let key = directive.memoryKey, let last = memory.lastShown(key) else { return nil }
        if let every = rule.every?.value {
            let again = last.addingTimeInterval(every)
            // A record from the future means the clock moved back; it does not keep the rule from showing.
            return context.now >= again || last > context.now ? nil : .alreadyShown(at: last, again: again)
        }
        return rule.show == .everyLaunch ? nil : .alreadyShown(at: last, again: nil)
    }
}
