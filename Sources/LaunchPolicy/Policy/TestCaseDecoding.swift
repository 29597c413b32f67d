/// `tests:` — cases a policy carries: a context and the expected decision.
enum TestCaseDecoding {
    static func testCases(_ node: YAMLNode, rules: [Rule], _ support: inout DecodingSupport) -> [PolicyTestCase] {
        guard let items = support.sequence(node, "tests") else { return [] }
        let ruleIDs = RuleIDs(rules.map(\.id.value))
        return items.compactMap { item -> PolicyTestCase? in
            guard let entries = support.mapping(item, "a test case") else { return nil }
            let byKey = support.entries(entries, as: TestCaseKey.self, in: "a test case")
            support.require(.name, in: byKey, of: item, "a test case")
            support.require(.expect, in: byKey, of: item, "a test case")
            var testCase = PolicyTestCase(
                name: byKey[.name].flatMap { support.text($0, "name") }?.value ?? "", range: item.range)
            if let context = byKey[.context] {
                testCase.context = ContextDecoding.values(context, &support)
            }
            if let memory = byKey[.memory] {
                testCase.memory = ruleList(memory, "memory", ruleIDs: ruleIDs, &support)
            }
            if let expect = byKey[.expect], let entries = support.mapping(expect, "expect") {
                let expected = support.entries(entries, as: ExpectKey.self, in: "expect")
                if let gate = expected[.gate] { testCase.gate = self.gate(gate, ruleIDs: ruleIDs, &support) }
                testCase.prompts = expected[.prompts].flatMap { ruleList($0, "prompts", ruleIDs: ruleIDs, &support) }
                testCase.notices = expected[.notices].flatMap { ruleList($0, "notices", ruleIDs: ruleIDs, &support) }
                testCase.presentations = expected[.presentations].flatMap {
                    support.oneOrList($0, "presentations", { $1.value }) ?? []
                }
                testCase.grants = expected[.grants].flatMap { support.oneOrList($0, "grants", { $1.value }) ?? [] }
            }
            return testCase
        }
    }

    private static func gate(
        _ node: YAMLNode, ruleIDs: RuleIDs, _ support: inout DecodingSupport
    ) -> PolicyTestCase.ExpectedGate? {
        if let entries = node.mapping, node.tag == nil {
            let byKey = support.entries(entries, as: ExpectedGateKey.self, in: "an expected gate")
            support.require(.action, in: byKey, of: node, "an expected gate")
            guard let actionText = byKey[.action].flatMap({ support.text($0, "action") }),
                let action = support.choice(actionText, "action", as: Action.self)
            else { return nil }
            guard let rule = byKey[.rule].flatMap({ support.text($0, "rule") }) else { return .action(action) }
            checkRule(rule, ruleIDs: ruleIDs, &support)
            return .rule(action, rule.value)
        }
        guard let text = support.text(node, "gate") else { return nil }
        if text.value == "none" { return PolicyTestCase.ExpectedGate.none }
        return support.choice(text, "gate (none or an action)", as: Action.self).map { .action($0) }
    }

    private static func ruleList(
        _ node: YAMLNode, _ what: String, ruleIDs: RuleIDs, _ support: inout DecodingSupport
    ) -> [String]? {
        if node.sequence?.isEmpty == true { return [] }
        return support.oneOrList(node, what) { support, text in
            checkRule(text, ruleIDs: ruleIDs, &support)
            return text.value
        }
    }

    /// The policy's rule ids: a set to check the cases' references against, and the list, for a suggestion. Checked by
    /// a scan, each reference cost a look at every rule: a case whose memory listed 50,000 rules of a policy of 6,000
    /// took 624 ms to read, and an app reads the tests a policy carries at every launch.
    struct RuleIDs {
        let list: [String]
        let known: Set<String>

        init(_ list: [String]) {
            self.list = list
            known = Set(list)
        }
    }

    private static func checkRule(_ text: WrittenText, ruleIDs: RuleIDs, _ support: inout DecodingSupport) {
        guard !ruleIDs.known.contains(text.value) else { return }
        let suggestion = DidYouMean.nearest(to: text.value, in: ruleIDs.list)
        support.error(.policyUnknownRule,
            "no rule has the id \"\(text.value)\"" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? ""),
            at: text.range,
            fixIt: suggestion.flatMap { .naming(text.node, $0, message: "use \"\($0)\"") })
    }
}
