import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

/// The launch path (`holds`) and the explanation path (`finding`) walk the same conditions separately; these tests
/// hold them to the same answers, and the deferred findings to what an eager evaluation says.
@Suite struct DeferredFindingTests {
    /// A policy with every kind of entry, nested in all, any and not, with a shared condition.
    static let everyKind = """
        policy: 1
        messages: {m: {default: "m", pt_BR: "m-br"}}
        rules:
          - {id: platform, when: {platform: [ios, ipados]}, then: notify, message: m}
          - {id: versions, when: {app-version: "< 2.4", build: ">= 100", os-version: ">= 16"}, then: notify, message: m}
          - {id: history, when: {previous-version: "2.x", install-version: "< 2", original-app-version: "< 200"}, then: grant, entitlements: [pro]}
          - {id: launch, when: {launch: [upgrade, first], launch-count: ">= 3", launch-source: organic}, then: notify, message: m}
          - {id: days, when: {days-since-last-launch: ">= 7", days-since-install: "< 500"}, then: notify, message: m}
          - {id: place, when: {locale: [pt, de], region: [BR, NO]}, then: notify, message: m}
          - {id: window, when: {date: {from: "2026-11-01T00:00:00Z", until: "2026-12-01T00:00:00Z"}}, then: notify, message: m}
          - {id: rollout, when: {rollout: 40%, platform: ios}, then: notify, message: m}
          - {id: attributes, when: {attributes: {plan: [pro, team], tier: gold}}, then: notify, message: m}
          - id: nested
            when:
              any:
                - all: [{platform: android}, {not: {region: NO}}]
                - &shared {not: {any: [{locale: ja}, {rollout: 10%}]}}
            then: notify
            message: m
          - {id: reused, when: *shared, then: notify, message: m}
        """

    static let contexts: [LaunchContext] = {
        let now = Date(timeIntervalSince1970: 1_795_176_000)
        var contexts = [try! LaunchContext(now: now)]
        for index in 0..<60 {
            let platform = Platform.allCases[index % Platform.allCases.count]
            let launch = LaunchInfo(
                kind: LaunchKind.allCases[index % 4], count: index % 9, previousVersion: index % 3 == 0 ? nil : "2.\(index % 5)",
                installVersion: "1.\(index % 4)", daysSinceLastLaunch: index % 11, daysSinceInstall: index * 13,
                source: LaunchSource.allCases[index % LaunchSource.allCases.count])
            contexts.append(try! LaunchContext(
                platform: platform, appVersion: "2.\(index % 7)", build: index % 5 == 0 ? nil : "\(90 + index)",
                osVersion: "\(14 + index % 5)", originalAppVersion: "\(150 + index)",
                locale: ["pt-BR", "pt_br", "de", "ja", "en"][index % 5], region: ["BR", "no", "JP"][index % 3],
                now: now + Double(index - 30) * 86_400, installID: index % 6 == 0 ? nil : "install-\(index)",
                launch: launch, attributes: index % 2 == 0 ? ["plan": "pro", "tier": "gold"] : ["plan": "free"]))
        }
        return contexts
    }()

    @Test func theLaunchPathAndTheExplanationAgreeOnEveryRule() throws {
        let policy = try policy(Self.everyKind)
        var matchedSomewhere = Set<String>(), failedSomewhere = Set<String>()
        for context in Self.contexts {
            for (index, rule) in policy.rules.enumerated() {
                guard let condition = rule.condition else { continue }
                var fast = ConditionEvaluator(context: context), explained = ConditionEvaluator(context: context)
                (fast.rules, fast.rule) = (policy.rules, index)
                (explained.rules, explained.rule) = (policy.rules, index)
                let holds = fast.holds(condition)
                #expect(holds == explained.finding(condition).holds, "\(rule.id.value)")
                if holds { matchedSomewhere.insert(rule.id.value) } else { failedSomewhere.insert(rule.id.value) }
            }
        }
        // Both answers occur for every rule, so the agreement is not the trivial one.
        #expect(matchedSomewhere == Set(policy.rules.map(\.id.value)))
        #expect(failedSomewhere == Set(policy.rules.map(\.id.value)))
    }

    /// The same over random policies (nested `all`, `any` and `not`, anchors, both versionings) and random launches,
    /// missing fields among them, and through `Policy.evaluate`: each rule's outcome in the explanation, deferred
    /// behind a gate or not, says it matched exactly when the launch path says it holds.
    @Test func theLaunchPathAndTheExplanationAgreeOnRandomPolicies() throws {
        var random = SeededGenerator(seed: 0xDEF0_0001)
        var answers = Set<Bool>()
        for _ in 0..<150 {
            guard let policy = YAMLPolicyParser().parse(Data(RandomPolicies.policy(using: &random).utf8)).usablePolicy
            else { continue }
            for _ in 0..<40 {
                guard let launch = RandomPolicies.launch(using: &random) else { continue }
                let explanation = policy.evaluate(launch.context).explanation
                for (index, rule) in policy.rules.enumerated() {
                    guard let condition = rule.condition else { continue }
                    var fast = ConditionEvaluator(context: launch.context)
                    var explained = ConditionEvaluator(context: launch.context)
                    (fast.rules, fast.rule) = (policy.rules, index)
                    (explained.rules, explained.rule) = (policy.rules, index)
                    let holds = fast.holds(condition)
                    let finding = explained.finding(condition)
                    answers.insert(holds)
                    #expect(holds == finding.holds && holds == explanation[index].matched, """
                        \(rule.id.value) at \(RandomPolicies.described(launch)): holds \(holds), finding \
                        \(finding.holds), explained \(explanation[index].summary)
                        """)
                }
            }
        }
        #expect(answers == [true, false])
    }

    @Test func aDeferredFindingReadsAsTheEagerOne() throws {
        let policy = try policy(Self.everyKind)
        for context in Self.contexts {
            let decision = policy.evaluate(context)
            for (index, explanation) in decision.explanation.enumerated() {
                guard case .notMatched(let deferred) = explanation.outcome else { continue }
                var evaluator = ConditionEvaluator(context: context)
                (evaluator.rules, evaluator.rule) = (policy.rules, index)
                let eager = evaluator.finding(try #require(policy.rules[index].condition))
                #expect(deferred == eager)
                #expect(deferred.key == eager.key && deferred.value == eager.value && deferred.message == eager.message)
                #expect(!deferred.holds && deferred.range == eager.range)
            }
        }
    }

    /// Behind a gate, whether the other rules match is left to the explanation; read, it says what an eager
    /// evaluation says, and the outcome the rule would have had.
    @Test func rulesBehindAGateAreExplainedAsIfEvaluated() throws {
        let gated = try policy(Self.everyKind.replacingOccurrences(of: "rules:\n", with: """
            rules:
              - {id: gate, when: {launch-source: [organic, url]}, then: block, message: m}
              - {id: later-gate, when: {launch-count: ">= 2"}, then: block, message: m}

            """))
        var gatedLaunches = 0
        for context in Self.contexts {
            let decision = gated.evaluate(context)
            if decision.gate != nil { gatedLaunches += 1 }
            // Deciding every rule up front, as a simulation does, gives the same decision.
            #expect(gated.evaluateEveryRule(context) == decision)
            // As a simulation does it, the same directives without memory keys.
            let unkeyed = gated.evaluateEveryRule(context, keyingDirectives: false)
            #expect(unkeyed.shown.map(\.rule) == decision.shown.map(\.rule))
            #expect(unkeyed.shown.map(\.text) == decision.shown.map(\.text))
            #expect(unkeyed.shown.allSatisfy { $0.memoryKey == nil })
            #expect(unkeyed.explanation == decision.explanation)
            for (index, explanation) in decision.explanation.enumerated() {
                var evaluator = ConditionEvaluator(context: context)
                (evaluator.rules, evaluator.rule) = (gated.rules, index)
                let eager = gated.rules[index].condition.map { evaluator.finding($0).holds } ?? true
                #expect(explanation.matched == eager, "\(explanation.rule): \(explanation.summary)")
                guard let gate = decision.gate?.rule, eager, explanation.rule != gate else { continue }
                switch explanation.action {
                case .block, .requireUpdate: #expect(explanation.outcome == .gateAlreadyChosen(by: gate))
                case .grant: #expect(explanation.outcome == .granted)
                case .suggestUpdate, .notify, .present: #expect(explanation.outcome == .hiddenByGate(gate))
                }
            }
        }
        #expect(gatedLaunches > 0 && gatedLaunches < Self.contexts.count)
    }

    /// Behind a gate, the interpreter evaluates the grants' conditions and no others.
    @Test func behindAGateOnlyGrantsAreEvaluated() throws {
        let head = "policy: 1\nmessages: {m: {default: \"m\"}}\nrules:\n"
            + "  - {id: gate, when: {platform: ios}, then: block, message: m}\n"
        let grant = "  - {id: grant, when: {any: [{platform: ios}, {region: [SE]}]}, then: grant, entitlements: [pro]}\n"
        var behind = ""
        for index in 0..<5 {
            behind += "  - {id: note-\(index), when: {region: [SE], not: {launch: first}}, then: notify, message: m}\n"
            behind += "  - {id: gate-\(index), when: {app-version: \"< \(index + 2)\"}, then: block, message: m}\n"
        }
        let context = try LaunchContext(platform: .ios, appVersion: "1.0", region: "SE")
        func evaluated(_ yaml: String) throws -> (Int, Decision) {
            var interpreter = Interpreter(context: context, memory: DisplayMemory())
            let decision = interpreter.decide(try policy(yaml))
            return (interpreter.conditions.evaluatedConditions, decision)
        }
        let (alone, _) = try evaluated(head + grant)
        let (withOthers, decision) = try evaluated(head + behind + grant)
        #expect(withOthers == alone)
        #expect(decision.gate?.rule == "gate" && decision.grants == ["pro"])
        #expect(decision.explanation(of: "note-0")?.outcome == .hiddenByGate("gate"))
        #expect(decision.explanation(of: "gate-0")?.outcome == .gateAlreadyChosen(by: "gate"))
    }

    /// A decision crosses threads; its deferred findings are worked out and kept under a lock.
    @Test func deferredFindingsReadFromManyTasksAgree() async throws {
        let policy = try policy(Self.everyKind)
        let decision = policy.evaluate(Self.contexts[5])
        let expected = decision.explanation.map(\.summary)
        let fresh = policy.evaluate(Self.contexts[5])
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 { group.addTask { fresh.explanation.map(\.summary) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
        #expect(expected.contains { $0.hasPrefix("does not match: ") })
    }

    /// A decision's explanation is built when first read; the decision equals, and hashes as, one that holds the
    /// same explanation written out, and a written explanation replaces it.
    @Test func anExplanationBuiltWhenReadIsAnExplanationLikeAnyOther() throws {
        let policy = try policy(Self.everyKind)
        for context in Self.contexts.prefix(12) {
            let decision = policy.evaluate(context)
            let written = Decision(gate: decision.gate, prompts: decision.prompts, notices: decision.notices,
                presentations: decision.presentations, grants: decision.grants, explanation: decision.explanation)
            #expect(written == decision && written.hashValue == decision.hashValue)
            #expect(decision.explanation.map(\.rule) == policy.rules.map(\.id.value))
            var changed = decision
            changed.explanation.removeLast()
            #expect(changed != decision && changed.explanation.count == policy.rules.count - 1)
            #expect(decision.explanation.count == policy.rules.count)
        }
    }

    /// An `all` draws its rollout bucket last: a user another entry already excludes is told that entry.
    @Test func anAllNamesItsOtherEntriesBeforeItsRollout() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: r, when: {rollout: 0%, platform: android}, then: notify, message: m}
            """)
        let android = policy.evaluate(try LaunchContext(platform: .android, installID: "i"))
        let ios = policy.evaluate(try LaunchContext(platform: .ios, installID: "i"))
        guard case .notMatched(let onAndroid) = android.explanation(of: "r")?.outcome,
            case .notMatched(let onIOS) = ios.explanation(of: "r")?.outcome
        else {
            Issue.record("a 0% rollout matches nobody")
            return
        }
        #expect(onAndroid.key == "rollout")
        #expect(onIOS.key == "platform")
    }

    /// An `any` tries its alternatives that draw a rollout bucket last: one that holds without decides it, and no
    /// digest is made, both on the launch path and in the finding; when none holds, the failures are told in the order
    /// written.
    @Test func anAnyTriesItsOtherEntriesBeforeItsRollout() throws {
        let notAny = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: r, when: {not: {any: [{launch: first, rollout: 100%}, {platform: ios}]}}, then: notify, message: m}
            """)
        let ios = try LaunchContext(platform: .ios, installID: "i", launch: LaunchInfo(kind: .first))
        guard case .notMatched(let finding) = notAny.evaluate(ios).explanation(of: "r")?.outcome,
            case .not(let inner) = finding.reason
        else {
            Issue.record("everyone is in a 100% rollout, so the not fails")
            return
        }
        #expect(inner.key == "platform")
        var evaluator = ConditionEvaluator(context: ios)
        evaluator.rules = notAny.rules
        let anyCondition = try #require(notAny.rules[0].condition)
        let holds = evaluator.holds(anyCondition)
        #expect(!holds)
        // The rule's mapping, not, the mapping under it, any, the second alternative and its entry; drawing the first
        // alternative's bucket too made it seven.
        #expect(evaluator.evaluatedConditions == 6)

        let none = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: r, when: {any: [{rollout: 0%}, {platform: android}]}, then: notify, message: m}
            """)
        guard case .notMatched(let failed) = none.evaluate(ios).explanation(of: "r")?.outcome,
            case .noAlternative(let failures) = failed.reason
        else {
            Issue.record("neither alternative holds on iOS in a 0% rollout")
            return
        }
        #expect(failures.map { $0.key } == ["rollout", "platform"])
    }

    @Test func aFindingCanBeChangedLikeAnyValue() throws {
        let policy = try policy(Self.everyKind)
        let decision = policy.evaluate(try LaunchContext(platform: .android))
        guard case .notMatched(var finding) = decision.explanation(of: "platform")?.outcome else {
            Issue.record("an Android user does not match an iOS rule")
            return
        }
        #expect(finding.message == "platform android is not one of ios, ipados")
        let original = finding
        finding.message = "rewritten"
        #expect(finding.message == "rewritten" && finding.value == "android" && finding.key == "platform")
        #expect(finding != original)
    }
}
