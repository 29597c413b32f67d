import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// `policy.ignored-key` says a key changes nothing: a rule written with it decides as the rule without it, at every
/// launch and whatever was shown before. Rules of every action are written with random keys, those the decoder
/// calls ignored are taken out, and both policies run through the same launches, each remembering what it showed.
@Suite struct IgnoredKeyTests {
    /// Each optional key of a rule, with a value it may take.
    static let keys: [(key: String, values: [String])] = [
        ("message", ["m", "n"]),
        ("url", ["\"https://example.com/update\""]),
        ("entitlements", ["[pro]", "team"]),
        ("screen", ["home", "whats-new"]),
        ("show", ["once", "once-per-version", "every-launch"]),
        ("every", ["12h", "3d"]),
    ]

    static func policy(using random: inout SeededGenerator) -> String {
        var yaml = """
            policy: 1
            store: {ios: "https://example.com/store"}
            messages:
              m: {default: "M"}
              n: {default: "N", ja: "エヌ"}
            rules:

            """
        for index in 0..<Int.random(in: 1...4, using: &random) {
            let action = Action.allCases.randomElement(using: &random)!
            yaml += "  - id: r\(index)\n"
            if Bool.random(using: &random) {
                yaml += "    when: {platform: \(["ios", "android"].randomElement(using: &random)!)}\n"
            }
            yaml += "    then: \(action.rawValue)\n"
            for (key, values) in keys {
                // The keys the action needs, always; the rest now and then.
                let needed = (key == "message" && action.requiresMessage) || (key == "entitlements" && action == .grant)
                    || (key == "screen" && action == .present)
                guard needed || Int.random(in: 0..<3, using: &random) == 0 else { continue }
                // A gate shows on every launch, and says so for any other value.
                let value = key == "show" && action.isGate ? "every-launch" : values.randomElement(using: &random)!
                yaml += "    \(key): \(value)\n"
            }
        }
        return yaml
    }

    @Test func aRuleDecidesAsItDoesWithoutTheKeysItIgnores() throws {
        var random = SeededGenerator(seed: 0x16_0BED)
        var ignored = 0
        let start = Date(timeIntervalSince1970: 1_795_176_000)
        for iteration in 0..<400 {
            let yaml = Self.policy(using: &random)
            let parsed = YAMLPolicyParser().parse(Data(yaml.utf8))
            let policy = try #require(parsed.usablePolicy, "iteration \(iteration): \(parsed.diagnostics)\n\(yaml)")
            let lines = Set(parsed.diagnostics.filter { $0.code == .policyIgnoredKey }.map(\.range.start.line))
            ignored += lines.count
            let kept = yaml.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .filter { !lines.contains($0.offset + 1) }.map(\.element).joined(separator: "\n")
            let without = try #require(YAMLPolicyParser().parse(Data(kept.utf8)).usablePolicy)
            var memories = (DisplayMemory(), DisplayMemory())
            var now = start
            for step in 0..<6 {
                now += [0, 3_600, 13 * 3_600, 2 * 86_400, 8 * 86_400].randomElement(using: &random)!
                let context = try LaunchContext(
                    platform: [.ios, .android].randomElement(using: &random)!,
                    appVersion: ["1.0", "1.0", "2.0"].randomElement(using: &random)!,
                    locale: ["en", "ja"].randomElement(using: &random)!, now: now)
                let written = policy.evaluate(context, memory: memories.0)
                let taken = without.evaluate(context, memory: memories.1)
                #expect(written.shown == taken.shown && written.grants == taken.grants, """
                    iteration \(iteration), launch \(step): \(written.shown) \(written.grants) with the keys, \
                    \(taken.shown) \(taken.grants) without
                    \(yaml)
                    """)
                for directive in written.shown { memories.0.record(directive, at: now) }
                for directive in taken.shown { memories.1.record(directive, at: now) }
            }
        }
        #expect(ignored >= 200, "only \(ignored) keys were ignored")
    }

    /// Each key an action does not use is named once, and is not in the rule: a notice's screen, a presentation's
    /// message, a grant's show and url, a gate's every.
    @Test func eachIgnoredKeyIsNamedAndLeftOut() throws {
        let parsed = YAMLPolicyParser().parse(Data("""
            policy: 1
            messages: {m: {default: "M"}}
            rules:
              - {id: notice, then: notify, message: m, screen: home}
              - {id: screen, then: present, screen: home, message: m}
              - {id: grant, then: grant, entitlements: [pro], show: once, url: "https://example.com"}
              - {id: gate, then: block, message: m, every: 12h, entitlements: [pro]}
            """.utf8))
        let ignored = parsed.diagnostics.filter { $0.code == .policyIgnoredKey }
        #expect(ignored.map(\.message) == [
            "a notify rule does not use screen; it is ignored", "a present rule does not use message; it is ignored",
            "a grant rule does not use show; it is ignored", "a grant rule does not use url; it is ignored",
            "a block rule does not use every; it is ignored", "a block rule does not use entitlements; it is ignored",
        ])
        let rules = try #require(parsed.usablePolicy?.rules)
        #expect(rules[0].screen == nil && rules[1].message == nil && rules[2].url == nil && rules[3].every == nil)
        #expect(rules[2].show == Rule.defaultShow(for: .grant) && rules[3].entitlements.isEmpty)
        #expect(rules[0].message?.value == "m" && rules[1].screen?.value == "home" && rules[2].entitlements.count == 1)
    }
}
