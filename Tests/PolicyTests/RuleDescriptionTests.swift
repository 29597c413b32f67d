import Foundation
@testable import LaunchPolicy
import Testing

@Suite struct RuleDescriptionTests {
    private func describe(_ rules: String, messages: String = "m: {default: \"Please update Lantern to keep going.\"}")
        throws -> [String]
    {
        let result = parse("policy: 1\nmessages: {\(messages)}\nrules:\n\(rules)")
        let policy = try #require(result.usablePolicy, "\(result.diagnostics)")
        return policy.ruleDescriptions.map(\.description)
    }

    @Test func theIssuesExampleReadsAsWritten() throws {
        #expect(try describe("""
              - {id: r, when: {platform: ios, app-version: "< 2.4"}, then: require-update, message: m}
            """) == ["Blocks iOS users below 2.4 and asks them to update: 'Please update Lantern to keep going.'"])
    }

    /// Descriptions quote each rule's own message, found by a scan among a few messages and through a table among
    /// many, the first message of an id in both; a sequence of them makes each when it is reached.
    @Test(arguments: [IDLookup.scanned, IDLookup.scanned + 1, 100])
    func eachDescriptionQuotesItsRulesMessage(messageCount: Int) throws {
        let messages = (0..<messageCount).map { "m\($0): {default: \"Text \($0).\"}" }.joined(separator: ", ")
        let shown = Array((0..<messageCount).reversed()) + [0]
        let rules = shown.enumerated().map { "  - {id: r\($0.offset), then: block, message: m\($0.element)}" }
        let result = parse("policy: 1\nmessages: {\(messages)}\nrules:\n" + rules.joined(separator: "\n"))
        var policy = try #require(result.usablePolicy, "\(result.diagnostics)")
        policy.messages.append(Message(id: "m1", translations: ["default": "Hidden."], range: policy.range))
        let expected = shown.map { "Blocks all users: 'Text \($0).'" }
        #expect(policy.ruleDescriptions.map(\.description) == expected)
        #expect(policy.ruleDescriptions.map(\.rule) == shown.indices.map { "r\($0)" })
        #expect(policy.rules.map { policy.describe($0) } == expected)
        var reached = 0
        let counted = policy.rules.lazy.map { rule in
            reached += 1
            return rule
        }
        var iterator = policy.describing(counted).makeIterator()
        #expect(iterator.next()?.description == expected[0])
        #expect(reached == 1)
    }

    @Test func everyActionHasItsVerb() throws {
        let described = try describe("""
              - {id: a, then: block, message: m}
              - {id: b, when: {platform: [ios, android]}, then: suggest-update, message: m}
              - {id: c, when: {launch: first}, then: notify, message: m, show: every-launch, every: 7d}
              - {id: d, when: {launch: upgrade}, then: present, screen: whats-new}
              - {id: e, when: {platform: ios, original-app-version: "< 40"}, then: grant, entitlements: [premium, no-ads]}
            """)
        #expect(described == [
            "Blocks all users: 'Please update Lantern to keep going.'",
            "Asks iOS and Android users to update, once per app version: 'Please update Lantern to keep going.'",
            "Tells users on their first launch, on every launch, at most every 7 days: 'Please update Lantern to keep going.'",
            "Presents the screen 'whats-new' to users on the first launch after an upgrade, once.",
            "Grants 'premium' and 'no-ads' to iOS users who first bought a build below 40.",
        ])
    }

    @Test(arguments: [
        ("1d", "day"), ("7d", "7 days"), ("36h", "36 hours"), ("90m", "90 minutes"), ("1.5m", "90 seconds"),
        ("2.5s", "2.5 seconds"), ("0.25s", "0.25 seconds"),
        // Valid policies whose counts no Int holds.
        ("100000000000000000000000d", "1e+23 days"), ("1000000000000000000000000000000w", "7e+30 days"),
    ])
    func everyLengthIsToldInItsLargestWholeUnit(every: String, words: String) throws {
        let described = try describe("  - {id: c, then: notify, message: m, show: every-launch, every: \(every)}")
        #expect(described == [
            "Tells all users, on every launch, at most every \(words): 'Please update Lantern to keep going.'",
        ])
    }

    @Test func rangesCountsAndCombinationsReadAsWords() throws {
        let described = try describe("""
              - id: a
                when:
                  app-version: ">= 2.0 < 3"
                  launch-count: ">= 3"
                  days-since-last-launch: "> 30"
                then: block
                message: m
              - id: b
                when:
                  any:
                    - {app-version: "2.4.x"}
                    - {region: [NO, SE]}
                  not: {locale: ja}
                  rollout: "12.5%"
                then: block
                message: m
            """)
        #expect(described[0] == "Blocks users on versions from 2.0 up to but not including 3, on launch number 3 or "
            + "more and back after more than 30 days away: 'Please update Lantern to keep going.'")
        #expect(described[1] == "Blocks users either on version matching '2.4.x' or in NO or SE, except those whose "
            + "language is ja and in a 12.5% rollout: 'Please update Lantern to keep going.'")
    }
}
