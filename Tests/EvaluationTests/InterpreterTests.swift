import Foundation
@testable import LaunchPolicy
import Testing

/// A policy with one rule of every kind, in an order that exercises precedence.
private let everyAction = """
    policy: 1
    store:
      ios: "itms-apps://ios"
      android: "market://android"
    messages:
      blocked: {default: "Down for maintenance.", de: "Wartung."}
      required: {default: "Update now."}
      suggested: {default: "An update is available."}
      later: {default: "Another update is available."}
      news: {default: "News."}
      tips: {default: "Tips."}
    rules:
      - id: news
        when: {launch: normal}
        then: notify
        message: news
      - id: suggest
        when: {app-version: "< 3"}
        then: suggest-update
        message: suggested
      - id: suggest-later
        when: {app-version: "< 4"}
        then: suggest-update
        message: later
      - id: premium
        when: {original-app-version: "< 40"}
        then: grant
        entitlements: [premium, no-ads]
      - id: required
        when: {app-version: "< 2"}
        then: require-update
        message: required
      - id: maintenance
        when: {attributes: {maintenance: "on"}}
        then: block
        message: blocked
      - id: tour
        when: {launch: first}
        then: present
        screen: tour
      - id: tips
        when: {launch: normal}
        then: notify
        message: tips
      - id: more
        when: {original-app-version: "< 50"}
        then: grant
        entitlements: [no-ads, themes]
    """

@Suite struct PrecedenceTests {
    @Test func withoutGateEveryMatchingRuleIsSortedByAction() throws {
        let decision = try policy(everyAction).evaluate(
            context(["platform": "ios", "app-version": "2.5", "launch": "normal", "original-app-version": "12"]))
        #expect(decision.gate == nil)
        #expect(decision.prompts.map(\.rule) == ["suggest"])
        #expect(decision.notices.map(\.rule) == ["news", "tips"])
        #expect(decision.presentations.isEmpty)
        #expect(decision.grants == ["premium", "no-ads", "themes"])
        #expect(decision.explanation(of: "suggest-later")?.outcome == .promptAlreadyChosen(by: "suggest"))
        #expect(decision.prompts.first?.url == "itms-apps://ios")
        #expect(decision.prompts.first?.text == "An update is available.")
    }

    @Test func theFirstGateInFileOrderWinsWhateverItsAction() throws {
        let policy = try policy(everyAction)
        let both = try policy.evaluate(context(["platform": "ios", "app-version": "1.0"], attributes: ["maintenance": "on"]))
        #expect(both.gate?.rule == "required")
        #expect(both.gate?.action == .requireUpdate)
        #expect(both.explanation(of: "maintenance")?.outcome == .gateAlreadyChosen(by: "required"))

        let blockOnly = try policy.evaluate(context(["platform": "ios", "app-version": "2.0"], attributes: ["maintenance": "on"]))
        #expect(blockOnly.gate?.rule == "maintenance")
        #expect(blockOnly.gate?.url == nil, "a block has no update URL")
        #expect(blockOnly.gate?.memoryKey == nil, "gates show every launch and are never remembered")
    }

    @Test func aGateHidesPromptsNoticesAndPresentationsButNotGrants() throws {
        let decision = try policy(everyAction).evaluate(
            context(["platform": "android", "app-version": "1.5", "launch": "first", "original-app-version": "45"]))
        #expect(decision.gate?.rule == "required")
        #expect(decision.gate?.url == "market://android")
        #expect(decision.prompts.isEmpty && decision.notices.isEmpty && decision.presentations.isEmpty)
        #expect(decision.grants == ["no-ads", "themes"])
        #expect(decision.shown.map(\.rule) == ["required"])
        for rule in ["suggest", "suggest-later", "tour"] {
            #expect(decision.explanation(of: rule)?.outcome == .hiddenByGate("required"), "\(rule)")
        }
        #expect(decision.explanation(of: "more")?.outcome == .granted)
    }

    @Test func theExplanationNamesTheFirstFailingEntryAndItsValue() throws {
        let decision = try policy(everyAction).evaluate(context(["platform": "ios", "app-version": "2.4.1"]))
        guard case .notMatched(let finding) = decision.explanation(of: "required")?.outcome else {
            Issue.record("required should not match")
            return
        }
        #expect(finding.message == "app-version 2.4.1 does not satisfy < 2")
        #expect(finding.key == "app-version")
        #expect(finding.value == "2.4.1")
        #expect(decision.explanation(of: "required")?.summary == "does not match: app-version 2.4.1 does not satisfy < 2")
        #expect(decision.explanation(of: "news")?.summary == "does not match: launch is not in the context")
        #expect(decision.explanation.map(\.rule) == ["news", "suggest", "suggest-later", "premium", "required",
            "maintenance", "tour", "tips", "more"])
    }

    @Test func aRuleWithoutConditionAlwaysMatches() throws {
        let decision = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: always, then: notify, message: m}
            """).evaluate(context([:]))
        #expect(decision.notices.map(\.rule) == ["always"])
    }

    /// Each rule shows its own message's text, looked up by a scan in a policy of a few messages and through a table
    /// in one of many, the first message of an id in both (which only a policy made in code can repeat), and a
    /// message that is not there shows none.
    @Test(arguments: [IDLookup.scanned, IDLookup.scanned + 1, 200])
    func eachRuleShowsItsOwnMessagesText(messageCount: Int) throws {
        let messages = (0..<messageCount).map { "  m\($0): {default: \"text \($0)\", de: \"Text \($0)\"}" }
        // Every message once, from the last to the first, then the first again.
        let shown = Array((0..<messageCount).reversed()) + [0]
        let rules = shown.enumerated().map { "  - {id: r\($0.offset), then: notify, message: m\($0.element)}" }
        var policy = try policy("policy: 1\nmessages:\n" + messages.joined(separator: "\n") + "\nrules:\n"
            + rules.joined(separator: "\n"))
        #expect(policy.messages.count == messageCount)
        let german = policy.evaluate(try LaunchContext(platform: .ios, locale: "de-AT"))
        #expect(german.notices.map(\.text) == shown.map { "Text \($0)" })
        // A second message of an id the first has, which the first hides; a rule whose message is not there.
        policy.messages.append(Message(id: "m1", translations: ["default": "hidden"], range: policy.range))
        policy.rules[0].message?.value = "missing"
        let edited = policy.evaluate(try LaunchContext(platform: .ios))
        #expect(edited.notices.first?.text == nil)
        #expect(edited.notices.dropFirst().map(\.text) == shown.dropFirst().map { "text \($0)" })
    }

    /// An `attributes` entry finds the context's values, compared one by one among a few and looked up by hash
    /// among many, and says which attribute is missing.
    @Test(arguments: [2, LaunchContext.scannedAttributes, LaunchContext.scannedAttributes + 1, 40])
    func attributesAreFoundHoweverManyTheContextSets(count: Int) throws {
        let last = count - 1
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: last, when: {attributes: {a\(last): v\(last)}}, then: notify, message: m}
              - {id: both, when: {attributes: {a0: v0, a\(last): [x, v\(last)]}}, then: notify, message: m}
              - {id: other-value, when: {attributes: {a\(last): v0x}}, then: notify, message: m}
              - {id: missing, when: {attributes: {a\(count): v\(count)}}, then: notify, message: m}
              - {id: a-prefix, when: {attributes: {a: v0}}, then: notify, message: m}
            """)
        let attributes = Dictionary(uniqueKeysWithValues: (0..<count).map { ("a\($0)", "v\($0)") })
        let decision = policy.evaluate(try context([:], attributes: attributes))
        #expect(decision.shownRules == ["last", "both"])
        guard case .notMatched(let missing) = decision.explanation(of: "missing")?.outcome else {
            Issue.record("missing should not match")
            return
        }
        #expect(missing.message == "attribute a\(count) is not in the context")
        #expect(decision.explanation(of: "other-value")?.summary
            == "does not match: attribute a\(last) v\(last) is not v0x")
    }

    /// A decision grants each entitlement once, in order of first appearance, however many there are: a later rule
    /// and a rule's own list repeat names the earlier ones gave.
    @Test(arguments: [10, Interpreter.scannedEntitlements, Interpreter.scannedEntitlements + 1, 100])
    func grantsAreNamedOnceInOrderOfFirstAppearance(count: Int) throws {
        let first = (0..<count).map { "e\($0)" } + ["e0"]
        let second = (0..<count).reversed().map { "e\($0)" } + ["new", "e1", "new"]
        let decision = try policy("""
            policy: 1
            rules:
              - {id: a, then: grant, entitlements: [\(first.joined(separator: ", "))]}
              - {id: b, then: grant, entitlements: [\(second.joined(separator: ", "))]}
            """).evaluate(context([:]))
        #expect(decision.grants == (0..<count).map { "e\($0)" } + ["new"])
    }

    @Test func iPadOSFallsBackToTheIOSStoreAndARuleURLWins() throws {
        let policy = try policy("""
            policy: 1
            store: {ios: "itms-apps://ios"}
            messages: {m: {default: "m"}}
            rules:
              - {id: plain, then: suggest-update, message: m}
              - {id: own, then: require-update, message: m, url: "https://example.com/update"}
            """)
        #expect(try policy.evaluate(context(["platform": "ipados"])).gate?.url == "https://example.com/update")
        var withoutGate = policy
        withoutGate.rules.removeLast()
        #expect(try withoutGate.evaluate(context(["platform": "ipados"])).prompts.first?.url == "itms-apps://ios")
        #expect(try withoutGate.evaluate(context(["platform": "android"])).prompts.first?.url == nil)
    }
}

@Suite struct CombinationTests {
    private let combined = """
        policy: 1
        messages: {m: {default: "m"}}
        rules:
          - id: r
            when:
              any:
                - {platform: android, build: "< 120"}
                - {platform: ios, not: {region: CN}}
            then: notify
            message: m
        """

    @Test(arguments: [
        (["platform": "android", "build": "119"], true),
        (["platform": "android", "build": "120"], false),
        (["platform": "ios", "region": "no"], true),
        (["platform": "ios", "region": "cn"], false),
        (["platform": "ios"], true),
        (["platform": "macos"], false),
    ])
    func anyAllAndNot(values: [String: String], matches: Bool) throws {
        let decision = try policy(combined).evaluate(context(values))
        #expect(decision.explanation(of: "r")?.matched == matches)
    }

    @Test func failuresOfCombinationsSayWhy() throws {
        let policy = try policy(combined)
        guard case .notMatched(let excluded) = try policy.evaluate(context(["platform": "ios", "region": "CN"])).explanation[0].outcome,
            case .notMatched(let neither) = try policy.evaluate(context(["platform": "macos"])).explanation[0].outcome
        else {
            Issue.record("both should fail")
            return
        }
        #expect(excluded.message.contains("not excludes it: region CN is CN"))
        #expect(neither.message == "none of the 2 alternatives of any holds: platform macos is not android; platform macos is not ios")
    }
}
